import { CANCELLATION_REASONS } from "@gym/core/contract/lifecycle";
import { errorMessage } from "@gym/web/api";
import { formatDate } from "@gym/web/format";
import { useAction } from "@gym/web/forms";
import { Alert, Button, Loader, MultiSelect, Stack, Switch, Text, Textarea } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { useState } from "react";
import { cancelSubscription, useCancellationPreview } from "../../api/memberships";
import { type ActionProps, Footer } from "./shared";

/** Cancels, stating first when it takes effect, cooling-off and the break fee as charged (on the button too). */
export function CancelDialog({ subscription: s, done, close }: ActionProps) {
  const [immediate, setImmediate] = useState(false);
  const [reasons, setReasons] = useState<string[]>([]);
  const [comments, setComments] = useState("");
  const { data: preview, error } = useCancellationPreview(s.id, immediate);
  // The break fee as it will be charged (core's quote: surcharge and credit included).
  const charge = preview?.break_fee_charge ?? null;
  const confirm = useAction(
    async () => {
      const next = await cancelSubscription(s.id, {
        immediate,
        cancellation_reasons: reasons,
        cancellation_comments: comments || undefined,
      });
      done(next, "Membership cancelled");
    },
    { errorSummary: "The membership was not cancelled" },
  );
  return (
    <Stack gap="sm">
      <Switch
        label="Cancel immediately"
        description="Otherwise the membership runs to the end of the paid period."
        checked={immediate}
        onChange={(event) => setImmediate(event.currentTarget.checked)}
      />
      <MultiSelect label="Reasons" data={[...CANCELLATION_REASONS]} value={reasons} onChange={setReasons} />
      <Textarea
        label="Comments"
        rows={2}
        value={comments}
        onChange={(e) => setComments(e.currentTarget.value)}
      />
      {error && <Alert color="red">{errorMessage(error)}</Alert>}
      {!preview && !error && <Loader size="sm" aria-label="Working out what cancelling means" />}
      {preview && (
        <Alert
          color={preview.break_fee > 0 ? "orange" : "blue"}
          icon={preview.break_fee > 0 ? <IconAlertTriangle size={18} /> : undefined}
          title={`Takes effect ${formatDate(preview.takes_effect_on)}`}
        >
          <Stack gap={4}>
            <Text size="sm">
              Door access continues until then. Staff can undo it until{" "}
              {formatDate(preview.undo_cancellation_until)}.
            </Text>
            {preview.in_cooling_off && <Text size="sm">Inside the cooling-off period: no break fee.</Text>}
            {charge && (
              <Text size="sm" fw={600}>
                A break fee of {preview.formatted_break_fee} is charged (
                {preview.break_fee_basis_points / 100}% of the term still to run)
                {charge.surcharge > 0 ? `, plus a ${charge.formatted_surcharge} card surcharge` : ""}
                {charge.credit_applied > 0 ? `, less ${charge.formatted_credit_applied} of credit` : ""}: the
                member pays {charge.formatted_total} from {charge.payment_method.label}.
              </Text>
            )}
          </Stack>
        </Alert>
      )}
      <Footer close={close} dismiss="Keep the membership">
        <Button color="red" onClick={() => void confirm.run()} loading={confirm.running} disabled={!preview}>
          {charge && charge.total > 0 ? `Cancel and charge ${charge.formatted_total}` : "Cancel membership"}
        </Button>
      </Footer>
    </Stack>
  );
}
