import { deflateSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { expect } from "vitest";
import { latestCodeFor, newestMailId, viewports } from "./e2e";

/**
 * A person's steps on the join site, shared by the e2e files that join (join, journeys, offers):
 * the register form as the app draws it, the emailed code, the profile photo and the simulated
 * card, and the whole way from a gym's link to the confirm page on a phone. A file checks what it
 * is about between the steps (axe, reloads, screenshots) by taking them one by one.
 */

/**
 * The join site's register page as the app draws it. The first HTML carries an early copy of the
 * form (index.html, register-shell.js: docs/performance.md) that the app replaces: a person's
 * steps here are taken in the app's form, once the early one is gone.
 */
export async function appRegisterForm(page: Page) {
  await page
    .locator('form[aria-label="Create your account"]:not([data-shell-form])')
    .getByRole("radio")
    .first()
    .waitFor();
  await expect.poll(() => page.locator("[data-shell]").count()).toBe(0);
  // The form's checks (zod) and fonts arrive after it draws: a person reads before they tap, and a
  // tap during a late layout shift can land beside the button (one CI run lost its click).
  await page.waitForLoadState("networkidle");
}

/** A 64×48 PNG for the profile photo (landscape, so the square crop has something to cut). */
export function photoPng(): Buffer {
  const width = 64;
  const height = 48;
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
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = y * (width * 3 + 1) + 1 + x * 3;
      rows[at] = 40 + x * 3;
      rows[at + 1] = 90;
      rows[at + 2] = 160 + y;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Fills the register form: the membership by its card's name, then the person's details. */
export async function fillRegister(
  page: Page,
  options: { membership: RegExp; email: string; name?: string; dob?: string },
) {
  await page.getByRole("radio", { name: options.membership }).check();
  await page.getByLabel(/^Full name/).fill(options.name ?? "aroha te whare");
  await page.getByLabel(/^Email/).fill(options.email);
  await page.getByLabel(/^Mobile number/).fill("021 123 4567");
  // Day first, as a New Zealander types it into the UI kit's date input (issue 35).
  await page.getByLabel(/^Date of birth/).fill(options.dob ?? "15/03/1990");
  await page.getByLabel(/^Password/).fill("a long passphrase");
}

/** "Verify your email": the code emailed to the address after mail `before`, read from the local mailbox. */
export async function verifyEmail(page: Page, staffUrl: string, email: string, before: string | undefined) {
  await page.getByRole("heading", { name: "Verify your email" }).waitFor();
  const code = await latestCodeFor(staffUrl, email, before);
  await page.getByLabel(/^Code/).fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
}

/** "Add a profile photo": a photo chosen and used, on to "Choose how to pay". */
export async function addPhoto(page: Page) {
  await page.getByRole("heading", { name: "Add a profile photo" }).waitFor();
  await page.getByLabel("Photo").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: photoPng() });
  await page.getByRole("button", { name: "Use this photo" }).click();
  await page.getByRole("heading", { name: "Choose how to pay" }).waitFor();
}

/** From "Choose how to pay": the simulated card 4242 4242 4242 4242 saved, on to the confirm page. */
export async function payByTestCard(page: Page) {
  await page.getByRole("button", { name: /^Card/ }).click();
  await page.getByRole("button", { name: "Enter card details" }).click();
  await page.getByLabel("Card number").fill("4242424242424242");
  await page.getByRole("button", { name: "Save card" }).click();
  await page.getByRole("heading", { name: "Card connected" }).waitFor();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("heading", { name: "Confirm your membership" }).waitFor();
}

/**
 * A new phone (390×844, touch) from a gym's join link to the confirm page: registers for the
 * membership whose card is named `membership`, passes the emailed code, adds a photo and saves a
 * card. `onPlanList` runs with the membership's card in view, before it is chosen. The page's
 * uncaught errors are collected in `errors`.
 */
export async function joinOnPhone(
  browser: Browser,
  options: {
    staffUrl: string;
    link: string;
    membership: RegExp;
    email: string;
    onPlanList?: (page: Page) => Promise<void>;
  },
) {
  const context = await browser.newContext({ viewport: viewports.phone, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(options.link);
  const before = await newestMailId(options.staffUrl);
  await appRegisterForm(page);
  const card = page.getByRole("radio", { name: options.membership });
  await card.scrollIntoViewIfNeeded();
  await options.onPlanList?.(page);
  await fillRegister(page, { membership: options.membership, email: options.email });
  await page.getByRole("button", { name: "Create account" }).click();
  await verifyEmail(page, options.staffUrl, options.email, before);
  await addPhoto(page);
  await payByTestCard(page);
  return { page, errors };
}
