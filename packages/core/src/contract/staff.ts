/**
 * The staff calls (spec 001 §7 Staff, §5 Staff, §3 Staff member), written once. Browser-safe.
 */
import { z } from "zod";
import { messages } from "./fields";

export const staffMessages = {
  selectGym: "Select at least one gym",
  role: "Choose a role",
  alreadyStaff: "This person is already on your staff.",
  lastAdmin: "The last organisation admin cannot be removed. Make someone else an admin first.",
  notPending: "This person has already accepted their invitation.",
  yourself: "You cannot remove yourself.",
} as const;

/** admin: organisation admin; personal_trainer: trainer at every gym; per_gym: the roles listed by gym. */
export const staffRoleValues = ["admin", "personal_trainer", "per_gym"] as const;
export const gymRoleValues = ["admin", "personal_trainer"] as const;

const email = z
  .string({ error: messages.required })
  .trim()
  .min(1, messages.required)
  .pipe(z.email({ error: messages.email }))
  .transform((v) => v.toLowerCase());

/** `POST /api/organisations/{id}/staff-exists`. */
export const staffExistsInput = z
  .object({ email })
  .meta({ id: "StaffExistsInput", example: { email: "new.coach@example.com" } });

export const staffExistsSchema = z
  .object({ exists: z.boolean(), is_staff: z.boolean(), name: z.string().nullable() })
  .meta({ id: "StaffExists" });
export type StaffExists = z.output<typeof staffExistsSchema>;

/**
 * `POST /api/organisations/{id}/staff`: email and role required; name required unless the person
 * already has an account (checked by the server: 422 on `name`); with role `per_gym` the gyms
 * that get a role (gyms with no role are left out).
 */
export const staffInviteInput = z
  .object({
    email,
    name: z.string().trim().max(255, "The maximum length allowed is 255 characters").optional(),
    role: z.enum(staffRoleValues, { error: messages.required }),
    gyms: z
      .array(
        z.object({
          gym_id: z.string({ error: messages.required }).trim().min(1, messages.required).max(64),
          role: z.enum(gymRoleValues, { error: staffMessages.role }),
        }),
      )
      .optional(),
  })
  .refine((v) => v.role !== "per_gym" || (v.gyms?.length ?? 0) > 0, {
    path: ["gyms"],
    message: staffMessages.selectGym,
  })
  .meta({
    id: "StaffInviteInput",
    example: {
      email: "new.coach@example.com",
      name: "Kahu Rangi",
      role: "per_gym",
      gyms: [{ gym_id: "01J0000000000000000000000C", role: "personal_trainer" }],
    },
  });
export type StaffInviteInput = z.input<typeof staffInviteInput>;

export const staffMemberSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    role: z.enum(staffRoleValues),
    gyms: z.array(z.object({ id: z.string(), name: z.string(), role: z.enum(gymRoleValues) })),
    pending_invite: z.boolean(),
    invited_at: z.string().nullable(),
    /** Holds staff door access (Kisi) at one gym or more. */
    access_enabled: z.boolean(),
    /** The gyms where they hold staff door access (`POST /api/staff/{id}/kisi-access` changes it). */
    door_access_gym_ids: z.array(z.string()),
    deleted_at: z.string().nullable(),
    created_at: z.string(),
    profile_picture: z.string().nullable(),
    visits_count: z.number().int(),
  })
  .meta({ id: "StaffMember" });
export type StaffMember = z.output<typeof staffMemberSchema>;
