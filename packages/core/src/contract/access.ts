/**
 * Door access and visits calls' requests and answers (docs/access-control.md), written once:
 * routers declare them, core answers their types, the staff site reads the types. Browser-safe.
 */
import { z } from "zod";
import { civilDateField, messages } from "./fields";

export const doorAccessStatusValues = ["granted", "revoked", "not_configured"] as const;

/** The door access we manage for one person at one gym's Kisi place. */
export const doorAccessEntrySchema = z
  .object({
    gym_id: z.string(),
    gym_name: z.string().nullable(),
    place_id: z.string().nullable(),
    holder: z.enum(["member", "staff"]),
    status: z.enum(doorAccessStatusValues),
    credential_id: z.string().nullable(),
    standing: z.boolean(),
    reason: z.string(),
    synced_at: z.string(),
    last_error: z.string().nullable(),
  })
  .meta({ id: "DoorAccessEntry" });
export type DoorAccessEntry = z.output<typeof doorAccessEntrySchema>;

/** `GET /api/members/{id}/access-control`: standing by the one rule, and the access held per gym. */
export const memberAccessControlSchema = z
  .object({
    user_id: z.string(),
    /** Kisi connected for the organisation. */
    access_control_enabled: z.boolean(),
    /** Door standing from the member's latest subscription (the rule the doors use). */
    standing: z.boolean(),
    reason: z.string(),
    entries: z.array(doorAccessEntrySchema),
  })
  .meta({ id: "MemberAccessControl" });
export type MemberAccessControl = z.output<typeof memberAccessControlSchema>;

/** `GET /api/members/{id}/access-control-credentials`: what Kisi itself says, per linked place. */
export const accessCredentialSchema = z
  .object({
    gym_id: z.string(),
    gym_name: z.string(),
    place_id: z.string(),
    has_access: z.boolean(),
    credential_ids: z.array(z.string()),
  })
  .meta({ id: "AccessCredential" });
export type AccessCredential = z.output<typeof accessCredentialSchema>;

/** `POST /api/staff/{id}/kisi-access`. */
export const staffKisiAccessInput = z
  .object({
    gym_id: z.string({ error: messages.required }).trim().min(1, messages.required).max(64),
    enabled: z.boolean({ error: "Choose whether door access is given or removed" }),
  })
  .meta({ id: "StaffKisiAccessInput", example: { gym_id: "01HZZZZZZZZZZZZZZZZZZZZZZZ", enabled: true } });

export const visitMessages = {
  date: "Enter a date as YYYY-MM-DD",
  range: "The end date must not be before the start date",
  cursor: "The page cursor is not valid; start from the first page",
  perPage: "Choose from 1 to 100 per page",
} as const;

const civilDay = civilDateField(visitMessages.date);
const perPage = z.coerce
  .number({ error: visitMessages.perPage })
  .int(visitMessages.perPage)
  .min(1, visitMessages.perPage)
  .max(100, visitMessages.perPage);

/** `GET /api/users/{id}/visits` query: a date range (Auckland days, inclusive) and paging. */
export const memberVisitsQuery = z
  .object({
    from: civilDay.optional(),
    to: civilDay.optional(),
    cursor: z.string().max(2000, visitMessages.cursor).optional(),
    per_page: perPage.optional(),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { message: visitMessages.range, path: ["to"] });

/** `GET /api/visits` query: also by gym and member. */
const visitFilters = {
  gym_id: z.string().trim().min(1).max(64).optional(),
  user_id: z.string().trim().min(1).max(64).optional(),
  from: civilDay.optional(),
  to: civilDay.optional(),
};
const orderedRange = (v: { from?: string; to?: string }) => !v.from || !v.to || v.from <= v.to;

export const visitListQuery = z
  .object({
    ...visitFilters,
    cursor: z.string().max(2000, visitMessages.cursor).optional(),
    per_page: perPage.optional(),
  })
  .refine(orderedRange, { message: visitMessages.range, path: ["to"] });
export type VisitListQuery = z.input<typeof visitListQuery>;

/** `POST /api/visits/export` body: the list's filters (no paging: every match). */
export const visitExportBody = z
  .object(visitFilters)
  .refine(orderedRange, { message: visitMessages.range, path: ["to"] });

/** The visits CSV's columns, in order (date and time en-NZ in Pacific/Auckland). */
export const visitExportColumns = [
  "Visit ID",
  "Visited at",
  "Member",
  "Member ID",
  "Gym",
  "Door",
  "Successful",
  "Pass visit",
] as const;

/** Spec 001 §3 Visit: one unlock of a door that tracks visits. */
export const visitSchema = z
  .object({
    id: z.string(),
    user_id: z.string(),
    member_name: z.string().nullable(),
    gym_id: z.string(),
    gym_name: z.string().nullable(),
    door_id: z.string().nullable(),
    door_name: z.string().nullable(),
    visited_at: z.string(),
    successful: z.boolean(),
    /** It used one of a visit pass's visits (docs/offers.md "The door's count"). */
    pass_visit: z.boolean(),
  })
  .meta({ id: "Visit" });
export type Visit = z.output<typeof visitSchema>;

/** `POST /api/dev/kisi/unlock` (local only): the simulated Kisi records an unlock and posts its webhook. */
export const simulatedUnlockInput = z
  .object({
    user_id: z.string().trim().min(1, messages.required).max(64),
    door_id: z.string().trim().min(1, messages.required).max(64),
    successful: z.boolean().optional(),
    visited_at: z.string().datetime().optional(),
    event_id: z.string().max(64).optional(),
  })
  .meta({ id: "SimulatedUnlockInput", example: { user_id: "01HZZZZZZZZZZZZZZZZZZZZZZZ", door_id: "51001" } });

/** The member charts' query: how many weeks back from this week (Monday to Sunday, Auckland). */
export const memberWeeksQuery = z.object({
  weeks: z.coerce
    .number({ error: "Choose from 1 to 52 weeks" })
    .int("Choose from 1 to 52 weeks")
    .min(1, "Choose from 1 to 52 weeks")
    .max(52, "Choose from 1 to 52 weeks")
    .optional(),
});

export const weeklyVisitsSchema = z
  .object({ week_start: z.string(), visits: z.number().int() })
  .meta({ id: "WeeklyVisits" });
export type WeeklyVisits = z.output<typeof weeklyVisitsSchema>;

export const subscriptionPeriodSchema = z
  .object({
    subscription_id: z.string(),
    label: z.string(),
    start_date: z.string(),
    /** The last day inside the membership (cancellation or pay-in-full end), null while open. */
    end_date: z.string().nullable(),
    amount: z.number().int(),
    billing_frequency: z.string(),
    /** The price as cents per week. */
    weekly_cost: z.number().int(),
  })
  .meta({ id: "SubscriptionPeriod" });
export type SubscriptionPeriod = z.output<typeof subscriptionPeriodSchema>;

export const weeklyCostPerVisitSchema = z
  .object({
    week_start: z.string(),
    visits: z.number().int(),
    /** What the membership cost that week in cents (the price as cents per week, 0 outside a membership). */
    cost: z.number().int(),
    /** cost / visits in cents, null in a week without visits. */
    cost_per_visit: z.number().int().nullable(),
  })
  .meta({ id: "WeeklyCostPerVisit" });
export type WeeklyCostPerVisit = z.output<typeof weeklyCostPerVisitSchema>;

export const activeUserSchema = z
  .object({
    user_id: z.string(),
    name: z.string(),
    email: z.string(),
    gym_id: z.string(),
    gym_name: z.string().nullable(),
    /** Why they count as active: the door standing rule's reason. */
    reason: z.string(),
    door_status: z.enum([...doorAccessStatusValues, "none"]),
  })
  .meta({ id: "ActiveUser" });
export type ActiveUser = z.output<typeof activeUserSchema>;

export const doorMismatchSchema = activeUserSchema
  .extend({ kind: z.enum(["credential_without_standing", "standing_without_credential"]) })
  .meta({ id: "DoorMismatch" });
export type DoorMismatch = z.output<typeof doorMismatchSchema>;

/** `GET /api/active-users`: one page of members (in user id order). */
export const activeUsersQuery = z.object({
  cursor: z
    .string()
    .max(200, "The page cursor is not valid; start from the first page")
    .optional()
    .meta({ description: "`next_cursor` of the page before" }),
  per_page: z.coerce
    .number()
    .int("Expected a whole number")
    .min(1, "At least 1")
    .max(50, "At most 50")
    .optional()
    .meta({ description: "Members per page (default 25, at most 50)" }),
});

/** `GET /api/active-users`. */
export const activeUsersSchema = z
  .object({
    /** Of this page's members: those with standing, and the mismatches. */
    active: z.array(activeUserSchema),
    mismatches: z.array(doorMismatchSchema),
    /** The next page of members, or null on the last page. */
    next_cursor: z.string().nullable(),
    per_page: z.number().int(),
  })
  .meta({ id: "ActiveUsers" });
export type ActiveUsers = z.output<typeof activeUsersSchema>;
