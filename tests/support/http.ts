/**
 * A small HTTP client for tests that talks to a real server: JSON in and out, the
 * X-Requested-With header the API requires, and a cookie jar so a test can act as one
 * signed-in person.
 */
export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class HttpClient {
  private cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    private readonly defaults: { xhr?: boolean } = { xhr: true },
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const isForm = body instanceof FormData;
    const raw = typeof body === "string";
    const response = await fetch(this.baseUrl + path, {
      method,
      redirect: "manual",
      headers: {
        ...(this.defaults.xhr === false ? {} : { "X-Requested-With": "XMLHttpRequest" }),
        ...(body !== undefined && !isForm ? { "Content-Type": "application/json" } : {}),
        ...(this.cookies.size ? { Cookie: this.cookieHeader() } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : isForm || raw ? (body as BodyInit) : JSON.stringify(body),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (!value || /max-age=0/i.test(cookie) || /expires=Thu, 01 Jan 1970/i.test(cookie))
        this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>("GET", path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>("POST", path, body ?? {}, headers);
  }
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>("PUT", path, body ?? {}, headers);
  }
  delete<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>("DELETE", path, undefined, headers);
  }

  /**
   * An export call (`POST …/export`): answers the call's answer, and when it is the 303 to the
   * written file, the file as the browser receives it by following `Location` (no cookies: the
   * signed address is the permission).
   */
  async exportCsv(path: string, body: unknown = {}) {
    const call = await this.post(path, body);
    if (call.status !== 303) return { call, file: null };
    const response = await fetch(this.baseUrl + call.headers.get("location"));
    return {
      call,
      file: { status: response.status, headers: response.headers, text: await response.text() },
    };
  }
}
