import { randomBytes } from "node:crypto";
import { type Stub, startStub } from "./server";

/**
 * Stripe's Connect OAuth endpoint as the SDK calls it: `POST /oauth/token` (form-encoded,
 * Bearer secret key) on connect.stripe.com. Codes come from {@link issueCode}; each works once.
 */
export interface StripeStub extends Stub {
  issueCode(): string;
  secretKey: string;
}

export async function startStripeStub(secretKey = "sk_test_stub_123"): Promise<StripeStub> {
  const codes = new Set<string>();
  const stub = await startStub((req) => {
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
    issueCode() {
      const code = `ac_${randomBytes(8).toString("hex")}`;
      codes.add(code);
      return code;
    },
  };
}
