import type { PromoCheck } from "@gym/core/contract/promo";
import { api, errorMessage } from "@gym/web/api";
import { Text, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useEffect, useState } from "react";
import useSWR from "swr";

interface Props {
  priceId: string;
  start: string;
  billingDate: string;
  paymentType: "stripe_card" | "bank_account";
  /** The accepted code's figures (null while none is accepted), and the code as typed. */
  onChange: (accepted: PromoCheck | null, code: string) => void;
}

/**
 * The confirm page's promo code (docs/offers.md "When a code may be used"): checked as it is typed
 * (`GET /api/promo-codes/check`), answering the discount and the first payment all-in, or the reason
 * the code cannot be used, under the field.
 */
export function PromoCodeField({ priceId, start, billingDate, paymentType, onChange }: Props) {
  const [code, setCode] = useState("");
  const [typed] = useDebouncedValue(code.trim(), 400);
  const { data, error, isLoading } = useSWR<PromoCheck>(
    typed ? ["promo", typed, priceId, start, billingDate, paymentType] : null,
    () =>
      api.get<PromoCheck>("/api/promo-codes/check", {
        query: {
          code: typed,
          price_id: priceId,
          start_date: start,
          billing_date: billingDate,
          payment_type: paymentType,
        },
      }),
    { shouldRetryOnError: false },
  );
  const current = typed && typed === code.trim() ? (data ?? null) : null;
  useEffect(() => onChange(error ? null : current, typed), [current, error, typed, onChange]);
  return (
    <TextInput
      label="Promo code"
      description="Have a code? Type it here."
      value={code}
      onChange={(event) => setCode(event.currentTarget.value)}
      autoCapitalize="characters"
      autoComplete="off"
      error={typed && error ? errorMessage(error) : undefined}
      rightSection={isLoading ? <Text size="xs">…</Text> : undefined}
      data-testid="promo-code"
    />
  );
}
