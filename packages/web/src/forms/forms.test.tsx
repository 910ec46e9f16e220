import { Button, TextInput } from "@mantine/core";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../api/client";
import { renderWithProviders } from "../testing";
import {
  applyServerErrors,
  emailAddress,
  MESSAGES,
  requiredText,
  submitHandler,
  useLazyZodForm,
  useZodForm,
  z,
} from ".";

const schema = z.object({
  name: requiredText(),
  email: emailAddress(),
  address: z.object({ city: z.string() }),
});

function Form({ action }: { action: (values: z.output<typeof schema>) => Promise<unknown> }) {
  const form = useZodForm({ schema, initialValues: { name: "", email: "", address: { city: "" } } });
  return (
    <form noValidate onSubmit={submitHandler(form, action, { errorSummary: "Not saved" })}>
      <TextInput label="Name" key={form.key("name")} {...form.getInputProps("name")} />
      <TextInput label="Email" key={form.key("email")} {...form.getInputProps("email")} />
      <TextInput label="City" key={form.key("address.city")} {...form.getInputProps("address.city")} />
      <Button type="submit">Save</Button>
    </form>
  );
}

describe("form helpers", () => {
  it("trims text before the required check", () => {
    expect(requiredText().safeParse("   ").error?.issues[0].message).toBe(MESSAGES.required);
    expect(requiredText().parse("  Ana ")).toBe("Ana");
    expect(emailAddress().safeParse("nope").error?.issues[0].message).toBe(MESSAGES.email);
    expect(emailAddress().safeParse("").error?.issues[0].message).toBe(MESSAGES.required);
  });

  it("maps a 422's errors onto the form fields, with a field map and leftovers", () => {
    const setErrors = vi.fn();
    const form = { setErrors, getValues: () => ({ name: "", email: "", address: { city: "" } }) };
    const error = new ApiError({
      status: 422,
      message: "Invalid",
      errors: { name: ["Value is required", "second"], town: ["Unknown town"], plan: ["Pick a plan"] },
    });
    const result = applyServerErrors(form, error, { town: "address.city" });
    expect(setErrors).toHaveBeenCalledWith({ name: "Value is required", "address.city": "Unknown town" });
    expect(result).toEqual({ applied: true, unmatched: ["Pick a plan"] });
    expect(applyServerErrors(form, new ApiError({ status: 500, message: "x" }))).toEqual({
      applied: false,
      unmatched: [],
    });
  });

  it("shows validation messages and scrolls to the first invalid field", async () => {
    const scroll = vi.spyOn(Element.prototype, "scrollIntoView");
    const action = vi.fn(async () => {});
    const { user } = renderWithProviders(<Form action={action} />);
    await user.type(screen.getByLabelText("Email"), "not-an-email");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText(MESSAGES.required)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.email)).toBeInTheDocument();
    expect(action).not.toHaveBeenCalled();
    await waitFor(() => expect(scroll).toHaveBeenCalledWith({ behavior: "smooth", block: "center" }));
    expect(scroll.mock.contexts[0]).toBe(screen.getByLabelText("Name"));
    scroll.mockRestore();
  });

  it("submits trimmed values and puts the server's 422 errors on the fields", async () => {
    const action = vi.fn(async () => {
      throw new ApiError({
        status: 422,
        message: "The given data was invalid.",
        errors: { email: ["That email is already registered"] },
      });
    });
    const { user } = renderWithProviders(<Form action={action} />);
    await user.type(screen.getByLabelText("Name"), "  Ana  ");
    await user.type(screen.getByLabelText("Email"), "ana@example.nz");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("That email is already registered")).toBeInTheDocument();
    expect(action).toHaveBeenCalledWith({ name: "Ana", email: "ana@example.nz", address: { city: "" } });
    expect(screen.getByLabelText("Email")).toHaveAttribute("aria-invalid", "true");
  });

  it("shows any other failure as a toast with the server's message", async () => {
    const action = vi.fn(async () => {
      throw new ApiError({ status: 409, message: "Someone else changed this gym" });
    });
    const { user } = renderWithProviders(<Form action={action} />);
    await user.type(screen.getByLabelText("Name"), "Ana");
    await user.type(screen.getByLabelText("Email"), "ana@example.nz");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Someone else changed this gym")).toBeInTheDocument();
    expect(screen.getByText("Not saved")).toBeInTheDocument();
  });

  it("a form whose schema is imported later: a submit before it arrives waits, then checks as usual", async () => {
    let arrive: (value: typeof schema) => void = () => {};
    const loadSchema = vi.fn(() => new Promise<typeof schema>((done) => (arrive = done)));
    const action = vi.fn(async () => {});
    function LazyForm() {
      const form = useLazyZodForm({
        loadSchema,
        initialValues: { name: "", email: "", address: { city: "" } },
      });
      return (
        <form noValidate onSubmit={submitHandler(form, action)}>
          <TextInput label="Name" key={form.key("name")} {...form.getInputProps("name")} />
          <TextInput label="Email" key={form.key("email")} {...form.getInputProps("email")} />
          <Button type="submit">Save</Button>
        </form>
      );
    }
    const { user } = renderWithProviders(<LazyForm />);
    expect(loadSchema).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.queryByText(MESSAGES.required)).not.toBeInTheDocument();
    arrive(schema);
    expect(await screen.findAllByText(MESSAGES.required)).toHaveLength(2);
    expect(action).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText("Name"), "  Ana ");
    await user.type(screen.getByLabelText("Email"), "ana@example.nz");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() =>
      expect(action).toHaveBeenCalledWith({ name: "Ana", email: "ana@example.nz", address: { city: "" } }),
    );
    expect(loadSchema).toHaveBeenCalledTimes(1);
  });
});
