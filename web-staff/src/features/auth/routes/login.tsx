import { safeRedirect, useAuth, withRedirect } from "@gym/web/auth";
import { Alert } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconCircleCheck } from "@tabler/icons-react";
import { useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { AuthLayout } from "../components/AuthLayout";
import { LoginForm } from "../components/LoginForm";

export { safeRedirect };

/** What another page may hand the sign-in page (router state). */
export interface LoginNotice {
  notice?: string;
}

/**
 * Sign-in, step one: email and password. The API then emails a code and the two-factor page
 * finishes the sign-in; the `redirect` query survives the extra step.
 */
export function LoginRoute() {
  useDocumentTitle("Sign in · Gym back office");
  const { login, getCurrentUser } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const redirect = params.get("redirect");
  const notice = (location.state as LoginNotice | null)?.notice;

  return (
    <AuthLayout title="Sign in" description="Welcome back. Sign in with your staff email and password.">
      {notice && (
        <Alert color="teal" icon={<IconCircleCheck size={18} />} mb="md" role="status">
          {notice}
        </Alert>
      )}
      <LoginForm
        initialEmail={params.get("email") ?? ""}
        onSubmit={async (values) => {
          const result = await login(values);
          if (result?.two_factor_required === false) {
            await getCurrentUser();
            navigate(safeRedirect(redirect), { replace: true });
            return;
          }
          // A code has been emailed; the redirect survives the extra step.
          const next = redirect
            ? withRedirect("/two-factor-authentication", safeRedirect(redirect))
            : "/two-factor-authentication";
          navigate(next, { state: { email: values.email } });
        }}
      />
    </AuthLayout>
  );
}

export { LoginRoute as Component };
