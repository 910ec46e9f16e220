/** Structured JSON logs, one line each, so CloudWatch Logs Insights can query them. */
type Fields = Record<string, unknown>;

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof levels, "silent">;

/** LOG_LEVEL: debug, info (default), warn, error or silent. */
function threshold(): number {
  return levels[(process.env.LOG_LEVEL ?? "info") as keyof typeof levels] ?? levels.info;
}

function write(level: Level, message: string, fields?: Fields) {
  if (levels[level] < threshold()) return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), message, ...fields });
  if (level === "error" || level === "warn") process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

export const log = {
  debug: (message: string, fields?: Fields) => write("debug", message, fields),
  info: (message: string, fields?: Fields) => write("info", message, fields),
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};
