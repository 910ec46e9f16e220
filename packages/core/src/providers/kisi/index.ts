import { config } from "../../config";
import type { KisiPort } from "./port";
import { realKisi } from "./real";

export type { KisiLock, KisiMemberAccess, KisiMemberInput, KisiPlace, KisiPort } from "./port";

let adapter: KisiPort | undefined;

/** The real adapter from the stage's configuration: what every Lambda runs (and the default). */
export function productionKisi(): KisiPort {
  return realKisi({ apiBase: config.optional("KISI_API_BASE") });
}

let make: () => KisiPort = productionKisi;

/**
 * The door provider for this process: the one its start-up point chose (`createCore`, core.ts),
 * made on first use; without one, the real adapter (fails closed).
 */
export function kisiProvider(): KisiPort {
  adapter ??= make();
  return adapter;
}

/** The start-up point's choice (core.ts `createCore`): how this process makes its adapter. */
export function installKisi(next: () => KisiPort) {
  make = next;
  adapter = undefined;
}

export function setKisiProvider(next: KisiPort | undefined) {
  adapter = next;
}
