import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page, type Route } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { chromiumPath } from "./e2e-global-setup";
import { type Product, type SharedProductInfo, startProduct } from "./product";
import { claimProduct, waitForBanner } from "./product-pool";

const root = resolve(import.meta.dirname, "../..");

export { launchProduct, type Product, type SharedProductInfo, startProduct } from "./product";

declare module "vitest" {
  export interface ProvidedContext {
    /** The products the files share, one per worker of the e2e run (none: each file starts its own). */
    e2eSharedProducts: SharedProductInfo[];
    /** The folder of the run's pool of products started ahead (tests/support/product-pool.ts). */
    e2eProductPool: string | null;
  }
}

/**
 * The product the e2e global setup started once for the files that can share one (most of
 * them: seeding the demo data is most of a product's start, ~30-70 s). Waits until it is ready,
 * then puts its business clock back to real time, so a file never sees the clock another file
 * moved. What a file adds (members, organisations, sign-ins) stays for the files after it: a
 * file that must own the data, the clock for long, or the process uses ownProduct or
 * `useProductAndBrowser(env, { own: true })` instead.
 */
export async function sharedProduct(): Promise<Product> {
  if (process.env.E2E_STAFF_URL) return runningProduct();
  const shared = sharedInfo();
  if (!shared) return startProduct();
  const output = () => (existsSync(shared.outputFile) ? readFileSync(shared.outputFile, "utf8") : "");
  await waitForBanner(shared.outputFile);
  const reset = await fetch(`${shared.staffUrl}/api/dev/clock`, {
    method: "DELETE",
    headers: { "X-Requested-With": "XMLHttpRequest" },
  });
  if (!reset.ok) throw new Error(`Putting the shared product's clock back failed: ${reset.status}`);
  return {
    staffUrl: shared.staffUrl,
    joinUrl: shared.joinUrl,
    dynamoPort: shared.dynamoPort,
    pid: shared.pid,
    // The global setup stops it after the last file.
    exited: new Promise(() => {}),
    output,
    async stop() {},
  };
}

/**
 * A product of a file's own, as startProduct starts it (`npm start` on a fresh copy of the demo
 * data, its own ports and process; the caller stops it). In the e2e run, with no environment of
 * its own, it is one the run's pool started ahead (tests/support/product-pool.ts), so the file
 * does not wait for a start.
 */
export function ownProduct(env: Record<string, string> = {}): Promise<Product> {
  const pool = Object.keys(env).length === 0 ? inject("e2eProductPool") : null;
  return pool ? claimProduct(pool) : startProduct(env);
}

/**
 * A product already running (`npm start` by hand), named by E2E_STAFF_URL and E2E_JOIN_URL: to
 * iterate on one e2e file without starting the product each time. Its data is whatever it holds.
 */
function runningProduct(): Product {
  const staffUrl = process.env.E2E_STAFF_URL!;
  return {
    staffUrl,
    joinUrl: process.env.E2E_JOIN_URL ?? staffUrl.replace(/:(\d+)$/, (_, port) => `:${Number(port) + 1}`),
    dynamoPort: 0,
    pid: 0,
    exited: new Promise(() => {}),
    output: () => "",
    async stop() {},
  };
}

/**
 * Debian's Chromium headless shell (e2e-global-setup.ts `chromiumPath`), or the browser named, with
 * the flags that keep it off the (closed) network.
 */
export function launchBrowser(executablePath = chromiumPath()): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

export const viewports = {
  desktop: { width: 1366, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

/** The newest sign-in code emailed to an address, read from the local mailbox. */
export async function latestCodeFor(baseUrl: string, email: string, after?: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const response = await fetch(`${baseUrl}/api/dev/mail`);
    const mail = ((await response.json()) as { data: { id: string; to: string; subject: string }[] }).data;
    const message = mail.find(
      (m) => m.to === email && /sign-in code|code to join/.test(m.subject) && (!after || m.id > after),
    );
    if (message) return message.subject.slice(0, 6);
    if (Date.now() > deadline) throw new Error(`No sign-in code emailed to ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The id of the newest email so far (to wait for a newer one). */
export async function newestMailId(baseUrl: string): Promise<string | undefined> {
  const response = await fetch(`${baseUrl}/api/dev/mail`);
  return ((await response.json()) as { data: { id: string }[] }).data[0]?.id;
}

/**
 * Signs a browser context in through the API (password, then the emailed code): for tests whose
 * subject is not the sign-in screen itself. The cookies land in the context.
 *
 * On the shared product a person is signed in once for the whole run and each later context gets
 * that session, put back to the organisation and gym a fresh sign-in starts on: a person may be
 * emailed only 5 codes an hour (docs/security), and the files sharing the product sign the demo
 * admin in more often than that.
 */
export async function signInViaApi(
  context: BrowserContext,
  baseUrl: string,
  email: string,
  password = "demo-password",
) {
  const headers = { "X-Requested-With": "XMLHttpRequest" };
  const shared = sharedSessionFile(baseUrl, email);
  if (shared && existsSync(shared)) {
    const saved = JSON.parse(readFileSync(shared, "utf8")) as SavedSession;
    await context.addCookies(saved.cookies);
    const me = await context.request.get(`${baseUrl}/api/me`, { headers });
    if (me.ok()) {
      const now = ((await me.json()) as { data: MeContext }).data;
      if (saved.organisation && now.current_organisation?.id !== saved.organisation) {
        await context.request.post(`${baseUrl}/api/organisations/${saved.organisation}/switch`, { headers });
      }
      if (saved.gym && (await currentContext(context, baseUrl)).current_gym?.id !== saved.gym) {
        await context.request.post(`${baseUrl}/api/gyms/${saved.gym}/switch`, { headers });
      }
      return;
    }
    await context.clearCookies();
  }
  const before = await newestMailId(baseUrl);
  const login = await context.request.post(`${baseUrl}/api/login`, { headers, data: { email, password } });
  if (!login.ok()) throw new Error(`login ${email}: ${login.status()} ${await login.text()}`);
  const code = await latestCodeFor(baseUrl, email, before);
  const verify = await context.request.post(`${baseUrl}/api/email/verify`, { headers, data: { code } });
  if (!verify.ok()) throw new Error(`verify ${email}: ${verify.status()} ${await verify.text()}`);
  if (shared) {
    const now = await currentContext(context, baseUrl);
    const saved: SavedSession = {
      cookies: await context.cookies(baseUrl),
      organisation: now.current_organisation?.id ?? null,
      gym: now.current_gym?.id ?? null,
    };
    writeFileSync(shared, JSON.stringify(saved));
  }
}

interface MeContext {
  current_organisation: { id: string } | null;
  current_gym: { id: string } | null;
}
interface SavedSession {
  cookies: Awaited<ReturnType<BrowserContext["cookies"]>>;
  organisation: string | null;
  gym: string | null;
}

async function currentContext(context: BrowserContext, baseUrl: string): Promise<MeContext> {
  const me = await context.request.get(`${baseUrl}/api/me`, {
    headers: { "X-Requested-With": "XMLHttpRequest" },
  });
  if (!me.ok()) throw new Error(`/api/me: ${me.status()} ${await me.text()}`);
  return ((await me.json()) as { data: MeContext }).data;
}

/** Where the shared product's session of a person is kept (none for any other product). */
function sharedSessionFile(baseUrl: string, email: string): string | undefined {
  const shared = sharedInfo();
  if (!shared || shared.staffUrl !== baseUrl) return undefined;
  return `${shared.outputFile.replace(/\.log$/, "")}-session-${email.replace(/[^\w.@-]/g, "_")}.json`;
}

/**
 * The shared product of this worker: the e2e files run one at a time, on one; were they run side
 * by side, each worker would have its own (a file's data, sign-ins and clock never another
 * running file's), picked by VITEST_POOL_ID (1 to the number of workers).
 */
function sharedInfo(): SharedProductInfo | undefined {
  const all = inject("e2eSharedProducts") ?? [];
  if (all.length === 0) return undefined;
  return all[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % all.length];
}

/** A new page in a fresh context, signed in as a demo person, at a size. */
export async function staffPage(
  browser: Browser,
  product: Product,
  email: string,
  viewport: { width: number; height: number } = viewports.desktop,
): Promise<Page> {
  const context = await browser.newContext({ viewport });
  await signInViaApi(context, product.staffUrl, email);
  return context.newPage();
}

export const signInStaff = signInViaApi;

/**
 * The heading of the page a person is on now: after {@link openInApp}, the page left behind has its
 * headings marked, so this matches only the new page's own (a new route renders a new element).
 */
export const currentHeading = "h1:not([data-e2e-left])";

/**
 * What still loads on the page as a person sees it: each loader and skeleton on screen (a button's
 * own spinner aside), by its label. Runs in the page (`page.evaluate(busyIndicators)`).
 */
export const busyIndicators = () =>
  [...document.querySelectorAll(".mantine-Loader-root, .mantine-Skeleton-root[data-visible]")]
    .filter((el) => (el as HTMLElement).offsetParent !== null && !el.closest("button"))
    .map((el) => el.getAttribute("aria-label") ?? el.className.split(" ")[0]);

/**
 * Waits until nothing on the page loads any more ({@link busyIndicators}), then for two animation
 * frames (what that last change drew is on screen). False when something still loads after
 * `timeout` ms.
 */
export async function settled(page: Page, timeout = 5_000): Promise<boolean> {
  const idle = await page
    .waitForFunction(`(${busyIndicators.toString()})().length === 0`, undefined, { timeout, polling: 100 })
    .then(() => true)
    .catch(() => false);
  await page.evaluate(
    () => new Promise<void>((drawn) => requestAnimationFrame(() => requestAnimationFrame(() => drawn()))),
  );
  return idle;
}

/**
 * Opens an address the way a person inside the app gets there: when the page already shows the
 * same site, its router is moved there (the browser's history and the event the router listens
 * to, as the back and forward buttons do), without loading and starting the app again; otherwise
 * a real page load. Then wait for `currentHeading`. For tests that visit many routes of one site;
 * what a real load of each address serves is the tour's signed-out and emailed-link stops.
 */
export async function openInApp(page: Page, url: string) {
  const here = page.url().startsWith("http") ? new URL(page.url()) : null;
  const there = new URL(url);
  if (here?.origin !== there.origin) {
    await page.goto(url, { waitUntil: "load" });
    return;
  }
  await page.evaluate((to) => {
    for (const h of document.querySelectorAll("h1")) h.setAttribute("data-e2e-left", "");
    window.history.pushState(null, "", to);
    window.dispatchEvent(new PopStateEvent("popstate", { state: null }));
  }, `${there.pathname}${there.search}`);
}

/**
 * Holds the app's code back from the page (a slow phone's download) until the returned function
 * lets it through: what the person does meanwhile is done on index.html's early form (the join
 * site's register page, the staff site's sign-in page).
 */
export async function holdAppCode(page: Page): Promise<() => Promise<void>> {
  const held: Route[] = [];
  let released = false;
  await page.route("**/assets/*.js", (route) => (released ? route.continue() : void held.push(route)));
  return async () => {
    released = true;
    for (const route of held.splice(0)) await route.continue();
  };
}

/** Where screenshots go (git-ignored), for a person to look at after a run. */
export function screenshotPath(name: string) {
  return resolve(root, "tests/.artifacts", `${name}.png`);
}

/**
 * One e2e file's product and browser, before the file's tests (Chromium stops after them). Read
 * `e2e.product` / `e2e.browser` inside tests and later hooks (a file's own `beforeAll` runs after
 * this one). The product is the run's shared one (sharedProduct: its clock put back to real time,
 * the data other files added kept); a file with its own environment, or `{ own: true }`, gets its
 * own product (ownProduct: `npm start` as startProduct, started ahead by the run's pool), stopped
 * after the file.
 */
export function useProductAndBrowser(env: Record<string, string> = {}, options: { own?: boolean } = {}) {
  const e2e = {} as { product: Product; browser: Browser };
  const own = options.own || Object.keys(env).length > 0;
  beforeAll(async () => {
    const [product, browser] = await Promise.all([
      process.env.E2E_STAFF_URL ? runningProduct() : own ? ownProduct(env) : sharedProduct(),
      launchBrowser(),
    ]);
    e2e.product = product;
    e2e.browser = browser;
  });
  afterAll(async () => {
    await e2e.browser?.close();
    await e2e.product?.stop();
  });
  return e2e;
}
