import { BaseProviders, touchTheme } from "@gym/web/app";
import { RouterProvider } from "react-router-dom";
import { createRouter } from "./router";

const router = createRouter();

export function App() {
  return (
    <BaseProviders theme={touchTheme}>
      <RouterProvider router={router} />
    </BaseProviders>
  );
}
