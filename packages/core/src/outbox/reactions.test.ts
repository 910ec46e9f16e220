/**
 * No reaction between layers lives in memory any more (issue 39, docs/data-model.md "The outbox"):
 * every one is an outbox event, written in its change's transaction and delivered at least once.
 * A module-level list of listeners (a lower layer's `onX(listener)` pushing onto an array it calls
 * after its commit) is what lost a reaction when the process died between the commit and the
 * listener, and what a process that never called `createCore` never heard: none may come back.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { createCore } from "../core";
import { localProviders } from "../simulators/index";
import { outboxTypes } from "./events";
import { hasOutboxSubscriber } from "./outbox";

const root = join(__dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/**
 * Module-level registries of callbacks that are not post-commit reactions: the outbox's own table of
 * its one handler per type, the provider webhooks' dispatch (an inbound delivery, answered 5xx
 * while a handler fails, so the provider delivers it again) and the tests' race points.
 */
const notReactions = new Set(["outbox/outbox.ts", "webhook-log/receive.ts", "race-points.ts"]);

/** A top-level array or map whose elements are callbacks: `const listeners: Listener[] = []`. */
const callbackRegistry =
  /^(?:const|let)\s+(\w+)\s*(?::\s*([^=]+))?=\s*(?:\[\]|new\s+(?:Map|Set)\s*<[^>]*(?:Listener|Hook|Handler|Subscriber|=>)[^>]*>)/gm;

describe("reactions between layers", () => {
  it("no module keeps a list of listeners to call after its commit", () => {
    const found: string[] = [];
    for (const path of sources(root)) {
      const file = relative(root, path).replaceAll("\\", "/");
      if (notReactions.has(file) || file.startsWith("simulators/")) continue;
      for (const match of readFileSync(path, "utf8").matchAll(callbackRegistry)) {
        const [whole, name, type = ""] = match;
        const callbacks =
          /Listener|Hook|Handler|Subscriber|After|=>/.test(type) ||
          /listeners|hooks|subscribers|handlers|^after/i.test(name) ||
          /Listener|Hook|Handler|Subscriber|=>/.test(whole);
        if (callbacks) found.push(`${file}: ${whole.trim()}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("every outbox event type has its handler once the process started", () => {
    createCore({ providers: localProviders() });
    expect(outboxTypes.filter((type) => !hasOutboxSubscriber(type))).toEqual([]);
  });
});
