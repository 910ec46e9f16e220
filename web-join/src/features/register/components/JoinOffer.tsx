import type { JoinOptions } from "@gym/core/contract/registration";
import { NativeSelect, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { useSearchParams } from "react-router-dom";

/**
 * A join link's offer around the form that takes it (registering, or a signed-in member choosing
 * again): the organisation's gyms to pick between when the link offers several (the phone's own
 * picker, and no popover code in the first download), then the form, or a note when the gym has
 * nothing to join online.
 */
export function JoinOffer({ options, children }: { options: JoinOptions; children: ReactNode }) {
  const [params, setParams] = useSearchParams();
  return (
    <>
      {options.gyms.length > 1 && (
        <NativeSelect
          label="Gym"
          data={options.gyms.map((gym) => ({ value: gym.uuid, label: gym.name }))}
          value={options.gym.uuid}
          onChange={(event) => {
            const next = new URLSearchParams(params);
            next.set("gym", event.currentTarget.value);
            setParams(next, { replace: true });
          }}
        />
      )}
      {options.offerings.length === 0 ? (
        <Text>This gym has no memberships to join online yet. Please ask at the front desk.</Text>
      ) : (
        children
      )}
    </>
  );
}
