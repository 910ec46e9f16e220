import { randomBytes } from "node:crypto";
import { type Stub, type StubRequest, startStub } from "./server";

/**
 * Stripe's API as the SDK calls it. Connect OAuth: `POST /oauth/token` (form-encoded, Bearer
 * secret key) on connect.stripe.com; codes come from {@link issueCode}, each works once. Saved
 * cards and payments on a connected account (`Stripe-Account` header, required here):
 * `POST /v1/customers`, `POST /v1/setup_intents`, `GET /v1/setup_intents/{id}` (`expand[]=payment_method`),
 * `POST /v1/payment_intents` (`confirm=true&off_session=true`), `GET /v1/payment_intents/{id}`,
 * `GET /v1/payouts` (`arrival_date[gte]`), `GET /v1/payouts/{id}` and `GET /v1/balance_transactions?payout=…&type=charge&expand[]=data.source`
 * (payouts made by {@link StripeStub.payOut}).
 * POSTs honour `Idempotency-Key` the way Stripe does (the first answer is replayed; other
 * parameters with the same key are refused). Like Stripe, a charge answers at once: `succeeded`,
 * or HTTP 402 `card_error` with the failed PaymentIntent attached. The card number a member types
 * into Stripe.js is stood in for by {@link confirmSetupIntent}.
 */
export interface StripeStub extends Stub {
  issueCode(): string;
  secretKey: string;
  /** What Stripe.js does in the member's browser: confirms the SetupIntent with a card number. */
  confirmSetupIntent(account: string, setupIntentId: string, number: string): void;
  /** Makes the next POST fail with a 500 after doing its work (a lost answer). */
  failNextPost(): void;
  /** Stripe paying the account's succeeded charges not paid out before, less `fee` each: the payout's id. */
  payOut(account: string, fee: number, arrivalDate: number): string;
}

/** Stripe's test numbers the stand-in knows; any other number pays. */
const DECLINES: Record<string, { code: string; decline_code: string; message: string }> = {
  "4000000000000341": {
    code: "card_declined",
    decline_code: "generic_decline",
    message: "Your card was declined.",
  },
  "4000000000009995": {
    code: "card_declined",
    decline_code: "insufficient_funds",
    message: "Your card has insufficient funds.",
  },
  "4000000000009987": {
    code: "card_declined",
    decline_code: "lost_card",
    message: "Your card was declined.",
  },
  "4000000000000069": {
    code: "expired_card",
    decline_code: "expired_card",
    message: "Your card has expired.",
  },
};

/** Stripe's form encoding back into an object: `metadata[a]=1&types[0]=card`. */
function parseForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const nested = key.match(/^(\w+)\[(\w*)\]$/);
    if (!nested) {
      out[key] = value;
      continue;
    }
    const [, outer, inner] = nested;
    if (inner === "" || /^\d+$/.test(inner)) out[outer] = [...((out[outer] as string[]) ?? []), value];
    else out[outer] = { ...((out[outer] as Record<string, string>) ?? {}), [inner]: value };
  }
  return out;
}

interface StubAccount {
  objects: Map<string, Record<string, unknown>>;
  idempotent: Map<string, { params: string; status: number; body: unknown }>;
  numbers: Map<string, string>;
  /** Charges paid out: PaymentIntent id → its balance transaction. */
  paidOut: Map<string, Record<string, unknown> & { payout: string }>;
}

export async function startStripeStub(secretKey = "sk_test_stub_123"): Promise<StripeStub> {
  const codes = new Set<string>();
  const accounts = new Map<string, StubAccount>();
  let failNext = false;
  const accountOf = (name: string): StubAccount => {
    let found = accounts.get(name);
    if (!found) {
      found = { objects: new Map(), idempotent: new Map(), numbers: new Map(), paidOut: new Map() };
      accounts.set(name, found);
    }
    return found;
  };
  const newId = (prefix: string) => `${prefix}_stub${randomBytes(8).toString("hex")}`;
  const error = (status: number, type: string, message: string, extra: Record<string, unknown> = {}) => ({
    status,
    body: { error: { type, message, ...extra } },
  });

  function api(req: StubRequest, account: StubAccount): { status: number; body: unknown } | null {
    const form = parseForm(req.body);
    if (req.method === "POST" && req.path === "/v1/customers") {
      const customer = { id: newId("cus"), object: "customer", email: form.email, name: form.name };
      account.objects.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if (req.method === "POST" && req.path === "/v1/setup_intents") {
      if (!account.objects.has(String(form.customer)))
        return error(400, "invalid_request_error", `No such customer: '${form.customer}'`);
      const id = newId("seti");
      const intent = {
        id,
        object: "setup_intent",
        client_secret: `${id}_secret_${randomBytes(8).toString("hex")}`,
        customer: form.customer,
        usage: form.usage,
        payment_method_types: form.payment_method_types,
        payment_method: null as string | null,
        status: "requires_payment_method",
      };
      account.objects.set(id, intent);
      return { status: 200, body: intent };
    }
    const setup = req.path.match(/^\/v1\/setup_intents\/(\w+)$/);
    if (req.method === "GET" && setup) {
      const intent = account.objects.get(setup[1]);
      if (!intent) return error(404, "invalid_request_error", `No such setupintent: '${setup[1]}'`);
      const expand = req.query.getAll("expand[]").concat(req.query.getAll("expand[0]"));
      const method =
        expand.includes("payment_method") && intent.payment_method
          ? account.objects.get(String(intent.payment_method))
          : intent.payment_method;
      return { status: 200, body: { ...intent, payment_method: method } };
    }
    if (req.method === "POST" && req.path === "/v1/payment_intents") {
      const method = account.objects.get(String(form.payment_method));
      if (!method || method.customer !== form.customer)
        return error(400, "invalid_request_error", `No such PaymentMethod: '${form.payment_method}'`);
      if (form.confirm !== "true" || form.off_session !== "true")
        return error(400, "invalid_request_error", "The stand-in only takes confirmed off-session payments.");
      const decline = DECLINES[account.numbers.get(String(form.payment_method)) ?? ""];
      const id = newId("pi");
      const intent = {
        id,
        object: "payment_intent",
        amount: Number(form.amount),
        currency: form.currency,
        customer: form.customer,
        payment_method: form.payment_method,
        description: form.description,
        metadata: form.metadata ?? {},
        status: decline ? "requires_payment_method" : "succeeded",
        last_payment_error: decline
          ? { type: "card_error", ...decline, payment_method: { id: form.payment_method } }
          : null,
        livemode: false,
      };
      account.objects.set(id, intent);
      return decline
        ? error(402, "card_error", decline.message, {
            code: decline.code,
            decline_code: decline.decline_code,
            payment_intent: intent,
          })
        : { status: 200, body: intent };
    }
    if (req.method === "GET" && req.path === "/v1/payouts") {
      const since = Number(req.query.get("arrival_date[gte]") ?? 0);
      const data = [...account.objects.values()]
        .filter((o) => o.object === "payout" && Number(o.arrival_date) >= since)
        .reverse();
      return { status: 200, body: { object: "list", url: "/v1/payouts", has_more: false, data } };
    }
    const payout = req.path.match(/^\/v1\/payouts\/(\w+)$/);
    if (req.method === "GET" && payout) {
      const found = account.objects.get(payout[1]);
      return found
        ? { status: 200, body: found }
        : error(404, "invalid_request_error", `No such payout: '${payout[1]}'`);
    }
    if (req.method === "GET" && req.path === "/v1/balance_transactions") {
      const payoutId = req.query.get("payout");
      const data = [...account.paidOut.values()].filter(
        (t) => t.payout === payoutId && (req.query.get("type") ?? "charge") === t.type,
      );
      return {
        status: 200,
        body: { object: "list", url: "/v1/balance_transactions", has_more: false, data },
      };
    }
    const payment = req.path.match(/^\/v1\/payment_intents\/(\w+)$/);
    if (req.method === "GET" && payment) {
      const intent = account.objects.get(payment[1]);
      return intent
        ? { status: 200, body: intent }
        : error(404, "invalid_request_error", `No such payment_intent: '${payment[1]}'`);
    }
    return null;
  }

  const stub = await startStub((req) => {
    if (req.path.startsWith("/v1/")) {
      if (req.headers.authorization !== `Bearer ${secretKey}`)
        return error(401, "invalid_request_error", "Invalid API Key provided");
      const name = req.headers["stripe-account"];
      if (typeof name !== "string" || !name.startsWith("acct_"))
        return error(400, "invalid_request_error", "The stand-in needs the Stripe-Account header.");
      const account = accountOf(name);
      const key = req.headers["idempotency-key"];
      if (req.method !== "POST" || typeof key !== "string") return api(req, account);
      const params = `${req.path}?${req.body}`;
      const seen = account.idempotent.get(key);
      if (seen) {
        return seen.params === params
          ? { status: seen.status, body: seen.body }
          : error(
              400,
              "idempotency_error",
              "Keys for idempotent requests can only be used with the same parameters they were first used with.",
            );
      }
      const answer = api(req, account);
      if (answer) account.idempotent.set(key, { params, status: answer.status, body: answer.body });
      if (answer && failNext) {
        failNext = false;
        return error(500, "api_error", "Something went wrong on Stripe's end (stand-in).");
      }
      return answer;
    }
    if (req.method === "POST" && req.path === "/oauth/token") {
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        return {
          status: 401,
          body: { error: { type: "invalid_request_error", message: "Invalid API Key provided" } },
        };
      }
      const form = new URLSearchParams(req.body);
      const code = form.get("code") ?? "";
      if (form.get("grant_type") !== "authorization_code" || !codes.delete(code)) {
        return {
          status: 400,
          body: { error: "invalid_grant", error_description: `Authorization code does not exist: ${code}` },
        };
      }
      return {
        status: 200,
        body: {
          access_token: "sk_test_connected",
          livemode: false,
          refresh_token: "rt_stub",
          scope: "read_write",
          stripe_publishable_key: "pk_test_stub",
          stripe_user_id: "acct_1StubConnected",
          token_type: "bearer",
        },
      };
    }
    return null;
  });
  return {
    ...stub,
    secretKey,
    confirmSetupIntent(account, setupIntentId, number) {
      const store = accountOf(account);
      const intent = store.objects.get(setupIntentId);
      if (!intent) throw new Error(`No such setup intent ${setupIntentId}`);
      const method = {
        id: newId("pm"),
        object: "payment_method",
        type: "card",
        customer: intent.customer,
        card: {
          brand: number.startsWith("4") ? "visa" : "mastercard",
          exp_month: 12,
          exp_year: new Date().getUTCFullYear() + 3,
          last4: number.slice(-4),
          country: "US",
          // Stripe's: the same for one card number on one account.
          fingerprint: `fp_${number.slice(-8)}`,
        },
      };
      store.objects.set(method.id, method);
      store.numbers.set(method.id, number);
      intent.payment_method = method.id;
      intent.status = "succeeded";
    },
    failNextPost() {
      failNext = true;
    },
    payOut(name, fee, arrivalDate) {
      const store = accountOf(name);
      const id = newId("po");
      let amount = 0;
      for (const intent of store.objects.values()) {
        if (intent.object !== "payment_intent" || intent.status !== "succeeded") continue;
        if (store.paidOut.has(String(intent.id))) continue;
        const charged = Number(intent.amount);
        amount += charged - fee;
        store.paidOut.set(String(intent.id), {
          id: newId("txn"),
          object: "balance_transaction",
          type: "charge",
          amount: charged,
          fee,
          net: charged - fee,
          payout: id,
          source: {
            id: `ch_${String(intent.id).slice(3)}`,
            object: "charge",
            payment_intent: intent.id,
            metadata: intent.metadata,
          },
        });
      }
      store.objects.set(id, {
        id,
        object: "payout",
        amount,
        arrival_date: arrivalDate,
        status: "paid",
        currency: "nzd",
      });
      return id;
    },
    issueCode() {
      const code = `ac_${randomBytes(8).toString("hex")}`;
      codes.add(code);
      return code;
    },
  };
}
