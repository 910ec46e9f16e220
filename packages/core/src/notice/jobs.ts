/**
 * `member-notices` (hourly): what members are told before a charge (docs/communications.md).
 *
 * - **Payment reminder**: N days before each charge (the organisation's `payment_reminder_days`,
 *   default 3, 0 none), or as soon as a charge is seen inside that window. Optional (honours the
 *   member's `payment_reminders` and `email_notifications_enabled`) unless the amount differs from the
 *   last charge or the charge is the first after a pause: then it is always sent. It states the
 *   quote of the charge (payment/quote.ts: credit applied, surcharge, total); when that quote's total
 *   changes after the reminder (a credit, a price change), an updated reminder is sent, once per
 *   change (the notice keeps the total it told).
 * - **Card-expiry notice**: 14 and 3 days before a card charge when the card on file expires
 *   before it. Optional.
 * - **Trial ending** (docs/offers.md "Before the trial ends"): 3 days before the first paid charge
 *   after a trial, in place of its payment reminder: the amount, the date and the way to stop.
 *   Always sent, once (`trial-ending#<payment id>`).
 *
 * Reads the billing run's work index (upcoming payments by due date, every shard) up to 30 days
 * ahead. Each notice is claimed by key before it is sent (`notice/entity.ts`), so runs that
 * overlap or repeat send it once.
 */
import { addDays, aucklandDate, daysBetween, lastDayOf } from "../billing/calendar";
import { isBreakFee } from "../contract/payment";
import { db } from "../db/service";
import type { Email } from "../email/port";
import { sendEmail } from "../email/port";
import { getGym } from "../gym/service";
import { log } from "../log";
import { getOrganisation } from "../organisation/service";
import { organisationSettings } from "../organisation/settings";
import { methodLabel, quoteOf } from "../payment/quote";
import { type PaymentRecord, subscriptionPayments, workPages } from "../payment/store";
import { findPaymentType } from "../payment-type/service";
import { findSubscription } from "../subscription/store";
import { getProfile, switchesOf } from "../user/profile";
import { getUserOrNull } from "../user/service";
import { cardExpiryEmail, paymentReminderEmail, trialEndingEmail } from "./emails";
import { cardLastDay, lastComparable, mandatoryReason } from "./rules";

/** The furthest ahead a reminder may be set (the setting's maximum). */
export const REMINDER_MAX_DAYS = 30;
/** The trial-ending email, days before the first paid charge (docs/offers.md). */
export const TRIAL_NOTICE_DAYS = 3;
/** Card-expiry notices, days before the charge. */
export const CARD_EXPIRY_NOTICE_DAYS = [14, 3] as const;
const KEEP_DAYS = 400;

type Summary = Record<string, number>;

const lostRace = (error: unknown) => (error as Error).message.includes("conditional request failed");

/** Claims a notice by key; false when it was claimed before (sent, or being sent). */
async function claim(
  organisationId: string,
  key: string,
  userId: string,
  now: Date,
  total?: number,
): Promise<boolean> {
  try {
    await db()
      .entities.notice.create({
        organisation_id: organisationId,
        notice_key: key,
        user_id: userId,
        sent_at: now.toISOString(),
        expires_at: Math.floor(now.getTime() / 1000) + KEEP_DAYS * 86_400,
        ...(total === undefined ? {} : { total }),
      })
      .go();
    return true;
  } catch (error) {
    if (lostRace(error)) return false;
    throw error;
  }
}

/**
 * Moves a reminder's notice from the total it told to a new one, conditioned on the old: of runs
 * that see the same change, one wins and sends the updated reminder. False when another did.
 */
async function moveReminder(organisationId: string, key: string, from: number, to: number, now: Date) {
  try {
    await db()
      .entities.notice.patch({ organisation_id: organisationId, notice_key: key })
      .set({ total: to, sent_at: now.toISOString() })
      .where((a, op) => op.eq(a.total, from))
      .go();
    return true;
  } catch (error) {
    if (lostRace(error)) return false;
    throw error;
  }
}

const reminderOf = async (organisationId: string, key: string) =>
  (await db().entities.notice.get({ organisation_id: organisationId, notice_key: key }).go()).data;

/** Sends a claimed notice; a failed send gives the claim back, so the next run tries again. */
async function sendClaimed(organisationId: string, key: string, email: Email) {
  try {
    await sendEmail(email);
  } catch (error) {
    await db().entities.notice.delete({ organisation_id: organisationId, notice_key: key }).go();
    throw error;
  }
}

export async function memberNotices(now: Date): Promise<Summary> {
  const today = aucklandDate(now);
  const summary: Summary = {
    examined: 0,
    reminders: 0,
    reminders_required: 0,
    reminders_updated: 0,
    card_expiry: 0,
    trial_ending: 0,
    not_wanted: 0,
  };
  const settingsCache = new Map<string, Promise<ReturnType<typeof organisationSettings>>>();
  const gymCache = new Map<string, Promise<Awaited<ReturnType<typeof getGym>>>>();
  const settingsOf = (id: string) => {
    if (!settingsCache.has(id)) settingsCache.set(id, getOrganisation(id).then(organisationSettings));
    return settingsCache.get(id) as Promise<ReturnType<typeof organisationSettings>>;
  };
  const gymOf = (org: string, gym: string) => {
    const key = `${org}#${gym}`;
    if (!gymCache.has(key)) gymCache.set(key, getGym(org, gym));
    return gymCache.get(key) as Promise<Awaited<ReturnType<typeof getGym>>>;
  };

  for await (const page of workPages("due", `${addDays(today, REMINDER_MAX_DAYS)}#~`)) {
    for (const payment of page) {
      const days = daysBetween(today, payment.due_on);
      if (days < 1 || payment.waiting_for) continue;
      summary.examined += 1;
      try {
        await noticesFor(payment, days, now, summary, settingsOf, gymOf);
      } catch (error) {
        log.error("member notice not sent", {
          payment_id: payment.payment_id,
          error: (error as Error).message,
        });
      }
    }
  }
  return summary;
}

async function noticesFor(
  payment: PaymentRecord,
  days: number,
  now: Date,
  summary: Summary,
  settingsOf: (id: string) => Promise<ReturnType<typeof organisationSettings>>,
  gymOf: (org: string, gym: string) => Promise<Awaited<ReturnType<typeof getGym>>>,
) {
  const settings = await settingsOf(payment.organisation_id);
  const remind = settings.payment_reminder_days > 0 && days <= settings.payment_reminder_days;
  const expiryDays = CARD_EXPIRY_NOTICE_DAYS.filter((d) => days <= d).at(-1);
  const cardNotice = expiryDays !== undefined;
  // Only a trial's first paid charge is charge 1 due within the trial notice's days.
  const maybeTrial = payment.charge_index === 1 && days <= TRIAL_NOTICE_DAYS;
  if (!remind && !cardNotice && !maybeTrial) return;
  if (!payment.subscription_id) return;
  const sub = await findSubscription(payment.organisation_id, payment.subscription_id);
  // The first payment was told in the welcome email; a cancelled membership is not charged again.
  if (!sub || sub.first_payment_id === payment.payment_id) return;
  if (sub.cancellation_effective_at && sub.cancellation_effective_at <= payment.due_on) return;
  const trialEnding = maybeTrial && sub.trial_ends_on === payment.due_on;
  const [user, profile] = await Promise.all([
    getUserOrNull(payment.user_id),
    getProfile(payment.organisation_id, payment.user_id),
  ]);
  if (!user) return;
  // The switches the member set for this organisation (user/profile.ts).
  const switches = switchesOf(profile);
  const emailsWanted = switches.email_notifications_enabled;
  const gym = await gymOf(payment.organisation_id, payment.gym_id);
  const brand = { name: gym.name, ref: { organisation_id: payment.organisation_id, gym_id: payment.gym_id } };
  // The method the claim will charge: the subscription's default now, not the one the payment
  // was planned with (a card replaced since is not named: issue 34, item 8).
  const typeId = sub.payment_type_id ?? payment.payment_type_id;
  const paymentType = typeId ? await findPaymentType(payment.organisation_id, payment.user_id, typeId) : null;
  const method = paymentType ?? { type: payment.type };
  /** How the charge is taken, as the emails say it ("from your Visa ending 4242"). */
  const howPaid = (label: string) =>
    method.type === "stripe_card" ? `from your ${label}` : `by direct debit from your ${label}`;

  if (trialEnding) {
    const quote = quoteOf({
      kind: "next_payment",
      amount: payment.amount,
      credit_balance: sub.credit_balance ?? 0,
      balance_owing: sub.balance_owing ?? 0,
      method,
      rates: settings,
      gym,
      due_on: payment.due_on,
    });
    const key = `trial-ending#${payment.payment_id}`;
    if (await claim(payment.organisation_id, key, user.user_id, now, quote.total)) {
      await sendClaimed(
        payment.organisation_id,
        key,
        trialEndingEmail({
          to: user.email,
          name: user.name,
          brand,
          quote,
          last_day: lastDayOf(payment.due_on),
          due_on: payment.due_on,
          method: howPaid(quote.payment_method.label),
        }),
      );
      summary.trial_ending += 1;
    }
  } else if (remind) {
    // What the claim will charge, as every page shows it (payment/quote.ts).
    const quote = quoteOf({
      kind: isBreakFee(payment) ? "break_fee" : "next_payment",
      amount: payment.amount,
      credit_balance: sub.credit_balance ?? 0,
      balance_owing: sub.balance_owing ?? 0,
      method,
      rates: settings,
      gym,
      due_on: payment.due_on,
    });
    const { total } = quote;
    // The last payment of the same kind that took money (notice/rules.ts `lastComparable`).
    const last = lastComparable(
      await subscriptionPayments(payment.organisation_id, payment.user_id, sub.subscription_id),
      payment.due_on,
    );
    const why = mandatoryReason({ due_on: payment.due_on, total, last, pauses: sub.pauses ?? [] });
    const key = `reminder#${payment.payment_id}`;
    const email = (replaces: number | null) =>
      paymentReminderEmail({
        to: user.email,
        user_id: user.user_id,
        name: user.name,
        brand,
        quote,
        due_on: payment.due_on,
        method: howPaid(quote.payment_method.label),
        why,
        last_total: last?.total ?? null,
        replaces,
      });
    const told = await reminderOf(payment.organisation_id, key);
    if (!told) {
      if (total <= 0) {
        // Credit pays it all: nothing will be taken, nothing to remind of.
      } else if (!why && (!emailsWanted || !switches.payment_reminders)) summary.not_wanted += 1;
      else if (await claim(payment.organisation_id, key, user.user_id, now, total)) {
        await sendClaimed(payment.organisation_id, key, email(null));
        summary.reminders += 1;
        if (why) summary.reminders_required += 1;
      }
    } else if (told.total !== undefined && told.total !== total && total > 0) {
      // Reminded of another amount (a credit, a price change since): an updated reminder, once per
      // change. A reminder claimed before totals were kept has none and is left as it is.
      const from = told.total;
      if (await moveReminder(payment.organisation_id, key, from, total, now)) {
        try {
          await sendEmail(email(from));
        } catch (error) {
          await moveReminder(payment.organisation_id, key, total, from, now);
          throw error;
        }
        summary.reminders_updated += 1;
      }
    }
  }

  if (cardNotice && paymentType?.type === "stripe_card" && paymentType.exp_month && paymentType.exp_year) {
    const lastDay = cardLastDay(paymentType.exp_month, paymentType.exp_year);
    if (lastDay >= payment.due_on) return;
    if (!emailsWanted) {
      summary.not_wanted += 1;
      return;
    }
    const key = `card-expiry#${payment.payment_id}#${expiryDays}`;
    if (!(await claim(payment.organisation_id, key, user.user_id, now))) return;
    await sendClaimed(
      payment.organisation_id,
      key,
      cardExpiryEmail({
        to: user.email,
        user_id: user.user_id,
        name: user.name,
        brand,
        due_on: payment.due_on,
        card: methodLabel(paymentType),
        expires: new Date(Date.UTC(paymentType.exp_year, paymentType.exp_month - 1, 1)).toLocaleDateString(
          "en-NZ",
          {
            timeZone: "UTC",
            month: "long",
            year: "numeric",
          },
        ),
      }),
    );
    summary.card_expiry += 1;
  }
}
