import { type ApiError, isApiError } from "@gym/web/api";
import { InsideMain } from "@gym/web/app";
import { useAuth } from "@gym/web/auth";
import { BrandMark, PageLoader } from "@gym/web/ui";
import { AppShell, Drawer } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useCallback, useEffect, useState } from "react";
import { Outlet, useLocation, useNavigate } from "react-router-dom";
import { SWRConfig } from "swr";
import { BusinessClockBanner } from "../../payments/components/BusinessClockBanner";
import { Sidebar } from "./Sidebar";
import { TopBar } from "./TopBar";

/** Sidebar width on large screens (spec 000 §9). */
export const SIDEBAR_WIDTH = "16rem";
/** From this breakpoint the sidebar is fixed; below it, a slide-in drawer. */
export const SIDEBAR_BREAKPOINT = "lg";

/**
 * The signed-in layout (spec 000 §2 "Layout"): sidebar, top bar, content. The page is
 * re-created whenever the path, the current organisation or a gym switch changes, and any
 * call that finds the session gone sends the person back through the guard.
 */
export function StaffLayout() {
  const { user, getCurrentUser, logout } = useAuth();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [drawerOpened, drawer] = useDisclosure(false);
  const [reloads, setReloads] = useState(0);
  const [loggingOut, setLoggingOut] = useState(false);

  // The small-screen panel closes whenever the route path changes.
  useEffect(() => {
    drawer.close();
  }, [pathname]);

  const onReload = useCallback(() => setReloads((count) => count + 1), []);

  const onLogout = useCallback(async () => {
    setLoggingOut(true);
    await logout();
    navigate("/login", { replace: true });
  }, [logout, navigate]);

  // A 401 from any page means the session ended: ask who is signed in; the guard takes it from there.
  const onError = useCallback(
    (error: ApiError) => {
      if (isApiError(error) && error.status === 401) void getCurrentUser();
    },
    [getCurrentUser],
  );

  if (!user) return <PageLoader />;
  const pageKey = `${pathname}|${user.current_organisation?.id ?? "none"}|${reloads}`;

  return (
    <SWRConfig value={{ onError }}>
      {/* WCAG 2.4.1: the first Tab stop jumps past the sidebar and top bar. */}
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link is a link to the content; the click only keeps the router's address clean */}
      <a
        href="#main-content"
        className="skip-link"
        onClick={(event) => {
          // Focus the content without changing the address (the router owns it).
          event.preventDefault();
          document.getElementById("main-content")?.focus();
        }}
      >
        Skip to content
      </a>
      <AppShell
        layout="alt"
        header={{ height: { base: 112, sm: 64 } }}
        navbar={{ width: SIDEBAR_WIDTH, breakpoint: SIDEBAR_BREAKPOINT, collapsed: { mobile: true } }}
        padding={{ base: "md", sm: "lg", lg: "xl" }}
        bg="gray.0"
      >
        <AppShell.Header>
          <TopBar user={user} navOpened={drawerOpened} onToggleNav={drawer.toggle} onReload={onReload} />
        </AppShell.Header>
        <AppShell.Navbar aria-label="Sidebar" visibleFrom={SIDEBAR_BREAKPOINT}>
          <Sidebar user={user} onLogout={() => void onLogout()} loggingOut={loggingOut} />
        </AppShell.Navbar>
        <Drawer
          opened={drawerOpened}
          onClose={drawer.close}
          size={SIDEBAR_WIDTH}
          hiddenFrom={SIDEBAR_BREAKPOINT}
          title={<BrandMark label="Gym back office" size="sm" />}
          closeButtonProps={{ "aria-label": "Close navigation" }}
          styles={{ body: { padding: 0, height: "calc(100% - 64px)" }, header: { minHeight: 64 } }}
        >
          <Sidebar user={user} onLogout={() => void onLogout()} loggingOut={loggingOut} withLogo={false} />
        </Drawer>
        {/* The page's one main landmark; pages inside render plain blocks (InsideMain). */}
        <AppShell.Main id="main-content" tabIndex={-1} style={{ outline: "none" }}>
          <InsideMain.Provider value={true}>
            <BusinessClockBanner />
            <Outlet key={pageKey} />
          </InsideMain.Provider>
        </AppShell.Main>
      </AppShell>
    </SWRConfig>
  );
}
