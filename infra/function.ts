import { RemovalPolicy, Stack } from "aws-cdk-lib";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import { LogGroup, type RetentionDays } from "aws-cdk-lib/aws-logs";
import { type FunctionProps, type StackContext, use } from "sst/constructs";
import { Secrets } from "./secrets";
import { deploySettings, emailAddress, isProtectedStage, logRetentionDays } from "./settings";
import { Storage } from "./storage";

/**
 * What every function that runs packages/core gets (the API and each job): the plain configuration
 * core reads from process.env, its secrets bound from SSM, and least-privilege permissions on the
 * table and its indexes, the uploads bucket and sending email from the configured SES identity.
 * `name` names the function's log group (its own, with a retention, rather than CDK's LogRetention
 * helper function, which needs logs:* on every log group).
 */
export function coreFunctionProps({ stack, app }: StackContext, name: string): FunctionProps {
  const { table, uploads } = use(Storage);
  const { all: secrets } = use(Secrets);
  const settings = deploySettings();
  if (!settings.emailFrom && app.mode !== "remove") {
    throw new Error(
      'EMAIL_FROM is not set. Set it (e.g. EMAIL_FROM="Gym <no-reply@example.nz>") in the environment or in .env.<stage>; see docs/deploy.md.',
    );
  }

  const environment: Record<string, string> = {
    APP_ENV: "aws",
    STAGE: app.stage,
    TABLE_NAME: table.tableName,
    UPLOADS_BUCKET: uploads.bucketName,
  };
  if (settings.emailFrom) environment.EMAIL_FROM = settings.emailFrom;
  if (settings.cookieDomain) environment.COOKIE_DOMAIN = settings.cookieDomain;
  if (settings.stripePublishableKey) environment.STRIPE_PUBLISHABLE_KEY = settings.stripePublishableKey;
  // Without custom domains the URLs are CloudFront's, known only once the sites exist:
  // infra/web.ts binds the sites instead and the function reads them at cold start.
  if (settings.staffDomain) environment.STAFF_URL = `https://${settings.staffDomain}`;
  if (settings.joinDomain) environment.JOIN_URL = `https://${settings.joinDomain}`;

  const permissions = [
    new PolicyStatement({
      // Item reads and writes (transactions are authorised per item action). No Scan: every access
      // pattern is a key lookup or a query (docs/data-model.md).
      actions: [
        "dynamodb:GetItem",
        "dynamodb:BatchGetItem",
        "dynamodb:Query",
        "dynamodb:PutItem",
        "dynamodb:UpdateItem",
        "dynamodb:DeleteItem",
        "dynamodb:BatchWriteItem",
        "dynamodb:ConditionCheckItem",
      ],
      resources: [table.tableArn, `${table.tableArn}/index/*`],
    }),
    new PolicyStatement({
      // AbortMultipartUpload: a CSV export that fails midway discards its parts (docs/exports.md).
      actions: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload"],
      resources: [`${uploads.bucketArn}/*`],
    }),
    // Lets a missing object read as 404 (NoSuchKey) instead of 403.
    new PolicyStatement({ actions: ["s3:ListBucket"], resources: [uploads.bucketArn] }),
  ];
  if (settings.emailFrom && settings.sesIdentity) {
    const identityArn = (identity: string) =>
      Stack.of(stack).formatArn({ service: "ses", resource: "identity", resourceName: identity });
    const identities = new Set([settings.sesIdentity, emailAddress(settings.emailFrom)]);
    permissions.push(
      new PolicyStatement({
        actions: ["ses:SendEmail"],
        resources: [...identities].map(identityArn),
      }),
    );
  }

  const logGroup = new LogGroup(stack, `${name}Logs`, {
    retention: logRetentionDays(app.stage) as RetentionDays,
    removalPolicy: isProtectedStage(app.stage) ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  });

  return { environment, bind: secrets, permissions, logGroup };
}
