import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { chromiumPath } from "./e2e-global-setup";
import { freePort } from "./free-port";

const root = resolve(import.meta.dirname, "../..");

export interface Product {
  staffUrl: string;
  joinUrl: string;
  dynamoPort: number;
  /** The process `npm start` runs (bootstrap.mjs). */
  pid: number;
  /** Resolves when that process has exited. */
  exited: Promise<number | null>;
  /** Everything the product printed (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the whole product the way `npm start` does (bootstrap → cli start), on free ports with
 * an in-memory DynamoDB Local and freshly seeded demo data. The sites were built once by the
 * e2e global setup.
 */
export async function startProduct(env: Record<string, string> = {}): Promise<Product> {
  const [staff, join, dynamo, api] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  let output = "";
  const child: ChildProcess = spawn(
    process.execPath,
    ["packages/functions/src/local/bootstrap.mjs", "start"],
    {
      cwd: root,
      env: {
        ...process.env,
        STAFF_PORT: String(staff),
        JOIN_PORT: String(join),
        DYNAMODB_PORT: String(dynamo),
        API_PORT: String(api),
        DYNAMODB_IN_MEMORY: "1",
        SKIP_WEB_BUILD: "1",
        LOG_LEVEL: "warn",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so stop() can signal the whole group as Ctrl-C in a terminal does.
      detached: true,
    },
  );
  child.stdout?.on("data", (chunk) => (output += String(chunk)));
  child.stderr?.on("data", (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));

  const staffUrl = `http://localhost:${staff}`;
  // Seeding the demo data takes ~20 s alone; on a machine shared by many runs, much longer.
  const deadline = Date.now() + 180_000;
  while (!output.includes("Press Ctrl-C to stop")) {
    if (child.exitCode !== null) throw new Error(`The product exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGINT");
      throw new Error(`The product did not start within 180 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  return {
    staffUrl,
    joinUrl: `http://localhost:${join}`,
    dynamoPort: dynamo,
    pid: child.pid!,
    exited,
    output: () => output,
    async stop() {
      if (child.exitCode === null) signalGroup("SIGINT");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) signalGroup("SIGKILL");
    },
  };
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

/** Debian's Chromium, headless, with the flags that keep it off the (closed) network. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
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
      (m) => m.to === email && /sign-in code/.test(m.subject) && (!after || m.id > after),
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
 */
export async function signInViaApi(
  context: BrowserContext,
  baseUrl: string,
  email: string,
  password = "demo-password",
) {
  const headers = { "X-Requested-With": "XMLHttpRequest" };
  const before = await newestMailId(baseUrl);
  const login = await context.request.post(`${baseUrl}/api/login`, { headers, data: { email, password } });
  if (!login.ok()) throw new Error(`login ${email}: ${login.status()} ${await login.text()}`);
  const code = await latestCodeFor(baseUrl, email, before);
  const verify = await context.request.post(`${baseUrl}/api/email/verify`, { headers, data: { code } });
  if (!verify.ok()) throw new Error(`verify ${email}: ${verify.status()} ${await verify.text()}`);
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

/** Where screenshots go (git-ignored), for a person to look at after a run. */
export function screenshotPath(name: string) {
  return resolve(root, "tests/.artifacts", `${name}.png`);
}

/**
 * One e2e file's product and browser: starts the product (`npm start`, as startProduct) and
 * Chromium before the file's tests and stops both after. Read `e2e.product` / `e2e.browser` inside
 * tests and later hooks (a file's own `beforeAll` runs after this one).
 */
export function useProductAndBrowser(env: Record<string, string> = {}) {
  const e2e = {} as { product: Product; browser: Browser };
  beforeAll(async () => {
    e2e.product = process.env.E2E_STAFF_URL ? runningProduct() : await startProduct(env);
    e2e.browser = await launchBrowser();
  });
  afterAll(async () => {
    await e2e.browser?.close();
    await e2e.product?.stop();
  });
  return e2e;
}
