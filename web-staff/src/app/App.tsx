import { AppProviders } from "@gym/web/app";
import { AuthProvider } from "@gym/web/auth";
import { RouterProvider } from "react-router-dom";
import { createRouter } from "./router";

export const router = createRouter();

export function App() {
  return (
    <AppProviders>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </AppProviders>
  );
}
