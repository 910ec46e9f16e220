import type { Actor } from "@gym/core/auth/actor";
import { type RoleKind, roleKind } from "@gym/core/auth/policy";

/**
 * Who may call each route of the API: one row per route (method and path as the OpenAPI document
 * names them). The route helpers in context.ts look their route up here and enforce its audience's
 * role part before the handler runs (403); the services keep their finer checks (which gym, which
 * member, which offering: another organisation's ids 404). `matrix.test.ts` calls every route as
 * each role and expects what the row says; `route-policy.test.ts` fails for a route without a row
 * (or a row without a route), and checks the table in docs/access-control.md against this one.
 *
 * Adding a route: add its row below (one line, in its group), then put the printed table between
 * the markers in docs/access-control.md:
 *   APP_ENV=test .tools/node_modules/.bin/node node_modules/.bin/tsx -e \
 *     'import("./packages/functions/src/api/route-policy").then((m) => console.log(m.policyTableMarkdown()))'
 */

/** The role kinds of the matrix, highest first (`roleKind` in core/auth/policy.ts). */
export const roleKinds = [
  "org-admin",
  "gym-admin",
  "trainer",
  "member",
  "none",
] as const satisfies RoleKind[];

type Level = "public" | "session" | "user" | "staff";

interface Audience {
  /** The route helper's kind (context.ts): what the session must be before roles count. */
  level: Level;
  /** The role kinds let through; null: anyone (no role is looked at). */
  roles: readonly RoleKind[] | null;
  /** Whether the service also checks that the target (its gym, its offering) is the caller's. */
  target: boolean;
  /** For docs/access-control.md. */
  who: string;
  /** The 403's message. */
  refusal: string;
}

export const audiences = {
  public: { level: "public", roles: null, target: false, who: "anyone", refusal: "" },
  session: {
    level: "session",
    roles: null,
    target: false,
    who: "any session, also one waiting for its emailed code",
    refusal: "",
  },
  user: {
    level: "user",
    roles: roleKinds,
    target: false,
    who: "anyone signed in (the service answers for their own records)",
    refusal: "",
  },
  "not-trainer": {
    level: "user",
    roles: ["org-admin", "gym-admin", "member", "none"],
    target: false,
    who: "anyone signed in but a personal trainer (a member for themselves; staff quotes are money)",
    refusal: "This is for organisation and gym admins.",
  },
  member: {
    level: "user",
    roles: ["member", "none"],
    target: false,
    who: "members and people joining; a staff account joins with another email",
    refusal: "This is a staff account. Join as a member with another email address.",
  },
  staff: {
    level: "staff",
    roles: ["org-admin", "gym-admin", "trainer"],
    target: false,
    who: "staff: organisation admins, gym admins, personal trainers (their gyms)",
    refusal: "This area is for gym staff.",
  },
  money: {
    level: "staff",
    roles: ["org-admin", "gym-admin"],
    target: false,
    who: "the business's money (`policy.seeMoney`): organisation admins, gym admins (their gyms); trainers 403",
    refusal: "This is for organisation and gym admins.",
  },
  admin: {
    level: "staff",
    roles: ["org-admin", "gym-admin"],
    target: false,
    who: "organisation admins, gym admins (for their gyms); trainers 403",
    refusal: "This is for organisation and gym admins.",
  },
  "gym-admin": {
    level: "staff",
    roles: ["org-admin", "gym-admin"],
    target: true,
    who: "organisation admins, and the admins of the target's gym (the service checks which gym; others 403 or 404)",
    refusal: "This is for organisation and gym admins.",
  },
  "org-admin": {
    level: "staff",
    roles: ["org-admin"],
    target: false,
    who: "organisation admins",
    refusal: "Only organisation admins may do this.",
  },
} as const satisfies Record<string, Audience>;

export type AudienceName = keyof typeof audiences;

/** Every route: `METHOD /api/path` → its audience. */
export const routePolicy: Record<string, AudienceName> = {
  // Health, sites, sign-in and links
  "GET /api/health": "public",
  "GET /api/sites/{site}": "public",
  "POST /api/login": "public",
  "POST /api/email/verify": "session",
  "POST /api/two-factor-authentication": "session",
  "POST /api/email/resend": "session",
  "POST /api/logout": "session",
  "POST /api/forgot-password": "public",
  "POST /api/validate-link": "public",
  "POST /api/reset-password": "public",
  // The person's own account and their answers to invitations (routers/account.ts).
  "POST /api/me/email": "user",
  "POST /api/email-change/confirm": "public",
  "POST /api/email-change/undo": "public",
  "POST /api/invitations/peek": "public",
  "POST /api/invitations/accept": "public",
  "POST /api/invitations/decline": "public",
  // The signed-in person
  "GET /api/me": "user",
  "POST /api/organisations/{id}/switch": "user",
  "POST /api/gyms/{id}/switch": "user",
  "GET /api/gyms": "user",
  // Gyms
  "GET /api/gyms/{id}": "gym-admin",
  "PUT /api/gyms/{id}": "gym-admin",
  "PUT /api/gyms/{gymId}/destination-accounts/{accountId}": "gym-admin",
  "PUT /api/gyms/{id}/tracks-visits": "gym-admin",
  "POST /api/gyms/{id}/logo": "gym-admin",
  "PUT /api/gyms/{id}/branch-config": "gym-admin",
  "PUT /api/gyms/{id}/akahu-config": "gym-admin",
  "GET /api/files/logos/{organisationId}/{gymId}/{file}": "public",
  // Organisation settings
  "GET /api/organisations/{organisationId}": "staff",
  "PUT /api/organisations/{organisationId}": "org-admin",
  "PUT /api/organisations/{organisationId}/grace-period": "org-admin",
  "PUT /api/organisations/{organisationId}/term-membership-grace-period": "org-admin",
  "PUT /api/organisations/{organisationId}/offering-permissions": "org-admin",
  "PUT /api/organisations/{organisationId}/price-frequencies": "org-admin",
  "PUT /api/organisations/{organisationId}/billing-settings": "org-admin",
  "PUT /api/organisations/{organisationId}/communications": "org-admin",
  "GET /api/organisations/{organisationId}/registration-settings": "staff",
  "PUT /api/organisations/{organisationId}/registration-settings": "org-admin",
  // Providers
  "POST /api/gyms/{id}/stripe/redirect": "gym-admin",
  "POST /api/stripe/exchange": "gym-admin",
  "GET /api/akahu/auth-url": "user",
  "POST /api/akahu/exchange": "user",
  "POST /api/akahu/sync-accounts": "user",
  "GET /api/organisations/{id}/access-control/integration": "org-admin",
  "POST /api/organisations/{id}/access-control/integration": "org-admin",
  "POST /api/organisations/{id}/access-control/webhook-secret": "org-admin",
  "GET /api/organisations/{id}/access-control/places": "admin",
  "GET /api/organisations/{id}/access-control/places/{placeId}/doors": "admin",
  "POST /api/gyms/{id}/access-control/places": "gym-admin",
  "GET /api/webhook-calls": "org-admin",
  "GET /api/organisations/{organisationId}/akahu-webhooks": "org-admin",
  "POST /api/webhooks/stripe": "public",
  "POST /api/webhooks/akahu": "public",
  "POST /api/webhooks/kisi/{secret}": "public",
  // Dashboard
  "GET /api/stats": "money",
  "GET /api/user-breakdown": "money",
  "GET /api/cost-and-visit-breakdown": "money",
  // Offerings and prices (gym scope: docs/access-control.md "Gym scope")
  "GET /api/gyms/{gym_id}/offerings": "user",
  "GET /api/offerings": "staff",
  "POST /api/offerings": "gym-admin",
  "GET /api/offering-options": "staff",
  "GET /api/offerings/{id}": "staff",
  "PUT /api/offerings/{id}": "gym-admin",
  "DELETE /api/offerings/{id}": "gym-admin",
  "DELETE /api/offerings/{id}/archive": "gym-admin",
  "GET /api/gyms/{gym}/offerings/{offering}/unique-memberships": "staff",
  "GET /api/organisations/{id}/prices": "staff",
  "GET /api/offerings/{id}/prices": "staff",
  "POST /api/offerings/{id}/prices": "gym-admin",
  "PUT /api/prices/{id}": "gym-admin",
  "DELETE /api/prices/{id}": "gym-admin",
  "DELETE /api/prices/{id}/archive": "gym-admin",
  "POST /api/prices/{id}/restore": "gym-admin",
  "POST /api/prices/{id}/pro-rata": "not-trainer",
  "POST /api/prices/{id}/private-links": "gym-admin",
  "POST /api/organisations/{organisationId}/age-bypass-links": "org-admin",
  "GET /api/prices/{id}/subscriptions": "money",
  // Promo codes (docs/offers.md): the organisation's, so its admins'; the join site checks one
  "GET /api/promo-codes/check": "user",
  "GET /api/promo-codes": "org-admin",
  "POST /api/promo-codes": "org-admin",
  "PUT /api/promo-codes/{id}": "org-admin",
  "DELETE /api/promo-codes/{id}/archive": "org-admin",
  // Payments and receipts
  "GET /api/payments": "money",
  "GET /api/users/{id}/payments": "staff",
  "POST /api/payments/{id}/received": "money",
  "POST /api/payments/export": "money",
  "GET /api/organisations/{organisationId}/accounting": "org-admin",
  "PUT /api/organisations/{organisationId}/accounting": "org-admin",
  "GET /api/accounting/journals": "org-admin",
  "POST /api/accounting/journals/export": "org-admin",
  "GET /api/accounting/gst-summary": "org-admin",
  "GET /api/payouts": "org-admin",
  "POST /api/payouts/export": "org-admin",
  "GET /api/expected-payments-debugging": "org-admin",
  "GET /api/payments/{id}/receipt": "money",
  "GET /api/me/payments/{id}/receipt": "user",
  "POST /api/unsubscribe": "public",
  // A member's own membership
  "POST /api/subscriptions": "user",
  "GET /api/me/active-subscription": "user",
  "POST /api/me/payment-types/{payment_type_id}/switch": "user",
  "GET /api/surcharge-total": "user",
  "GET /api/me/subscriptions/{id}/cancellation-preview": "user",
  "POST /api/me/subscriptions/{id}/cancel": "user",
  "POST /api/me/subscriptions/{id}/stop-trial": "user",
  "POST /api/me/subscriptions/{id}/pause": "user",
  "DELETE /api/me/subscriptions/{id}/pause": "user",
  // Memberships, by staff
  "GET /api/subscriptions/{id}": "staff",
  "POST /api/subscriptions/{id}/pause": "gym-admin",
  "DELETE /api/subscriptions/{id}/pause": "gym-admin",
  "GET /api/subscriptions/{id}/cancellation-preview": "staff",
  "POST /api/subscriptions/{id}/cancel": "gym-admin",
  "POST /api/subscriptions/{id}/undo-cancellation": "gym-admin",
  "POST /api/subscriptions/schedule-price-change": "money",
  "POST /api/subscriptions/change-price-email-preview": "money",
  "GET /api/users/{id}/price-change-history": "staff",
  "GET /api/subscriptions/{id}/start-early-data": "staff",
  "POST /api/subscriptions/{id}/start-now": "gym-admin",
  "POST /api/subscriptions/{id}/pass-visits": "gym-admin",
  "POST /api/subscriptions/{id}/manual-payment": "gym-admin",
  // Members
  "GET /api/members": "staff",
  "POST /api/members/export": "admin",
  "GET /api/members/{id}": "staff",
  "PUT /api/members/{id}": "gym-admin",
  "DELETE /api/members/{id}": "org-admin",
  "POST /api/members/{id}/restore": "org-admin",
  "GET /api/members/{id}/activity": "staff",
  "POST /api/search": "staff",
  "POST /api/members/{id}/pif": "gym-admin",
  "POST /api/organisations/{id}/members/onboard-pif": "gym-admin",
  "POST /api/members/{id}/resend-pif-invite": "gym-admin",
  // Staff
  "GET /api/organisations/{id}/staff": "org-admin",
  "POST /api/organisations/{id}/staff": "org-admin",
  "POST /api/organisations/{id}/staff-exists": "org-admin",
  "GET /api/staff/{id}": "org-admin",
  "DELETE /api/staff/{id}": "org-admin",
  "POST /api/staff/{id}/resend-invitation": "org-admin",
  // Joining
  "GET /api/join": "public",
  "POST /api/unique-email": "public",
  "POST /api/register": "public",
  "GET /api/me/registration": "user",
  "PUT /api/me/registration": "member",
  "PUT /api/me/register-fields": "user",
  "POST /api/profile-picture": "user",
  "GET /api/files/profile-pictures/{organisationId}/{userId}/{file}": "user",
  "GET /api/files/profile-pictures/{userId}/{file}": "user",
  "POST /api/me/payment-types/card/setup": "user",
  "POST /api/me/payment-types/card": "user",
  "POST /api/me/payment-types/bank-account": "user",
  // Door access and visits
  "GET /api/members/{id}/access-control": "staff",
  "GET /api/members/{id}/access-control-credentials": "staff",
  "POST /api/users/{id}/recreate-kisi-login": "gym-admin",
  "POST /api/staff/{id}/kisi-access": "org-admin",
  "GET /api/visits": "staff",
  "POST /api/visits/export": "admin",
  "GET /api/users/{id}/visits": "staff",
  "GET /api/members/{id}/weekly-visits": "staff",
  "GET /api/members/{id}/subscription-periods": "staff",
  "GET /api/members/{id}/weekly-cost-per-visit": "staff",
  "GET /api/active-users": "org-admin",
};

/**
 * The local extras (`/api/dev/…`: the mailbox, the clock, the simulated providers) are mounted only
 * by a local process and only answer the loopback address (app.ts, middleware/security.ts): they are
 * not part of the deployed API and have no rows.
 */
export const LOCAL_ONLY_PREFIX = "/api/dev/";

/** The row of a route as the helpers declare it (path relative to /api, method lower case). */
export function routeRow(method: string, path: string): AudienceName | undefined {
  return routePolicy[`${method.toUpperCase()} /api${path.replace(/:(\w+)/g, "{$1}")}`];
}

/** Whether an actor's roles let them call a route of this audience (the role part only). */
export function audienceAllows(name: AudienceName, actor: Actor): boolean {
  const roles: readonly RoleKind[] | null = audiences[name].roles;
  return roles === null || roles.includes(roleKind(actor));
}

/** The policy table for docs/access-control.md (route-policy.test.ts keeps the two equal). */
export function policyTableMarkdown(): string {
  const lines = [
    `| audience | ${roleKinds.join(" | ")} | who |`,
    `|---|${roleKinds.map(() => "---|").join("")}---|`,
  ];
  for (const [name, audience] of Object.entries(audiences) as [string, Audience][]) {
    const cells = roleKinds.map((kind) =>
      audience.roles === null || audience.roles.includes(kind) ? "yes" : "403",
    );
    lines.push(`| ${name} | ${cells.join(" | ")} | ${audience.who} |`);
  }
  lines.push("", "| route | audience |", "|---|---|");
  for (const [route, name] of Object.entries(routePolicy)) lines.push(`| \`${route}\` | ${name} |`);
  return lines.join("\n");
}
