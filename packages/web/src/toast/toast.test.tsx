import { act, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { renderWithProviders } from "../testing";
import { type ToastSeverity, toast, toastApiError } from ".";

const SEVERITIES: ToastSeverity[] = ["info", "success", "warn", "error", "secondary", "contrast"];

function toastElement(text: string): HTMLElement {
  const element = screen.getByText(text).closest<HTMLElement>(".mantine-Notification-root");
  if (!element) throw new Error(`No toast holds "${text}"`);
  return element;
}

describe("toast", () => {
  it.each(SEVERITIES)("shows a %s toast with summary and detail", async (severity) => {
    renderWithProviders(<p>page</p>);
    act(() => {
      toast({ severity, summary: `${severity} summary`, detail: `${severity} detail` });
    });
    expect(await screen.findByText(`${severity} summary`)).toBeInTheDocument();
    const element = toastElement(`${severity} detail`);
    expect(element).toHaveAttribute("data-severity", severity);
    expect(within(element).getByRole("button", { name: "Close notification" })).toBeInTheDocument();
  });

  it("gives each severity its own colour", async () => {
    renderWithProviders(<p>page</p>);
    const colours = new Set<string>();
    for (const severity of SEVERITIES) {
      act(() => {
        toast.clear();
        toast({ severity, detail: `colour ${severity}` });
      });
      await screen.findByText(`colour ${severity}`);
      colours.add(toastElement(`colour ${severity}`).style.getPropertyValue("--notification-color"));
    }
    expect(colours.size).toBe(SEVERITIES.length);
  });

  it("hides the close button when closable is false", async () => {
    renderWithProviders(<p>page</p>);
    act(() => {
      toast({ severity: "warn", detail: "Cannot be dismissed", closable: false });
    });
    await screen.findByText("Cannot be dismissed");
    const element = toastElement("Cannot be dismissed");
    expect(within(element).queryByRole("button")).not.toBeInTheDocument();
  });

  it("closes by itself after its life time", async () => {
    renderWithProviders(<p>page</p>);
    act(() => {
      toast.success("Saved", { life: 50 });
    });
    expect(await screen.findByText("Saved")).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    expect(screen.queryByText("Saved")).not.toBeInTheDocument();
  });

  it("shows the server's message for a failed call", async () => {
    renderWithProviders(<p>page</p>);
    act(() => {
      toastApiError(new ApiError({ status: 409, message: "That email is already registered" }), "Not saved");
    });
    expect(await screen.findByText("That email is already registered")).toBeInTheDocument();
    expect(screen.getByText("Not saved")).toBeInTheDocument();
    expect(toastElement("Not saved")).toHaveAttribute("data-severity", "error");
  });
});
