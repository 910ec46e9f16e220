import { createCore, productionProviders } from "@gym/core/core";
import type { LambdaContext, LambdaEvent } from "hono/aws-lambda";
import { handle } from "hono/aws-lambda";
import { loadSecrets, refuseWithoutSecrets } from "../aws/secrets";
import { createApp } from "./app";

// The start-up point: the real providers and every reaction, before the first request.
createCore({ providers: productionProviders() });
const serve = handle(createApp());

/**
 * API Gateway (HTTP API, payload v2) entry: the same Hono app the local server runs. The stage's
 * secrets are copied into the environment on the first invocation (cached after that).
 */
export const handler = async (event: LambdaEvent, context: LambdaContext) => {
  await loadSecrets();
  refuseWithoutSecrets(["SESSION_SECRET", "ENCRYPTION_KEY", "ORIGIN_SECRET"]);
  return serve(event, context);
};
