import { useDocumentTitle } from "@mantine/hooks";
import { useNavigate, useSearchParams } from "react-router-dom";
import { login } from "../api/login";
import { AuthLayout } from "../components/AuthLayout";
import { LoginForm } from "../components/LoginForm";

/** Only same-site paths are followed after sign-in (never `//evil.example`). */
export function safeRedirect(value: string | null, fallback: string): string {
  return value?.startsWith("/") && !value.startsWith("//") ? value : fallback;
}

export function LoginRoute() {
  useDocumentTitle("Sign in · Gym back office");
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirectTo = safeRedirect(params.get("redirect"), "/dashboard");

  return (
    <AuthLayout title="Sign in" description="Welcome back. Sign in with your staff email and password.">
      <LoginForm
        onSubmit={login}
        onSuccess={(result) => {
          if (result?.two_factor_required === false) {
            navigate(redirectTo, { replace: true });
          } else {
            // A code has been emailed; the redirect survives the extra step.
            const query = params.get("redirect") ? `?redirect=${encodeURIComponent(redirectTo)}` : "";
            navigate(`/two-factor-authentication${query}`);
          }
        }}
      />
    </AuthLayout>
  );
}

export { LoginRoute as Component };
