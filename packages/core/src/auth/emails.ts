import { config } from "../config";
import type { Brand } from "../email/message";
import { compose } from "../email/message";
import type { Email } from "../email/port";

/** Emails that are not any one gym's: signed by the platform. */
const platform: Brand = { name: "Gym platform" };

/** The texts of the sign-in emails. Plain and short: they are read on phones. */
export function codeEmail(to: string, name: string, code: string): Email {
  return compose({
    to,
    subject: `${code} is your sign-in code`,
    brand: platform,
    blocks: [
      { p: [`Hi ${name},`] },
      { p: ["Your code is:"] },
      { code },
      { p: ["It expires in 10 minutes and works once."] },
      { p: ["If you did not try to sign in, change your password."] },
    ],
  });
}

/**
 * A member's sign-in code (no staff place anywhere): their gym's email, in member words, as
 * every other email they get from it. Staff keep the platform's (`codeEmail`).
 */
export function memberCodeEmail(to: string, name: string, code: string, gym: Brand): Email {
  return compose({
    to,
    subject: `${code} is your sign-in code for ${gym.name}`,
    brand: gym,
    blocks: [
      { p: [`Hi ${name},`] },
      { p: [`To sign in to your ${gym.name} membership, enter this code:`] },
      { code },
      { p: ["It expires in 10 minutes and works once."] },
      {
        p: [
          `If you did not try to sign in, someone may know your password: choose a new one with "Forgot password?" on the sign-in page, or ask ${gym.name} for help.`,
        ],
      },
    ],
  });
}

/**
 * The code of someone joining a gym (registered, address not yet confirmed): the gym's email,
 * worded for joining, not for a sign-in they may not recognise as one.
 */
export function joinCodeEmail(to: string, name: string, code: string, gym: Brand): Email {
  return compose({
    to,
    subject: `${code} is your code to join ${gym.name}`,
    brand: gym,
    blocks: [
      { p: [`Hi ${name},`] },
      { p: [`Thanks for joining ${gym.name}. To confirm your email address, enter this code:`] },
      { code },
      { p: ["It expires in 10 minutes and works once."] },
      {
        p: [`If you did not sign up at ${gym.name}, ignore this email: nothing is set up without the code.`],
      },
    ],
  });
}

/** A gym a join-site link names (`?gym=<uuid>`, so the page keeps its branding), with its brand. */
export interface LinkedGym {
  uuid: string;
  brand: Brand;
}

/** The join site's address of a page, naming the gym when there is one. */
export const joinPage = (path: string, token: string, gym: LinkedGym | null) =>
  `${config.joinUrl}${path}?token=${encodeURIComponent(token)}${gym ? `&gym=${encodeURIComponent(gym.uuid)}` : ""}`;

/**
 * The reset link: to the staff site, or (asked for on the join site, `join`) to the join site's
 * own page, signed by the gym it was asked from when there is one.
 */
export function resetEmail(
  to: string,
  name: string,
  token: string,
  join: { gym: LinkedGym | null } | null = null,
): Email {
  const link = join
    ? joinPage("/reset-password", token, join.gym)
    : `${config.staffUrl}/reset-password?token=${encodeURIComponent(token)}`;
  return compose({
    to,
    subject: "Reset your password",
    brand: join?.gym?.brand ?? platform,
    blocks: [
      { p: [`Hi ${name},`] },
      { p: ["Reset your password here (the link works once, for 60 minutes):"] },
      { button: { href: link, label: "Reset your password" } },
      { p: ["If you did not ask for this, ignore this email."] },
    ],
  });
}

export function inviteEmail(to: string, name: string, organisation: string, token: string): Email {
  const link = `${config.staffUrl}/set-password?token=${encodeURIComponent(token)}`;
  return compose({
    to,
    subject: `You're invited to ${organisation}`,
    brand: { name: organisation },
    blocks: [
      { p: [`Hi ${name},`] },
      {
        p: [
          `You've been invited to ${organisation}. Set your password here (the link works once, for 7 days):`,
        ],
      },
      { button: { href: link, label: "Set your password" } },
    ],
  });
}
