import {
  appendFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { launchProduct, type Product, SHARED_PRODUCT_FAILED, type SharedProductInfo } from "./product";

/**
 * The e2e run's products, started ahead of the files that use them (docs/performance.md "Suite
 * time"). Seeds the demo data once into a data folder (E2E_SEEDED_DATA: every product of the run
 * starts on a copy of it), launches the products the files share (one per worker), and keeps `spares` more products
 * started ahead for the files that need their own (`useProductAndBrowser({}, { own: true })`,
 * `ownProduct()`): a file claims a ready one instead of waiting ~15-25 s for a start, and the pool
 * starts the next while the file runs. Each spare is a product as `startProduct()` starts it (a
 * fresh copy of the seeded data, its own ports and process), never handed to two files.
 *
 * What lives in `folder`: the seeded data, `shared-<n>.log` (each shared product's output), and per
 * spare `spare-<n>.json` (its SharedProductInfo, written when it is launched) and `spare-<n>.log`
 * (its output: the banner says it is ready). A file claims a spare by renaming its json to
 * `claimed-<n>.json` (one rename wins), stops it when done; the pool stops every product at the end.
 * The pool starts no more spares than the run's files ask for (`wanted`: a start is ~13 CPU s, and
 * two were started for no file), unless a file is waiting for one (`waiting-<pid>`, written by
 * claimProduct while it finds none).
 */
export interface ProductPool {
  /** The shared products, one per worker of the e2e run (sharedProduct picks its worker's). */
  shared: SharedProductInfo[];
  stop(): Promise<void>;
}

export interface PoolSize {
  /** Products the files share (one per worker). */
  shared: number;
  /** Products kept started ahead, unclaimed. */
  spares: number;
  /** How many files will claim a product of their own (no more are started unless one waits). */
  wanted?: number;
}

/** A spare's file once it is launched and unclaimed (`spare-<n>.json`). */
const READY_SPARE = /^spare-\d+\.json$/;

/** How many products at most one e2e run starts for the files with their own (a runaway guard). */
const MOST_SPARES = 16;

export async function startProductPool(
  folder: string,
  { shared: sharedCount, spares, wanted = MOST_SPARES }: PoolSize,
): Promise<ProductPool> {
  // The demo data, seeded once into a data folder by a product started for that and stopped.
  const seededData = join(folder, "seeded-data");
  const seeding = await launchProduct({ DYNAMODB_IN_MEMORY: "0", DYNAMODB_DIR: seededData });
  try {
    await seeding.ready;
  } finally {
    await seeding.product.stop();
  }
  process.env.E2E_SEEDED_DATA = seededData;

  const launched: Product[] = [];
  const launch = async (outputFile: string) => {
    appendFileSync(outputFile, "");
    const { product, ready } = await launchProduct({}, (chunk) => appendFileSync(outputFile, chunk));
    launched.push(product);
    const info: SharedProductInfo = {
      staffUrl: product.staffUrl,
      joinUrl: product.joinUrl,
      dynamoPort: product.dynamoPort,
      pid: product.pid,
      outputFile,
    };
    const settled = ready.then(
      () => true,
      (error) => {
        appendFileSync(outputFile, `${SHARED_PRODUCT_FAILED}${String(error)}\n`);
        return true;
      },
    );
    return { info, settled };
  };

  const shared = await Promise.all(
    Array.from({ length: sharedCount }, (_, i) => launch(join(folder, `shared-${i + 1}.log`))),
  );

  // One spare starting at a time (a start is a burst of CPU beside the running file), until
  // `spares` wait unclaimed.
  let starting = false;
  let count = 0;
  let stopped = false;
  const topUp = async () => {
    if (starting || stopped || count >= MOST_SPARES) return;
    const names = readdirSync(folder);
    const ready = names.filter((name) => READY_SPARE.test(name)).length;
    const claimer = names.some((name) => name.startsWith("waiting-"));
    if (ready >= spares || (count >= wanted && !(claimer && ready === 0))) return;
    starting = true;
    const n = ++count;
    try {
      const spare = await launch(join(folder, `spare-${n}.log`));
      // Written whole, then renamed: a claimer never reads it half written.
      writeFileSync(join(folder, `spare-${n}.part`), JSON.stringify(spare.info));
      renameSync(join(folder, `spare-${n}.part`), join(folder, `spare-${n}.json`));
      await spare.settled;
    } finally {
      starting = false;
    }
  };
  const timer = setInterval(() => void topUp().catch(() => {}), 250);

  return {
    shared: shared.map((one) => one.info),
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.all(launched.map((product) => product.stop()));
    },
  };
}

/**
 * A spare product of the pool in `folder`, claimed for one file (the caller stops it), once it
 * printed its banner. Waits for one when none is left.
 */
export async function claimProduct(folder: string): Promise<Product> {
  const deadline = Date.now() + 240_000;
  const waiting = join(folder, `waiting-${process.pid}`);
  try {
    return await claim(folder, waiting, deadline);
  } finally {
    rmSync(waiting, { force: true });
  }
}

async function claim(folder: string, waiting: string, deadline: number): Promise<Product> {
  for (let tries = 0; ; tries++) {
    const names = readdirSync(folder)
      .filter((name) => READY_SPARE.test(name))
      .sort((a, b) => Number(a.match(/\d+/)![0]) - Number(b.match(/\d+/)![0]));
    for (const name of names) {
      const claimed = join(folder, name.replace("spare-", "claimed-"));
      try {
        renameSync(join(folder, name), claimed);
      } catch {
        continue; // another file took it first
      }
      const info = JSON.parse(readFileSync(claimed, "utf8")) as SharedProductInfo;
      await waitForBanner(info.outputFile, deadline);
      return pooledProduct(info);
    }
    if (Date.now() > deadline) throw new Error(`No product of the pool in ${folder} within 240 s`);
    // None ready: say so, so the pool starts one even past the files it counted.
    if (tries === 0) writeFileSync(waiting, "");
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Waits until a pooled product's output says it is ready (or throws what it printed). */
export async function waitForBanner(outputFile: string, deadline = Date.now() + 240_000) {
  const output = () => (existsSync(outputFile) ? readFileSync(outputFile, "utf8") : "");
  for (;;) {
    const text = output();
    if (text.includes(SHARED_PRODUCT_FAILED)) throw new Error(text);
    if (text.includes("Press Ctrl-C to stop")) return;
    if (Date.now() > deadline) throw new Error(`The product did not start within 240 s:\n${text}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * A product the pool launched (another process is its parent), driven by its process id: stopped
 * as startProduct's are (the whole process group), `exited` once the process is gone.
 */
function pooledProduct(info: SharedProductInfo): Product {
  const alive = () => {
    try {
      process.kill(info.pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-info.pid, signal);
    } catch {
      // already gone
    }
  };
  const exited = (async () => {
    while (alive()) await new Promise((r) => setTimeout(r, 100).unref());
    return null;
  })();
  return {
    staffUrl: info.staffUrl,
    joinUrl: info.joinUrl,
    dynamoPort: info.dynamoPort,
    pid: info.pid,
    exited,
    output: () => (existsSync(info.outputFile) ? readFileSync(info.outputFile, "utf8") : ""),
    async stop() {
      if (alive()) signalGroup("SIGINT");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (alive()) signalGroup("SIGKILL");
    },
  };
}
