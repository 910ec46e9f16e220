import { config } from "../../config";
import { providerMode } from "../errors";
import type { KisiPort } from "./port";
import { realKisi } from "./real";
import { simulatedKisi } from "./simulated";

export type { KisiLock, KisiMemberAccess, KisiMemberInput, KisiPlace, KisiPort } from "./port";

let adapter: KisiPort | undefined;

/** The door provider for this process: simulated locally unless KISI_MODE=real. */
export function kisiProvider(): KisiPort {
  adapter ??=
    providerMode("KISI", config.isLocal) === "simulated"
      ? simulatedKisi()
      : realKisi({ apiBase: config.optional("KISI_API_BASE") });
  return adapter;
}

export function setKisiProvider(next: KisiPort | undefined) {
  adapter = next;
}
