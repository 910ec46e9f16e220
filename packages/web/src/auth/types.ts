/**
 * The signed-in person as `GET /api/me` describes them (spec 000 §3). Names arrive title-cased.
 */
export interface OrganisationSummary {
  id: string;
  name: string;
}

export interface CurrentOrganisation extends OrganisationSummary {
  multi_gym: boolean;
  /** "admin" for organisation admins, otherwise null. */
  role: "admin" | null;
}

export interface GymSummary {
  id: string;
  name: string;
  /** "admin", "personal_trainer", or null (e.g. reached as an organisation admin). */
  role: string | null;
}

export interface PaymentTypeSummary {
  id: string;
  type: string;
}

export interface CurrentUser {
  id: string;
  name: string;
  email: string;
  organisations: OrganisationSummary[];
  current_organisation: CurrentOrganisation | null;
  gyms: GymSummary[];
  current_gym: { id: string; role: string | null } | null;
  is_staff: boolean;
  is_organisation_admin: boolean;
  is_gym_admin: boolean;
  administers_several_gyms: boolean;
  profile_picture: string | null;
  payment_types: PaymentTypeSummary[];
  start_date: string | null;
  billing_date: string | null;
  offering: unknown;
  price_id: string | null;
  default_payment_type: unknown;
  general_card_surcharge_text: string | null;
  should_onboard: boolean;
  invited_at: string | null;
}

/** The member's active subscription (its shape is the commercial spec's; only `id` is relied on here). */
export interface ActiveSubscription {
  id: string;
  [field: string]: unknown;
}

/**
 * What the last `GET /api/me` said:
 * - `signed_in`: a user (fully signed in);
 * - `guest`: 401, nobody is signed in;
 * - `two_factor`: 400 `not_two_factor_authenticated`, the password was right and the emailed
 *   code is awaited;
 * - `failed`: anything else (network, 5xx); the guards treat it like a guest.
 */
export type MeState =
  | { status: "signed_in"; user: CurrentUser }
  | {
      status: "guest" /** Set when this tab just signed out (go to sign-in without a redirect). */;
      signedOut?: boolean;
    }
  | { status: "two_factor" }
  | { status: "failed"; error: unknown };
