import { formatDate } from "@gym/web/format";
import { removePause } from "../../api/memberships";
import { type ActionProps, ConfirmAction } from "./shared";

/** Removes a booked pause that has not started; its days come back. */
export function RemovePauseDialog({ subscription: s, ...props }: ActionProps) {
  return (
    <ConfirmAction
      {...props}
      text={`The pause from ${formatDate(s.pause_start_at)} to ${formatDate(s.pause_end_at)} is removed and its days are given back; payments fall due as before.`}
      label="Remove pause"
      message="Pause removed"
      run={() => removePause(s.id)}
    />
  );
}
