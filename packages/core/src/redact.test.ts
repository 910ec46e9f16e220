import { describe, expect, it } from "vitest";
import { redactBody } from "./redact";

describe("webhook body redaction", () => {
  it("removes secrets, tokens and contact details but keeps ids and types", () => {
    const body = redactBody(
      JSON.stringify({
        id: "evt_123",
        type: "payment_intent.succeeded",
        account: "acct_1",
        data: {
          object: {
            id: "pi_1",
            amount: 6000,
            customer_email: "a@b.nz",
            client_secret: "pi_1_secret_x",
            card: { last4: "4242", exp_month: 12 },
          },
        },
        token: "user_token_abc",
      }),
    );
    const parsed = JSON.parse(body);
    expect(parsed).toMatchObject({
      id: "evt_123",
      type: "payment_intent.succeeded",
      account: "acct_1",
      token: "[redacted]",
    });
    expect(parsed.data.object).toMatchObject({
      id: "pi_1",
      amount: 6000,
      customer_email: "[redacted]",
      client_secret: "[redacted]",
    });
    expect(parsed.data.object.card.last4).toBe("4242");
  });

  it("masks card and bank numbers wherever they appear", () => {
    const body = redactBody(
      JSON.stringify({ description: "card 4242 4242 4242 4242 from 12-3140-0171323-50", note: "x" }),
    );
    expect(body).not.toContain("4242 4242");
    expect(body).not.toContain("0171323");
    expect(body).toContain("…4242");
    expect(redactBody("not json 4111111111111111")).toBe("not json [redacted …1111]");
  });
});
