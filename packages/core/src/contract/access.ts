/**
 * Door access and visits calls' requests and answers (docs/access-control.md), written once:
 * routers declare them, core answers their types, the staff site reads the types. Browser-safe.
 */
import { z } from "zod";
import { messages } from "./fields";

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
