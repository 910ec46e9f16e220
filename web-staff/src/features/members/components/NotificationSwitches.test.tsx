import { renderWithProviders } from "@gym/web/testing";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { NotificationSwitches } from "./NotificationSwitches";

describe("the member's notification switches on the staff member page", () => {
  it("shows each switch on or off, with no control to change it", () => {
    renderWithProviders(
      <NotificationSwitches
        member={{
          email_notifications_enabled: true,
          payment_reminders: false,
          push_notifications_enabled: true,
        }}
      />,
    );
    const items = screen.getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Email notifications.*On$/),
      expect.stringMatching(/^Payment reminders.*Off$/),
      expect.stringMatching(/^Push notifications.*On$/),
    ]);
    expect(within(items[1]).getByText("Off")).toBeInTheDocument();
    expect(screen.queryByRole("switch")).not.toBeInTheDocument();
    expect(screen.queryByRole("checkbox")).not.toBeInTheDocument();
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
    expect(
      screen.getByText("Only the member can change these, on their membership page."),
    ).toBeInTheDocument();
  });
});
