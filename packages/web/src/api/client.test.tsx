import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "../testing";
import { API_TIMEOUT_MS, ApiError, api, createApiClient } from "./client";

describe("api client", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("unwraps the { data } envelope", async () => {
    mockFetch(() => jsonResponse({ data: { id: "u1", name: "Ana" } }));
    await expect(api.get("/api/me")).resolves.toEqual({ id: "u1", name: "Ana" });
  });

  it("returns data and paging meta for lists", async () => {
    mockFetch(() =>
      jsonResponse({ data: [{ id: "g1" }, { id: "g2" }], meta: { next_cursor: "abc", per_page: 2 } }),
    );
    await expect(api.list("/api/gyms")).resolves.toEqual({
      data: [{ id: "g1" }, { id: "g2" }],
      meta: { next_cursor: "abc", per_page: 2 },
    });
  });

  it("sends X-Requested-With, cookies and JSON bodies, same origin", async () => {
    const { calls } = mockFetch(() => jsonResponse({ data: { two_factor_required: true } }));
    await api.post("/api/login", { email: "a@b.nz", password: "secret" });
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call.url).toBe("/api/login");
    expect(call.method).toBe("POST");
    expect(call.init.credentials).toBe("include");
    expect(call.headers.get("X-Requested-With")).toBe("XMLHttpRequest");
    expect(call.headers.get("Content-Type")).toBe("application/json");
    expect(call.body).toEqual({ email: "a@b.nz", password: "secret" });
  });

  it("sends the header on reads too, and builds query strings without empty values", async () => {
    const { calls } = mockFetch(() => jsonResponse({ data: [], meta: { next_cursor: null, per_page: 25 } }));
    await api.list("/api/members", { query: { search: "ana smith", cursor: null, per_page: 25 } });
    expect(calls[0].url).toBe("/api/members?search=ana+smith&per_page=25");
    expect(calls[0].headers.get("X-Requested-With")).toBe("XMLHttpRequest");
    expect(calls[0].init.credentials).toBe("include");
  });

  it("sends FormData as multipart, leaving the content type to the browser", async () => {
    const { calls } = mockFetch(() => jsonResponse({ data: { url: "/logo.png" } }));
    const file = new File(["png"], "logo.png", { type: "image/png" });
    await api.upload("/api/gyms/g1/logo", { collection: "logo", file });
    const body = calls[0].init.body;
    expect(body).toBeInstanceOf(FormData);
    expect((body as FormData).get("collection")).toBe("logo");
    expect(calls[0].headers.has("Content-Type")).toBe(false);
    expect(calls[0].headers.get("X-Requested-With")).toBe("XMLHttpRequest");
  });

  it("turns a 422 into an ApiError with the field errors and the server's message", async () => {
    mockFetch(() =>
      jsonResponse(
        {
          message: "The given data was invalid.",
          errors: { email: ["Value is required"], name: "Too long" },
        },
        422,
      ),
    );
    const error = await api.post("/api/register", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      message: "The given data was invalid.",
      errors: { email: ["Value is required"], name: ["Too long"] },
    });
    expect((error as ApiError).isValidation).toBe(true);
  });

  it("carries the server's machine code (error field)", async () => {
    mockFetch(() =>
      jsonResponse({ message: "Two-factor code needed", error: "not_two_factor_authenticated" }, 400),
    );
    await expect(api.get("/api/me")).rejects.toMatchObject({
      status: 400,
      code: "not_two_factor_authenticated",
      message: "Two-factor code needed",
    });
  });

  it("falls back to the status text when the server sends no message", async () => {
    mockFetch(() => new Response("", { status: 503, statusText: "Service Unavailable" }));
    await expect(api.get("/api/gyms")).rejects.toMatchObject({ status: 503, message: "Service Unavailable" });
  });

  it("reports a network failure as an ApiError with status 0", async () => {
    mockFetch(() => Promise.reject(new TypeError("Failed to fetch")));
    await expect(api.get("/api/me")).rejects.toMatchObject({ status: 0, code: "network_error" });
  });

  it("passes non-enveloped answers (204) through", async () => {
    mockFetch(() => new Response(null, { status: 204 }));
    await expect(api.post("/api/logout")).resolves.toBeUndefined();
  });

  it("aborts after 26 seconds", async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    mockFetch(
      ({ init }) =>
        new Promise<Response>((_resolve, reject) => {
          signal = init.signal ?? undefined;
          signal?.addEventListener("abort", () => reject(new DOMException("Aborted", "AbortError")));
        }),
    );
    const pending = api.get("/api/slow").catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(API_TIMEOUT_MS - 1);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signal?.aborted).toBe(true);
    const error = await pending;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: "timeout" });
  });

  it("lets the caller cancel a call", async () => {
    mockFetch(
      ({ init }) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener("abort", () => reject(new DOMException("Aborted", "AbortError")));
        }),
    );
    const controller = new AbortController();
    const pending = api.get("/api/me", { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    const error = await pending;
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as DOMException).name).toBe("AbortError");
  });

  it("prefixes a configured base URL", async () => {
    const { calls } = mockFetch(() => jsonResponse({ data: 1 }));
    await createApiClient({ baseUrl: "https://staff.example.nz" }).get("/api/me");
    expect(calls[0].url).toBe("https://staff.example.nz/api/me");
  });
});
