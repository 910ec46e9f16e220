import { undoCancellation } from "../../api/memberships";
import { type ActionProps, ConfirmAction } from "./shared";

/** Undoes a cancellation while it can still be undone. */
export function UndoCancellationDialog({ subscription: s, ...props }: ActionProps) {
  return (
    <ConfirmAction
      {...props}
      text="The membership carries on as before the cancellation, with its payments."
      label="Undo cancellation"
      message="Cancellation undone"
      run={() => undoCancellation(s.id)}
    />
  );
}
