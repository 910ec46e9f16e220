/**
 * Core's layers point one way: a file may import its own layer and the layers below it, never one
 * above. THE LAYER LIST IS HERE, lowest first (docs/architecture.md draws it). A folder's layer
 * is its entry; a file named in another entry (`rollup/writes.ts`, the entity files) overrides its folder.
 * A reaction that must go upwards is an event the higher layer subscribes to, wired in `core.ts`
 * (e.g. payment/destination-account.ts → payment/consent.ts). Type-only imports are not edges.
 *
 * `knownUpward` lists the upward imports that remain (none today; each would be work to do: move the
 * code to its layer, or turn the call into an event); the test fails on any other upward import,
 * and on an entry that no longer exists, so the list only shrinks.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

export const layers: [name: string, members: string[]][] = [
  [
    "kernel",
    [
      "billing",
      "contract",
      "errors",
      "ids",
      "text",
      "validation",
      "config",
      "log",
      "redact",
      "metrics",
      "crypto",
      "security",
      "race-points",
    ],
  ],
  // db/service.ts registers every entity, so the entities (records, no behaviour) sit with it.
  [
    "platform",
    [
      "db",
      // The outbox: written in the changes' transactions, delivered to handlers wired in core.ts.
      "outbox",
      "providers",
      "email",
      "clock",
      "clock-entity",
      "exports",
      "*/entity.ts",
      "*-entity.ts",
      "auth/entities.ts",
      // The counters an entity declares (rollup/entity.ts).
      "rollup/cost.ts",
    ],
  ],
  ["identity and tenancy", ["auth", "organisation", "gym", "user", "webhook-log"]],
  // A member's trial uses are read by the price's quote (has this member had the trial?).
  ["catalogue", ["offering", "price", "trial/store.ts"]],
  ["payment methods", ["payment-type"]],
  // The dashboard's counter writes stay low, beside the ledger that moves money. A subscription's
  // record reads (store.ts: no authorisation, only db/) and its billing schedule (schedule.ts: pure)
  // are what the ledger bills against, so they sit here too; the subscription's operations stay above.
  [
    "ledger",
    ["payment", "rollup/writes.ts", "rollup/money.ts", "subscription/store.ts", "subscription/schedule.ts"],
  ],
  ["subscription", ["subscription", "pif", "promo", "trial"]],
  // Reminders and card-expiry notices read subscriptions, payments and payment methods; a receipt
  // reads the payment and its subscription (issued by member/hooks.ts, or on paidAtDesk).
  ["members", ["member", "registration", "access", "staff", "notice", "receipt", "invitation", "account"]],
  ["dashboard", ["rollup"]],
  // The books: read payments, gyms and the organisation's settings; nothing below reads them.
  ["accounting", ["accounting"]],
  ["start-up", ["jobs", "core.ts"]],
  // Dev only: nothing in production code imports the simulators.
  ["simulators", ["simulators"]],
];

// None left: a new upward import is moved to its layer or made an event, not listed here.
const knownUpward = new Set<string>([]);

const core = resolve(import.meta.dirname);

function sources(): string[] {
  return readdirSync(core, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$|test-support/.test(e.name))
    .map((e) => relative(core, join(e.parentPath, e.name)));
}

function layerOf(file: string): number {
  const stem = file.replace(/\.tsx?$/, "");
  let best = -1;
  let bestLength = -1;
  layers.forEach(([, members], index) => {
    for (const member of members) {
      const match = member.startsWith("*")
        ? file.endsWith(member.slice(1)) && file.includes("/")
        : member.endsWith(".ts")
          ? file === member
          : stem === member || file.startsWith(`${member}/`);
      // A file pattern (`*/entity.ts`) or a named file beats its folder.
      const weight = member.startsWith("*") || member.endsWith(".ts") ? 1000 + member.length : member.length;
      if (match && weight > bestLength) {
        best = index;
        bestLength = weight;
      }
    }
  });
  return best;
}

const known = new Set(sources());

/** Runtime imports of a file, as paths relative to core (type-only imports left out). */
function runtimeImports(file: string): string[] {
  const text = readFileSync(join(core, file), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
  const found: string[] = [];
  const pattern =
    /(?:^|\n)\s*(?:import|export)\s+(type\s+)?([\s\S]*?)\s+from\s+["']([^"']+)["']|(?:^|\n)\s*import\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
  for (const m of text.matchAll(pattern)) {
    if (m[1]) continue;
    const names = m[2]?.trim();
    if (names && /^\{[^}]*\}$/.test(names)) {
      const list = names
        .replace(/[{}\s]/g, "")
        .split(",")
        .filter(Boolean);
      if (list.length && list.every((n) => n.startsWith("type"))) continue;
    }
    const specifier = m[3] ?? m[4] ?? m[5];
    if (!specifier.startsWith(".")) continue;
    let target = relative(core, resolve(dirname(join(core, file)), specifier));
    if (!/\.tsx?$/.test(target)) target = known.has(`${target}.ts`) ? `${target}.ts` : `${target}/index.ts`;
    found.push(target);
  }
  return found;
}

describe("core's layers", () => {
  const files = [...known];

  it("place every file of core in a layer", () => {
    expect(files.filter((file) => layerOf(file) < 0)).toEqual([]);
  });

  it("never import a higher layer (bar the known ones, which only shrink)", () => {
    const upward: string[] = [];
    for (const file of files) {
      for (const target of runtimeImports(file)) {
        if (layerOf(target) > layerOf(file)) upward.push(`${file} -> ${target}`);
      }
    }
    expect(upward.filter((edge) => !knownUpward.has(edge))).toEqual([]);
    expect([...knownUpward].filter((edge) => !upward.includes(edge))).toEqual([]);
  });
});
