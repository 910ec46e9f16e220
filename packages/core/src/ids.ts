import { monotonicFactory } from "ulid";

const next = monotonicFactory();

/** ULIDs: unique, and sortable by creation time. */
export function newId(): string {
  return next();
}

export function nowIso(now = new Date()): string {
  return now.toISOString();
}
