import { screen } from "@testing-library/react";
import { Link } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "../testing";
import { ErrorBoundary, NotFoundPage, ScrollToTop } from ".";

function Boom(): never {
  throw new Error("kaboom");
}

function Page({ to }: { to: string }) {
  return (
    <>
      <ScrollToTop />
      <Link to={to}>next</Link>
    </>
  );
}

describe("app shell pieces", () => {
  it("scrolls to the top whenever the path changes", async () => {
    const scrollTo = vi.spyOn(window, "scrollTo");
    const { user } = renderWithProviders(<Page to="/b" />, {
      route: "/a",
      routes: [{ path: "/b", element: <Page to="/a" /> }],
    });
    const before = scrollTo.mock.calls.length;
    await user.click(screen.getByRole("link", { name: "next" }));
    expect(scrollTo.mock.calls.length).toBeGreaterThan(before);
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 0, left: 0 });
    scrollTo.mockRestore();
  });

  it("shows the error page instead of a blank screen when a page throws", () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    const onError = vi.fn();
    renderWithProviders(
      <ErrorBoundary onError={onError}>
        <Boom />
      </ErrorBoundary>,
    );
    expect(screen.getByRole("heading", { name: "Something went wrong" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Reload the page" })).toBeInTheDocument();
    expect(onError).toHaveBeenCalled();
    quiet.mockRestore();
  });

  it("renders a not-found page with a way back", () => {
    renderWithProviders(<NotFoundPage homeHref="/login" homeLabel="Go to sign in" />, { route: "/nowhere" });
    expect(screen.getByRole("heading", { name: "Page not found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to sign in" })).toHaveAttribute("href", "/login");
  });
});
