/**
 * The one start-up point of a process. Every Lambda entry (with `productionProviders()`), the
 * local runtime and the test set-ups (with the simulated providers of `simulators/`) call
 * `createCore` before serving: it installs the provider adapters the process uses and wires the
 * reactions between layers. Nothing is wired by importing a module for its side effect, so a
 * forgotten import cannot silently drop a reaction; without a call the providers are the real
 * ones (configuration fails closed).
 */
import { useEmailBrand } from "./email/port";
import { outboxTypes } from "./outbox/events";
import { hasOutboxSubscriber, onOutboxEvent } from "./outbox/outbox";
import { onPaidSettlement, type PaidSettlement } from "./payment/outcome";
import { setChargeConsumer } from "./payment/queue";
import { type AkahuPort, installAkahu, productionAkahu } from "./providers/akahu";
import { type BranchPort, installBranch, productionBranch } from "./providers/branch";
import { installKisi, type KisiPort, productionKisi } from "./providers/kisi";
import { installStripe, productionStripe, type StripePort } from "./providers/stripe";
import { useRegistrationDefaults } from "./subscription/confirm";
import { onWebhook } from "./webhook-log/receive";

/** How a process makes each provider's adapter (on first use, after the Lambda has read its secrets). */
export interface CoreProviders {
  stripe: () => StripePort;
  akahu: () => AkahuPort;
  kisi: () => KisiPort;
  branch: () => BranchPort;
}

/** The real adapters, configured from the stage's environment: what every Lambda runs. */
export function productionProviders(): CoreProviders {
  return { stripe: productionStripe, akahu: productionAkahu, kisi: productionKisi, branch: productionBranch };
}

/**
 * A reaction's handler, imported on its first call: a cold start loads none of the reacting
 * modules (a Lambda entry loads the code of what it does, docs/architecture.md "Bundling and
 * budgets"), and the hook is registered before anything can fire it.
 */
function onFirstCall<M, A extends unknown[], R>(
  load: () => Promise<M>,
  pick: (module: M) => (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args) => pick(await load())(...args);
}

/**
 * The reactions between layers: a lower layer's hook and the higher layer's handler for it, so no
 * lower layer imports a higher one.
 */
const memberHooks = () => import("./member/hooks");

const reactions: (() => void)[] = [
  // Provider webhooks settle payments (payment) and record door visits (access).
  () =>
    onWebhook(
      "stripe",
      onFirstCall(
        () => import("./payment/webhooks"),
        (m) => m.onStripe,
      ),
    ),
  // Stripe's payouts are recorded with the books (accounting); a payment's event loads none of it.
  () => {
    const record = onFirstCall(
      () => import("./accounting/payout-events"),
      (m) => m.onStripePayout,
    );
    onWebhook("stripe", async (event) => (event.eventType === "payout.paid" ? record(event) : undefined));
  },
  () =>
    onWebhook(
      "akahu",
      onFirstCall(
        () => import("./payment/webhooks"),
        (m) => m.onAkahu,
      ),
    ),
  () =>
    onWebhook(
      "kisi",
      onFirstCall(
        () => import("./access/visits"),
        (m) => async (event) => void (await m.visitFromKisiEvent(event)),
      ),
    ),
  // The charge queue's consumer (payment/queue.ts does not import charging).
  () =>
    setChargeConsumer(
      onFirstCall(
        () => import("./payment/charge"),
        (m) => m.chargeClaimed,
      ),
    ),
  // `POST /api/subscriptions` reads what the member chose at registration, and marks them
  // subscribed (subscription → registration).
  () =>
    useRegistrationDefaults(
      onFirstCall(
        () => import("./registration/service"),
        (m) => m.registrationDefaults,
      ),
    ),
  () =>
    onOutboxEvent(
      "registration_confirmed",
      onFirstCall(
        () => import("./registration/service"),
        (m) => m.registrationConfirmed,
      ),
    ),
  // Emails carry the gym's name, logo and reply-to (email → gym).
  () =>
    useEmailBrand(
      onFirstCall(
        () => import("./gym/email-brand"),
        (m) => m.gymBrand,
      ),
    ),
  // The outbox's events (outbox/events.ts), delivered at least once after their commit; each
  // handler idempotent. A payment paid at the desk gets its receipt (subscription → receipt); a
  // cancellation for non-payment revokes door access (payment → member).
  () =>
    onOutboxEvent(
      "paid_at_desk",
      onFirstCall(
        () => import("./receipt/service"),
        (m) => (event: { organisation_id: string; payment_id: string }) =>
          m.issueAndEmailReceipt(event.organisation_id, event.payment_id),
      ),
    ),
  () =>
    onOutboxEvent(
      "cancelled_for_non_payment",
      onFirstCall(memberHooks, (m) => m.memberCancelledForNonPayment),
    ),
  // A subscription created or changed, a failed, received or paid payment, a role written: the
  // members back-office's latest subscription, door access, activity and the receipt (issued when
  // received, emailed once when paid); the member search re-indexed (subscription, payment, user → member).
  () =>
    onOutboxEvent(
      "subscribed",
      onFirstCall(memberHooks, (m) => m.memberSubscribed),
    ),
  () =>
    onOutboxEvent(
      "lifecycle_changed",
      onFirstCall(memberHooks, (m) => m.memberLifecycleChanged),
    ),
  () =>
    onOutboxEvent(
      "payment_outcome",
      onFirstCall(memberHooks, (m) => m.memberPaymentOutcome),
    ),
  () =>
    onOutboxEvent(
      "payment_paid",
      onFirstCall(memberHooks, (m) => m.memberPaymentPaid),
    ),
  () =>
    onOutboxEvent(
      "role_written",
      onFirstCall(memberHooks, (m) => m.memberRoleWritten),
    ),
  // A new default payment type retries an owed balance (payment-type → payment); a gym's new
  // destination account asks its bank payers to consent again.
  () =>
    onOutboxEvent(
      "default_payment_type_changed",
      onFirstCall(
        () => import("./payment/consent"),
        (m) => m.defaultPaymentTypeChanged,
      ),
    ),
  () =>
    onOutboxEvent(
      "destination_account_changed",
      onFirstCall(
        () => import("./payment/consent"),
        (m) => m.destinationAccountChanged,
      ),
    ),
  // One writer per paid settlement, made when the settlement starts and loaded with it.
  () =>
    onPaidSettlement((): PaidSettlement => {
      let made: Promise<PaidSettlement> | undefined;
      return {
        prepare: async (paid, held) => {
          made ??= memberHooks().then((m) => m.paidSettlement());
          return (await made).prepare(paid, held);
        },
      };
    }),
];

let wired = false;

/** Installs the process's providers and wires the reactions (once; a later call only swaps providers). */
export function createCore({ providers }: { providers: CoreProviders }): void {
  installStripe(providers.stripe);
  installAkahu(providers.akahu);
  installKisi(providers.kisi);
  installBranch(providers.branch);
  if (wired) return;
  wired = true;
  for (const register of reactions) register();
  // An outbox event without its subscriber would fail closed at every delivery: refuse to start.
  const unsubscribed = outboxTypes.filter((type) => !hasOutboxSubscriber(type));
  if (unsubscribed.length) throw new Error(`outbox events without a subscriber: ${unsubscribed.join(", ")}`);
}
