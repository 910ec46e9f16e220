import { memberStateLabels } from "@gym/core/contract/labels";
import { Badge } from "@mantine/core";
import type { MemberState } from "../api/members";

/**
 * A member's membership state in the spec's card colours (001 §4): green healthy, amber paused,
 * in grace or upcoming, red cancelled with the period over or cancelled in grace; grey without a
 * membership. The colour comes from the API (`card_colour`): a cancellation still inside its
 * paid period stays green.
 */
export function StateBadge({
  state,
  colour,
}: {
  state: MemberState;
  colour: "green" | "amber" | "red" | null;
}) {
  const mantine =
    colour === "green" ? "green" : colour === "amber" ? "yellow" : colour === "red" ? "red" : "gray";
  return (
    <Badge
      color={mantine}
      variant="light"
      data-state={state}
      data-colour={colour ?? "none"}
      styles={{ root: { maxWidth: "none", flexShrink: 0 }, label: { overflow: "visible" } }}
    >
      {memberStateLabels[state]}
    </Badge>
  );
}
