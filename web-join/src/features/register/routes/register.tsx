import type { JoinOptions } from "@gym/core/contract/registration";
import { useApi } from "@gym/web/api";
import { useAuth } from "@gym/web/auth";
import { PageLoader } from "@gym/web/ui";
import { Alert, Button, Center, Loader } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { Navigate, useNavigate, useSearchParams } from "react-router-dom";
import { JoinLayout } from "../../../components/JoinLayout";
import { joinLinks, joinOptionsKey, linkSearch, register, useRegistration } from "../api/registration";
import { JoinOffer } from "../components/JoinOffer";
import { RegisterForm } from "../components/RegisterForm";
import { SignInForm } from "../components/SignInForm";
import { memberLanding, VERIFICATION_PATH } from "../steps";

/** Today in Pacific/Auckland as YYYY-MM-DD. */
export function aucklandToday(now = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Auckland" }).format(now);
}

/**
 * The register page's heading and introduction. web-join/index.html paints the same words (its
 * prerendered shell) before any JavaScript has run, and React keeps them: the heading is the
 * same for every gym so the first paint is already the real page; the gym's name and logo
 * head the page in the header once the gym's details have arrived (docs/registration.md, Speed).
 */
export const REGISTER_TITLE = "Become a member";
export const REGISTER_DESCRIPTION = "Choose your membership and create your account. It takes a few minutes.";

/** What the sign-in page says after a password email's page (`?notice=`, features/auth). */
const SIGN_IN_NOTICES: Record<string, string> = {
  "password-set": "Your password is set. Sign in to see your membership.",
  "password-reset": "Your password is changed. Sign in with your new password.",
};

/**
 * `/`: a gym's link (`?gym=<uuid>`), a private price link (`?price=<token>`) or an age-bypass
 * link (`?age_bypass=<token>`) opens the gym's offer and the sign-up form. A member who is
 * already signed in resumes at their step.
 */
export function RegisterRoute() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const { me, getCurrentUser } = useAuth();
  const member = me?.status === "signed_in" && !me.user.is_staff;
  const { data: state } = useRegistration(member);
  const links = joinLinks(params);
  const linkQuery = linkSearch(links);
  const hasLink = linkQuery !== "";
  const { data: options, error } = useApi<JoinOptions>(hasLink && !member ? joinOptionsKey(links) : null);
  useDocumentTitle(options ? `Join ${options.gym.name}` : "Join the gym");

  const signingIn = params.get("signin") === "1";
  const notice = SIGN_IN_NOTICES[params.get("notice") ?? ""] ?? null;
  const toggleSignIn = (on: boolean) => {
    const next = new URLSearchParams(params);
    if (on) next.set("signin", "1");
    else next.delete("signin");
    setParams(next);
  };
  const signInLink = (
    <Button variant="subtle" onClick={() => toggleSignIn(true)}>
      Already have an account? Sign in
    </Button>
  );

  if (me?.status === "two_factor") return <Navigate to={`${VERIFICATION_PATH}?twoFactorAuth=true`} replace />;
  if (member) return state ? <Navigate to={memberLanding(state, linkQuery)} replace /> : <PageLoader />;
  if (signingIn) {
    return (
      <JoinLayout
        // The link's gym, else (an email's link, opened in a new tab) the one this device last showed.
        gym={options?.gym}
        title="Sign in"
        description="We will email you a code to confirm it is you."
      >
        {notice && (
          <Alert color="teal" role="status">
            {notice}
          </Alert>
        )}
        <SignInForm
          email={params.get("email") ?? ""}
          forgotHref={
            links.gym ? `/forgot-password?gym=${encodeURIComponent(links.gym)}` : "/forgot-password"
          }
          onSignedIn={() => {
            // After the code: back to the page they were sent from, or to this join link (a past
            // member then chooses their new membership), else to their step.
            const back = params.get("redirect") ?? (hasLink ? `/?${linkQuery}` : null);
            const redirect = back ? `&redirect=${encodeURIComponent(back)}` : "";
            navigate(`${VERIFICATION_PATH}?twoFactorAuth=true${redirect}`);
          }}
        />
        <Button variant="subtle" onClick={() => toggleSignIn(false)}>
          New here? Create an account
        </Button>
      </JoinLayout>
    );
  }
  if (!hasLink || error) {
    return (
      <JoinLayout gym={null} title={REGISTER_TITLE} description={REGISTER_DESCRIPTION}>
        <Alert
          color={error ? "red" : "blue"}
          title={error ? "This join link is not valid" : "Open your gym's link"}
        >
          {error
            ? "The link may have expired or been mistyped. Ask the gym for a new one."
            : "Use the join link your gym gave you (on their website, a poster or the front desk)."}
        </Alert>
        {signInLink}
      </JoinLayout>
    );
  }
  if (!options) {
    // The page as the shell painted it, waiting for the gym's memberships below.
    return (
      <JoinLayout gym={null} title={REGISTER_TITLE} description={REGISTER_DESCRIPTION}>
        <Center py="xl" role="status" aria-live="polite">
          <Loader aria-label="Loading the gym's memberships" />
        </Center>
      </JoinLayout>
    );
  }

  return (
    <JoinLayout gym={options.gym} title={REGISTER_TITLE} description={REGISTER_DESCRIPTION}>
      <JoinOffer options={options}>
        <RegisterForm
          key={options.gym.uuid}
          options={options}
          links={{ price: links.price, age_bypass: links.age_bypass }}
          today={options.today ?? aucklandToday()}
          onSubmit={async (values) => {
            await register(values);
            // The session now waits for the emailed code: the auth state must know before moving on.
            await getCurrentUser();
          }}
          onSuccess={() => navigate(VERIFICATION_PATH)}
        />
      </JoinOffer>
      {signInLink}
    </JoinLayout>
  );
}

export { RegisterRoute as Component };
