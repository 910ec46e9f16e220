/** Offering inputs with the spec's messages (001 §5, §8). */
import { z } from "zod";
import { billingFrequencies, termUnits } from "../billing/index";
import { messages, optionalText, requiredText, whenAnObject } from "./fields";
import { closesAfterOpening, isWallTime } from "./hours";
import { reference } from "./http";
import { priceSchema } from "./price";

/** Offering types (spec §3): 24/7 needs the organisation's non_stop permission, Limited Hours its limited_access. */
export const offeringTypes = ["24_7", "limited_access"] as const;
export type OfferingType = (typeof offeringTypes)[number];

export const offeringTypeLabel: Readonly<Record<OfferingType, string>> = {
  "24_7": "24/7",
  limited_access: "Limited Hours",
};

/** The spec's offering messages, word for word. */
export const offeringMessages = {
  addDay: "Add at least one day",
  selectGym: "Select at least one gym",
  time: "Enter a time as HH:mm, for example 06:30",
  day: "Choose a day from Monday to Sunday",
  closeAfterOpen: "Close time must be after open time",
  type: "Choose 24/7 or Limited Hours",
} as const;

const requiredWhenMissing = (otherwise: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null || issue.input === "" ? messages.required : otherwise;

const hoursRowSchema = z.object({
  /** Kept when editing an existing row; new rows get an id. */
  id: z.string().max(64).nullish(),
  day: z
    .number({ error: requiredWhenMissing(offeringMessages.day) })
    .refine(Number.isInteger, offeringMessages.day)
    .min(1, offeringMessages.day)
    .max(7, offeringMessages.day),
  open_at: z
    .string({ error: messages.required })
    .trim()
    .min(1, messages.required)
    .refine((v) => v === "" || isWallTime(v), offeringMessages.time),
  close_at: z
    .string({ error: messages.required })
    .trim()
    .min(1, messages.required)
    .refine((v) => v === "" || isWallTime(v), offeringMessages.time),
});
export type HoursRowInput = z.output<typeof hoursRowSchema>;

/**
 * POST /api/offerings and PUT /api/offerings/{id} (the whole offering is sent each time).
 * - name and type required; description optional.
 * - all_gyms_access, or at least one gym in `gyms` ("Select at least one gym").
 * - hours: each row needs day, open_at and close_at, closing after opening; a Limited Hours
 *   offering with hours_mandated needs at least one row ("Add at least one day"). A 24/7
 *   offering keeps no hours.
 */
export const offeringInput = z
  .object({
    name: requiredText(255),
    description: optionalText(2000),
    type: z.enum(offeringTypes, { error: requiredWhenMissing(offeringMessages.type) }),
    all_gyms_access: z.boolean().default(true),
    gyms: z.array(z.string().min(1).max(64)).max(200).default([]),
    mandated: z.boolean().default(false),
    hours_mandated: z.boolean().default(false),
    prices_mandated: z.boolean().default(false),
    hours: z.array(hoursRowSchema).max(50, messages.max(50)).default([]),
  })
  .superRefine((value, ctx) => {
    // Runs even when other fields failed (whenAnObject), so the value may be partial.
    if (value.all_gyms_access === false && Array.isArray(value.gyms) && value.gyms.length === 0) {
      ctx.addIssue({ code: "custom", path: ["gyms"], message: offeringMessages.selectGym });
    }
    const hours = Array.isArray(value.hours) ? value.hours : [];
    if (value.type === "limited_access" && value.hours_mandated === true && hours.length === 0) {
      ctx.addIssue({ code: "custom", path: ["hours"], message: offeringMessages.addDay });
    }
    hours.forEach((row, index) => {
      if (
        row &&
        isWallTime(row.open_at) &&
        isWallTime(row.close_at) &&
        !closesAfterOpening(row.open_at, row.close_at)
      ) {
        ctx.addIssue({
          code: "custom",
          path: ["hours", index, "close_at"],
          message: offeringMessages.closeAfterOpen,
        });
      }
    });
  }, whenAnObject)
  .meta({
    id: "OfferingInput",
    example: {
      name: "Anytime",
      description: null,
      type: "24_7",
      all_gyms_access: true,
      gyms: [],
      mandated: false,
      hours_mandated: false,
      prices_mandated: false,
      hours: [],
    },
  });
export type OfferingInput = z.output<typeof offeringInput>;

export const offeringStatusSchema = z.enum(["active", "archived", "all"]);
export type OfferingStatus = z.infer<typeof offeringStatusSchema>;

// ---- Answers -----------------------------------------------------------------------------------

export const offeringHoursSchema = z.object({
  id: z.string(),
  day: z.number().int(),
  day_name: z.string(),
  open_at: z.string(),
  close_at: z.string(),
  open_at_formatted: z.string(),
  close_at_formatted: z.string(),
});
export type OfferingHours = z.output<typeof offeringHoursSchema>;

/** An offering with the spec's computed fields (001 §3). Hours: days 1 (Monday) to 7, times HH:mm shown as h:mm a. */
export const offeringSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    type: z.enum(offeringTypes),
    type_label: z.string(),
    all_gyms_access: z.boolean(),
    gyms: z.array(reference),
    /** Offerings belong to the organisation, not one gym: always null (see `gyms`). */
    gym: z.null(),
    mandated: z.boolean(),
    hours_mandated: z.boolean(),
    prices_mandated: z.boolean(),
    hours: z.array(offeringHoursSchema),
    hours_formatted: z.string(),
    prices: z.array(priceSchema),
    prices_count: z.number().int(),
    subscriptions_count: z.number().int(),
    can_delete: z.boolean(),
    title_formatted: z.string(),
    subtitle_formatted: z.string(),
    frequencies_formatted: z.string(),
    archived_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Offering" });
export type Offering = z.output<typeof offeringSchema>;

const option = <T extends z.ZodType<string>>(value: T) => z.object({ value, label: z.string() });

/** GET /api/offering-options: what the offering and price forms may offer this organisation. */
export const offeringOptionsSchema = z
  .object({
    enable_offerings: z.boolean(),
    /** The signed-in person may create and change offerings (an admin, with offerings on). */
    can_manage: z.boolean(),
    types: z.array(option(z.enum(offeringTypes))),
    billing_frequencies: z.array(option(z.enum(billingFrequencies))),
    term_units: z.array(option(z.enum(termUnits))),
    gyms: z.array(reference),
  })
  .meta({ id: "OfferingOptions" });
export type OfferingOptions = z.output<typeof offeringOptionsSchema>;

export const uniqueMembershipsSchema = z
  .object({ gym_id: z.string(), offering_id: z.string(), unique_memberships: z.number().int() })
  .meta({ id: "UniqueMemberships" });

/** GET /api/offerings?status=active|archived|all. */
export const offeringListQuery = z.object({ status: offeringStatusSchema.optional() });

/** What the web sends to POST /api/offerings and PUT /api/offerings/{id}. */
export type OfferingBody = z.input<typeof offeringInput>;
