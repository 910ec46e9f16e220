/**
 * The API client shared by both sites.
 *
 * Every call is same-origin (each site serves `/api`), sends the session cookie, carries
 * `X-Requested-With: XMLHttpRequest` (the API's CSRF defence) and gives up after 26 seconds.
 * Successful answers are `{ data }` (lists add `meta`); failures become an {@link ApiError}.
 */

/** Paging beside a list: cursor paging, DynamoDB has no cheap offsets or totals. */
export interface ApiMeta {
  next_cursor: string | null;
  per_page: number;
}

export interface ApiList<T> {
  data: T[];
  meta: ApiMeta;
}

/** Field name -> messages, as the API sends with a 422. */
export type FieldErrors = Record<string, string[]>;

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | QueryValue[]>;

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** A plain value is sent as JSON; `FormData` is sent as multipart (the browser sets the boundary). */
  body?: unknown;
  /** Appended to the path as a query string; `null`/`undefined` values are left out. */
  query?: Query;
  headers?: Record<string, string>;
  /** Cancels the call (e.g. when a component unmounts). */
  signal?: AbortSignal;
  /** Overrides the client's time-out for this call. */
  timeoutMs?: number;
}

export const API_TIMEOUT_MS = 26_000;

export class ApiError extends Error {
  override readonly name = "ApiError";
  /** HTTP status; 0 when no answer arrived (network failure or time-out). */
  readonly status: number;
  /** Field errors of a 422, `{}` otherwise. */
  readonly errors: FieldErrors;
  /** The API's machine code (`error`), e.g. "not_two_factor_authenticated", or "timeout" / "network_error". */
  readonly code: string | undefined;
  /** The parsed answer body, when there was one. */
  readonly body: unknown;

  constructor(init: {
    status: number;
    message: string;
    errors?: FieldErrors;
    code?: string;
    body?: unknown;
  }) {
    super(init.message);
    this.status = init.status;
    this.errors = init.errors ?? {};
    this.code = init.code;
    this.body = init.body;
  }

  get isValidation(): boolean {
    return this.status === 422;
  }

  get isUnauthenticated(): boolean {
    return this.status === 401;
  }

  get isNotFound(): boolean {
    return this.status === 404;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** The text to show a person for any thrown value: the server's message, else the error text. */
export function errorMessage(error: unknown, fallback = "Something went wrong. Please try again."): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === "string" && error) return error;
  return fallback;
}

export interface ApiClientConfig {
  /** Prefix for every path; "" means same origin. */
  baseUrl?: string;
  timeoutMs?: number;
}

export interface Envelope<T> {
  data: T;
  meta?: ApiMeta;
}

export function buildUrl(baseUrl: string, path: string, query?: Query): string {
  let url = `${baseUrl}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (item === null || item === undefined) continue;
      params.append(Array.isArray(value) ? `${key}[]` : key, String(item));
    }
  }
  const search = params.toString();
  if (search) url += (url.includes("?") ? "&" : "?") + search;
  return url;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function normaliseFieldErrors(value: unknown): FieldErrors {
  const record = asRecord(value);
  if (!record) return {};
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(record)) {
    if (Array.isArray(messages)) errors[field] = messages.map(String);
    else if (typeof messages === "string") errors[field] = [messages];
  }
  return errors;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorFromResponse(response: Response, body: unknown): ApiError {
  const record = asRecord(body);
  const serverMessage = typeof record?.message === "string" && record.message ? record.message : undefined;
  const code = typeof record?.error === "string" ? record.error : undefined;
  const message =
    serverMessage ??
    (response.statusText || undefined) ??
    (typeof body === "string" && body.length < 300 ? body : undefined) ??
    `Request failed with status ${response.status}`;
  return new ApiError({
    status: response.status,
    message,
    errors: normaliseFieldErrors(record?.errors),
    code,
    body,
  });
}

export function createApiClient(config: ApiClientConfig = {}) {
  const baseUrl = config.baseUrl ?? "";
  const defaultTimeout = config.timeoutMs ?? API_TIMEOUT_MS;

  /** Sends a call and returns the whole envelope (`{ data, meta? }`). */
  async function request<T>(path: string, options: RequestOptions = {}): Promise<Envelope<T>> {
    const { method = "GET", body, query, signal, timeoutMs = defaultTimeout } = options;
    const headers: Record<string, string> = {
      Accept: "application/json",
      "X-Requested-With": "XMLHttpRequest",
      ...options.headers,
    };
    let payload: BodyInit | undefined;
    if (body instanceof FormData) {
      payload = body;
    } else if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body);
    }

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onCallerAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) controller.abort(signal.reason);
    else signal?.addEventListener("abort", onCallerAbort, { once: true });

    try {
      let response: Response;
      try {
        response = await fetch(buildUrl(baseUrl, path, query), {
          method,
          headers,
          body: payload,
          credentials: "include",
          signal: controller.signal,
        });
      } catch (error) {
        if (timedOut) {
          throw new ApiError({
            status: 0,
            code: "timeout",
            message: "The server took too long to answer. Please try again.",
          });
        }
        if (signal?.aborted) throw error;
        throw new ApiError({
          status: 0,
          code: "network_error",
          message: "Could not reach the server. Check your connection and try again.",
        });
      }
      const parsed = await readBody(response);
      if (!response.ok) throw errorFromResponse(response, parsed);
      const envelope = asRecord(parsed);
      if (envelope && "data" in envelope) {
        return { data: envelope.data as T, meta: asRecord(envelope.meta) as ApiMeta | undefined };
      }
      // Not enveloped (e.g. 204 No Content): pass through unchanged.
      return { data: parsed as T };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onCallerAbort);
    }
  }

  type BodyOptions = Omit<RequestOptions, "method" | "body">;
  type GetOptions = Omit<RequestOptions, "method">;

  return {
    request,
    /** GET and unwrap `data`. */
    get: async <T>(path: string, options?: GetOptions): Promise<T> =>
      (await request<T>(path, { ...options, method: "GET" })).data,
    /** GET a list: `{ data, meta }` with the paging cursor. */
    list: async <T>(path: string, options?: GetOptions): Promise<ApiList<T>> => {
      const envelope = await request<T[]>(path, { ...options, method: "GET" });
      return {
        data: envelope.data ?? [],
        meta: envelope.meta ?? { next_cursor: null, per_page: envelope.data?.length ?? 0 },
      };
    },
    post: async <T = unknown>(path: string, body?: unknown, options?: BodyOptions): Promise<T> =>
      (await request<T>(path, { ...options, method: "POST", body })).data,
    put: async <T = unknown>(path: string, body?: unknown, options?: BodyOptions): Promise<T> =>
      (await request<T>(path, { ...options, method: "PUT", body })).data,
    patch: async <T = unknown>(path: string, body?: unknown, options?: BodyOptions): Promise<T> =>
      (await request<T>(path, { ...options, method: "PATCH", body })).data,
    delete: async <T = unknown>(path: string, options?: BodyOptions): Promise<T> =>
      (await request<T>(path, { ...options, method: "DELETE" })).data,
    /** POST multipart: `fields` become form fields, `File`/`Blob` values are sent as files. */
    upload: async <T = unknown>(
      path: string,
      fields: Record<string, string | Blob>,
      options?: BodyOptions,
    ): Promise<T> => {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.append(key, value);
      return (await request<T>(path, { ...options, method: "POST", body: form })).data;
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The client both sites use: same origin, 26-second time-out. */
export const api: ApiClient = createApiClient();
