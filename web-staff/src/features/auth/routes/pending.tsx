import { Anchor, Text } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { Link } from "react-router-dom";
import { AuthLayout } from "../components/AuthLayout";

/** Public staff pages whose screens arrive with the sign-in work; each is reachable and titled. */
function Pending({ title, description }: { title: string; description: string }) {
  useDocumentTitle(`${title} · Gym back office`);
  return (
    <AuthLayout title={title} description={description}>
      <Text size="sm" c="dimmed" mb="md">
        This screen is coming in the sign-in work.
      </Text>
      <Anchor component={Link} to="/login" size="sm">
        Back to sign in
      </Anchor>
    </AuthLayout>
  );
}

export const ForgotPassword = () => (
  <Pending title="Forgot password" description="We will email you a link to choose a new password." />
);
export const ResetPassword = () => (
  <Pending title="Reset password" description="Choose a new password for your account." />
);
export const SetPassword = () => (
  <Pending title="Set your password" description="Choose a password to finish setting up your account." />
);
export const Welcome = () => (
  <Pending title="Welcome" description="Your account is ready. Sign in to get started." />
);
export const TwoFactor = () => (
  <Pending title="Check your email" description="Enter the code we emailed you to finish signing in." />
);
