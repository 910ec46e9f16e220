/**
 * Helpers for the staff app's component tests: the real route table in a memory router, inside
 * the real providers and auth state, with `fetch` answered per "METHOD /path". Not imported by
 * the app.
 */
import { AppProviders } from "@gym/web/app";
import { AuthProvider, type CurrentUser } from "@gym/web/auth";
import { jsonResponse, mockFetch, type RecordedCall } from "@gym/web/testing";
import { notifications } from "@mantine/notifications";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, type RouteObject, RouterProvider } from "react-router-dom";
import { buildRoutes } from "./router";

export function staffUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: "u-admin",
    name: "Avery Admin",
    email: "admin@example.com",
    organisations: [{ id: "o-harbour", name: "Harbour Fitness" }],
    current_organisation: { id: "o-harbour", name: "Harbour Fitness", multi_gym: true, role: "admin" },
    gyms: [{ id: "g-ponsonby", name: "Harbour Fitness Ponsonby", role: null }],
    current_gym: { id: "g-ponsonby", role: null },
    is_staff: true,
    is_organisation_admin: true,
    is_gym_admin: false,
    administers_several_gyms: false,
    profile_picture: null,
    payment_types: [],
    start_date: null,
    billing_date: null,
    offering: null,
    price_id: null,
    default_payment_type: null,
    general_card_surcharge_text: null,
    should_onboard: false,
    invited_at: null,
    ...overrides,
  };
}

export const trainer = (): CurrentUser =>
  staffUser({
    id: "u-trainer",
    name: "Taylor Trainer",
    email: "trainer@example.com",
    current_organisation: { id: "o-harbour", name: "Harbour Fitness", multi_gym: true, role: null },
    gyms: [{ id: "g-ponsonby", name: "Harbour Fitness Ponsonby", role: "personal_trainer" }],
    current_gym: { id: "g-ponsonby", role: "personal_trainer" },
    is_organisation_admin: false,
  });

export const member = (): CurrentUser =>
  staffUser({
    id: "u-member",
    name: "Morgan Member",
    email: "member@example.com",
    current_organisation: null,
    gyms: [],
    current_gym: null,
    is_staff: false,
    is_organisation_admin: false,
  });

export type Handler = (call: RecordedCall) => Response | Promise<Response>;

/** Answers `fetch` by "METHOD /path" (query ignored); anything else is a 404. */
export function mockApi(handlers: Record<string, Handler | Response | unknown>) {
  return mockFetch((call) => {
    const path = new URL(call.url, "http://localhost").pathname;
    const handler = handlers[`${call.method} ${path}`];
    if (handler === undefined) return jsonResponse({ message: `No mock for ${call.method} ${path}` }, 404);
    if (typeof handler === "function") return (handler as Handler)(call);
    if (handler instanceof Response) return handler.clone();
    return jsonResponse({ data: handler });
  });
}

export const signedIn = (user: CurrentUser) => () => jsonResponse({ data: user });
export const noSession = () => jsonResponse({ message: "Unauthenticated." }, 401);
export const awaitingCode = () =>
  jsonResponse(
    { message: "Enter the code we emailed you to finish signing in.", error: "not_two_factor_authenticated" },
    400,
  );

/** Sets the window width for Mantine's responsive hooks and happy-dom's CSS media queries. */
export function setWindowWidth(width: number) {
  const happyDOM = (
    window as unknown as { happyDOM?: { setViewport?: (v: { width: number; height: number }) => void } }
  ).happyDOM;
  happyDOM?.setViewport?.({ width, height: 900 });
  window.innerWidth = width;
}

export interface RenderAppOptions {
  /** Feature routes to mount in the layout (default none: the sidebar pages are "coming soon"). */
  features?: RouteObject[];
  /** Window width in px (default a desktop, 1366; the sidebar is fixed from 1200). */
  width?: number;
}

/** Renders the staff app's route table at `route`. */
export function renderApp(route: string, options: RenderAppOptions = {}) {
  localStorage.clear();
  setWindowWidth(options.width ?? 1366);
  notifications.clean();
  const router = createMemoryRouter(buildRoutes(options.features ?? []), { initialEntries: [route] });
  const user = userEvent.setup();
  const result = render(
    <AppProviders env="test" swr={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </AppProviders>,
  );
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...result, router, user, location };
}
