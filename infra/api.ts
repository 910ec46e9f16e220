import { Api as HttpApi, Function as SstFunction, type StackContext } from "sst/constructs";
import { coreFunctionProps } from "./function";

/** Provider webhooks: explicit routes (same handler) so they stay visible and separately routable. */
export const webhookRoutes = [
  "POST /api/webhooks/stripe",
  "POST /api/webhooks/akahu",
  "POST /api/webhooks/kisi",
] as const;

/**
 * One Lambda running the Hono app (everything under /api, webhooks included) behind an HTTP API.
 * Browsers reach it through each site's CloudFront `/api/*` behaviour (same origin: no CORS).
 */
export function API(ctx: StackContext) {
  const { stack } = ctx;
  const handler = new SstFunction(stack, "ApiHandler", {
    description: "Hono app: /api/* (staff, join and provider webhooks)",
    handler: "packages/functions/src/api/lambda.handler",
    memorySize: "1024 MB",
    // API Gateway gives up after 30 s.
    timeout: "29 seconds",
    ...coreFunctionProps(ctx, "ApiHandler"),
  });

  const routes: Record<string, SstFunction> = { "ANY /api/{proxy+}": handler };
  for (const route of webhookRoutes) routes[route] = handler;

  const api = new HttpApi(stack, "Api", {
    // Same-origin through CloudFront; webhooks are server to server.
    cors: false,
    accessLog: { retention: "three_months" },
    routes,
  });

  stack.addOutputs({ ApiUrl: api.url });
  return { api, handler };
}
