import { handle } from "hono/aws-lambda";
import { app } from "./app";

/** API Gateway (HTTP API, payload v2) entry: the same Hono app the local server runs. */
export const handler = handle(app);
