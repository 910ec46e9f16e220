/** Offering inputs with the spec's messages (001 §5, §8). */
import { z } from "zod";
import { messages, optionalText, requiredText } from "../validation";
import { closesAfterOpening, isWallTime } from "./hours";

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

/** Lets a cross-field check run even when single fields failed, so every message shows at once. */
export const whenAnObject = {
  when: (payload: { value: unknown }) =>
    typeof payload.value === "object" && payload.value !== null && !Array.isArray(payload.value),
};

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
  }, whenAnObject);
export type OfferingInput = z.output<typeof offeringInput>;

export const offeringStatusSchema = z.enum(["active", "archived", "all"]);
export type OfferingStatus = z.infer<typeof offeringStatusSchema>;
