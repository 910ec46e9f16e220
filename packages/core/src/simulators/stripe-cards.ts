/**
 * Stripe's test card numbers as the simulated card provider honours them (docs/providers.md,
 * "Test cards"). Unlike Stripe's test mode, where most decline numbers already fail when the card
 * is saved, the simulation saves them and declines every charge, so billing, retries and hard
 * declines can be exercised end to end. `4000000000000002` fails when saved, as it does at Stripe.
 */
export interface SimulatedCardDecline {
  /** `last_payment_error.code` */
  code: string;
  /** `last_payment_error.decline_code` */
  decline_code: string;
  message: string;
}

export interface SimulatedCardBehaviour {
  brand: string;
  country: string;
  /** What a charge does: null pays. */
  charge: SimulatedCardDecline | null;
  /** What saving the card does: null saves. */
  setup: SimulatedCardDecline | null;
}

const declined = (decline_code: string, message = "Your card was declined."): SimulatedCardDecline => ({
  code: "card_declined",
  decline_code,
  message,
});

/** Stripe's decline of a card past its expiry (test card 4000000000000069, or any card once it runs out). */
export const EXPIRED_CARD: SimulatedCardDecline = {
  code: "expired_card",
  decline_code: "expired_card",
  message: "Your card has expired.",
};

export const SIMULATED_TEST_CARDS: Record<string, Partial<SimulatedCardBehaviour> & { note: string }> = {
  "4242424242424242": { note: "pays" },
  "4000005540000008": { country: "NZ", note: "pays (a New Zealand Visa)" },
  "5555555555554444": { note: "pays (Mastercard)" },
  "378282246310005": { note: "pays (American Express)" },
  "4000000000000341": { charge: declined("generic_decline"), note: "saves; every charge declined" },
  "4000000000009995": {
    charge: declined("insufficient_funds", "Your card has insufficient funds."),
    note: "insufficient funds (soft: retried)",
  },
  "4000000000009987": { charge: declined("lost_card"), note: "lost card (hard: not retried)" },
  "4000000000009979": { charge: declined("stolen_card"), note: "stolen card (hard: not retried)" },
  "4000000000000069": {
    charge: EXPIRED_CARD,
    note: "expired card (hard: not retried)",
  },
  "4000002760003184": {
    charge: declined(
      "authentication_required",
      "Your card was declined. This transaction requires authentication.",
    ),
    note: "needs 3-D Secure, so every off-session charge is declined",
  },
  "4000000000000002": { setup: declined("generic_decline"), note: "cannot be saved (declined)" },
};

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function brandOf(number: string): string {
  if (/^3[47]/.test(number)) return "amex";
  if (/^(5[1-5]|2[2-7])/.test(number)) return "mastercard";
  if (/^4/.test(number)) return "visa";
  if (/^6(011|5)/.test(number)) return "discover";
  if (/^35/.test(number)) return "jcb";
  return "unknown";
}

/** How a (Luhn-valid) number behaves: the table above, else it pays. */
export function simulatedCard(number: string): SimulatedCardBehaviour {
  const known = SIMULATED_TEST_CARDS[number];
  return {
    brand: brandOf(number),
    country: known?.country ?? "US",
    charge: known?.charge ?? null,
    setup: known?.setup ?? null,
  };
}
