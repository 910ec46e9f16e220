import { jobHandler } from "./handler";

export const handler = jobHandler("billing-run");
