import type { AkahuAccount } from "@gym/core/contract/gym";
import type { Url } from "@gym/core/contract/http";
import type { PaymentType, Subscription } from "@gym/core/contract/payment";
import type { ProRata } from "@gym/core/contract/price";
import type {
  CardSetup,
  JoinOptions,
  MembershipChoiceBody,
  RegisterBody,
  RegisterFields,
  RegisterFieldsBody,
  RegistrationState,
  UniqueEmail,
} from "@gym/core/contract/registration";
import { api, isApiError, useApi } from "@gym/web/api";
import { mutate } from "swr";

export { joinLinks, joinOptionsKey, linkSearch } from "./join-options";
export type { JoinOptions, RegistrationState };

/** The registration state the route guard follows (spec 000 §4). */
export const REGISTRATION_KEY = "/api/me/registration";

export function useRegistration(enabled = true) {
  return useApi<RegistrationState>(enabled ? REGISTRATION_KEY : null, {
    revalidateOnMount: true,
    dedupingInterval: 0,
  });
}

/** Reads the state again (after a step changed it) so the guard sees the new step before navigating. */
export function refreshRegistration() {
  return mutate<RegistrationState>(REGISTRATION_KEY);
}

export const checkEmail = (email: string, gym: string | null) =>
  api.post<UniqueEmail>("/api/unique-email", { email, gym });

/** POST /api/register: creates the member and emails a verification code. */
export const register = (body: RegisterBody) =>
  api.post<{ two_factor_required: true; email: string }>("/api/register", body);

/** PUT /api/me/registration: a signed-in member chooses a membership (rejoining); answers the new state. */
export async function chooseMembership(body: MembershipChoiceBody) {
  const state = await api.put<RegistrationState>(REGISTRATION_KEY, body);
  await mutate(REGISTRATION_KEY, state, { revalidate: false });
  return state;
}

export const verifyEmail = (code: string) => api.post("/api/email/verify", { code });
export const resendCode = () => api.post<{ message: string }>("/api/email/resend");

export function uploadPhoto(blob: Blob) {
  const form = new FormData();
  form.append("file", blob, "photo.jpg");
  return api.post<{ profile_picture: string }>("/api/profile-picture", form);
}

export const saveRegisterFields = (body: RegisterFieldsBody) =>
  api.put<RegisterFields>("/api/me/register-fields", body);

export const akahuAuthUrl = (redirectUri: string) =>
  api.get<Url>("/api/akahu/auth-url", { query: { redirect_uri: redirectUri } });
export const akahuExchange = (code: string, state: string) =>
  api.post("/api/akahu/exchange", { code, state });
export const akahuSyncAccounts = () => api.post<AkahuAccount[]>("/api/akahu/sync-accounts");
export const chooseBankAccount = (accountId: string) =>
  api.post<PaymentType>("/api/me/payment-types/bank-account", { account_id: accountId });

export const startCardSetup = () => api.post<CardSetup>("/api/me/payment-types/card/setup");
export const saveCard = (setupIntentId: string) =>
  api.post<PaymentType>("/api/me/payment-types/card", { setup_intent_id: setupIntentId });
export const switchPaymentType = (id: string) => api.post<PaymentType>(`/api/me/payment-types/${id}/switch`);

export const quoteFirstPayment = (
  priceId: string,
  body: { start_date: string; billing_date: string; link?: string | null },
) => api.post<ProRata>(`/api/prices/${priceId}/pro-rata`, body);

/**
 * Confirms the membership. A membership already made (a second tap, or a retry whose first answer
 * was lost: 409 `subscription_exists` with it as `data`) is the answer too, so the member moves on
 * to the welcome page instead of seeing an error (docs/registration.md "Confirming twice").
 */
export async function confirmSubscription(promoCode?: string): Promise<Subscription> {
  try {
    return await api.post<Subscription>("/api/subscriptions", promoCode ? { promo_code: promoCode } : {});
  } catch (failure) {
    const existing =
      isApiError(failure) && failure.status === 409 && failure.code === "subscription_exists"
        ? (failure.body as { data?: Subscription } | undefined)?.data
        : undefined;
    if (existing) return existing;
    throw failure;
  }
}
