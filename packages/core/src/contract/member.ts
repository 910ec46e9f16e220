/**
 * The members calls' requests and answers (spec 001 §3 Member, §7 Members, global search),
 * written once: the routers declare them, core's presenters answer their types, the staff site
 * reads the types and validates its forms with the same schemas. Browser-safe (zod only).
 */
import { z } from "zod";
import { civilDateField, messages, optionalText, requiredText } from "./fields";
import { paymentSchema, subscriptionSchema } from "./payment";

export const memberMessages = {
  required: messages.required,
  email: messages.email,
  state: "Choose a membership state",
  paymentType: "Choose card, bank account or PIF",
  sort: "Sort by name or joined",
  order: "Choose ascending or descending",
  cursor: "The page cursor is not valid; start from the first page",
  perPage: "Choose from 1 to 100 per page",
  date: "Enter a date as YYYY-MM-DD",
  dobFuture: "The date of birth cannot be in the future",
  tag: "Tags are at most 40 characters",
  tags: "At most 20 tags",
  mobile: "Enter a mobile number of 7 to 15 digits",
  query: "Type at most 100 characters",
  memberConsent: "Only the member can change this, on their membership page.",
  loginEmailIsTheirs:
    "Only the member can change their login email (from their account). Staff may correct it only before the member has signed in.",
  deleteCharging: "This member's membership still charges. Cancel it before deleting the member.",
} as const;

/** The states a member's latest subscription can be filtered by (spec §4 derived states). */
/** `cancelling`: cancelled, still running to its last day; `cancelled`: that day has passed. */
export const memberStateValues = [
  "active",
  "upcoming",
  "paused",
  "grace",
  "cancelling",
  "cancelled",
  "none",
] as const;
export type MemberState = (typeof memberStateValues)[number];
export const memberPaymentTypeValues = ["stripe_card", "bank_account", "pif"] as const;

const id = z.string().trim().min(1, memberMessages.required).max(64);

/** `GET /api/members` query. */
export const memberListQuery = z.object({
  state: z.enum(memberStateValues, { error: memberMessages.state }).optional(),
  gym_id: id.optional(),
  offering_id: id.optional(),
  price_id: id.optional(),
  payment_type: z.enum(memberPaymentTypeValues, { error: memberMessages.paymentType }).optional(),
  tag: z.string().trim().min(1, memberMessages.required).max(40, memberMessages.tag).optional(),
  sort: z.enum(["name", "joined"], { error: memberMessages.sort }).optional(),
  order: z.enum(["asc", "desc"], { error: memberMessages.order }).optional(),
  deleted: z.enum(["only"], { error: "Use deleted=only to list deleted members" }).optional(),
  cursor: z.string().max(2000, memberMessages.cursor).optional(),
  per_page: z.coerce
    .number({ error: memberMessages.perPage })
    .int(memberMessages.perPage)
    .min(1, memberMessages.perPage)
    .max(100, memberMessages.perPage)
    .optional(),
});
export type MemberListQuery = z.input<typeof memberListQuery>;

/** `POST /api/members/export` body: the list's filters and sort (no paging: every match). */
export const memberExportBody = memberListQuery.omit({ cursor: true, per_page: true });
export type MemberExportBody = z.input<typeof memberExportBody>;

/** The members CSV's columns, in order (dates en-NZ in Pacific/Auckland). */
export const memberExportColumns = [
  "Member ID",
  "Name",
  "Email",
  "Mobile",
  "Joined",
  "State",
  "Gym",
  "Membership",
  "Price",
  "Payment method",
  "Membership type",
  "Tags",
  "Deleted",
  "Trial last day",
  "Promo code",
  "Pass visits used",
] as const;

/** What a member's latest subscription looks like in the list (its §4 state and colour). */
export const memberSubscriptionSummary = z.object({
  id: z.string(),
  state: z.enum(memberStateValues),
  card_colour: z.enum(["green", "amber", "red"]),
  gym: z.object({ id: z.string(), name: z.string() }),
  offering: z.object({ id: z.string(), name: z.string() }),
  price: z.object({ id: z.string(), label: z.string().nullish() }),
  payment_method: z.enum(memberPaymentTypeValues),
  membership_type: z.string(),
});

export const memberListItemSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    joined_at: z.string(),
    gym_ids: z.array(z.string()),
    tags: z.array(z.string()),
    deleted_at: z.string().nullable(),
    state: z.enum(memberStateValues),
    card_colour: z.enum(["green", "amber", "red"]).nullable(),
    latest_subscription: memberSubscriptionSummary.nullable(),
    /** The member's photo (an address under /api/files), for staff to know them by face. */
    profile_picture: z.string().nullable(),
  })
  .meta({ id: "MemberListItem" });
export type MemberListItem = z.output<typeof memberListItemSchema>;

/** The latest subscription on the member page: the subscription with its §4 derived states (the contract's `Subscription`). */
export const memberSubscriptionSchema = subscriptionSchema;
export type MemberSubscription = z.output<typeof memberSubscriptionSchema>;

const emergencyContactSchema = z.object({
  name: z.string().nullable(),
  email: z.string().nullable(),
  mobile_number: z.string().nullable(),
  relationship: z.string().nullable(),
});

/** Spec 001 §3 Member, as staff read it. */
export const memberSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    mobile_number: z.string().nullable(),
    dob: z.string().nullable(),
    email_notifications_enabled: z.boolean(),
    push_notifications_enabled: z.boolean(),
    payment_reminders: z.boolean(),
    emergency_contact: emergencyContactSchema,
    latest_subscription: memberSubscriptionSchema.nullable(),
    state: z.enum(memberStateValues),
    default_payment_type: z
      .object({ id: z.string(), type: z.enum(["bank_account", "stripe_card"]), label: z.string() })
      .nullable(),
    payment_types: z.array(
      z.object({
        id: z.string(),
        type: z.enum(["bank_account", "stripe_card"]),
        label: z.string(),
        status: z.string(),
        is_default: z.boolean(),
      }),
    ),
    recent_payments: z.array(paymentSchema),
    profile_picture: z.string().nullable(),
    visits_count: z.number().int(),
    notes: z.string().nullable(),
    access_control_credentials: z.array(z.object({ id: z.string(), status: z.string() })),
    reauthenticate_akahu: z.boolean(),
    has_akahu_connection: z.boolean(),
    is_returning_member: z.boolean(),
    address: z.string().nullable(),
    suburb: z.string().nullable(),
    city: z.string().nullable(),
    post_code: z.string().nullable(),
    confidence_and_experience: z.string().nullable(),
    hear_about_us: z.string().nullable(),
    tags: z.array(z.string()),
    gyms: z.array(z.object({ id: z.string(), name: z.string() })),
    should_onboard: z.boolean(),
    invited_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    deleted_at: z.string().nullable(),
  })
  .meta({ id: "Member" });
export type Member = z.output<typeof memberSchema>;

const civilDate = civilDateField(memberMessages.date);

const mobile = z
  .string()
  .trim()
  .refine((v) => {
    const digits = v.replace(/\D/g, "").length;
    return v === "" || (/^\+?[0-9 ()-]{7,20}$/.test(v) && digits >= 7 && digits <= 15);
  }, memberMessages.mobile)
  .nullish()
  .transform((v) => (v ? v : null));

const optionalEmail = z
  .string()
  .trim()
  .refine((v) => v === "" || z.email().safeParse(v).success, memberMessages.email)
  .nullish()
  .transform((v) => (v ? v.toLowerCase() : null));

/**
 * `PUT /api/members/{id}`: the profile, contact, emergency contact, address, notes and tags. Every
 * field may be left out (unchanged); name and email, when sent, may not be empty ("Value is
 * required"); any other field sent empty or null is cleared. The notification switches are the
 * member's own consent: staff see them, and sending any of them is a 422 on that field
 * (`memberMessages.memberConsent`; docs/communications.md "Who changes the switches").
 */
export const memberUpdateInput = z
  .object({
    name: requiredText(255).optional(),
    email: z
      .string({ error: messages.required })
      .trim()
      .min(1, messages.required)
      .pipe(z.email({ error: messages.email }))
      .transform((v) => v.toLowerCase())
      .optional(),
    mobile_number: mobile.optional(),
    dob: civilDate
      .nullish()
      .transform((v) => v ?? null)
      .optional(),
    address: optionalText(255).optional(),
    suburb: optionalText(120).optional(),
    city: optionalText(120).optional(),
    post_code: optionalText(12).optional(),
    emergency_contact: z
      .object({
        name: optionalText(255).optional(),
        email: optionalEmail.optional(),
        mobile_number: mobile.optional(),
        relationship: optionalText(60).optional(),
      })
      .optional(),
    notes: optionalText(5000).optional(),
    tags: z
      .array(z.string().trim().min(1, messages.required).max(40, memberMessages.tag))
      .max(20, memberMessages.tags)
      .transform((tags) => [...new Set(tags)])
      .optional(),
    email_notifications_enabled: z.boolean().optional(),
    push_notifications_enabled: z.boolean().optional(),
    payment_reminders: z.boolean().optional(),
  })
  .meta({
    id: "MemberInput",
    example: {
      name: "Aroha Walker",
      email: "aroha@example.nz",
      mobile_number: "021 555 0199",
      notes: "Prefers morning sessions.",
      tags: ["early-bird"],
      emergency_contact: { name: "Hemi Walker", mobile_number: "021 555 0100", relationship: "Partner" },
    },
  });
export type MemberUpdateInput = z.input<typeof memberUpdateInput>;

/** One entry of a member's activity timeline. */
export const memberActivitySchema = z
  .object({
    id: z.string(),
    kind: z.string(),
    summary: z.string(),
    detail: z.string().nullable(),
    at: z.string(),
    by: z.object({ id: z.string(), name: z.string() }).nullable(),
    subscription_id: z.string().nullable(),
    payment_id: z.string().nullable(),
    changes: z.array(z.object({ field: z.string(), from: z.string().nullable(), to: z.string().nullable() })),
  })
  .meta({ id: "MemberActivity" });
export type MemberActivity = z.output<typeof memberActivitySchema>;

export const memberActivityQuery = z.object({
  cursor: z.string().max(2000, memberMessages.cursor).optional(),
  per_page: memberListQuery.shape.per_page,
});

/** `POST /api/search` body. */
export const searchInput = z
  .object({ query: z.string({ error: messages.required }).max(100, memberMessages.query) })
  .meta({ id: "SearchInput", example: { query: "wal" } });

/** Spec 001 §3 Search result. */
export const searchResultSchema = z
  .object({ id: z.string(), name: z.string(), email: z.string(), profile_picture: z.string().nullable() })
  .meta({ id: "SearchResult" });
export type SearchResult = z.output<typeof searchResultSchema>;

export const memberFieldLabels: Record<string, string> = {
  name: "Name",
  email: "Email",
  mobile_number: "Mobile number",
  dob: "Date of birth",
  address: "Address",
  suburb: "Suburb",
  city: "City",
  post_code: "Post code",
  emergency_contact_name: "Emergency contact name",
  emergency_contact_email: "Emergency contact email",
  emergency_contact_mobile_number: "Emergency contact mobile",
  emergency_contact_relationship: "Emergency contact relationship",
  notes: "Notes",
  tags: "Tags",
  email_notifications_enabled: "Email notifications",
  push_notifications_enabled: "Push notifications",
  payment_reminders: "Payment reminders",
};
