import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { axeViolations as axe, serious, type Violation } from "../support/axe";
import {
  busyIndicators,
  currentHeading,
  openInApp,
  screenshotPath,
  settled,
  signInViaApi,
  useProductAndBrowser,
} from "../support/e2e";

const e2e = useProductAndBrowser();

/**
 * WCAG 2.2 AA in the browser (issue 28, docs/staff-shell.md "Accessibility"): axe-core on every
 * staff route at desktop and phone size, signed in as an organisation admin, on the guest pages,
 * and on the join site's pages reachable without a registration in progress (join.test.ts checks
 * the rest of the join steps on its way through); then the keyboard alone through the sign-in,
 * the member page and one of its dialogs.
 */
const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

/** Every finding, kept for the summary printed at the end (a person reads it when a run fails). */
const findings: { where: string; violations: Violation[]; ms?: number }[] = [];

/**
 * Opens a path and waits for the page's heading and for its data (no loader or skeleton left).
 * `inApp`: the signed-in staff routes after the first, moved to inside the app (openInApp).
 */
async function open(page: Page, url: string, inApp = false) {
  if (inApp) await openInApp(page, url);
  else await page.goto(url);
  await page.locator(currentHeading).first().waitFor({ timeout: 15_000 });
  if (!(await settled(page)))
    console.log(`${url}: still loading after 5 s: ${await page.evaluate(busyIndicators)}`);
}

async function check(page: Page, where: string, started = Date.now()) {
  const violations = await axe(page);
  findings.push({ where, violations, ms: Date.now() - started });
  return serious(violations);
}

/** The organisation admin's cookies: one sign-in for the whole file (sign-in codes are rate limited). */
let admin: Awaited<ReturnType<BrowserContext["storageState"]>> | undefined;

async function context(viewport: { width: number; height: number }, asAdmin = false) {
  // bypassCSP only so axe-core can be injected; the pages run under the site's CSP otherwise.
  return e2e.browser.newContext({
    viewport,
    bypassCSP: true,
    ...(viewport.width < 500 ? { isMobile: true, hasTouch: true } : {}),
    ...(asAdmin ? { storageState: admin } : {}),
  });
}

let ids: { gym: string; offering: string; member: string; staff: string };

beforeAll(async () => {
  const ctx = await context(desktop);
  await signInViaApi(ctx, e2e.product.staffUrl, "admin@example.com");
  admin = await ctx.storageState();
  const get = async (path: string) =>
    (await (await ctx.request.get(`${e2e.product.staffUrl}${path}`)).json()).data;
  const me = await get("/api/me");
  const [gyms, offerings, staff, found] = await Promise.all([
    get("/api/gyms"),
    get("/api/offerings"),
    get(`/api/organisations/${me.current_organisation.id}/staff`),
    (
      await ctx.request.post(`${e2e.product.staffUrl}/api/search`, {
        headers: { "X-Requested-With": "XMLHttpRequest" },
        data: { query: "aroha wal" },
      })
    ).json(),
  ]);
  ids = {
    gym: gyms[0].id,
    offering: offerings[0].id,
    staff: staff[0].id,
    member: found.data[0].id,
  };
  await ctx.close();
}, 60_000);

/** Every staff route inside the layout (web-staff/src/features/&#42;/routes and the shell). */
function staffRoutes() {
  return [
    "/dashboard",
    "/members",
    `/members/${ids.member}`,
    `/members/${ids.member}/activity`,
    "/members/pif",
    "/members/change-price",
    "/payments",
    "/expected-payments-debugging",
    "/visits",
    "/active-user-debugging",
    "/offerings",
    "/offerings/create",
    `/offerings/${ids.offering}`,
    `/offerings/${ids.offering}/edit`,
    "/staff",
    `/staff/${ids.staff}`,
    "/gyms",
    `/gyms/${ids.gym}`,
    `/gyms/${ids.gym}/edit`,
    "/organisation/settings",
    "/calculate-pro-rata",
    "/webhooks",
    "/webhook-calls",
    "/promo-codes",
    "/accounting",
    "/accounting/accounts",
    "/accounting/payouts",
    "/no-such-page",
  ];
}

/**
 * Pages the features mount that the list above leaves out, and why: a page added without a line
 * above fails "covers every page the staff features mount".
 */
const notChecked: Record<string, string> = {
  "payments/:paymentId/receipt": "a printable receipt for one payment, outside the layout",
  "stripe/callback": "no page: it sends the admin back from Stripe's onboarding",
};

/** The paths of web-staff/src/features/&#42;/routes/index.ts (what the app mounts, app/feature-routes.ts). */
function mountedStaffPaths(): string[] {
  const features = resolve(import.meta.dirname, "../../web-staff/src/features");
  return readdirSync(features).flatMap((feature) => {
    const index = join(features, feature, "routes", "index.ts");
    if (!existsSync(index)) return [];
    return [...readFileSync(index, "utf8").matchAll(/path: "([^"]+)"/g)].map((m) => m[1]);
  });
}

/** Open to everyone, or to guests only. */
const guestRoutes = [
  "/login",
  "/forgot-password",
  "/reset-password?token=not-a-token",
  "/set-password?token=not-a-token",
  "/welcome?email=someone%40example.com",
  "/legal/privacy-policy",
  "/contact-us",
  "/dev/mail",
];

function summary() {
  const byRule = new Map<string, { impact: string; elements: number; pages: Set<string> }>();
  for (const { where, violations } of findings) {
    for (const v of violations) {
      const entry = byRule.get(v.id) ?? { impact: v.impact, elements: 0, pages: new Set() };
      entry.elements += v.targets.length;
      entry.pages.add(where);
      byRule.set(v.id, entry);
    }
  }
  return [...byRule.entries()]
    .map(
      ([id, e]) =>
        `${id} (${e.impact}): ${e.elements} elements on ${e.pages.size} pages (${[...e.pages].slice(0, 6).join(", ")})`,
    )
    .join("\n");
}

function describeFailures(failures: { where: string; violations: Violation[] }[]) {
  return failures
    .map(
      ({ where, violations }) =>
        `${where}:\n${violations.map((v) => `  ${v.id} (${v.impact}) ${v.help}: ${v.targets.slice(0, 5).join(", ")}`).join("\n")}`,
    )
    .join("\n");
}

describe("axe-core finds no serious or critical violation", () => {
  it("covers every page the staff features mount", () => {
    const checked = staffRoutes().map((path) => path.slice(1));
    const missing = mountedStaffPaths().filter((path) => {
      if (path in notChecked) return false;
      const pattern = new RegExp(`^${path.replace(/:[^/]+/g, "[^/]+")}$`);
      return !checked.some((route) => pattern.test(route));
    });
    expect(missing, "add each to staffRoutes() (or to notChecked, with the reason)").toEqual([]);
  });

  for (const [size, viewport] of Object.entries({ desktop, phone })) {
    it(`on every staff route, signed in as an organisation admin (${size})`, async () => {
      const ctx = await context(viewport, true);
      const page = await ctx.newPage();
      const failures: { where: string; violations: Violation[] }[] = [];
      for (const path of staffRoutes()) {
        const started = Date.now();
        await open(page, `${e2e.product.staffUrl}${path}`, true);
        const bad = await check(page, `${size} ${path}`, started);
        if (bad.length) failures.push({ where: `${size} ${path}`, violations: bad });
      }
      await ctx.close();
      expect(failures, describeFailures(failures)).toEqual([]);
    }, 240_000);

    it(`on the guest and public pages and the join site (${size})`, async () => {
      const ctx = await context(viewport);
      const page = await ctx.newPage();
      const failures: { where: string; violations: Violation[] }[] = [];
      const pages = [
        ...guestRoutes.map((path) => `${e2e.product.staffUrl}${path}`),
        ...joinRoutes().map((path) => `${e2e.product.joinUrl}${path}`),
      ];
      for (const url of pages) {
        const started = Date.now();
        await open(page, url);
        const where = `${size} ${url.replace(/^http:\/\/localhost:\d+/, "")}`;
        const bad = await check(page, where, started);
        if (bad.length) failures.push({ where, violations: bad });
      }
      await ctx.close();
      expect(failures, describeFailures(failures)).toEqual([]);
    }, 120_000);
  }

  it("(summary of every finding, serious or not)", () => {
    const slowest = [...findings]
      .sort((a, b) => (b.ms ?? 0) - (a.ms ?? 0))
      .slice(0, 5)
      .map((f) => `${f.where} ${f.ms} ms`);
    console.log(
      `axe-core findings on ${findings.length} pages:\n${summary() || "none"}\nslowest: ${slowest.join(", ")}`,
    );
  });
});

let gymLink = "";
function joinRoutes() {
  if (!gymLink) {
    const match = e2e.product.output().match(/Harbour Fitness Ponsonby:\s+(\S+)/);
    gymLink = match ? match[1].replace(e2e.product.joinUrl, "") : "/";
  }
  return [gymLink, "/no-such-page"];
}

/** The element that has focus: its accessible-ish name, and whether a focus ring is drawn. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: "(body)", tag: "body", ring: false };
    // The ring is on the control or on its box (a text field's wrapper, :focus-within).
    const ringed = (node: Element) => {
      const style = getComputedStyle(node);
      return (
        (style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 1) ||
        style.boxShadow !== "none"
      );
    };
    const outlined = (node: Element | null | undefined) => {
      if (!node) return false;
      const style = getComputedStyle(node);
      return style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 1;
    };
    const ring = ringed(el) || outlined(el.parentElement) || outlined(el.parentElement?.parentElement);
    const name =
      el.getAttribute("aria-label") ||
      (el.id && document.querySelector(`label[for="${el.id}"]`)?.textContent) ||
      el.textContent?.trim() ||
      el.getAttribute("placeholder") ||
      "";
    return { name: name.replace(/\s+/g, " ").slice(0, 60), tag: el.tagName.toLowerCase(), ring };
  });
}

/** Presses Tab until `match` has focus; every stop on the way must show a focus ring. */
async function tabTo(page: Page, match: RegExp, max = 60, stops: string[] = []) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const now = await focused(page);
    stops.push(now.name);
    expect(now.ring, `no visible focus on "${now.name}" (${now.tag}); stops: ${stops.join(" → ")}`).toBe(
      true,
    );
    if (match.test(now.name)) return stops;
  }
  throw new Error(`Tab never reached ${match}; stops: ${stops.join(" → ")}`);
}

describe("the keyboard alone", () => {
  let ctx: BrowserContext;

  it("signs in: email, password, submit, in that order, each with a focus ring", async () => {
    ctx = await context(desktop);
    const page = await ctx.newPage();
    await page.goto(`${e2e.product.staffUrl}/login`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    // The app's own form, not the early one index.html paints: the tab order checked is the app's
    // (its show-password toggle). What is typed across the hand-over is kept (tests/e2e/auth.test.ts).
    await page.locator('form[aria-label="Sign in"]:not([data-shell-form])').waitFor();
    // The email box may already have the focus (autofocus); otherwise Tab reaches it first.
    const stops: string[] = [];
    if (!/^Email/.test((await focused(page)).name)) await tabTo(page, /^Email/, 10, stops);
    expect((await focused(page)).ring).toBe(true);
    // Someone other than the admin the other tests use (sign-in codes are rate limited per person).
    await page.keyboard.type("trainer@example.com");
    await tabTo(page, /^Password/, 1, stops);
    await page.keyboard.type("demo-password");
    // Past the show-password toggle and the forgot-password link, then the submit button.
    await tabTo(page, /^Sign in$/i, 4, stops);
    await page.screenshot({ path: screenshotPath("a11y-login-focus") });
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Check your email" }).waitFor();
    await ctx.close();
  }, 60_000);

  it("works the member page and a dialog: Tab reaches each action, Escape closes, focus returns", async () => {
    ctx = await context(desktop, true);
    const page = await ctx.newPage();
    await open(page, `${e2e.product.staffUrl}/members/${ids.member}`);
    // First the skip link, then the page's own actions are reachable.
    const stops = await tabTo(page, /^Edit/, 80);
    await page.screenshot({ path: screenshotPath("a11y-member-focus") });
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    // Focus moved into the dialog.
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    const inside = await focused(page);
    expect(inside.ring, `no focus ring on ${inside.name}`).toBe(true);
    const violations = serious(await axe(page));
    findings.push({ where: "desktop member dialog", violations });
    expect(violations, describeFailures([{ where: "dialog", violations }])).toEqual([]);
    await page.screenshot({ path: screenshotPath("a11y-member-dialog") });
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    const back = await focused(page);
    expect(back.name, `focus after Escape; stops were ${stops.join(" → ")}`).toMatch(/^Edit/);
    expect(back.ring).toBe(true);
    await ctx.close();
  }, 60_000);
});

describe("the keyboard alone on a phone", () => {
  it("opens the navigation drawer and closes it with Escape; switches gym from the top bar, focus kept", async () => {
    const ctx = await context(phone, true);
    const page = await ctx.newPage();
    await open(page, `${e2e.product.staffUrl}/dashboard`);
    await tabTo(page, /^Open navigation$/, 5);
    await page.keyboard.press("Enter");
    const drawer = page.getByRole("dialog");
    await drawer.getByRole("navigation", { name: "Main" }).waitFor();
    expect(await drawer.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.waitForTimeout(300);
    await page.screenshot({ path: screenshotPath("a11y-drawer-phone") });
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "hidden" });
    expect((await focused(page)).name).toMatch(/navigation$/);

    // The gym switcher: a menu of radio items, arrows to move, Enter to choose.
    const before = (await focused(page)).name;
    const stops = await tabTo(page, /^Gym:/, 10, [before]);
    await page.keyboard.press("Enter");
    const menu = page.getByRole("menu");
    await menu.waitFor();
    // Arrow keys move through the gyms; stop on one that is not the current gym.
    const checked = () => page.evaluate(() => document.activeElement?.getAttribute("aria-checked"));
    // The menu takes the focus once its opening transition has run: a key pressed before that is
    // lost (one CI run beside the simulation pressed all six into the switcher button), so each
    // press waits for the focus to have moved.
    for (let i = 0; i < 6 && (await checked()) !== "false"; i++) {
      if ((await checked()) == null)
        await expect
          .poll(checked, { timeout: 2_000 })
          .not.toBeNull()
          .catch(() => undefined);
      if ((await checked()) !== "false") await page.keyboard.press("ArrowDown");
    }
    expect(await checked(), stops.join(" → ")).toBe("false");
    await page.keyboard.press("Enter");
    await page.getByText(/You are now working in/).waitFor();
    await menu.waitFor({ state: "hidden" });
    // The toast did not take the focus away: it is back on the switcher.
    const after = await focused(page);
    expect(after.name).toMatch(/^Gym:/);
    expect(after.ring).toBe(true);
    await page.screenshot({ path: screenshotPath("a11y-gym-switched-phone") });
    await ctx.close();
  }, 60_000);
});
