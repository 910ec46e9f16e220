import {
  jsonResponse,
  quoteFixture as quote,
  renderWithProviders,
  subscriptionFixture as subscription,
} from "@gym/web/testing";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { mockApi } from "../../../app/test-support";
import type { Subscription } from "../api/memberships";
import { SubscriptionCard } from "./SubscriptionCard";

const preview = (breakFee: number) => ({
  immediate: false,
  takes_effect_on: "2026-11-25",
  undo_cancellation_until: "2026-11-25",
  within_term: true,
  in_cooling_off: breakFee === 0,
  remaining_term_value: 82_000,
  break_fee_basis_points: 2500,
  break_fee: breakFee,
  formatted_break_fee: `$${(breakFee / 100).toFixed(2)}`,
  // Core's quote of the fee as charged: 2.5 % + 30¢ card surcharge on top.
  break_fee_charge: breakFee
    ? quote({
        kind: "break_fee",
        title: "Break fee",
        amount: breakFee,
        formatted_amount: `$${(breakFee / 100).toFixed(2)}`,
        surcharge: 543,
        formatted_surcharge: "$5.43",
        total: breakFee + 543,
        formatted_total: `$${((breakFee + 543) / 100).toFixed(2)}`,
      })
    : null,
});

const noActions: Subscription["actions"] = {
  pause: false,
  remove_pause: false,
  cancel: false,
  undo_cancellation: false,
  start_now: false,
  manual_payment: false,
};

describe("the membership card", () => {
  it("states the break fee as charged (surcharge included, issue 34 item 5) before a term member is cancelled, and sends the reasons", async () => {
    const cancelled = subscription({
      is_cancelled: true,
      cancelled_at: "2026-11-23T00:00:00Z",
      cancellation_effective_at: "2026-11-25T11:00:00Z",
      undo_cancellation_until: "2026-11-25T11:00:00Z",
      undo_cancellation_possible: true,
    });
    const fetch = mockApi({
      "GET /api/subscriptions/s-1/cancellation-preview": preview(20_500),
      "POST /api/subscriptions/s-1/cancel": () => jsonResponse({ data: cancelled }),
    });
    const onChanged = vi.fn();
    renderWithProviders(<SubscriptionCard subscription={subscription()} canChange onChanged={onChanged} />);
    const user = userEvent.setup();
    expect(screen.getByText("Active")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    const dialog = await screen.findByRole("dialog", { name: "Cancel membership" });
    expect(
      await within(dialog).findByText(
        /A break fee of \$205.00 is charged .*plus a \$5.43 card surcharge.*pays \$210.43 from Visa •••• 4242/,
      ),
    ).toBeInTheDocument();
    // The way out says what it keeps (a second "Cancel" would read as the action).
    expect(within(dialog).getByRole("button", { name: "Keep the membership" })).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Keep as is" })).not.toBeInTheDocument();
    await user.click(within(dialog).getAllByLabelText("Reasons")[0] as HTMLElement);
    await user.click(await screen.findByRole("option", { name: "Moving away" }));
    await user.click(within(dialog).getByRole("button", { name: "Cancel and charge $210.43" }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledWith(cancelled));
    const sent = fetch.calls.find((c) => c.method === "POST");
    expect(sent?.body).toEqual({ immediate: false, cancellation_reasons: ["Moving away"] });
  });

  it("offers undo (not cancel or pause) while a cancellation can still be undone, and nothing to trainers", () => {
    const cancelled = subscription({
      is_cancelled: true,
      undo_cancellation_possible: true,
      cancellation_effective_at: "2026-11-25T11:00:00Z",
      card_colour: "green",
      actions: { ...noActions, undo_cancellation: true, manual_payment: true },
    });
    const { unmount } = renderWithProviders(
      <SubscriptionCard subscription={cancelled} canChange onChanged={() => {}} />,
    );
    expect(screen.getByRole("button", { name: "Undo cancellation" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Cancel" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Pause" })).not.toBeInTheDocument();
    // Effective 26/11 (Auckland): the last day is 25/11.
    expect(screen.getByText("Cancelling: last day 25/11/2026")).toBeInTheDocument();
    unmount();
    renderWithProviders(
      <SubscriptionCard subscription={subscription()} canChange={false} onChanged={() => {}} />,
    );
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });

  it("offers exactly the actions the answer offers, whatever the other fields say", () => {
    const everything = subscription({
      pause_start_at: "2026-11-01T11:00:00.000Z",
      is_cancelled: true,
      actions: {
        pause: true,
        remove_pause: true,
        cancel: true,
        undo_cancellation: true,
        start_now: true,
        manual_payment: true,
      },
    });
    const { unmount } = renderWithProviders(
      <SubscriptionCard subscription={everything} canChange onChanged={() => {}} />,
    );
    expect(screen.getAllByRole("button").map((b) => b.textContent)).toEqual([
      "Pause",
      "Remove the pause",
      "Start now",
      "Record a payment",
      "Cancel",
      "Undo cancellation",
    ]);
    unmount();
    renderWithProviders(
      <SubscriptionCard subscription={subscription({ actions: noActions })} canChange onChanged={() => {}} />,
    );
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });

  it("starts an upcoming membership today once confirmed", async () => {
    const started = subscription({ upcoming_state: null });
    mockApi({
      "GET /api/subscriptions/s-1/start-early-data": {
        allowed: true,
        start_date: "2026-11-20",
        billing_date: "2026-11-20",
        current_start_date: "2026-12-01",
        first_payment: null,
      },
      "POST /api/subscriptions/s-1/start-now": () => jsonResponse({ data: started }),
    });
    const onChanged = vi.fn();
    renderWithProviders(
      <SubscriptionCard
        subscription={subscription({
          upcoming_state: "upcoming",
          actions: { ...noActions, start_now: true },
        })}
        canChange
        onChanged={onChanged}
      />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Start now" }));
    const dialog = await screen.findByRole("dialog", { name: "Start the membership today" });
    expect(await within(dialog).findByText(/Starts 20\/11\/2026 instead of 1\/12\/2026/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Start today" }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledWith(started));
    expect(await screen.findByText("Membership started today")).toBeInTheDocument();
  });

  it("refuses a pause longer than the days left, with the server's message under the field", async () => {
    const fetch = mockApi({
      "POST /api/subscriptions/s-1/pause": () =>
        jsonResponse(
          {
            message: "Only 5 pause days are left.",
            errors: { pause_end_at: ["Only 5 pause days are left."] },
            error: "validation_failed",
          },
          422,
        ),
    });
    renderWithProviders(
      <SubscriptionCard
        subscription={subscription({ pause_days_remaining: 5 })}
        canChange
        onChanged={() => {}}
      />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Pause" }));
    const dialog = await screen.findByRole("dialog", { name: "Pause membership" });
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Keep as is" })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Pause membership" }));
    expect(await within(dialog).findAllByText("Value is required")).toHaveLength(2);
    // One convention on both sites: the first and the last paused day, both included.
    await user.type(within(dialog).getByLabelText(/First day/), "01/12/2026");
    await user.type(within(dialog).getByLabelText(/Last day/), "14/12/2026");
    await user.click(within(dialog).getByRole("heading", { name: "Pause membership" }));
    expect(
      await within(dialog).findByText("Back on 15/12/2026. Uses 14 of 5 pause days."),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Pause membership" }));
    expect(await within(dialog).findByText("Only 5 pause days are left.")).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.method === "POST")?.body).toEqual({
      pause_start_at: "2026-12-01",
      pause_end_at: "2026-12-15",
    });
    // The server's message about the day back is put on the last-day field.
    expect(within(dialog).getByLabelText(/Last day/)).toHaveAttribute("aria-invalid", "true");
  });
});

describe("the card's money figures are core's quote of the next money event (issue 34)", () => {
  it("a pay-in-full transfer not yet received reads 'Awaiting bank transfer', never 'Paid in full' (item 6)", () => {
    const pif = subscription({
      payment_method: "pif",
      is_term_membership: false,
      pif_ends_at: "2027-10-01T11:00:00.000Z",
      balance_owing: 29_900,
      formatted_balance_owing: "$299.00",
      next_charge: quote({
        kind: "awaiting_transfer",
        title: "Awaiting bank transfer",
        amount: 29_900,
        surcharge: 0,
        total: 29_900,
        formatted_total: "$299.00",
        payment_method: { type: "bank_transfer", label: "Bank transfer" },
      }),
    });
    renderWithProviders(<SubscriptionCard subscription={pif} canChange={false} onChanged={() => {}} />);
    expect(screen.getByText("Awaiting bank transfer")).toBeInTheDocument();
    expect(screen.getByText("$299.00 by bank transfer, not yet received")).toBeInTheDocument();
    expect(screen.queryByText("Paid in full")).not.toBeInTheDocument();
    expect(screen.queryByText("Paid in full until")).not.toBeInTheDocument();
  });

  it("shows the credit held and the next payment after it, surcharge included (item 11)", () => {
    const withCredit = subscription({
      credit_balance: 600,
      formatted_credit_balance: "$6.00",
      next_charge: quote({
        amount: 2400,
        credit_applied: 600,
        formatted_credit_applied: "$6.00",
        surcharge: 75,
        formatted_surcharge: "$0.75",
        total: 1875,
        formatted_total: "$18.75",
        credit_balance: 600,
      }),
    });
    renderWithProviders(
      <SubscriptionCard subscription={withCredit} canChange={false} onChanged={() => {}} />,
    );
    expect(
      screen.getByText("$18.75 on 24/11/2026 incl. $0.75 surcharge · Visa •••• 4242"),
    ).toBeInTheDocument();
    expect(screen.getByText("$6.00, $6.00 off the next payment")).toBeInTheDocument();
  });

  it("one owed figure: the balance as it will be retried, its surcharge split out, never a second bare figure (tour item 5)", () => {
    const owing = subscription({
      balance_owing: 4800,
      formatted_balance_owing: "$48.00",
      next_charge: quote({
        kind: "balance_owing",
        title: "Payment owed",
        amount: 4800,
        formatted_amount: "$48.00",
        surcharge: 150,
        formatted_surcharge: "$1.50",
        total: 4950,
        formatted_total: "$49.50",
        balance_owing: 4800,
        formatted_balance_owing: "$48.00",
      }),
    });
    renderWithProviders(<SubscriptionCard subscription={owing} canChange={false} onChanged={() => {}} />);
    expect(screen.getByText("Payment owed")).toBeInTheDocument();
    expect(
      screen.getByText("$49.50 ($48.00 and a $1.50 card surcharge) on 24/11/2026 · Visa •••• 4242"),
    ).toBeInTheDocument();
    expect(screen.queryByText("Balance owing")).not.toBeInTheDocument();
    expect(screen.queryByText("$48.00")).not.toBeInTheDocument();
  });

  it("names a price change still to come, and says nothing of one already in effect (tour)", () => {
    const pending = subscription({
      has_scheduled_price_change: true,
      price_change_takes_effect_at: "2026-12-04T11:00:00Z",
      pending_price_change: {
        price_id: "p-2",
        label: "$15.00 Weekly",
        amount: 1500,
        formatted_amount: "$15.00",
        takes_effect_on: "2026-12-05",
      },
    });
    const { unmount } = renderWithProviders(
      <SubscriptionCard subscription={pending} canChange={false} onChanged={() => {}} />,
    );
    expect(screen.getByText("Price change")).toBeInTheDocument();
    expect(screen.getByText("to $15.00 Weekly from 5/12/2026")).toBeInTheDocument();
    unmount();

    // In effect: the change's fields stay on the record, but it is the price now, not a change to come.
    const done = subscription({
      has_scheduled_price_change: true,
      price_change_takes_effect_at: "2026-12-04T11:00:00Z",
      pending_price_change: null,
    });
    renderWithProviders(<SubscriptionCard subscription={done} canChange={false} onChanged={() => {}} />);
    expect(screen.queryByText("Price change")).not.toBeInTheDocument();
  });

  it("a pay-in-full membership whose bank transfer has not arrived reads 'Awaiting transfer' (tour)", () => {
    const awaiting = subscription({
      payment_method: "pif",
      is_active: false,
      is_awaiting_transfer: true,
      card_colour: "amber",
      door_access: { standing: false, reason: "Pay-in-full payment not received" },
    });
    renderWithProviders(<SubscriptionCard subscription={awaiting} canChange={false} onChanged={() => {}} />);
    expect(screen.getByText("Awaiting transfer")).toBeInTheDocument();
    expect(screen.queryByText("Active")).not.toBeInTheDocument();
  });

  it("an ended membership shows its last day and no live-only rows (tour)", () => {
    const ended = subscription({
      is_cancelled: true,
      cancellation_taken_effect: true,
      is_active: false,
      card_colour: "red",
      cancelled_at: "2026-11-23T00:00:00Z",
      cancellation_effective_at: "2026-12-04T11:00:00Z", // 5 Dec, Auckland: the last day is 4 Dec
      is_term_membership: true,
      term_ends_at: "2027-06-01T00:00:00Z",
      current_period_start: null,
      current_period_end: null,
      upcoming_payment: null,
      next_charge: null,
    });
    renderWithProviders(<SubscriptionCard subscription={ended} canChange={false} onChanged={() => {}} />);
    expect(screen.getByText("Ended: last day 4/12/2026")).toBeInTheDocument();
    expect(screen.getByText("Last day")).toBeInTheDocument();
    for (const live of ["Current period", "Next payment", "Term ends", "Pause days left"])
      expect(screen.queryByText(live)).not.toBeInTheDocument();
    expect(screen.queryByText("Not started")).not.toBeInTheDocument();
    expect(screen.queryByText("None")).not.toBeInTheDocument();
  });

  it("a cancellation not yet in effect reads 'Cancelling', with its last day, until that day has passed (tour item 7)", () => {
    const running = subscription({
      is_cancelled: true,
      cancellation_taken_effect: false,
      cancelled_at: "2026-11-23T00:00:00Z",
      cancellation_effective_at: "2026-12-04T11:00:00Z", // 5 Dec, Auckland: the last day is 4 Dec
    });
    renderWithProviders(<SubscriptionCard subscription={running} canChange={false} onChanged={() => {}} />);
    expect(screen.getByText("Cancelling: last day 4/12/2026")).toBeInTheDocument();
    expect(screen.queryByText(/^Cancelled/)).not.toBeInTheDocument();
  });

  it("shows a visit pass's visits left and, when none is left, the door's reason (docs/offers.md \"Visit passes\")", () => {
    renderWithProviders(
      <SubscriptionCard
        subscription={subscription({
          pif_ends_at: "2027-10-01T11:00:00.000Z",
          pass: {
            visits: 10,
            used: 10,
            left: 0,
            last_visit_on: "2027-08-02",
            last_day: "2027-10-01",
            door: false,
            reason: "No visits left on the pass",
          },
          door_access: { standing: false, reason: "No visits left on the pass" },
        })}
        canChange={false}
        onChanged={() => {}}
      />,
    );
    expect(screen.getByText(/0 of 10, last used/)).toBeInTheDocument();
    expect(screen.getByText("No: No visits left on the pass")).toBeInTheDocument();
  });

  it('adds visits to a pass with a reason (docs/offers.md "Visit passes"); a membership that is not a pass has no such button', async () => {
    const pass = {
      visits: 10,
      used: 10,
      left: 0,
      last_visit_on: "2027-08-02",
      last_day: "2027-10-01",
      door: false,
      reason: "No visits left on the pass",
    };
    const { calls } = mockApi({
      "POST /api/subscriptions/s-1/pass-visits": subscription({
        pass: { ...pass, visits: 12, left: 2, door: true },
      }),
    });
    const onChanged = vi.fn();
    const { unmount } = renderWithProviders(
      <SubscriptionCard
        subscription={subscription({ pif_ends_at: "2027-10-01T11:00:00.000Z", pass })}
        canChange
        onChanged={onChanged}
      />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Add visits" }));
    const dialog = await screen.findByRole("dialog", { name: "Add visits to the pass" });
    await user.clear(within(dialog).getByRole("textbox", { name: /Visits to add/ }));
    await user.type(within(dialog).getByRole("textbox", { name: /Visits to add/ }), "2");
    await user.type(within(dialog).getByRole("textbox", { name: /Reason/ }), "The door failed");
    await user.click(within(dialog).getByRole("button", { name: "Add visits" }));
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    const post = calls.find((c) => c.method === "POST");
    expect(post?.url).toBe("/api/subscriptions/s-1/pass-visits");
    expect(post?.body).toEqual({ visits: 2, reason: "The door failed" });
    // One Idempotency-Key per dialog: a double-click or a retry adds the visits once.
    expect(post?.headers.get("Idempotency-Key")).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    unmount();
    renderWithProviders(<SubscriptionCard subscription={subscription()} canChange onChanged={() => {}} />);
    expect(screen.queryByRole("button", { name: "Add visits" })).not.toBeInTheDocument();
  });
});

describe("recording a desk payment against a card balance", () => {
  it("says why the desk clears less than the card shows: the card surcharge is taken only on the card", async () => {
    const user = userEvent.setup();
    const owing = subscription({
      balance_owing: 2400,
      formatted_balance_owing: "$24.00",
      actions: { ...noActions, manual_payment: true },
      next_charge: quote({
        kind: "balance_owing",
        title: "Balance owing",
        amount: 2400,
        formatted_amount: "$24.00",
        surcharge: 90,
        formatted_surcharge: "$0.90",
        total: 2490,
        formatted_total: "$24.90",
      }),
    });
    renderWithProviders(<SubscriptionCard subscription={owing} canChange onChanged={() => {}} />);
    await user.click(screen.getByRole("button", { name: "Record a payment" }));
    const dialog = await screen.findByRole("dialog");
    expect(
      within(dialog).getByText(
        "$24.00 is owing; it is cleared first, the rest is credit for later payments. The $0.90 card surcharge in the $24.90 on the card is taken only when the card is charged, not at the desk.",
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Amount/)).toHaveValue("$24.00");
  });
});
