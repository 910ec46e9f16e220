import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { Secret } from "aws-cdk-lib/aws-secretsmanager";
import { Api as HttpApi, Function as SstFunction, type StackContext } from "sst/constructs";
import { coreFunctionProps } from "./function";
import { logRetentionDays } from "./settings";

/** Provider webhooks: explicit routes (same handler) so they stay visible and separately routable. */
export const webhookRoutes = [
  "POST /api/webhooks/stripe",
  "POST /api/webhooks/akahu",
  "POST /api/webhooks/kisi/{secret}",
] as const;

/**
 * One Lambda running the Hono app (everything under /api, webhooks included) behind an HTTP API.
 * Browsers and provider webhooks reach it through each site's CloudFront `/api/*` behaviour (same
 * origin: no CORS). CloudFront adds the origin secret (generated once by Secrets Manager) to
 * every request it forwards; the API refuses requests without it, so API Gateway's public
 * execute-api address is of no use to a caller (who could otherwise choose its own
 * CloudFront-Viewer-Address). The execute-api endpoint itself stays on: it is CloudFront's origin
 * (disabling it would need a custom domain on API Gateway).
 */
export function API(ctx: StackContext) {
  const { stack, app } = ctx;
  const originSecret = new Secret(stack, "OriginSecret", {
    description: "Shared by CloudFront (origin header) and the API: proves a request came through CloudFront",
    generateSecretString: { passwordLength: 48, excludePunctuation: true },
  });
  const handler = new SstFunction(stack, "ApiHandler", {
    description: "Hono app: /api/* (staff, join and provider webhooks)",
    handler: "packages/functions/src/api/lambda.handler",
    memorySize: "1024 MB",
    // API Gateway gives up after 30 s.
    timeout: "29 seconds",
    ...coreFunctionProps(ctx, "ApiHandler"),
  });
  // Resolved by CloudFormation at deploy (a dynamic reference), never written into the template.
  handler.addEnvironment("ORIGIN_SECRET", originSecret.secretValue.unsafeUnwrap());

  const routes: Record<string, SstFunction> = { "ANY /api/{proxy+}": handler };
  for (const route of webhookRoutes) routes[route] = handler;

  const api = new HttpApi(stack, "Api", {
    // Same-origin through CloudFront; webhooks are server to server.
    cors: false,
    accessLog: { retention: retentionName(logRetentionDays(app.stage)) },
    routes,
  });

  stack.addOutputs({ ApiUrl: api.url });
  return { api, handler, originSecret };
}

/** SST names a retention by CDK's enum key in lower case (`one_year`). */
function retentionName(days: number) {
  const key = Object.keys(RetentionDays).find((k) => RetentionDays[k as keyof typeof RetentionDays] === days);
  return key!.toLowerCase() as Lowercase<keyof typeof RetentionDays>;
}
