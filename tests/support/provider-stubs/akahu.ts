import { createSign, generateKeyPairSync, randomBytes } from "node:crypto";
import { basicAuth, type Stub, startStub } from "./server";

/**
 * Akahu's API as the SDK calls it (base `/v1`): `POST /token` (code exchange with the app's
 * token and secret), `GET /accounts` (Bearer user token), `GET /keys/{id}` (webhook signing
 * key, HTTP basic with the app's token and secret). Responses use Akahu's `success` envelope.
 */
export interface AkahuStub extends Stub {
  app: { appToken: string; appSecret: string };
  issueCode(): string;
  keyId: number;
  sign(body: string): string;
}

export async function startAkahuStub(): Promise<AkahuStub> {
  const app = { appToken: "app_token_stub", appSecret: "app_secret_stub" };
  const codes = new Set<string>();
  const tokens = new Set<string>();
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
      return {
        status: 200,
        body: {
          success: true,
          items: [
            {
              _id: "acc_stub1",
              _authorisation: "auth_stub",
              name: "Everyday",
              formatted_account: "12-3140-0171323-50",
              type: "CHECKING",
              status: "ACTIVE",
              connection: { _id: "conn_stub", name: "Stub Bank", logo: "" },
              attributes: ["PAYMENT_FROM"],
            },
          ],
        },
      };
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
    sign(body: string) {
      const signer = createSign("sha256");
      signer.update(body);
      return signer.sign(keys.privateKey, "base64");
    },
  };
}
