import { jobHandler } from "./handler";

export const handler = jobHandler("member-notices");
