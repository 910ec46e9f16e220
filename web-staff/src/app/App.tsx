import { AppProviders } from "@gym/web/app";
import { RouterProvider } from "react-router-dom";
import { createRouter } from "./router";

const router = createRouter();

export function App() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
