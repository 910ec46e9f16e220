/** The registration steps after the register form, in the order a member meets them. */
export interface RegistrationStep {
  path: string;
  title: string;
  description: string;
}

export const REGISTRATION_STEPS: readonly RegistrationStep[] = [
  {
    path: "/verification-code",
    title: "Verify your email",
    description: "Enter the code we emailed you to confirm it is really you.",
  },
  {
    path: "/take-photo",
    title: "Add a profile photo",
    description: "Staff use your photo to recognise you at the front desk.",
  },
  {
    path: "/choose-payment-method",
    title: "Choose how to pay",
    description: "Pay from your bank account or with a card.",
  },
  {
    path: "/connect-akahu",
    title: "Connect your bank account",
    description: "Connect securely through Akahu, New Zealand's open-banking service.",
  },
  { path: "/card-details", title: "Card details", description: "Add the card your membership is paid with." },
  {
    path: "/bank-account-connected",
    title: "Bank account connected",
    description: "Your bank account is ready for your membership payments.",
  },
  {
    path: "/card-connected",
    title: "Card connected",
    description: "Your card is ready for your membership payments.",
  },
  {
    path: "/confirm-subscription",
    title: "Confirm your membership",
    description: "Check your membership, start date and first payment, then confirm.",
  },
  {
    path: "/welcome-to-gym",
    title: "Welcome to the gym",
    description: "You are all set. Here is what happens next.",
  },
];
