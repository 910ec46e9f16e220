/**
 * Structured JSON logs, one line each, so CloudWatch Logs Insights can query them.
 *
 * Every line carries the context of the work it belongs to (`request_id`, `organisation_id`,
 * `job`, …): the API's request middleware and the job runner open a context with
 * `withLogContext`, and code that learns more (the signed-in organisation, the payment a charge
 * message names) adds to it with `addLogContext`. The context follows async calls
 * (AsyncLocalStorage), so no function has to pass it along. It travels into the charge queue's
 * messages (payment/queue.ts).
 *
 * Nothing personal or secret reaches a log: every field is redacted as the webhook log redacts a
 * body (redact.ts: keys naming a secret, token, email, phone, address, account or card
 * number → "[redacted]"; card-like and NZ bank account digit runs masked), and email addresses
 * inside any string are masked too (docs/operations.md, "Logs").
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { redactValue } from "./redact";

type Fields = Record<string, unknown>;

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof levels, "silent">;

/** What every line of the current request, job run or charge carries. */
export interface LogContext {
  request_id?: string;
  organisation_id?: string;
  job?: string;
  [field: string]: string | undefined;
}

const context = new AsyncLocalStorage<LogContext>();

/** Runs `fn` with `fields` added to the current context (a child: the caller's context is unchanged). */
export function withLogContext<T>(fields: LogContext, fn: () => T): T {
  return context.run({ ...context.getStore(), ...defined(fields) }, fn);
}

/** Adds fields to the current context (e.g. the organisation once the session is read). */
export function addLogContext(fields: LogContext) {
  const store = context.getStore();
  if (store) Object.assign(store, defined(fields));
}

/** The current context (empty outside any request or job). */
export function logContext(): Readonly<LogContext> {
  return context.getStore() ?? {};
}

function defined(fields: LogContext): LogContext {
  const out: LogContext = {};
  for (const [key, value] of Object.entries(fields)) if (value) out[key] = value;
  return out;
}

/** LOG_LEVEL: debug, info (default), warn, error or silent. */
function threshold(): number {
  return levels[(process.env.LOG_LEVEL ?? "info") as keyof typeof levels] ?? levels.info;
}

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;

/** A log line's fields without personal data or secrets (see the file comment). */
export function redactFields(fields: Fields): Fields {
  return maskEmails(redactValue(fields)) as Fields;
}

function maskEmails(value: unknown): unknown {
  if (typeof value === "string") return value.replace(EMAIL, "[redacted email]");
  if (Array.isArray(value)) return value.map(maskEmails);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskEmails(v)]));
  }
  return value;
}

function write(level: Level, message: string, fields?: Fields) {
  if (levels[level] < threshold()) return;
  const line = JSON.stringify({
    level,
    time: new Date().toISOString(),
    message: maskEmails(message),
    ...context.getStore(),
    ...(fields ? redactFields(fields) : {}),
  });
  if (level === "error" || level === "warn") process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

export const log = {
  debug: (message: string, fields?: Fields) => write("debug", message, fields),
  info: (message: string, fields?: Fields) => write("info", message, fields),
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};
