/**
 * Members with payment types and subscriptions for the payments tests, the e2e test and the
 * bench, written through core (the money engine's `createSubscription`), so every payment is
 * exactly what the product writes.
 */
import { addDays, type CivilDate } from "../../packages/core/src/billing/calendar";
import { businessToday } from "../../packages/core/src/clock";
import { addPaymentType } from "../../packages/core/src/payment-type/service";
import { createSubscription } from "../../packages/core/src/subscription/service";
import { putRole } from "../../packages/core/src/user/roles";
import { createUser } from "../../packages/core/src/user/service";
import type { SeededIdentity } from "../../packages/functions/src/local/seed/identity";
import type { SeededOfferings } from "../../packages/functions/src/local/seed/offerings";

export type Method = "card" | "bank";

export async function addMember(
  identity: SeededIdentity,
  input: { name: string; email: string; gymId: string; method?: Method },
) {
  const organisationId = identity.organisations.harbour.organisation_id;
  const user = await createUser({
    email: input.email,
    name: input.name,
    email_verified: true,
    password: "demo-password",
  });
  await putRole({ organisation_id: organisationId, user_id: user.user_id, member_gym_ids: [input.gymId] });
  const paymentType =
    input.method === "bank"
      ? await addPaymentType(organisationId, user.user_id, {
          type: "bank_account",
          status: "active",
          account_number: "12-3140-•••1323-50",
          name: "Everyday",
          meta: { akahu_account_id: `acc_${user.user_id}`, gym_id: input.gymId },
          gym_id: input.gymId,
        })
      : await addPaymentType(organisationId, user.user_id, {
          type: "stripe_card",
          status: "active",
          card_type: "visa",
          exp_month: 12,
          exp_year: 2030,
          last_four: "4242",
          country: "NZ",
          stripe_customer_id: `cus_${user.user_id}`,
          stripe_payment_method_id: `pm_${user.user_id}`,
          stripe_account: "acct_test",
          gym_id: input.gymId,
        });
  return { user, paymentType };
}

export interface SeededPayments {
  /** A card member at Ponsonby, a bank member at Newmarket, a PIF bank transfer at Ponsonby. */
  card: { userId: string; paymentId: string };
  bank: { userId: string; paymentId: string };
  transfer: { userId: string; paymentId: string };
  /** Every first payment, by member. */
  all: { userId: string; paymentId: string; gymId: string; dueOn: CivilDate }[];
}

/**
 * `count` weekly members (alternately card at Ponsonby and bank at Newmarket, starting on
 * successive days from today) and one pay-in-full member paying by bank transfer.
 */
export async function seedPayments(
  identity: SeededIdentity,
  offerings: SeededOfferings,
  count = 6,
  prefix = "payer",
): Promise<SeededPayments> {
  const organisationId = identity.organisations.harbour.organisation_id;
  const today = await businessToday();
  const all: SeededPayments["all"] = [];
  for (let i = 0; i < count; i++) {
    const card = i % 2 === 0;
    const gymId = card ? identity.gyms.ponsonby.gym_id : identity.gyms.newmarket.gym_id;
    const { user } = await addMember(identity, {
      name: `${prefix} ${String(i).padStart(3, "0")} ${card ? "card" : "bank"}`,
      email: `${prefix}${i}@example.net`,
      gymId,
      method: card ? "card" : "bank",
    });
    const { first_payment } = await createSubscription({
      organisation_id: organisationId,
      user_id: user.user_id,
      gym_id: gymId,
      price_id: offerings.prices.anytimeWeekly.price_id,
      start_date: addDays(today, i),
    });
    all.push({
      userId: user.user_id,
      paymentId: first_payment.payment_id,
      gymId,
      dueOn: first_payment.due_on,
    });
  }
  const transferMember = await createUser({
    email: `${prefix}-pif@example.net`,
    name: `${prefix} pif transfer`,
    email_verified: true,
  });
  await putRole({
    organisation_id: organisationId,
    user_id: transferMember.user_id,
    member_gym_ids: [identity.gyms.ponsonby.gym_id],
  });
  const pif = await createSubscription({
    organisation_id: organisationId,
    user_id: transferMember.user_id,
    gym_id: identity.gyms.ponsonby.gym_id,
    price_id: offerings.prices.summerPif.price_id,
    pif_payment_method: "bank_transfer",
  });
  all.push({
    userId: transferMember.user_id,
    paymentId: pif.first_payment.payment_id,
    gymId: identity.gyms.ponsonby.gym_id,
    dueOn: pif.first_payment.due_on,
  });
  return {
    card: { userId: all[0].userId, paymentId: all[0].paymentId },
    bank: { userId: all[1].userId, paymentId: all[1].paymentId },
    transfer: { userId: transferMember.user_id, paymentId: pif.first_payment.payment_id },
    all,
  };
}

/**
 * Points this process's core at a running product's table (an e2e test or the screenshot script)
 * and finds the demo organisation, its gyms and prices, to add members through core.
 */
export async function harbourOfProduct(
  dynamoPort: number,
  /** Put the members at a new gym of this name (so a test can filter to its own payments). */
  ownGym?: string,
) {
  process.env.DYNAMODB_ENDPOINT = `http://localhost:${dynamoPort}`;
  process.env.TABLE_NAME = "gym-local";
  const { resetDynamo } = await import("../../packages/core/src/db/client");
  resetDynamo();
  // Writes through core here leave outbox events: deliver them as the product would.
  await import("./core-setup");
  const { forgetBusinessClockCache } = await import("../../packages/core/src/clock");
  forgetBusinessClockCache();
  const { findUserByEmail } = await import("../../packages/core/src/user/service");
  const { rolesOfUser } = await import("../../packages/core/src/user/roles");
  const { listGyms } = await import("../../packages/core/src/gym/service");
  const { listPriceRecords } = await import("../../packages/core/src/price/store");
  const admin = await findUserByEmail("admin@example.com");
  if (!admin) throw new Error("The product has no demo data");
  const organisations = await Promise.all(
    (await rolesOfUser(admin.user_id)).map(async (r) => ({
      organisation_id: r.organisation_id,
      gyms: await listGyms(r.organisation_id),
    })),
  );
  const harbour = organisations.find((o) => o.gyms.some((g) => /Ponsonby/.test(g.name)))!;
  const gym = (name: string) => harbour.gyms.find((g) => g.name.includes(name))!;
  const prices = await listPriceRecords(harbour.organisation_id);
  const { createGym } = await import("../../packages/core/src/gym/service");
  const own = ownGym ? await createGym({ organisation_id: harbour.organisation_id, name: ownGym }) : null;
  const identity = {
    organisations: { harbour: { organisation_id: harbour.organisation_id } },
    gyms: { ponsonby: own ?? gym("Ponsonby"), newmarket: own ?? gym("Newmarket") },
  } as unknown as SeededIdentity;
  const offerings = {
    prices: {
      anytimeWeekly: prices.find((p) => p.amount === 2_400 && p.billing_frequency === "weekly")!,
      anytimeTerm: prices.find((p) => p.term_amount === 12 && p.billing_frequency === "weekly")!,
      summerPif: prices.find((p) => p.billing_frequency === "one_off")!,
    },
  } as unknown as SeededOfferings;
  return { identity, offerings, gymId: own?.gym_id ?? null };
}

/** Seeds payments into a running product's table (see `harbourOfProduct`). */
export async function seedIntoProduct(dynamoPort: number, count = 6, prefix = "payer", ownGym?: string) {
  const { identity, offerings, gymId } = await harbourOfProduct(dynamoPort, ownGym);
  return { ...(await seedPayments(identity, offerings, count, prefix)), gymId };
}
