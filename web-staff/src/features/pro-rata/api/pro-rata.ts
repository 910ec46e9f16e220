/** The pro-rata calculator's calls: the organisation's prices and POST /api/prices/{id}/pro-rata. */
import { messages } from "@gym/core/contract/fields";
import { type Price, type ProRata, type ProRataRequest, proRataRequest } from "@gym/core/contract/price";
import { api, useApi } from "@gym/web/api";
import { z } from "@gym/web/forms";
import useSWR from "swr";

/** What the calculator shows of a price. */
export type PriceChoice = Pick<Price, "id" | "label" | "billing_frequency" | "offering" | "private">;
export type { ProRata as ProRataResult } from "@gym/core/contract/price";

/** The current organisation's offered prices (pay-in-full prices have no pro-rata and are left out). */
export function useRecurringPrices() {
  // Its own cache key: the auth state keeps "/api/me" in another shape.
  const me = useSWR(["/api/me", "organisation"] as const, () =>
    api.get<{ current_organisation: { id: string } | null }>("/api/me"),
  );
  const organisationId = me.data?.current_organisation?.id;
  // Answered whole (no paging).
  const prices = useApi<PriceChoice[]>(organisationId ? `/api/organisations/${organisationId}/prices` : null);
  return {
    prices: prices.data?.filter((price) => price.billing_frequency !== "one_off"),
    error: me.error ?? prices.error,
    retry: () => {
      void me.mutate();
      void prices.mutate();
    },
  };
}

/** The form's values: empty pickers hold null, which the schema answers with "Value is required". */
export type ProRataFormValues = {
  price_id: string | null;
  start_date: string | null;
  billing_date: string | null;
};

const proRataForm = proRataRequest.extend({
  price_id: z.string({ error: messages.required }).min(1, messages.required),
});

/** The API's own request schema (dates and their messages), with the price chosen on the form. */
export const proRataFormSchema = proRataForm as unknown as z.ZodType<
  z.output<typeof proRataForm>,
  ProRataFormValues
>;

export function calculateProRata(values: z.output<typeof proRataFormSchema>) {
  const body: ProRataRequest = { start_date: values.start_date, billing_date: values.billing_date };
  return api.post<ProRata>(`/api/prices/${values.price_id}/pro-rata`, body);
}
