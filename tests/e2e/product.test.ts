import { describe, expect, it } from "vitest";
import { screenshotPath, useProductAndBrowser, viewports } from "../support/e2e";

// Its own product: it stops the product and checks nothing is left behind.
const e2e = useProductAndBrowser({}, { own: true });

describe("the product as npm start runs it", () => {
  it("prints both URLs and the demo sign-ins", () => {
    expect(e2e.product.output()).toContain(`Staff site:  ${e2e.product.staffUrl}`);
    expect(e2e.product.output()).toContain(`Join site:   ${e2e.product.joinUrl}`);
    expect(e2e.product.output()).toContain("admin@example.com");
    expect(e2e.product.output()).toContain("demo-password");
  });

  it("answers /api/health on both hosts with the database reachable", async () => {
    for (const url of [e2e.product.staffUrl, e2e.product.joinUrl]) {
      const response = await fetch(`${url}/api/health`);
      expect(response.status).toBe(200);
      expect(
        ((await response.json()) as { data: { database: { reachable: boolean } } }).data.database.reachable,
      ).toBe(true);
    }
  });

  it("serves the staff sign-in page on the staff host", async () => {
    const page = await e2e.browser.newPage({ viewport: viewports.desktop });
    await page.goto(e2e.product.staffUrl);
    await page.waitForURL(/\/login/);
    await page.getByRole("button", { name: /sign in/i }).waitFor({ state: "visible" });
    await page.getByLabel(/email/i).first().waitFor({ state: "visible" });
    await page.screenshot({ path: screenshotPath("staff-login-desktop") });
    await page.close();
  });

  it("serves the register page on the join host, on a phone", async () => {
    const page = await e2e.browser.newPage({ viewport: viewports.phone });
    // A member registers from their gym's link, printed in the start banner.
    const link = e2e.product.output().match(/Harbour Fitness Ponsonby:\s+(\S+)/)?.[1];
    expect(link?.startsWith(`${e2e.product.joinUrl}/?gym=`)).toBe(true);
    await page.goto(link!);
    await page.getByLabel(/email/i).first().waitFor({ state: "visible" });
    await page.screenshot({ path: screenshotPath("product-join-phone") });
    await page.close();
  });

  it("shows the developer mailbox page", async () => {
    const page = await e2e.browser.newPage({ viewport: viewports.desktop });
    await page.goto(`${e2e.product.staffUrl}/dev/mail`);
    await page
      .getByText(/mailbox/i)
      .first()
      .waitFor({ state: "visible" });
    await page.close();
  });

  it("stops everything when its process is told to stop: no Java or Node process is left behind", async () => {
    // A signal to the npm start process alone (as a supervisor sends it); Ctrl-C in a terminal
    // reaches the whole group, which is the easier case.
    process.kill(e2e.product.pid, "SIGINT");
    await Promise.race([e2e.product.exited, new Promise((r) => setTimeout(r, 15_000))]);
    const { execFileSync } = await import("node:child_process");
    const left = String(execFileSync("ps", ["-eo", "pid,args"]))
      .split("\n")
      .filter(
        (line) =>
          line.includes(`-port ${e2e.product.dynamoPort} `) ||
          line.includes(`STAFF_PORT=${new URL(e2e.product.staffUrl).port}`),
      );
    expect(left).toEqual([]);
    const health = await fetch(`${e2e.product.staffUrl}/api/health`).catch(() => null);
    expect(health).toBeNull();
  });
});
