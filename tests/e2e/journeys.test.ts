import { deflateSync } from "node:zlib";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshotPath, signInViaApi, staffPage, useProductAndBrowser, viewports } from "../support/e2e";

/**
 * Issue 23's journeys, each as a person meets it: a member on a phone following an email's link,
 * staff at the desk knowing a member by their photo, a trainer shown only what they may do, the
 * dashboard on the business clock, and a start date that defaults to the business date.
 */
const e2e = useProductAndBrowser();
const headers = { "X-Requested-With": "XMLHttpRequest" };

/** A 32×32 PNG, one colour. */
function png(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(32, 0);
  header.writeUInt32BE(32, 4);
  header[8] = 8;
  header[9] = 2;
  const rows = Buffer.alloc((32 * 3 + 1) * 32, 120);
  for (let y = 0; y < 32; y++) rows[y * (32 * 3 + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

async function ponsonbyUuid(): Promise<string> {
  const context = await e2e.browser.newContext();
  await signInViaApi(context, e2e.product.staffUrl, "admin@example.com");
  const get = async (path: string) =>
    (await (await context.request.get(`${e2e.product.staffUrl}${path}`)).json()).data;
  const gym = (await get("/api/gyms")).find((g: { name: string }) => g.name === "Harbour Fitness Ponsonby");
  const uuid = (await get(`/api/gyms/${gym.id}`)).uuid as string;
  await context.close();
  return uuid;
}

async function consoleErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  return errors;
}

/** An image on the page that the browser actually loaded. */
async function loadedImage(page: Page, selector: string) {
  await expect
    .poll(() =>
      page.evaluate(
        (s) =>
          [...document.querySelectorAll<HTMLImageElement>(s)].some(
            (img) => img.complete && img.naturalWidth > 0,
          ),
        selector,
      ),
    )
    .toBe(true);
}

describe("a member following an email", () => {
  it("'Update your payment method' opens the payment step: signed in at once, signed out through sign-in", async () => {
    const mail = (await (await fetch(`${e2e.product.staffUrl}/api/dev/mail`)).json()).data as {
      html?: string;
    }[];
    const link = mail
      .flatMap((m) => [...(m.html ?? "").matchAll(/href="([^"]+\/payment-method)"/g)].map((x) => x[1]))
      .at(0);
    expect(link, "the seed's failed payment emailed a link").toBeTruthy();
    const url = new URL(link!).pathname;

    // Signed out on a phone: not "Page not found", but sign-in that comes back here.
    const guest = await (
      await e2e.browser.newContext({ viewport: viewports.phone, isMobile: true })
    ).newPage();
    await guest.goto(`${e2e.product.joinUrl}${url}`);
    await guest.waitForURL(/redirect=%2Fchoose-payment-method/);
    expect(await guest.getByText("Page not found").count()).toBe(0);
    await guest.context().close();

    // Signed in (the demo member, subscribed): the page to change how they pay.
    const context = await e2e.browser.newContext({ viewport: viewports.phone, isMobile: true });
    await signInViaApi(context, e2e.product.staffUrl, "member@example.com");
    const page = await context.newPage();
    await page.goto(`${e2e.product.joinUrl}${url}`);
    await page.getByRole("heading", { name: "Choose how to pay" }).waitFor();
    await page.screenshot({ path: screenshotPath("journeys-payment-method-phone") });
    await context.close();
  }, 60_000);
});

describe("staff at the desk", () => {
  it("see the member's photo on the member page, the members list and search", async () => {
    const member = await e2e.browser.newContext();
    await signInViaApi(member, e2e.product.staffUrl, "member@example.com");
    const upload = await member.request.post(`${e2e.product.staffUrl}/api/profile-picture`, {
      headers,
      multipart: { file: { name: "me.png", mimeType: "image/png", buffer: png() } },
    });
    expect(upload.status()).toBe(200);
    const id = (await (await member.request.get(`${e2e.product.staffUrl}/api/me`)).json()).data.id as string;
    await member.close();

    const page = await staffPage(e2e.browser, e2e.product, "admin@example.com");
    // A tag, to find them on the list's first page.
    const tagged = await page.context().request.put(`${e2e.product.staffUrl}/api/members/${id}`, {
      headers,
      data: { tags: ["desk"] },
    });
    expect(tagged.status()).toBe(200);
    await page.goto(`${e2e.product.staffUrl}/members/${id}`);
    await page.getByRole("heading", { level: 1, name: "Morgan Member" }).waitFor();
    await loadedImage(page, 'main img[src^="/api/files/profile-pictures/"]');

    await page.goto(`${e2e.product.staffUrl}/members?tag=desk`);
    await page.getByRole("link", { name: "Morgan Member" }).waitFor();
    await loadedImage(page, 'main img[src^="/api/files/profile-pictures/"]');

    await page.getByLabel("Search members").first().fill("morgan");
    await page.getByRole("option", { name: /Morgan Member/ }).waitFor();
    await loadedImage(page, '[role="option"] img[src^="/api/files/profile-pictures/"]');
    await page.screenshot({ path: screenshotPath("journeys-search-photo-desktop") });
    await page.context().close();
  }, 60_000);

  it("a personal trainer is shown no money and no actions they may not take", async () => {
    const page = await staffPage(e2e.browser, e2e.product, "trainer@example.com");
    const errors = await consoleErrors(page);
    await page.goto(`${e2e.product.staffUrl}/dashboard`);
    await page.getByRole("heading", { level: 1, name: /, Taylor$/ }).waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Members" }).waitFor();
    expect(await nav.getByRole("link", { name: "Payments" }).count()).toBe(0);
    expect(await page.getByText(/revenue/i).count()).toBe(0);
    expect(await page.getByRole("link", { name: /Quote a first payment/ }).count()).toBe(0);

    for (const path of ["/payments", "/members/change-price", "/calculate-pro-rata", "/members/pif"]) {
      await page.goto(`${e2e.product.staffUrl}${path}`);
      await page.waitForURL(/\/dashboard$/);
    }
    await page.goto(`${e2e.product.staffUrl}/members?tag=desk`);
    await page.getByRole("link", { name: "Morgan Member" }).click();
    await page.getByRole("heading", { level: 1, name: "Morgan Member" }).waitFor();
    await page
      .getByRole("button", { name: "Activity" })
      .or(page.getByRole("link", { name: "Activity" }))
      .waitFor();
    expect(await page.getByRole("button", { name: "Edit details" }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath("journeys-trainer-member-desktop") });
    expect(errors).toEqual([]);
    await page.context().close();
  }, 60_000);
});

describe("the business clock", () => {
  it("the dashboard's date follows it, with no failing call; a new member's start date defaults to it", async () => {
    const moved = await fetch(`${e2e.product.staffUrl}/api/dev/clock`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ advance_days: 40 }),
    });
    expect(moved.status).toBe(200);
    const now = (await moved.json()).data.now as string;
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Auckland" }).format(new Date(now));
    const long = new Intl.DateTimeFormat("en-NZ", {
      timeZone: "Pacific/Auckland",
      day: "numeric",
      month: "long",
      year: "numeric",
    }).format(new Date(now));
    try {
      const page = await staffPage(e2e.browser, e2e.product, "admin@example.com");
      const errors = await consoleErrors(page);
      await page.goto(`${e2e.product.staffUrl}/dashboard`);
      await page.getByRole("heading", { level: 1, name: /, Avery$/ }).waitFor();
      await page.getByText(long, { exact: false }).first().waitFor();
      await page.getByText("Active members").first().waitFor();
      await page.waitForLoadState("networkidle");
      expect(errors).toEqual([]);
      await page.context().close();

      // The gym's link on a phone: the start date is the business date, which the server accepts.
      const join = await (
        await e2e.browser.newContext({ viewport: viewports.phone, isMobile: true })
      ).newPage();
      await join.goto(`${e2e.product.joinUrl}/?gym=${await ponsonbyUuid()}`);
      await join.getByRole("radio").first().waitFor();
      expect(await join.getByLabel(/^Start date/).inputValue()).toBe(today);
      await join.context().close();
    } finally {
      await fetch(`${e2e.product.staffUrl}/api/dev/clock`, { method: "DELETE", headers });
    }
  }, 60_000);
});
