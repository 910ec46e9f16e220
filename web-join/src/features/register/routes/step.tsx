import { PlaceholderPage } from "@gym/web/ui";
import { useDocumentTitle } from "@mantine/hooks";
import { useLocation } from "react-router-dom";
import { JoinLayout } from "../../../components/JoinLayout";
import { REGISTRATION_STEPS } from "../steps";

/** A registration step not built yet: titled, reachable, in order, and plain about it. */
export function StepRoute() {
  const { pathname } = useLocation();
  const index = REGISTRATION_STEPS.findIndex((step) => step.path === pathname);
  const step = REGISTRATION_STEPS[index] ?? REGISTRATION_STEPS[0];
  useDocumentTitle(`${step.title} · Join`);
  return (
    <JoinLayout title={step.title} description={step.description}>
      <PlaceholderPage description="This step is not ready yet. Please check back soon." />
    </JoinLayout>
  );
}

export { StepRoute as Component };
