/**
 * Test helpers for component tests (vitest + happy-dom). Never imported by the sites.
 */

import type { MantineThemeOverride } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type RenderResult, render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactElement } from "react";
import { createMemoryRouter, type RouteObject, RouterProvider } from "react-router-dom";
import { vi } from "vitest";
import { AppProviders } from "../app/AppProviders";

export interface RenderOptions {
  /** Where the router starts. */
  route?: string;
  /** The path pattern the element is mounted at (defaults to the route's path). */
  path?: string;
  /** Other routes to mount beside it, e.g. the page a form navigates to. */
  routes?: RouteObject[];
  theme?: MantineThemeOverride;
}

export type RenderWithProvidersResult = RenderResult & {
  user: ReturnType<typeof userEvent.setup>;
  router: ReturnType<typeof createMemoryRouter>;
};

/** Renders inside the sites' providers (fresh SWR cache, no transitions) and a memory router. */
export function renderWithProviders(
  ui: ReactElement,
  options: RenderOptions = {},
): RenderWithProvidersResult {
  const route = options.route ?? "/";
  const path = options.path ?? route.split("?")[0];
  const router = createMemoryRouter([{ path, element: ui }, ...(options.routes ?? [])], {
    initialEntries: [route],
  });
  notifications.clean();
  const user = userEvent.setup();
  const result = render(
    <AppProviders env="test" theme={options.theme} swr={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, user, router };
}

export function jsonResponse(body: unknown, status = 200, init: ResponseInit = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    ...init,
    headers: { "Content-Type": "application/json", ...init.headers },
  });
}

export interface RecordedCall {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
  init: RequestInit;
}

/**
 * Replaces `fetch` with `handler` and records each call (JSON bodies parsed). Undo with
 * `vi.unstubAllGlobals()`.
 */
export function mockFetch(handler: (call: RecordedCall) => Response | Promise<Response>): {
  calls: RecordedCall[];
  fetch: ReturnType<typeof vi.fn>;
} {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const raw = init.body;
    let body: unknown = raw;
    if (typeof raw === "string") {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    const call: RecordedCall = {
      url: typeof input === "string" ? input : input instanceof URL ? input.href : input.url,
      method: init.method ?? "GET",
      headers: new Headers(init.headers),
      body,
      init,
    };
    calls.push(call);
    return handler(call);
  });
  vi.stubGlobal("fetch", fetchMock);
  return { calls, fetch: fetchMock };
}
export { paymentFixture, quoteFixture, subscriptionFixture } from "./subscription";
