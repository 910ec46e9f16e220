/** The pro-rata calculator's calls: the organisation's prices and POST /api/prices/{id}/pro-rata. */
import { api, useApiList } from "@gym/web/api";
import { MESSAGES, z } from "@gym/web/forms";
import useSWR from "swr";

export interface PriceChoice {
  id: string;
  label: string;
  billing_frequency: string;
  offering: { id: string; name: string };
  private: boolean;
}

export interface ProRataResult {
  price_id: string;
  price_label: string;
  offering: { id: string; name: string };
  frequency_label: string;
  start_date: string;
  billing_date: string;
  is_pro_rata: boolean;
  pro_rata_days: number;
  period_days: number;
  period_start: string;
  pro_rata_amount: number;
  joining_fee: number;
  first_payment_date: string;
  first_payment_total: number;
  first_full_payment_date: string;
  recurring_amount: number;
  latest_billing_date: string;
  formatted_pro_rata_amount: string;
  formatted_joining_fee: string;
  formatted_first_payment_total: string;
  formatted_recurring_amount: string;
  card_surcharge: number;
  formatted_card_surcharge: string;
  formatted_first_payment_total_with_card_surcharge: string;
}

/** The current organisation's offered prices (pay-in-full prices have no pro-rata and are left out). */
export function useRecurringPrices() {
  // Its own cache key: the auth state keeps "/api/me" in another shape.
  const me = useSWR(["/api/me", "organisation"] as const, () =>
    api.get<{ current_organisation: { id: string } | null }>("/api/me"),
  );
  const organisationId = me.data?.current_organisation?.id;
  const prices = useApiList<PriceChoice>(
    organisationId ? `/api/organisations/${organisationId}/prices` : null,
  );
  return {
    prices: prices.data?.data.filter((price) => price.billing_frequency !== "one_off"),
    error: me.error ?? prices.error,
    retry: () => {
      void me.mutate();
      void prices.mutate();
    },
  };
}

const date = z
  .string()
  .nullable()
  .refine((value) => Boolean(value), { error: MESSAGES.required });

export const proRataFormSchema = z.object({
  price_id: z
    .string()
    .nullable()
    .refine((value) => Boolean(value), { error: MESSAGES.required }),
  start_date: date,
  billing_date: date,
});

export type ProRataFormValues = z.input<typeof proRataFormSchema>;

export function calculateProRata(values: z.output<typeof proRataFormSchema>) {
  return api.post<ProRataResult>(`/api/prices/${values.price_id}/pro-rata`, {
    start_date: values.start_date,
    billing_date: values.billing_date,
  });
}
