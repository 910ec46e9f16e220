import { type JoinOptions, membershipChoiceInput } from "@gym/core/contract/registration";
import { errorMessage, isApiError, useApi } from "@gym/web/api";
import { titleCase } from "@gym/web/format";
import { submitHandler, useZodForm } from "@gym/web/forms";
import { FormError, PageLoader } from "@gym/web/ui";
import { Alert, Button, Paper, Stack } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { JoinLayout } from "../../../components/JoinLayout";
import {
  chooseMembership,
  joinLinks,
  joinOptionsKey,
  linkSearch,
  useRegistration,
} from "../api/registration";
import { DateOfBirthField } from "../components/DateOfBirthField";
import { JoinOffer } from "../components/JoinOffer";
import { ChoiceFields } from "../components/MembershipChoice";
import { stepPath } from "../steps";
import { aucklandToday } from "./register";

/**
 * `/rejoin`: a signed-in member who is not subscribed chooses a membership (a past member coming
 * back, someone with an account at another gym, or a member changing their choice before
 * confirming). The join link's query (`gym`, `price`, `age_bypass`) says what is offered; without
 * one, their gym's public offer. `PUT /api/me/registration`, then on to their step: a photo and
 * payment method they already have count.
 */
export function RejoinRoute() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { data: state } = useRegistration();
  // The join link's query; without one, the gym (and private link) of their current choice.
  const fromLink = joinLinks(params);
  const links = linkSearch(fromLink)
    ? fromLink
    : { gym: state?.gym.uuid ?? null, price: state?.price_link ?? null, age_bypass: null };
  const { data: options, error } = useApi<JoinOptions>(
    links.gym || links.price ? joinOptionsKey(links) : null,
  );
  useDocumentTitle(
    options
      ? `${state?.is_returning_member ? "Rejoin" : "Join"} ${options.gym.name}`
      : "Choose your membership · Join",
  );

  if (!state || (!options && !error)) return <PageLoader />;
  const firstName = titleCase(state.name).split(" ")[0];
  if (error || !options) {
    return (
      <JoinLayout title="Choose your membership">
        <Alert color="red" title="This join link is not valid">
          The link may have expired or been mistyped. Ask the gym for a new one.
        </Alert>
      </JoinLayout>
    );
  }
  // Only someone who was a member before is welcomed back; someone still joining for the first
  // time (back from the confirm page) is changing the choice they made, which stays selected.
  const changing = !state.is_returning_member && !state.choice_needed;
  return (
    <JoinLayout
      gym={options.gym}
      title={
        state.is_returning_member
          ? `Welcome back, ${firstName}`
          : changing
            ? "Change your membership"
            : "Choose your membership"
      }
      description={
        state.is_returning_member
          ? `Choose your membership at ${options.gym.name}. Your account, photo and payment details are kept.`
          : `Choose your membership at ${options.gym.name}.`
      }
    >
      <JoinOffer options={options}>
        <RejoinForm
          key={options.gym.uuid}
          options={options}
          links={links}
          current={
            state.choice_needed ? null : { price_id: state.price?.id ?? null, start_date: state.start_date }
          }
          onChosen={(step) => navigate(stepPath(step), { replace: true })}
        />
      </JoinOffer>
    </JoinLayout>
  );
}

function RejoinForm({
  options,
  links,
  current,
  onChosen,
}: {
  options: JoinOptions;
  links: { price: string | null; age_bypass: string | null };
  /** The choice the member made and can still confirm: shown selected (null: none to keep). */
  current: { price_id: string | null; start_date: string | null } | null;
  onChosen: (step: Parameters<typeof stepPath>[0]) => void;
}) {
  // The business date (the server's), not the device's: the start date may not be before it.
  const today = options.today ?? aucklandToday();
  const offered = (id: string | null | undefined) =>
    Boolean(id && options.offerings.some((o) => o.prices.some((p) => p.id === id)));
  const keptPrice = offered(current?.price_id) ? (current?.price_id as string) : "";
  const keptStart = current?.start_date && current.start_date >= today ? current.start_date : today;
  const [failure, setFailure] = useState<{ message: string; member: boolean } | null>(null);
  // Only an account without a date of birth (added by the gym) is asked for one, when the server says so.
  const [askDob, setAskDob] = useState(false);
  const form = useZodForm({
    schema: membershipChoiceInput,
    initialValues: {
      gym: options.gym.uuid,
      price_id: options.selected_price_id ?? keptPrice,
      price_link: links.price,
      age_bypass: links.age_bypass,
      start_date: keptStart,
      dob: null as string | null,
    },
  });
  const handleSubmit = submitHandler(
    form,
    async (values) => {
      setFailure(null);
      try {
        onChosen((await chooseMembership(values)).step);
      } catch (error) {
        if (isApiError(error) && error.errors.dob) setAskDob(true);
        throw error;
      }
    },
    {
      onError: (error) =>
        setFailure({ message: errorMessage(error), member: isApiError(error) && error.status === 409 }),
    },
  );

  return (
    <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
      <form noValidate onSubmit={handleSubmit} aria-label="Choose your membership">
        <Stack gap="md">
          {failure && (
            <FormError title={failure.member ? "You are already a member" : "We could not save your choice"}>
              {failure.message}{" "}
              {failure.member && <Link to={stepPath("welcome-to-gym")}>Go to your membership</Link>}
            </FormError>
          )}
          <ChoiceFields offerings={options.offerings} today={today} form={form} />
          {askDob && <DateOfBirthField today={today} key={form.key("dob")} {...form.getInputProps("dob")} />}
          <Button type="submit" fullWidth size="lg" mt="xs" loading={form.submitting}>
            Continue
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

export { RejoinRoute as Component };
