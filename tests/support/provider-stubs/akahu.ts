import { createSign, generateKeyPairSync, randomBytes } from "node:crypto";
import { basicAuth, type Stub, startStub } from "./server";

/**
 * Akahu's API as the SDK calls it (base `/v1`): `POST /token` (code exchange with the app's
 * token and secret), `GET /accounts` (Bearer user token), `GET /keys/{id}` (webhook signing
 * key, HTTP basic with the app's token and secret). Payments with a user token (and the app's
 * `X-Akahu-Id`): `POST /payments` (amount in dollars, at most 2 decimals; `Idempotency-Key`
 * replays the first answer), `GET /payments/{id}`, `GET /payments?start=&end=`; `POST /webhooks`.
 * Responses use Akahu's `success` envelope. A payment answers `READY`; a read settles it by the
 * account paid from (Everyday sends; Low balance is DECLINED INSUFFICIENT_FUNDS; Closed account
 * DECLINED INVALID_ACCOUNT; Slow bank stays PENDING_APPROVAL for two reads, then SENT).
 */
export interface AkahuStub extends Stub {
  app: { appToken: string; appSecret: string };
  issueCode(): string;
  keyId: number;
  sign(body: string): string;
  /** Makes the next POST /payments lose its answer (500 after the payment is made). */
  failNextPayment(): void;
}

const stubAccount = (id: string, name: string, formatted: string) => ({
  _id: id,
  _authorisation: "auth_stub",
  name,
  formatted_account: formatted,
  type: "CHECKING",
  status: "ACTIVE",
  connection: { _id: "conn_stub", name: "Stub Bank", logo: "" },
  attributes: ["PAYMENT_FROM"],
});
const ACCOUNTS = [
  stubAccount("acc_stub1", "Everyday", "12-3140-0171323-50"),
  stubAccount("acc_stub_lowfunds", "Low balance", "12-3140-0171323-51"),
  stubAccount("acc_stub_closed", "Closed account", "12-3140-0171323-52"),
  stubAccount("acc_stub_slow", "Slow bank", "12-3140-0171323-53"),
];

interface StubPayment {
  token: string;
  reads: number;
  item: Record<string, unknown> & { _id: string; from: string; status: string; final: boolean };
}

export async function startAkahuStub(): Promise<AkahuStub> {
  const app = { appToken: "app_token_stub", appSecret: "app_secret_stub" };
  const codes = new Set<string>();
  const tokens = new Set<string>();
  const payments = new Map<string, StubPayment>();
  const idempotent = new Map<string, { params: string; status: number; body: unknown }>();
  let failNext = false;
  const userOf = (req: { headers: Record<string, unknown> }) => {
    const token = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
    return tokens.has(token) && req.headers["x-akahu-id"] === app.appToken ? token : null;
  };
  const settleOnRead = (payment: StubPayment) => {
    payment.reads += 1;
    const item = payment.item;
    if (item.final) return;
    if (payment.item.from === "acc_stub_slow") {
      if (payment.reads <= 2) {
        item.status = "PENDING_APPROVAL";
        return;
      }
      Object.assign(item, { status: "SENT", final: true });
    } else if (item.from === "acc_stub_lowfunds") {
      Object.assign(item, {
        status: "DECLINED",
        final: true,
        status_code: "INSUFFICIENT_FUNDS",
        status_text: "Insufficient funds",
      });
    } else if (item.from === "acc_stub_closed") {
      Object.assign(item, {
        status: "DECLINED",
        final: true,
        status_code: "INVALID_ACCOUNT",
        status_text: "Account closed",
      });
    } else {
      Object.assign(item, { status: "SENT", final: true });
    }
    (item.timeline as unknown[]).push({ status: item.status, time: new Date().toISOString() });
  };
  const keyId = 7;
  const keys = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const stub = await startStub((req) => {
    if (req.method === "POST" && req.path === "/v1/token") {
      const body = JSON.parse(req.body || "{}");
      if (body.client_id !== app.appToken || body.client_secret !== app.appSecret) {
        return { status: 401, body: { success: false, message: "Unauthorized" } };
      }
      if (body.grant_type !== "authorization_code" || !codes.delete(body.code)) {
        return { status: 400, body: { success: false, message: "invalid_grant" } };
      }
      const token = `user_token_${randomBytes(8).toString("hex")}`;
      tokens.add(token);
      return {
        status: 200,
        body: { success: true, access_token: token, token_type: "bearer", scope: "ENDURING_CONSENT" },
      };
    }
    if (req.method === "GET" && req.path === "/v1/accounts") {
      const token = req.headers.authorization?.replace(/^Bearer /, "") ?? "";
      if (!tokens.has(token)) return { status: 401, body: { success: false, message: "Unauthorized" } };
      return { status: 200, body: { success: true, items: ACCOUNTS } };
    }
    if (req.path === "/v1/payments" || req.path.startsWith("/v1/payments/") || req.path === "/v1/webhooks") {
      const token = userOf(req);
      if (!token) return { status: 401, body: { success: false, message: "Unauthorized" } };
      if (req.method === "POST" && req.path === "/v1/webhooks") {
        return {
          status: 200,
          body: { success: true, item_id: `hook_stub${randomBytes(4).toString("hex")}` },
        };
      }
      if (req.method === "POST" && req.path === "/v1/payments") {
        const key = req.headers["idempotency-key"];
        if (typeof key !== "string")
          return {
            status: 400,
            body: { success: false, message: "Idempotency-Key required by the stand-in" },
          };
        const params = `${token}:${req.body}`;
        const seen = idempotent.get(key);
        if (seen) {
          return seen.params === params
            ? { status: seen.status, body: seen.body }
            : {
                status: 400,
                body: { success: false, message: "Idempotency key reused with a different request" },
              };
        }
        const body = JSON.parse(req.body || "{}");
        let answer: { status: number; body: unknown };
        if (!ACCOUNTS.some((a) => a._id === body.from)) {
          answer = { status: 400, body: { success: false, message: `Account ${body.from} not found` } };
        } else if (typeof body.amount !== "number" || !/^\d+(\.\d{1,2})?$/.test(String(body.amount))) {
          answer = {
            status: 400,
            body: { success: false, message: "amount must have at most 2 decimal places" },
          };
        } else {
          const now = new Date().toISOString();
          const item = {
            _id: `payment_stub${randomBytes(6).toString("hex")}`,
            sid: `akahu-${randomBytes(3).toString("hex").toUpperCase()}`,
            from: body.from,
            to: body.to,
            amount: body.amount,
            meta: body.meta ?? {},
            status: "READY",
            final: false,
            timeline: [{ status: "READY", time: now }],
            created_at: now,
            updated_at: now,
          };
          payments.set(item._id, { token, reads: 0, item });
          answer = { status: 200, body: { success: true, item } };
        }
        idempotent.set(key, { params, status: answer.status, body: structuredClone(answer.body) });
        if (failNext) {
          failNext = false;
          return { status: 500, body: { success: false, message: "Internal error (stand-in)" } };
        }
        return answer;
      }
      if (req.method === "GET" && req.path === "/v1/payments") {
        const start = Date.parse(req.query.get("start") ?? "1970-01-01");
        const end = Date.parse(req.query.get("end") ?? "2999-01-01");
        const items = [...payments.values()]
          .filter((p) => p.token === token)
          .map((p) => p.item)
          .filter((item) => {
            const at = Date.parse(String(item.created_at));
            return at >= start && at <= end;
          });
        return { status: 200, body: { success: true, items } };
      }
      const one = req.path.match(/^\/v1\/payments\/(\w+)$/);
      if (req.method === "GET" && one) {
        const payment = payments.get(one[1]);
        if (!payment || payment.token !== token)
          return { status: 404, body: { success: false, message: "Not found" } };
        settleOnRead(payment);
        return { status: 200, body: { success: true, item: payment.item } };
      }
    }
    if (req.method === "GET" && req.path === `/v1/keys/${keyId}`) {
      const auth = basicAuth(req.headers.authorization);
      if (auth?.user !== app.appToken || auth.password !== app.appSecret)
        return { status: 401, body: { success: false, message: "Unauthorized" } };
      return { status: 200, body: { success: true, item: keys.publicKey } };
    }
    return null;
  });
  return {
    ...stub,
    app,
    keyId,
    issueCode() {
      const code = `id_${randomBytes(8).toString("hex")}`;
      codes.add(code);
      return code;
    },
    failNextPayment() {
      failNext = true;
    },
    sign(body: string) {
      const signer = createSign("sha256");
      signer.update(body);
      return signer.sign(keys.privateKey, "base64");
    },
  };
}
