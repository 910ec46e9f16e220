import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sesSender } from "./port";

/** A local stand-in for SES v2's HTTP API: records what it is sent. */
const received: { path: string; auth: string; body: any }[] = [];
let status = 200;
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    received.push({
      path: req.url ?? "",
      auth: String(req.headers.authorization ?? ""),
      body: JSON.parse(body),
    });
    res.writeHead(status, { "content-type": "application/json" });
    res.end(status === 200 ? '{"MessageId":"m-1"}' : '{"message":"Email address is not verified."}');
  });
});
let endpoint = "";

beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const credentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret", sessionToken: "token" };

describe("SES adapter (against a local stand-in of the SES v2 API)", () => {
  it("sends SendEmail signed with SigV4 for the ses service", async () => {
    await sesSender({ endpoint, region: "ap-southeast-2", credentials }).send({
      to: "member@example.com",
      subject: "123456 is your sign-in code",
      text: "Your code is 123456",
      html: "<p>123456</p>",
    });
    const [call] = received;
    expect(call.path).toBe("/v2/email/outbound-emails");
    expect(call.auth).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/ap-southeast-2\/ses\/aws4_request/,
    );
    expect(call.body.Destination.ToAddresses).toEqual(["member@example.com"]);
    expect(call.body.Content.Simple.Subject.Data).toBe("123456 is your sign-in code");
    expect(call.body.Content.Simple.Body.Html.Data).toBe("<p>123456</p>");
  });

  it("fails loudly when SES refuses", async () => {
    status = 400;
    process.env.LOG_LEVEL = "silent";
    await expect(
      sesSender({ endpoint, credentials }).send({ to: "x@example.com", subject: "s", text: "t" }),
    ).rejects.toThrow(/SES SendEmail failed with 400/);
  });
});
