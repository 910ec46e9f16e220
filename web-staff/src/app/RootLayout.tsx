import { ScrollToTop } from "@gym/web/app";
import { Outlet } from "react-router-dom";

/** Every page: scroll back to the top on navigation. The signed-in layout (sidebar, top bar) nests here. */
export function RootLayout() {
  return (
    <>
      <ScrollToTop />
      <Outlet />
    </>
  );
}
