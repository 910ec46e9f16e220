/**
 * The join site's calls (spec 000 §7 Auth and registration, 001 §7 Registration-side): what a
 * gym's link offers, the email check, registering, the member's registration fields, the
 * registration state the route guard follows, and saving a card or bank account. Browser-safe.
 * Over 300 lines because it declares every call of one site, the join site, in the order of its
 * steps (spec 000 §7): declarations and their messages, no logic, read top to bottom as the journey.
 */
import { z } from "zod";
import { civilDateField, email, messages, optionalText, requiredText, whenAnObject } from "./fields";
import { paymentTypeSchema, subscriptionSchema } from "./payment";
import { priceKinds } from "./price";

export const registrationMessages = {
  tooYoung: (age: number) => `You must be at least ${age} years old to join. Please ask the gym for help.`,
  dob: "Enter your date of birth",
  dobFuture: "Date of birth must be in the past",
  startDate: "Choose a start date",
  startPast: "The start date cannot be in the past",
  price: "Choose a membership",
  priceUnavailable: "This membership is not available. Choose another.",
  emailTaken: "An account with that email already exists. Sign in instead.",
  mobile: "Value is not a valid mobile number",
  gymOrLink: "Open the gym's join link to register",
  alreadyMember: "You already have a membership here. Open your membership page to manage it.",
  staffAccount: "This is a staff account. Join as a member with another email address.",
} as const;

const civilDate = civilDateField;

/** Digits with optional +, spaces, brackets and dashes; 8 to 15 digits (NZ mobiles are 9-11). */
export function isPhoneNumber(value: string): boolean {
  const digits = value.replace(/\D/g, "");
  return /^\+?[\d\s()-]+$/.test(value) && digits.length >= 8 && digits.length <= 15;
}

export const mobileNumber = () =>
  requiredText(40).refine(isPhoneNumber, { error: registrationMessages.mobile });

const token = z.string().trim().max(200).nullish();

// ---- What a join link offers -------------------------------------------------------------------

/** `GET /api/join`: a gym's public link (`gym` = its uuid), a private price link, an age-bypass link. */
export const joinOptionsQuery = z.object({
  gym: z.string().trim().max(64).optional(),
  price: z.string().trim().max(200).optional(),
  age_bypass: z.string().trim().max(200).optional(),
});
export type JoinOptionsQuery = z.output<typeof joinOptionsQuery>;

export const joinPriceSchema = z.object({
  id: z.string(),
  label: z.string(),
  amount: z.number().int(),
  formatted_amount: z.string(),
  billing_frequency: z.string(),
  frequency_label: z.string(),
  joining_fee: z.number().int().nullable(),
  formatted_joining_fee: z.string().nullable(),
  membership_type: z.string(),
  formatted_term: z.string().nullable(),
  private: z.boolean(),
  /** docs/offers.md "Visit passes": a pass is worded as a pass, never as a membership term. */
  kind: z.enum(priceKinds),
  visits: z.number().int().nullable(),
  valid_days: z.number().int().nullable(),
  formatted_pass: z
    .string()
    .nullable()
    .meta({ description: '"10 visits, valid 90 days, $120.00 paid once"' }),
  /** docs/offers.md "Trials": the plan list says the trial where the member chooses. */
  trial_days: z.number().int().nullable(),
  trial_amount: z.number().int().nullable(),
  formatted_trial: z
    .string()
    .nullable()
    .meta({ description: '"7-day free trial" or "14-day trial for $10.00", as the staff price shows it' }),
});
export type JoinPrice = z.output<typeof joinPriceSchema>;

export const joinOfferingSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  type_label: z.string(),
  prices: z.array(joinPriceSchema),
});
export type JoinOffering = z.output<typeof joinOfferingSchema>;

export const joinOptionsSchema = z
  .object({
    gym: z.object({ uuid: z.string(), name: z.string(), logo: z.string().nullable() }),
    organisation: z.object({ name: z.string() }),
    /** The organisation's other gyms that offer a private link's price (to choose between). */
    gyms: z.array(z.object({ uuid: z.string(), name: z.string() })),
    offerings: z.array(joinOfferingSchema),
    /** The price a private link opens with (already chosen), or null. */
    selected_price_id: z.string().nullable(),
    min_age: z.number().int(),
    /** True when the link lets an applicant under `min_age` register. */
    age_bypass: z.boolean(),
    takes_cards: z.boolean(),
    takes_bank: z.boolean(),
    /** Today in Auckland on the business clock: the earliest start date, the default one. */
    today: z.string(),
    /** The organisation's membership terms and conditions (https), or null: none published. */
    terms_url: z.string().nullable(),
  })
  .meta({ id: "JoinOptions" });
export type JoinOptions = z.output<typeof joinOptionsSchema>;

// ---- Email check and registering ---------------------------------------------------------------

export const uniqueEmailInput = z
  .object({ email: email(), gym: z.string().trim().max(64).nullish() })
  .meta({ id: "UniqueEmailInput", example: { email: "new.member@example.nz" } });
export type UniqueEmailBody = z.input<typeof uniqueEmailInput>;

export const uniqueEmailSchema = z
  .object({
    unique: z.boolean(),
    /** The address belonged to a member of this gym's organisation before. */
    is_returning_member: z.boolean(),
    message: z.string().nullable(),
  })
  .meta({ id: "UniqueEmail" });
export type UniqueEmail = z.output<typeof uniqueEmailSchema>;

export const registerInput = z
  .object({
    gym: requiredText(64),
    price_id: z
      .string({ error: registrationMessages.price })
      .trim()
      .min(1, registrationMessages.price)
      .max(64),
    /** The private price link's token, when registering through one. */
    price_link: token,
    /** The age-bypass link's token (or a price link made with age bypass). */
    age_bypass: token,
    name: requiredText(120),
    email: email(),
    mobile_number: mobileNumber(),
    dob: civilDate(registrationMessages.dob),
    password: z.string({ error: messages.required }).min(1, messages.required).max(1024),
    start_date: civilDate(registrationMessages.startDate),
  })
  .meta({
    id: "RegisterInput",
    example: {
      gym: "00000000-0000-4000-8000-000000000000",
      price_id: "01JBZ8R7Q0M3W4X5Y6Z7A8B9C0",
      name: "Aroha Te Whare",
      email: "aroha@example.nz",
      mobile_number: "021 123 4567",
      dob: "1990-03-15",
      password: "a long passphrase",
      start_date: "2026-12-01",
    },
  });
export type RegisterBody = z.input<typeof registerInput>;

/**
 * `PUT /api/me/registration`: a signed-in member without a live membership in the gym's
 * organisation chooses what to join (a past member coming back, someone with an account at
 * another gym, or a member changing their choice before confirming). The same rules as
 * registering; `dob` only when the account has none yet.
 */
export const membershipChoiceInput = registerInput
  .pick({ gym: true, price_id: true, price_link: true, age_bypass: true, start_date: true })
  .extend({ dob: civilDate(registrationMessages.dob).nullish() })
  .meta({
    id: "MembershipChoiceInput",
    example: {
      gym: "00000000-0000-4000-8000-000000000000",
      price_id: "01JBZ8R7Q0M3W4X5Y6Z7A8B9C0",
      start_date: "2026-12-01",
    },
  });
export type MembershipChoiceBody = z.input<typeof membershipChoiceInput>;

export const registeredSchema = z
  .object({ two_factor_required: z.literal(true), email: z.string() })
  .meta({ id: "Registered" });

// ---- Register fields ---------------------------------------------------------------------------

export const confidenceAnswers = [
  "first_time",
  "been_but_not_sure_what_to_do",
  "been_but_not_achieved_goals",
  "been_but_stopped_going",
  "experienced_and_confident",
] as const;
export const confidenceLabels: Record<(typeof confidenceAnswers)[number], string> = {
  first_time: "This is my first time at a gym",
  been_but_not_sure_what_to_do: "I've been before but I'm not sure what to do",
  been_but_not_achieved_goals: "I've been before but haven't achieved my goals",
  been_but_stopped_going: "I've been before but stopped going",
  experienced_and_confident: "I'm experienced and confident",
};
export const hearAboutUsAnswers = [
  "friend",
  "physical_marketing",
  "google_advert",
  "facebook_or_instagram",
  "google_search",
  "been_member_here_before",
  "other",
] as const;
export const hearAboutUsLabels: Record<(typeof hearAboutUsAnswers)[number], string> = {
  friend: "A friend",
  physical_marketing: "A flyer, sign or poster",
  google_advert: "A Google advert",
  facebook_or_instagram: "Facebook or Instagram",
  google_search: "A Google search",
  been_member_here_before: "I've been a member here before",
  other: "Other",
};
/** Spec 001: an answer the lists above do not know. */
export const UNKNOWN_ANSWER = "Unknown answer";
export function answerLabel(labels: Record<string, string>, value: string | null | undefined): string | null {
  if (!value) return null;
  return labels[value] ?? UNKNOWN_ANSWER;
}

export const registerFieldsInput = z
  .object({
    address: optionalText(200),
    suburb: optionalText(100),
    city: optionalText(100),
    post_code: optionalText(10).refine((v) => !v || /^\d{4}$/.test(v), "Enter a 4-digit post code"),
    emergency_contact_name: optionalText(120),
    emergency_contact_email: z
      .string()
      .trim()
      .max(254)
      .nullish()
      .transform((v) => (v ? v.toLowerCase() : null))
      .refine((v) => !v || z.email().safeParse(v).success, messages.email),
    emergency_contact_mobile_number: optionalText(40).refine(
      (v) => !v || isPhoneNumber(v),
      registrationMessages.mobile,
    ),
    emergency_contact_relationship: optionalText(60),
    confidence_and_experience: z.enum(confidenceAnswers, { error: "Choose an answer" }).nullish(),
    hear_about_us: z.enum(hearAboutUsAnswers, { error: "Choose an answer" }).nullish(),
    hear_about_us_other: optionalText(200),
    email_notifications_enabled: z.boolean().optional(),
    push_notifications_enabled: z.boolean().optional(),
    payment_reminders: z.boolean().optional(),
    /** The gym's news and offers (marketing): a consent the member gives; off by default. */
    marketing_emails: z.boolean().optional(),
  })
  .refine(
    (v) =>
      (v as { hear_about_us?: string | null }).hear_about_us !== "other" ||
      Boolean((v as { hear_about_us_other?: string | null }).hear_about_us_other),
    { path: ["hear_about_us_other"], message: messages.required, ...whenAnObject },
  )
  .meta({
    id: "RegisterFieldsInput",
    example: {
      address: "12 Queen Street",
      suburb: "Ponsonby",
      city: "Auckland",
      post_code: "1011",
      emergency_contact_name: "Mere Te Whare",
      emergency_contact_mobile_number: "021 765 4321",
      emergency_contact_relationship: "Mother",
      confidence_and_experience: "first_time",
      hear_about_us: "friend",
    },
  });
export type RegisterFieldsBody = z.input<typeof registerFieldsInput>;

export const registerFieldsSchema = z
  .object({
    address: z.string().nullable(),
    suburb: z.string().nullable(),
    city: z.string().nullable(),
    post_code: z.string().nullable(),
    emergency_contact_name: z.string().nullable(),
    emergency_contact_email: z.string().nullable(),
    emergency_contact_mobile_number: z.string().nullable(),
    emergency_contact_relationship: z.string().nullable(),
    confidence_and_experience: z.string().nullable(),
    confidence_and_experience_label: z.string().nullable(),
    hear_about_us: z.string().nullable(),
    hear_about_us_label: z.string().nullable(),
    hear_about_us_other: z.string().nullable(),
    email_notifications_enabled: z.boolean(),
    push_notifications_enabled: z.boolean(),
    payment_reminders: z.boolean(),
    /**
     * The values are what the member gave another organisation, offered prefilled: this
     * organisation holds them only once the member saves them (their consent).
     */
    from_another_organisation: z.boolean(),
    /** Consent to the gym's news and offers (marketing); false until the member gives it. */
    marketing_emails: z.boolean(),
  })
  .meta({ id: "RegisterFields" });
export type RegisterFields = z.output<typeof registerFieldsSchema>;

// ---- Registration state (the route guard) ------------------------------------------------------

export const registrationSteps = [
  "take-photo",
  "choose-payment-method",
  "confirm-subscription",
  "welcome-to-gym",
] as const;
export type RegistrationStepName = (typeof registrationSteps)[number];

/** Where a pay-in-full bank transfer goes: the gym's account (null: ask the gym) and the reference. */
export const bankTransferSchema = z
  .object({
    account_name: z.string().nullable(),
    account_number: z.string().nullable(),
    reference: z.string(),
  })
  .meta({ id: "BankTransfer" });
export type BankTransfer = z.output<typeof bankTransferSchema>;

export const registrationStateSchema = z
  .object({
    /** Where the guard sends the member (spec 000 §4). */
    step: z.enum(registrationSteps),
    welcome: z.boolean(),
    name: z.string(),
    email: z.string(),
    profile_picture: z.string().nullable(),
    gym: z.object({
      id: z.string(),
      uuid: z.string(),
      name: z.string(),
      logo: z.string().nullable(),
      takes_cards: z.boolean(),
      takes_bank: z.boolean(),
      app_link: z.string().nullable(),
      has_door_access: z.boolean(),
    }),
    price: joinPriceSchema.extend({ offering: z.object({ id: z.string(), name: z.string() }) }).nullable(),
    price_link: z.string().nullable(),
    start_date: z.string().nullable(),
    billing_date: z.string().nullable(),
    payment_types: z.array(paymentTypeSchema),
    default_payment_type: paymentTypeSchema.nullable(),
    /** The member's bank consent must be given again (spec 000 §4). */
    reauthenticate_akahu: z.boolean(),
    /** Subscribed, but a payment failed and is owed: the member may add another payment method. */
    payment_failed: z.boolean(),
    general_card_surcharge_text: z.string(),
    is_returning_member: z.boolean(),
    /**
     * Not subscribed, and nothing chosen that can still be confirmed (no price, a price no longer
     * offered, or a start date that has passed): the join site asks them to choose (`/rejoin`).
     */
    choice_needed: z.boolean(),
    register_fields: registerFieldsSchema,
    subscription: subscriptionSchema.nullable(),
    /**
     * No live membership: the latest one, ended (its cancellation in effect), or null. The join
     * site's `/membership` shows it with its last day (docs/registration.md "After a membership ended").
     */
    ended_subscription: subscriptionSchema.nullable(),
    /**
     * A pay-in-full bank transfer the gym awaits: where to pay it and with which reference (as the
     * invitation email says); null when none is awaited.
     */
    bank_transfer: bankTransferSchema.nullable(),
    /** Today in Auckland on the business clock (YYYY-MM-DD): the pages say "today" by it. */
    today: z.string(),
    /** Subscribed through the join site, so the welcome email (a summary) was sent. */
    welcome_emailed: z.boolean(),
    /** The organisation's membership terms and conditions (https), or null: none published. */
    terms_url: z.string().nullable(),
  })
  .meta({ id: "RegistrationState" });
export type RegistrationState = z.output<typeof registrationStateSchema>;

// ---- Payment methods ---------------------------------------------------------------------------

export const bankAccountChoiceInput = z
  .object({ account_id: requiredText(128) })
  .meta({ id: "BankAccountChoiceInput", example: { account_id: "acc_simulated_everyday" } });

export const cardSetupSchema = z
  .object({
    setup_intent_id: z.string(),
    client_secret: z.string(),
    stripe_account: z.string(),
    /** Locally (simulated Stripe) the card form to send the member to; null in AWS (Stripe.js). */
    form_url: z.string().nullable(),
    /** In AWS, Stripe's publishable key for Stripe.js's card element; null locally. */
    publishable_key: z.string().nullable(),
  })
  .meta({ id: "CardSetup" });
export type CardSetup = z.output<typeof cardSetupSchema>;

export const cardSaveInput = z
  .object({ setup_intent_id: requiredText(255) })
  .meta({ id: "CardSaveInput", example: { setup_intent_id: "seti_123" } });

/** Profile photos: JPEG, PNG or WebP, at most 5 MB (the join site sends a 512 px square JPEG). */
export const PROFILE_PICTURE_MAX_BYTES = 5 * 1024 * 1024;

// ---- Organisation setting ----------------------------------------------------------------------

/** The message for a terms address that is not an https web address. */
export const TERMS_URL_MESSAGE = "Enter a web address starting with https://";

/** An https web address (a page a member's browser can open), at most 2000 characters. */
export function isHttpsUrl(value: string): boolean {
  if (!/^https:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname.includes(".") && !/\s/.test(value);
  } catch {
    return false;
  }
}

/**
 * `PUT /api/organisations/{organisationId}/registration-settings`: the youngest age to join
 * online, and the address of the membership terms and conditions (docs/registration.md "Terms").
 * `terms_url` absent keeps the saved one; blank or null removes it.
 */
export const registrationSettingsInput = z
  .object({
    min_registration_age: z
      .number({ error: messages.required })
      .int("Enter a whole number of years")
      .min(0, "Enter an age from 0 to 100")
      .max(100, "Enter an age from 0 to 100"),
    terms_url: z
      .union([z.string({ error: TERMS_URL_MESSAGE }), z.null()], { error: TERMS_URL_MESSAGE })
      .optional()
      .transform((value) => (typeof value === "string" ? value.trim() || null : value))
      .refine((value) => !value || value.length <= 2000, "The maximum length allowed is 2000 characters")
      .refine((value) => !value || value.length > 2000 || isHttpsUrl(value), TERMS_URL_MESSAGE),
  })
  .meta({
    id: "RegistrationSettingsInput",
    example: { min_registration_age: 16, terms_url: "https://harbourfitness.example/terms" },
  });

export const registrationSettingsSchema = z
  .object({
    min_registration_age: z.number().int(),
    /** The organisation's membership terms and conditions (https), or null: none published. */
    terms_url: z.string().nullable(),
  })
  .meta({ id: "RegistrationSettings" });
export type RegistrationSettings = z.output<typeof registrationSettingsSchema>;
