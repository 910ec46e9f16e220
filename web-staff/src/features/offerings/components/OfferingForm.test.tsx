import { ApiError } from "@gym/web/api";
import { renderWithProviders } from "@gym/web/testing";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { newOfferingValues } from "../api/forms";
import type { OfferingBody, OfferingOptions } from "../api/offerings";
import { OfferingForm } from "./OfferingForm";

const options: OfferingOptions = {
  enable_offerings: true,
  can_manage: true,
  types: [
    { value: "24_7", label: "24/7" },
    { value: "limited_access", label: "Limited Hours" },
  ],
  billing_frequencies: [{ value: "weekly", label: "Weekly" }],
  term_units: [{ value: "months", label: "Months" }],
  gyms: [
    { id: "g1", name: "Ponsonby" },
    { id: "g2", name: "Newmarket" },
  ],
};

function renderForm(onSubmit = vi.fn(async (_body: OfferingBody) => undefined)) {
  const result = renderWithProviders(
    <OfferingForm
      options={options}
      initialValues={newOfferingValues()}
      submitLabel="Create offering"
      onSubmit={onSubmit}
    />,
  );
  return { ...result, onSubmit };
}

async function chooseType(user: ReturnType<typeof renderWithProviders>["user"], label: string) {
  await user.click(screen.getByRole("combobox", { name: "Type" }));
  await user.click(await screen.findByRole("option", { name: label }));
}

const rows = () => screen.getAllByRole("group", { name: /Hours row/ });
const setTime = (row: HTMLElement, label: "Opens" | "Closes", value: string) =>
  fireEvent.change(within(row).getByLabelText(label), { target: { value } });

describe("offering form", () => {
  it("shows the spec's messages and scrolls smoothly to the first invalid field", async () => {
    const scroll = vi.spyOn(Element.prototype, "scrollIntoView");
    const { user, onSubmit } = renderForm();
    await user.click(screen.getByRole("button", { name: "Create offering" }));
    expect(await screen.findAllByText("Value is required")).toHaveLength(2);
    expect(onSubmit).not.toHaveBeenCalled();
    await waitFor(() => expect(scroll).toHaveBeenCalledWith({ behavior: "smooth", block: "center" }));
    expect(screen.getByRole("textbox", { name: "Name" })).toHaveFocus();
  });

  it("starts Limited Hours with seven empty day rows, Monday to Sunday", async () => {
    const { user } = renderForm();
    expect(screen.queryByRole("group", { name: /Hours row/ })).not.toBeInTheDocument();
    await chooseType(user, "Limited Hours");
    expect(rows()).toHaveLength(7);
    expect(
      rows().map((row) => (within(row).getByRole("combobox", { name: "Day" }) as HTMLInputElement).value),
    ).toEqual(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]);
    expect((within(rows()[0]).getByLabelText("Opens") as HTMLInputElement).value).toBe("");
  });

  it("needs a gym when not for all gyms, a day when hours are mandated, and close after open", async () => {
    const { user, onSubmit } = renderForm();
    await user.type(screen.getByRole("textbox", { name: "Name" }), "Off-Peak");
    await chooseType(user, "Limited Hours");
    await user.click(screen.getByRole("switch", { name: /Available at all gyms/ }));
    await user.click(screen.getByRole("checkbox", { name: /Hours mandated/ }));
    await user.click(screen.getByRole("button", { name: "Create offering" }));
    expect(await screen.findByText("Select at least one gym")).toBeInTheDocument();
    expect(screen.getByText("Add at least one day")).toBeInTheDocument();

    setTime(rows()[1], "Opens", "10:00");
    setTime(rows()[1], "Closes", "09:00");
    setTime(rows()[2], "Opens", "06:00");
    await user.click(screen.getByRole("button", { name: "Create offering" }));
    expect(await within(rows()[1]).findByText("Close time must be after open time")).toBeInTheDocument();
    expect(within(rows()[2]).getByText("Value is required")).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("sends only the days with hours, and puts the server's messages on those rows", async () => {
    const onSubmit = vi.fn(async (_body: OfferingBody) => {
      throw new ApiError({
        status: 422,
        message: "Close time must be after open time",
        errors: { "hours.1.close_at": ["Close time must be after open time"], name: ["That name is taken"] },
      });
    });
    const { user } = renderForm(onSubmit);
    await user.type(screen.getByRole("textbox", { name: "Name" }), "  Early Birds ");
    await chooseType(user, "Limited Hours");
    setTime(rows()[0], "Opens", "05:30");
    setTime(rows()[0], "Closes", "09:00");
    setTime(rows()[2], "Opens", "05:30");
    setTime(rows()[2], "Closes", "09:00");
    await user.click(screen.getByRole("button", { name: "Create offering" }));

    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0][0]).toEqual({
      name: "Early Birds",
      description: null,
      type: "limited_access",
      all_gyms_access: true,
      gyms: [],
      mandated: false,
      hours_mandated: false,
      prices_mandated: false,
      hours: [
        { id: null, day: 1, open_at: "05:30", close_at: "09:00" },
        { id: null, day: 3, open_at: "05:30", close_at: "09:00" },
      ],
    });
    // The server's second row is the form's third (Wednesday).
    expect(await within(rows()[2]).findByText("Close time must be after open time")).toBeInTheDocument();
    expect(screen.getByText("That name is taken")).toBeInTheDocument();
  });

  it("sends no hours for a 24/7 offering and the chosen gyms", async () => {
    const { user, onSubmit } = renderForm();
    await user.type(screen.getByRole("textbox", { name: "Name" }), "Anytime");
    await chooseType(user, "24/7");
    await user.click(screen.getByRole("switch", { name: /Available at all gyms/ }));
    await user.click(screen.getByRole("combobox", { name: "Gyms" }));
    await user.click(await screen.findByRole("option", { name: "Newmarket" }));
    await user.click(screen.getByRole("button", { name: "Create offering" }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0][0]).toMatchObject({
      type: "24_7",
      all_gyms_access: false,
      gyms: ["g2"],
      hours: [],
    });
  });
});
