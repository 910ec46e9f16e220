import { Center, Loader } from "@mantine/core";

/** A centred spinner for a whole page that is loading. */
export function PageLoader({ label = "Loading" }: { label?: string }) {
  return (
    <Center mih="60vh" role="status" aria-live="polite">
      <Loader aria-label={label} />
    </Center>
  );
}
