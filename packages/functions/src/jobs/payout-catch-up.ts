import { jobHandler } from "./handler";

export const handler = jobHandler("payout-catch-up");
