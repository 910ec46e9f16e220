import type { CurrentUser } from "@gym/web/auth";

/**
 * The signed-in person's role where they are working, in words (spec 000 §3's role names):
 * "Organisation admin", else their role at the current gym ("Gym admin", "Personal Trainer").
 * Shown under their name in the sidebar and on the dashboard's "Where you're working".
 */
export function staffRoleLabel(user: CurrentUser): string {
  if (user.is_organisation_admin) return "Organisation admin";
  const role = user.current_gym?.role;
  if (role === "admin") return "Gym admin";
  if (role === "personal_trainer") return "Personal Trainer";
  return user.is_gym_admin ? "Gym admin" : "Staff";
}
