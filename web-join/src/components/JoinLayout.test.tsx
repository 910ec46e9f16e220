import { touchTheme } from "@gym/web/app";
import { AuthProvider } from "@gym/web/auth";
import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { UnsubscribeRoute } from "../features/membership/routes/unsubscribe";
import { RegisterRoute } from "../features/register/routes/register";
import { JoinLayout } from "./JoinLayout";

const gym = { name: "Harbour Fitness Ponsonby", logo: null };

/** The member joined on this phone: the join pages showed their gym (then the tab was closed). */
function joinedOnThisDevice() {
  const { unmount } = renderWithProviders(
    <JoinLayout gym={gym} title="Welcome">
      <p>joined</p>
    </JoinLayout>,
    { theme: touchTheme },
  );
  unmount();
  // An email's link opens a new tab: nothing of the old tab's session is left.
  sessionStorage.clear();
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  mockFetch(() => jsonResponse({ message: "Unauthenticated." }, 401));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("pages an email's link opens", () => {
  it("the unsubscribe page keeps the gym's name, not a generic Join", async () => {
    joinedOnThisDevice();
    renderWithProviders(<UnsubscribeRoute />, { route: "/unsubscribe?token=t", theme: touchTheme });
    expect(
      await within(screen.getByRole("banner")).findByText("Harbour Fitness Ponsonby"),
    ).toBeInTheDocument();
  });

  it("the sign-in page an email's link is sent to keeps the gym's name", async () => {
    joinedOnThisDevice();
    renderWithProviders(
      <AuthProvider>
        <RegisterRoute />
      </AuthProvider>,
      { route: "/?signin=1&redirect=%2Fchoose-payment-method", path: "/", theme: touchTheme },
    );
    expect(await screen.findByRole("heading", { level: 1, name: "Sign in" })).toBeInTheDocument();
    expect(within(screen.getByRole("banner")).getByText("Harbour Fitness Ponsonby")).toBeInTheDocument();
  });
});
