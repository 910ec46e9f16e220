import { jobHandler } from "./handler";

export const handler = jobHandler("grace-expiry");
