import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fileStore } from "./index";

/**
 * The local store follows the uploads folder the process has now: test files that share one process
 * set their own `UPLOADS_DIR`, and the local download route reads from the folder configured then.
 */
describe("fileStore", () => {
  const folders: string[] = [];
  afterEach(() => {
    vi.unstubAllEnvs();
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it("writes into the uploads folder configured now, not the first one it was asked for", async () => {
    const [first, second] = [0, 1].map(() => {
      const folder = mkdtempSync(join(tmpdir(), "gym-files-"));
      folders.push(folder);
      return folder;
    });
    vi.stubEnv("UPLOADS_DIR", first);
    await fileStore().put("photos/a.txt", new TextEncoder().encode("a"), "text/plain");
    vi.stubEnv("UPLOADS_DIR", second);
    await fileStore().put("photos/b.txt", new TextEncoder().encode("b"), "text/plain");
    expect(existsSync(join(first, "photos/a.txt"))).toBe(true);
    expect(existsSync(join(second, "photos/b.txt"))).toBe(true);
    expect(existsSync(join(first, "photos/b.txt"))).toBe(false);
  });
});
