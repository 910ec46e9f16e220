/**
 * How the request-budget test (packages/functions/src/api/request-budgets.test.ts) calls each
 * operation so that it succeeds: the records it needs (a member with a membership, a paid payment,
 * an invitation, an emailed token, a signed provider event) are made first, through core or over
 * HTTP without the test's request id, so only the call itself is counted. An operation without a
 * scenario here is called with this organisation's ids and its body's documented example.
 */
import { HttpClient } from "./http";
import type { DocumentedOperation } from "./openapi-operations";
import { addMember, type Method } from "./payments";

export interface Call {
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  client?: HttpClient;
}

export interface ScenarioWorld {
  url: string;
  seed: import("../../packages/functions/src/local/seed/identity").SeededIdentity;
  offerings: import("../../packages/functions/src/local/seed/offerings").SeededOfferings;
  /** A signed-in session of a person in the organisation (a Cookie header). */
  sessionOf: (userId: string) => Promise<Record<string, string>>;
}

type Scenario = (op: DocumentedOperation) => Promise<Call>;

const JPEG = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
]);

function upload(bytes: Uint8Array, type: string, name: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name);
  return form;
}

/** The scenarios, by "METHOD /api/path" as the OpenAPI document names the operation. */
export function budgetScenarios(world: ScenarioWorld): Record<string, Scenario> {
  const { seed, offerings, sessionOf } = world;
  const organisationId = seed.organisations.harbour.organisation_id;
  const ponsonby = seed.gyms.ponsonby.gym_id;
  const anonymous = () => new HttpClient(world.url);
  let people = 0;

  const core = async () => ({
    ...(await import("../../packages/core/src/clock")),
    ...(await import("../../packages/core/src/billing/calendar")),
    ...(await import("../../packages/core/src/subscription/service")),
    ...(await import("../../packages/core/src/payment-type/service")),
  });
  const dates = async () => {
    const { businessToday, addDays } = await core();
    const today = await businessToday();
    return { today, addDays, monthStart: `${today.slice(0, 8)}01` };
  };

  /** A set-up call over HTTP (not counted: no budget request id), which must succeed. */
  async function setUp(
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
    client = anonymous(),
  ) {
    const answer = await client.request(method, path, body, headers);
    if (answer.status >= 400)
      throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }
  const admin = () => sessionOf(seed.people.admin.user_id);

  /**
   * An offering of this test's own with two weekly prices: the generic calls change the seeded ones
   * (the documented example gives the price a trial, the archive calls archive them).
   */
  let own: Promise<{ offeringId: string; weekly: string; other: string }> | undefined;
  const ownOffering = () => {
    own ??= (async () => {
      const headers = await admin();
      const offering = (await setUp(
        "POST",
        "/api/offerings",
        { name: "Budget Anytime", type: "24_7", all_gyms_access: true },
        headers,
      )) as {
        data: { id: string };
      };
      const price = async (amount: number) =>
        (
          (await setUp(
            "POST",
            `/api/offerings/${offering.data.id}/prices`,
            { amount, billing_frequency: "weekly" },
            headers,
          )) as { data: { id: string } }
        ).data.id;
      return { offeringId: offering.data.id, weekly: await price(2_400), other: await price(2_600) };
    })();
    return own;
  };

  /** A new member at Ponsonby with a card (or a bank account), signed in. */
  async function member(method: Method = "card", gymId = ponsonby) {
    people += 1;
    const email = `budget.member${people}@example.net`;
    const { user, paymentType } = await addMember(seed, {
      name: `budget member ${people}`,
      email,
      gymId,
      method,
    });
    return {
      userId: user.user_id,
      email,
      paymentTypeId: paymentType.payment_type_id,
      headers: await sessionOf(user.user_id),
    };
  }

  /** A member with a weekly membership (or the given price) starting today. */
  async function subscribed(price?: string, start?: string) {
    const person = await member();
    const { createSubscription } = await core();
    const { subscription } = await createSubscription({
      organisation_id: organisationId,
      user_id: person.userId,
      gym_id: ponsonby,
      price_id: price ?? (await ownOffering()).weekly,
      ...(start ? { start_date: start } : {}),
    });
    return { ...person, subscriptionId: subscription.subscription_id };
  }

  /** The emails sent to an address, newest first (the local mailbox). */
  async function mailTo(to: string) {
    const mail = await anonymous().get(`/api/dev/mail?to=${encodeURIComponent(to)}`);
    return mail.body.data as { to: string; subject: string; text: string }[];
  }
  /** The link's token in the newest email to `to` whose subject matches (emails may follow the answer). */
  async function tokenIn(to: string, subject: RegExp, path: string) {
    for (let tries = 0; tries < 40; tries++) {
      const mail = (await mailTo(to)).find((m) => subject.test(m.subject));
      const match = new RegExp(`${path}\\?token=([^\\s)"&]+)`).exec(mail?.text ?? "");
      if (match) return decodeURIComponent(match[1]);
      await new Promise((done) => setTimeout(done, 50));
    }
    throw new Error(
      `no ${path} link emailed to ${to}: ${JSON.stringify((await mailTo(to)).map((m) => m.subject))}`,
    );
  }
  async function latestCode(to: string) {
    const message = (await mailTo(to)).find((m) => /sign-in code|code to join/.test(m.subject));
    if (!message) throw new Error(`No code emailed to ${to}`);
    return message.subject.slice(0, 6);
  }

  /** A member with a pay-in-full membership paid by bank transfer, awaiting the transfer. */
  async function awaitingTransfer() {
    people += 1;
    const created = (await setUp(
      "POST",
      `/api/organisations/${organisationId}/members/onboard-pif`,
      {
        name: `budget transfer ${people}`,
        email: `budget.transfer${people}@example.net`,
        price_id: offerings.prices.summerPif.price_id,
        gym_id: ponsonby,
        payment_method: "bank_transfer",
      },
      await admin(),
    )) as { data: { member: { id: string } } };
    const userId = created.data.member.id;
    const payments = (await setUp("GET", `/api/users/${userId}/payments`, undefined, await admin())) as {
      data: { id: string }[];
    };
    return { userId, paymentId: payments.data[0].id };
  }

  /** A payment paid (a bank transfer marked received), with its receipt. */
  async function paid() {
    const transfer = await awaitingTransfer();
    await setUp("POST", `/api/payments/${transfer.paymentId}/received`, {}, await admin());
    return transfer;
  }

  /**
   * A staff invitation and its emailed token. An address with an account is invited (accepts or
   * declines at /invitation); a new address gets an account waiting for its password.
   */
  async function invitation(existing = false) {
    people += 1;
    const email = existing ? (await member()).email : `budget.coach${people}@example.net`;
    const invited = (await setUp(
      "POST",
      `/api/organisations/${organisationId}/staff`,
      {
        email,
        name: `budget coach ${people}`,
        role: "per_gym",
        gyms: [{ gym_id: ponsonby, role: "personal_trainer" }],
      },
      await admin(),
    )) as { data: { id: string } };
    return { id: invited.data.id, email, token: () => tokenIn(email, /invites you/, "/invitation") };
  }

  /** A member who has connected their bank (the simulated Akahu consent). */
  async function akahuState(person: { headers: Record<string, string> }) {
    const auth = (await setUp("GET", "/api/akahu/auth-url", undefined, person.headers)) as {
      data: { url: string };
    };
    const state = new URL(auth.data.url).searchParams.get("state") as string;
    const { simulatedAkahuCode } = await import("../../packages/core/src/simulators/akahu");
    return { state, code: simulatedAkahuCode(state) };
  }
  async function bankConnected() {
    const person = await member();
    await setUp("POST", "/api/akahu/exchange", await akahuState(person), person.headers);
    return person;
  }

  /** An offering or price no member has (so it may be deleted). */
  const unused = {
    offering: async () =>
      (
        (await setUp(
          "POST",
          "/api/offerings",
          { name: `Budget ${++people}`, type: "24_7" },
          await admin(),
        )) as {
          data: { id: string };
        }
      ).data.id,
    price: async () =>
      (
        (await setUp(
          "POST",
          `/api/offerings/${(await ownOffering()).offeringId}/prices`,
          { amount: 1_000 + ++people, billing_frequency: "weekly" },
          await admin(),
        )) as { data: { id: string } }
      ).data.id,
    promo: async () =>
      (
        (await setUp(
          "POST",
          "/api/promo-codes",
          { code: `Budget${++people}x`, kind: "percent", percent_basis_points: 5_000, periods: 1 },
          await admin(),
        )) as { data: { id: string; code: string } }
      ).data,
  };

  return {
    // Public and session routes.
    "GET /api/join": async () => ({ path: `/api/join?gym=${seed.gyms.ponsonby.uuid}` }),
    "GET /api/sites/{site}": async () => ({ path: "/api/sites/join" }),
    "POST /api/login": async () => {
      const person = await member();
      return { path: "/api/login", body: { email: person.email, password: "demo-password" } };
    },
    "POST /api/email/verify": async () => {
      const person = await member();
      const client = anonymous();
      await setUp("POST", "/api/login", { email: person.email, password: "demo-password" }, {}, client);
      return { path: "/api/email/verify", client, body: { code: await latestCode(person.email) } };
    },
    "POST /api/two-factor-authentication": async () => {
      const client = anonymous();
      await setUp(
        "POST",
        "/api/login",
        { email: "manager@example.com", password: "demo-password" },
        {},
        client,
      );
      return {
        path: "/api/two-factor-authentication",
        client,
        body: { code: await latestCode("manager@example.com") },
      };
    },
    "POST /api/forgot-password": async () => {
      const person = await member();
      return { path: "/api/forgot-password", body: { email: person.email } };
    },
    "POST /api/validate-link": async () => {
      const person = await member();
      await setUp("POST", "/api/forgot-password", { email: person.email });
      return {
        path: "/api/validate-link",
        body: { token: await tokenIn(person.email, /Reset your password/, "/reset-password") },
      };
    },
    "POST /api/reset-password": async () => {
      const person = await member();
      await setUp("POST", "/api/forgot-password", { email: person.email });
      const token = await tokenIn(person.email, /Reset your password/, "/reset-password");
      return {
        path: "/api/reset-password",
        body: {
          token,
          password: "another long passphrase",
          password_confirmation: "another long passphrase",
        },
      };
    },
    "POST /api/email-change/confirm": async () => {
      const person = await member();
      const email = `budget.moved${++people}@example.net`;
      await setUp("POST", "/api/me/email", { email, password: "demo-password" }, person.headers);
      return {
        path: "/api/email-change/confirm",
        body: { token: await tokenIn(email, /./, "/confirm-email") },
      };
    },
    "POST /api/email-change/undo": async () => {
      const person = await member();
      const email = `budget.moved${++people}@example.net`;
      await setUp("POST", "/api/me/email", { email, password: "demo-password" }, person.headers);
      await setUp("POST", "/api/email-change/confirm", {
        token: await tokenIn(email, /./, "/confirm-email"),
      });
      return {
        path: "/api/email-change/undo",
        body: { token: await tokenIn(person.email, /login email was changed/, "/undo-email") },
      };
    },
    "POST /api/invitations/peek": async () => ({
      path: "/api/invitations/peek",
      body: { token: await (await invitation(true)).token() },
    }),
    "POST /api/invitations/accept": async () => ({
      path: "/api/invitations/accept",
      body: { token: await (await invitation(true)).token() },
    }),
    "POST /api/invitations/decline": async () => ({
      path: "/api/invitations/decline",
      body: { token: await (await invitation(true)).token() },
    }),
    "POST /api/unsubscribe": async () => {
      const person = await member();
      const { unsubscribeToken } = await import("../../packages/core/src/notice/unsubscribe-token");
      return {
        path: `/api/unsubscribe?token=${encodeURIComponent(unsubscribeToken(person.userId))}`,
        body: "List-Unsubscribe=One-Click",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      };
    },

    // Files.
    "GET /api/files/logos/{organisationId}/{gymId}/{file}": async () => {
      const gym = (await setUp("GET", `/api/gyms/${ponsonby}`, undefined, await admin())) as {
        data: { logo: string };
      };
      return { path: gym.data.logo };
    },
    "POST /api/gyms/{id}/logo": async () => {
      const { demoLogoPng } = await import("../../packages/functions/src/local/seed/gyms");
      return {
        path: `/api/gyms/${seed.gyms.newmarket.gym_id}/logo`,
        body: upload(demoLogoPng(32), "image/png", "logo.png", { collection: "logo" }),
        headers: await admin(),
      };
    },
    "POST /api/profile-picture": async () => {
      const person = await member();
      return {
        path: "/api/profile-picture",
        body: upload(JPEG, "image/jpeg", "photo.jpg"),
        headers: person.headers,
      };
    },
    "GET /api/files/profile-pictures/{organisationId}/{userId}/{file}": async () => {
      const person = await member();
      const photo = (await setUp(
        "POST",
        "/api/profile-picture",
        upload(JPEG, "image/jpeg", "photo.jpg"),
        person.headers,
      )) as { data: { profile_picture: string } };
      return { path: photo.data.profile_picture, headers: await admin() };
    },

    // The signed-in person's own calls.
    "GET /api/promo-codes/check": async () => {
      const person = await member();
      const code = await unused.promo();
      return {
        path: `/api/promo-codes/check?code=${code.code}&price_id=${(await ownOffering()).weekly}`,
        headers: person.headers,
      };
    },
    "GET /api/surcharge-total": async () => ({
      path: `/api/surcharge-total?price_id=${(await ownOffering()).weekly}&payment_type=stripe_card`,
      headers: (await member()).headers,
    }),
    "GET /api/me/payments/{id}/receipt": async () => {
      const payment = await paid();
      return {
        path: `/api/me/payments/${payment.paymentId}/receipt`,
        headers: await sessionOf(payment.userId),
      };
    },
    "GET /api/me/subscriptions/{id}/cancellation-preview": async () => {
      const person = await subscribed();
      return {
        path: `/api/me/subscriptions/${person.subscriptionId}/cancellation-preview`,
        headers: person.headers,
      };
    },
    "POST /api/me/subscriptions/{id}/cancel": async () => {
      const person = await subscribed();
      return {
        path: `/api/me/subscriptions/${person.subscriptionId}/cancel`,
        body: { cancellation_reasons: ["Moving away"] },
        headers: person.headers,
      };
    },
    "POST /api/me/subscriptions/{id}/pause": async () => {
      const person = await subscribed();
      const { today, addDays } = await dates();
      return {
        path: `/api/me/subscriptions/${person.subscriptionId}/pause`,
        body: { pause_start_at: addDays(today, 14), pause_end_at: addDays(today, 28) },
        headers: person.headers,
      };
    },
    "DELETE /api/me/subscriptions/{id}/pause": async () => {
      const person = await subscribed();
      const { today, addDays } = await dates();
      await setUp(
        "POST",
        `/api/me/subscriptions/${person.subscriptionId}/pause`,
        { pause_start_at: addDays(today, 14), pause_end_at: addDays(today, 28) },
        person.headers,
      );
      return { path: `/api/me/subscriptions/${person.subscriptionId}/pause`, headers: person.headers };
    },
    "POST /api/me/subscriptions/{id}/stop-trial": async () => {
      const trial = (await setUp(
        "POST",
        `/api/offerings/${offerings.offerings.anytime.offering_id}/prices`,
        { amount: 2_400, billing_frequency: "weekly", trial_days: 7 },
        await admin(),
      )) as { data: { id: string } };
      const person = await subscribed(trial.data.id);
      return {
        path: `/api/me/subscriptions/${person.subscriptionId}/stop-trial`,
        body: {},
        headers: person.headers,
      };
    },
    "POST /api/me/email": async () => {
      const person = await member();
      return {
        path: "/api/me/email",
        body: { email: `budget.moved${++people}@example.net`, password: "demo-password" },
        headers: person.headers,
      };
    },
    "POST /api/me/payment-types/{payment_type_id}/switch": async () => {
      const person = await member();
      const { addPaymentType } = await core();
      const bank = await addPaymentType(organisationId, person.userId, {
        type: "bank_account",
        status: "active",
        account_number: "12-3140-•••1323-50",
        name: "Everyday",
        meta: { akahu_account_id: `acc_${person.userId}`, gym_id: ponsonby },
        gym_id: ponsonby,
      });
      return {
        path: `/api/me/payment-types/${bank.payment_type_id}/switch`,
        body: {},
        headers: person.headers,
      };
    },
    "POST /api/akahu/exchange": async () => {
      const person = await member();
      return { path: "/api/akahu/exchange", body: await akahuState(person), headers: person.headers };
    },
    "POST /api/akahu/sync-accounts": async () => {
      const person = await bankConnected();
      return { path: "/api/akahu/sync-accounts", body: {}, headers: person.headers };
    },
    "POST /api/me/payment-types/bank-account": async () => {
      const person = await bankConnected();
      const accounts = (await setUp("POST", "/api/akahu/sync-accounts", {}, person.headers)) as {
        data: { id: string }[];
      };
      return {
        path: "/api/me/payment-types/bank-account",
        body: { account_id: accounts.data[0].id },
        headers: person.headers,
      };
    },
    "POST /api/me/payment-types/card/setup": async () => ({
      path: "/api/me/payment-types/card/setup",
      body: {},
      headers: (await member()).headers,
    }),
    "POST /api/me/payment-types/card": async () => {
      const person = await member();
      const setup = (await setUp("POST", "/api/me/payment-types/card/setup", {}, person.headers)) as {
        data: { setup_intent_id: string; stripe_account: string; client_secret: string; form_url: string };
      };
      await setUp("POST", "/api/dev/stripe/setup/confirm", {
        account: setup.data.stripe_account,
        setup_intent: setup.data.setup_intent_id,
        client_secret: setup.data.client_secret,
        return_url: new URL(setup.data.form_url).searchParams.get("return_url"),
        number: "4242424242424242",
        exp_month: 12,
        exp_year: 2034,
      });
      return {
        path: "/api/me/payment-types/card",
        body: { setup_intent_id: setup.data.setup_intent_id },
        headers: person.headers,
      };
    },
    "PUT /api/me/registration": async () => {
      // Someone who registered (and passed the code) choosing again before they confirm.
      const client = anonymous();
      const email = `budget.chooser${++people}@example.net`;
      const { today } = await dates();
      const { weekly, other } = await ownOffering();
      const choice = { gym: seed.gyms.ponsonby.uuid, start_date: today };
      await setUp(
        "POST",
        "/api/register",
        {
          ...choice,
          price_id: weekly,
          name: "budget chooser",
          email,
          mobile_number: "021 123 4569",
          dob: "1990-01-01",
          password: "a long passphrase",
        },
        {},
        client,
      );
      await setUp("POST", "/api/email/verify", { code: await latestCode(email) }, {}, client);
      return { path: "/api/me/registration", client, body: { ...choice, price_id: other } };
    },

    // Staff calls.
    "GET /api/accounting/gst-summary": async () => {
      const { monthStart, today } = await dates();
      return { path: `/api/accounting/gst-summary?from=${monthStart}&to=${today}`, headers: await admin() };
    },
    "GET /api/accounting/journals": async () => {
      const { monthStart, today } = await dates();
      return { path: `/api/accounting/journals?from=${monthStart}&to=${today}`, headers: await admin() };
    },
    "POST /api/accounting/journals/export": async () => {
      const { today, addDays } = await dates();
      return {
        path: "/api/accounting/journals/export",
        body: { from: addDays(today, -30), to: addDays(today, -1) },
        headers: await admin(),
      };
    },
    "GET /api/payouts": async () => {
      const { monthStart, today } = await dates();
      return { path: `/api/payouts?from=${monthStart}&to=${today}`, headers: await admin() };
    },
    "GET /api/payments/{id}/receipt": async () => {
      const payment = await paid();
      return { path: `/api/payments/${payment.paymentId}/receipt`, headers: await admin() };
    },
    "POST /api/payments/{id}/received": async () => {
      const transfer = await awaitingTransfer();
      return { path: `/api/payments/${transfer.paymentId}/received`, body: {}, headers: await admin() };
    },
    "POST /api/organisations/{id}/members/onboard-pif": async () => ({
      path: `/api/organisations/${organisationId}/members/onboard-pif`,
      body: {
        name: "budget onboarded",
        email: "budget.onboarded@example.net",
        price_id: offerings.prices.summerPif.price_id,
        gym_id: ponsonby,
        payment_method: "bank_transfer",
      },
      headers: await admin(),
    }),
    "POST /api/members/{id}/pif": async () => {
      const person = await member();
      return {
        path: `/api/members/${person.userId}/pif`,
        body: { price_id: offerings.prices.summerPif.price_id, gym_id: ponsonby, payment_method: "cash" },
        headers: await admin(),
      };
    },
    "POST /api/members/{id}/resend-pif-invite": async () => {
      const transfer = await awaitingTransfer();
      return { path: `/api/members/${transfer.userId}/resend-pif-invite`, body: {}, headers: await admin() };
    },
    "PUT /api/members/{id}": async (op) => {
      const person = await member();
      return {
        path: `/api/members/${person.userId}`,
        body: { ...(op.example as object), email: person.email },
        headers: await admin(),
      };
    },
    "DELETE /api/members/{id}": async () => ({
      path: `/api/members/${(await member()).userId}`,
      headers: await admin(),
    }),
    "POST /api/subscriptions/{id}/start-now": async () => {
      const { today, addDays } = await dates();
      const person = await subscribed(undefined, addDays(today, 7));
      return {
        path: `/api/subscriptions/${person.subscriptionId}/start-now`,
        body: {},
        headers: await admin(),
      };
    },
    "POST /api/subscriptions/{id}/pass-visits": async (op) => {
      const pass = (await setUp(
        "POST",
        `/api/offerings/${offerings.offerings.summer.offering_id}/prices`,
        { amount: 15_000, billing_frequency: "one_off", visits: 10, term_amount: 3, term_unit: "months" },
        await admin(),
      )) as { data: { id: string } };
      const person = await subscribed(pass.data.id);
      return {
        path: `/api/subscriptions/${person.subscriptionId}/pass-visits`,
        body: { visits: 2, reason: "The door failed" },
        headers: { ...op.headers, ...(await admin()) },
      };
    },
    "DELETE /api/subscriptions/{id}/pause": async () => {
      const person = await subscribed();
      const { today, addDays } = await dates();
      await setUp(
        "POST",
        `/api/subscriptions/${person.subscriptionId}/pause`,
        { pause_start_at: addDays(today, 14), pause_end_at: addDays(today, 28) },
        await admin(),
      );
      return { path: `/api/subscriptions/${person.subscriptionId}/pause`, headers: await admin() };
    },
    "POST /api/subscriptions/change-price-email-preview": async () => {
      const person = await subscribed();
      return {
        path: "/api/subscriptions/change-price-email-preview",
        body: { subscription_ids: [person.subscriptionId], price_id: (await ownOffering()).other },
        headers: await admin(),
      };
    },
    "POST /api/subscriptions/schedule-price-change": async () => {
      const person = await subscribed();
      return {
        path: "/api/subscriptions/schedule-price-change",
        body: { subscription_ids: [person.subscriptionId], price_id: (await ownOffering()).other },
        headers: await admin(),
      };
    },
    "POST /api/organisations/{id}/staff": async (op) => ({
      path: `/api/organisations/${organisationId}/staff`,
      body: {
        ...(op.example as object),
        email: `budget.invited${++people}@example.net`,
        gyms: [{ gym_id: ponsonby, role: "personal_trainer" }],
      },
      headers: await admin(),
    }),
    "POST /api/staff/{id}/resend-invitation": async () => ({
      path: `/api/staff/${(await invitation()).id}/resend-invitation`,
      body: {},
      headers: await admin(),
    }),
    "POST /api/staff/{id}/kisi-access": async () => ({
      path: `/api/staff/${seed.people.trainer.user_id}/kisi-access`,
      body: { gym_id: ponsonby, enabled: true },
      headers: await admin(),
    }),
    "PUT /api/promo-codes/{id}": async (op) => ({
      path: `/api/promo-codes/${(await unused.promo()).id}`,
      body: op.example,
      headers: await admin(),
    }),
    "DELETE /api/promo-codes/{id}/archive": async () => ({
      path: `/api/promo-codes/${(await unused.promo()).id}/archive`,
      headers: await admin(),
    }),
    "DELETE /api/offerings/{id}": async () => ({
      path: `/api/offerings/${await unused.offering()}`,
      headers: await admin(),
    }),
    "DELETE /api/prices/{id}": async () => ({
      path: `/api/prices/${await unused.price()}`,
      headers: await admin(),
    }),
    "PUT /api/gyms/{gymId}/destination-accounts/{accountId}": async () => {
      const headers = await admin();
      const gym = (await setUp("GET", `/api/gyms/${seed.gyms.newmarket.gym_id}`, undefined, headers)) as {
        data: { destination_account: { id: string } };
      };
      return {
        path: `/api/gyms/${seed.gyms.newmarket.gym_id}/destination-accounts/${gym.data.destination_account.id}`,
        body: {
          name: "Harbour Fitness Ltd",
          bank_account_number: "12 3140 0171323 50",
          bank_account_number_confirmation: "12-3140-0171323-50",
        },
        headers,
      };
    },

    "POST /api/stripe/exchange": async () => {
      const headers = await admin();
      const redirect = (await setUp(
        "POST",
        `/api/gyms/${seed.gyms.newmarket.gym_id}/stripe/redirect`,
        {},
        headers,
      )) as {
        data: { url: string };
      };
      const providerUrl = new URL(redirect.data.url);
      // The simulated consent page, approved as a browser would (routers/gyms.test.ts `consent`).
      const page = await fetch(world.url + providerUrl.pathname + providerUrl.search);
      const href =
        (await page.text()).match(/class="approve" href="([^"]+)"/)?.[1]?.replaceAll("&amp;", "&") ?? "";
      let target = new URL(href, world.url);
      if (target.pathname.startsWith("/api/")) {
        const approve = await fetch(target, { redirect: "manual" });
        target = new URL(approve.headers.get("location") ?? "", world.url);
      }
      return {
        path: "/api/stripe/exchange",
        body: { code: target.searchParams.get("code"), state: target.searchParams.get("state") },
        headers,
      };
    },
    "GET /api/files/profile-pictures/{userId}/{file}": async () => {
      // A photo from before photos were per organisation, named by the member's profile here.
      const person = await member();
      const key = `profile-pictures/${person.userId}/0123456789abcdef0123.jpg`;
      const { fileStore } = await import("../../packages/core/src/providers/files/index");
      await fileStore().put(key, Buffer.from(JPEG), "image/jpeg");
      const { saveProfile } = await import("../../packages/core/src/user/profile");
      await saveProfile(organisationId, person.userId, { profile_picture: key });
      return { path: `/api/files/${key}`, headers: await admin() };
    },

    // Door access (Kisi connected by the seeded gyms).
    "GET /api/organisations/{id}/access-control/places": async () => ({
      path: `/api/organisations/${organisationId}/access-control/places`,
      headers: await admin(),
    }),
    "GET /api/organisations/{id}/access-control/places/{placeId}/doors": async () => {
      const { SIMULATED_KISI_PLACES } = await import("../../packages/core/src/simulators/kisi");
      return {
        path: `/api/organisations/${organisationId}/access-control/places/${SIMULATED_KISI_PLACES[0].id}/doors`,
        headers: await admin(),
      };
    },
    "POST /api/organisations/{id}/access-control/integration": async () => ({
      path: `/api/organisations/${organisationId}/access-control/integration`,
      body: { integration_type: "kisi", api_key: "kisi_harbour_key_1234" },
      headers: await admin(),
    }),

    // Provider events, signed as each provider signs them.
    "POST /api/webhooks/stripe": async () => {
      const { signStripePayload } = await import("../../packages/core/src/providers/stripe/verify");
      const { SIMULATED_STRIPE_WEBHOOK_SECRET } = await import("../../packages/core/src/simulators/stripe");
      const now = Math.floor(Date.now() / 1000);
      const body = JSON.stringify({
        id: `evt_budget${now}`,
        object: "event",
        type: "account.updated",
        created: now,
        livemode: false,
        data: { object: { id: "acct_simHarbourPonsonby", object: "account", charges_enabled: true } },
      });
      return {
        path: "/api/webhooks/stripe",
        body,
        headers: { "Stripe-Signature": signStripePayload(body, SIMULATED_STRIPE_WEBHOOK_SECRET) },
      };
    },
    "POST /api/webhooks/akahu": async () => {
      const { signSimulatedAkahuWebhook } = await import("../../packages/core/src/simulators/akahu");
      const body = JSON.stringify({
        webhook_type: "PAYMENT",
        webhook_code: "UPDATE",
        state: organisationId,
        item_id: `payment_budget${Date.now()}`,
        status: "SENT",
      });
      const { keyId, signature } = signSimulatedAkahuWebhook(body);
      return {
        path: "/api/webhooks/akahu",
        body,
        headers: { "X-Akahu-Signature": signature, "X-Akahu-Signing-Key": keyId },
      };
    },
    "POST /api/webhooks/kisi/{secret}": async () => {
      const rotated = (await setUp(
        "POST",
        `/api/organisations/${organisationId}/access-control/webhook-secret`,
        {},
        await admin(),
      )) as { data: { webhook_url: string } };
      const { recordSimulatedKisiEvent, SIMULATED_KISI_LOCKS } = await import(
        "../../packages/core/src/simulators/kisi"
      );
      const lock = SIMULATED_KISI_LOCKS[0];
      const id = String(Date.now());
      recordSimulatedKisiEvent({
        id,
        action: "unlock",
        object_type: "Lock",
        place_id: lock.place_id,
        lock_id: lock.id,
      });
      return {
        path: new URL(rotated.data.webhook_url).pathname,
        body: JSON.stringify({
          id: Number(id),
          type: "lock.unlock",
          action: "unlock",
          place_id: Number(lock.place_id),
          object_id: Number(lock.id),
        }),
      };
    },
  };
}
