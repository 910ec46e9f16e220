import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { jobSchedule } from "@gym/core/jobs/schedule";
import { beforeAll, describe, expect, it } from "vitest";
import { chargeQueueSettings, enqueuingJobs, outboxStreamSettings, rateExpression } from "../../infra/jobs";
import { heartbeatMinutes, alarmThresholds as limits } from "../../infra/monitoring";
import { secretNames } from "../../infra/secrets";
import { table as design } from "../../packages/core/src/db/table";
import { API_HEADERS, ORIGIN_SECRET_HEADER, siteHeaders } from "../../packages/core/src/security/headers";
import { pendingBindings } from "../../packages/functions/src/aws/secrets";
import {
  allResources as all,
  allResources as allResourcesOf,
  appFunctions as app,
  asArray,
  type Cfn,
  ofType,
  type Synth,
  synth,
} from "./synth";

/**
 * The CloudFormation `sst deploy` would deploy, synthesised once per configuration in beforeAll (see
 * ./synth.ts) and shared by the assertions. A development stage without custom domains first, then a
 * protected production stage with custom domains.
 */

let dev: Synth;
let templates: Synth["templates"];
let resources: Synth["resources"];
const allResources = () => all(dev);
const appFunctions = () => app(dev);

beforeAll(async () => {
  dev = await synth({ EMAIL_FROM: "Kia Ora Gym <no-reply@mail.example.nz>" });
  ({ templates, resources } = dev);
});

describe("storage", () => {
  it("builds the table from core's description: keys, four ALL-projection GSIs, the list index, TTL", () => {
    const [[, table]] = ofType(resources.Storage, "AWS::DynamoDB::Table");
    const p = table.Properties;
    expect(p.KeySchema).toEqual([
      { AttributeName: "pk", KeyType: "HASH" },
      { AttributeName: "sk", KeyType: "RANGE" },
    ]);
    const indexes = Object.fromEntries(
      p.GlobalSecondaryIndexes.map((i: Cfn) => [
        i.IndexName,
        { keys: i.KeySchema, projection: i.Projection },
      ]),
    );
    expect(Object.keys(indexes).sort()).toEqual(["gsi1", "gsi2", "gsi3", "gsi4", "gsi5"]);
    const keys = (n: number) => [
      { AttributeName: `gsi${n}pk`, KeyType: "HASH" },
      { AttributeName: `gsi${n}sk`, KeyType: "RANGE" },
    ];
    for (const n of [1, 2, 3, 4]) {
      expect(indexes[`gsi${n}`]).toEqual({ keys: keys(n), projection: { ProjectionType: "ALL" } });
    }
    // The payments list index (organisation and due month) projects the list's fields only.
    expect(indexes.gsi5.keys).toEqual(keys(5));
    expect(indexes.gsi5.projection.ProjectionType).toBe("INCLUDE");
    expect([...indexes.gsi5.projection.NonKeyAttributes].sort()).toEqual(
      [...design.globalIndexes.gsi5.include].sort(),
    );
    for (const shown of ["status", "type", "gym_id", "due_on", "amount", "member_name", "__edb_e__"])
      expect(indexes.gsi5.projection.NonKeyAttributes).toContain(shown);
    for (const machinery of ["attempted_at", "attempts", "idempotency_key", "version", "updated_at"])
      expect(indexes.gsi5.projection.NonKeyAttributes).not.toContain(machinery);
    // Same as the one description core and the local database use.
    expect(Object.keys(design.globalIndexes).sort()).toEqual(Object.keys(indexes).sort());
    expect(p.AttributeDefinitions.every((a: Cfn) => a.AttributeType === "S")).toBe(true);
    expect(p.TimeToLiveSpecification).toEqual({ AttributeName: "expires_at", Enabled: true });
    expect(p.TimeToLiveSpecification.AttributeName).toBe(design.ttlAttribute);
  });

  it("is on-demand with point-in-time recovery", () => {
    templates.Storage.hasResourceProperties("AWS::DynamoDB::Table", {
      BillingMode: "PAY_PER_REQUEST",
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it("keeps the uploads bucket private, and every other bucket too", () => {
    templates.Storage.resourceCountIs("AWS::S3::Bucket", 1);
    const buckets = allResources().filter(([, r]) => r.Type === "AWS::S3::Bucket");
    expect(buckets.length).toBeGreaterThanOrEqual(3); // uploads + one per site
    for (const [, bucket] of buckets) {
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
    }
  });
});

describe("functions", () => {
  it("has one API function, one per job, the charge consumer and the outbox's stream consumer, all nodejs22.x on arm64", () => {
    const fns = appFunctions();
    expect(fns).toHaveLength(3 + Object.keys(jobSchedule).length);
    for (const [, fn] of fns) {
      expect(fn.Properties.Runtime).toBe("nodejs22.x");
      expect(fn.Properties.Architectures).toEqual(["arm64"]);
    }
  });

  it("has no other functions than SST's and CDK's deploy-time helpers, also on nodejs22.x", () => {
    const app = new Set(appFunctions().map(([id]) => id));
    const others = allResources().filter(([id, r]) => r.Type === "AWS::Lambda::Function" && !app.has(id));
    for (const [id, fn] of others) {
      // SST's per-stack custom resource handler (uploads site files, invalidates CloudFront) and CDK's
      // handler emptying buckets of non-protected stages on removal. Neither runs our code.
      expect(id).toMatch(/^(CustomResourceHandler|CustomS3AutoDeleteObjectsCustomResourceProviderHandler)/);
      expect(fn.Properties.Runtime).toBe("nodejs22.x");
    }
  });

  it("ships argon2's linux-arm64 binary next to each bundle (SST installs with --omit=optional)", () => {
    expect(dev.bundleDirs).toHaveLength(appFunctions().length);
    for (const dir of dev.bundleDirs) {
      const modules = path.join(dir, "node_modules/@node-rs");
      const wrapper = JSON.parse(readFileSync(path.join(modules, "argon2/package.json"), "utf8"));
      const binary = JSON.parse(
        readFileSync(path.join(modules, "argon2-linux-arm64-gnu/package.json"), "utf8"),
      );
      expect(binary.version).toBe(wrapper.version);
      expect(existsSync(path.join(modules, "argon2-linux-arm64-gnu/argon2.linux-arm64-gnu.node"))).toBe(true);
    }
  });

  it("gives every function core's configuration and binds every secret", () => {
    for (const [, fn] of appFunctions()) {
      const vars = fn.Properties.Environment.Variables;
      expect(vars).toMatchObject({
        APP_ENV: "aws",
        STAGE: "test",
        EMAIL_FROM: "Kia Ora Gym <no-reply@mail.example.nz>",
      });
      expect(vars.TABLE_NAME).toBeDefined();
      expect(vars.UPLOADS_BUCKET).toBeDefined();
      for (const name of secretNames) expect(vars[`SST_Secret_value_${name}`]).toBe("__FETCH_FROM_SSM__");
      // No custom domains here: the site URLs come from SSM at cold start.
      expect(vars.SST_StaticSite_url_StaffSite).toBe("__FETCH_FROM_SSM__");
      expect(vars.SST_StaticSite_url_JoinSite).toBe("__FETCH_FROM_SSM__");
    }
  });

  it("bundles the real handlers", () => {
    const handlers = appFunctions()
      .map(([, fn]) => fn.Properties.Handler as string)
      .sort();
    expect(handlers).toEqual(
      [
        "packages/functions/src/api/lambda.handler",
        ...Object.keys(jobSchedule).map((job) => `packages/functions/src/jobs/${job}.handler`),
        "packages/functions/src/jobs/charge-consumer.handler",
        "packages/functions/src/jobs/outbox-stream.handler",
      ].sort(),
    );
    for (const [, fn] of appFunctions()) expect(fn.Properties.Code.S3Key).toMatch(/\.zip$/);
  });

  it("each bundle loads on its own: nothing it needs is left outside it", () => {
    // What Lambda will unzip, loaded by a bare Node with no repository around it. Only argon2's binary is
    // swapped for this machine's build (the bundle carries linux-arm64's).
    const hostBinding = readdirSync("node_modules/@node-rs").find((n) =>
      n.startsWith(`argon2-${process.platform}-${process.arch}`),
    );
    for (const dir of dev.bundleDirs) {
      const copy = mkdtempSync(path.join(tmpdir(), "bundle-"));
      try {
        cpSync(dir, copy, { recursive: true });
        if (hostBinding) {
          cpSync(
            `node_modules/@node-rs/${hostBinding}`,
            path.join(copy, "node_modules/@node-rs", hostBinding),
            {
              recursive: true,
            },
          );
        }
        // The handler's file; with code splitting, chunks beside it carry a hash (name-HASH.mjs).
        const entry = readdirSync(copy, { recursive: true, encoding: "utf8" }).find(
          (f) => f.endsWith(".mjs") && !f.startsWith("node_modules") && !/-[A-Z0-9]{8}\.mjs$/.test(f),
        );
        expect(entry).toBeDefined();
        const script = `const m = await import(${JSON.stringify(pathToFileURL(path.join(copy, entry!)).href)}); if (typeof m.handler !== "function") throw new Error("no handler export");`;
        const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
          cwd: copy,
          encoding: "utf8",
          env: {
            PATH: process.env.PATH,
            AWS_REGION: "ap-southeast-2",
            AWS_EC2_METADATA_DISABLED: "true",
            APP_ENV: "aws",
            STAGE: "test",
            TABLE_NAME: "test-table",
            UPLOADS_BUCKET: "test-uploads",
          },
          timeout: 30_000,
        });
        const error = run.stderr.split("\n").find((l) => /^\w*Error\b/.test(l));
        expect(error ?? "", `${entry} failed to load`).toBe("");
        expect(run.status, `${entry}: ${run.stderr}`).toBe(0);
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    }
  });
});

describe("api", () => {
  it("routes /api/{proxy+} and the three webhooks to the one API function", () => {
    const routes = ofType(resources.API, "AWS::ApiGatewayV2::Route").map(([, r]) => r.Properties);
    expect(routes.map((r) => r.RouteKey).sort()).toEqual(
      [
        "ANY /api/{proxy+}",
        "POST /api/webhooks/akahu",
        "POST /api/webhooks/kisi/{secret}",
        "POST /api/webhooks/stripe",
      ].sort(),
    );
    const integrations = Object.fromEntries(ofType(resources.API, "AWS::ApiGatewayV2::Integration"));
    const targets = new Set(
      routes.map((route) => {
        const integrationId = route.Target["Fn::Join"][1][1].Ref as string;
        return JSON.stringify(integrations[integrationId].Properties.IntegrationUri);
      }),
    );
    expect(targets.size).toBe(1);
    const [fnId] = ofType(resources.API, "AWS::Lambda::Function")
      .filter(([, r]) => r.Properties.Environment?.Variables?.APP_ENV === "aws")
      .map(([id]) => id);
    expect([...targets][0]).toContain(fnId);
  });
});

describe("jobs", () => {
  it("has one schedule per job, at its rate, invoking that job's own function", () => {
    const rules = ofType(resources.Jobs, "AWS::Events::Rule").map(([, r]) => r.Properties);
    expect(rules).toHaveLength(Object.keys(jobSchedule).length);
    const fnHandler = (id: string) => resources.Jobs[id].Properties.Handler as string;
    const seen = new Map<string, string>();
    for (const rule of rules) {
      expect(rule.State).toBe("ENABLED");
      expect(rule.Targets).toHaveLength(1);
      const handler = fnHandler(rule.Targets[0].Arn["Fn::GetAtt"][0]);
      const job = /jobs\/(.+)\.handler$/.exec(handler)?.[1] as keyof typeof jobSchedule;
      expect(job).toBeDefined();
      seen.set(job, rule.ScheduleExpression);
    }
    for (const [job, { everyMinutes }] of Object.entries(jobSchedule)) {
      expect(seen.get(job)).toBe(rateExpression(everyMinutes));
    }
    expect(seen.get("payment-polling")).toBe("rate(15 minutes)");
    expect(seen.get("billing-run")).toBe("rate(60 minutes)");
    expect(seen.get("reconciliation")).toBe("rate(720 minutes)");
  });

  it("lets EventBridge invoke each job function", () => {
    const permissions = ofType(resources.Jobs, "AWS::Lambda::Permission").filter(
      ([, p]) => p.Properties.Principal === "events.amazonaws.com",
    );
    expect(permissions).toHaveLength(Object.keys(jobSchedule).length);
  });
});

describe("charge queue", () => {
  const queues = () => ofType(resources.Jobs, "AWS::SQS::Queue");
  const queueIds = () => {
    const all = queues();
    const main = all.find(([, q]) => q.Properties.RedrivePolicy);
    const dlq = all.find(([, q]) => !q.Properties.RedrivePolicy);
    return { main: main?.[0] as string, dlq: dlq?.[0] as string, mainProps: main?.[1].Properties as Cfn };
  };
  const roleOf = (handlerEnds: string) => {
    const fn = appFunctions().find(([, f]) => (f.Properties.Handler as string).endsWith(handlerEnds));
    return fn?.[1].Properties.Role["Fn::GetAtt"][0] as string;
  };
  const statementsOf = (roleId: string) =>
    allResources()
      .filter(
        ([, r]) =>
          r.Type === "AWS::IAM::Policy" && r.Properties.Roles.some((role: Cfn) => role.Ref === roleId),
      )
      .flatMap(([, r]) => r.Properties.PolicyDocument.Statement as Cfn[]);
  const sqsStatements = (roleId: string) =>
    statementsOf(roleId).filter((s) => (asArray(s.Action) as string[]).some((a) => a.startsWith("sqs:")));

  it("is a queue with a dead-letter queue after a bounded number of receives", () => {
    expect(queues()).toHaveLength(2);
    const { dlq, mainProps } = queueIds();
    expect(mainProps.RedrivePolicy.maxReceiveCount).toBe(chargeQueueSettings.maxReceiveCount);
    expect(JSON.stringify(mainProps.RedrivePolicy.deadLetterTargetArn)).toContain(dlq);
    expect(mainProps.VisibilityTimeout).toBe(chargeQueueSettings.visibilityTimeoutSeconds);
    expect(chargeQueueSettings.visibilityTimeoutSeconds).toBeGreaterThan(
      chargeQueueSettings.consumerTimeoutSeconds,
    );
  });

  it("is consumed by the charge consumer with bounded concurrency and partial batch failures", () => {
    const mappings = ofType(resources.Jobs, "AWS::Lambda::EventSourceMapping")
      .map(([, m]) => m.Properties)
      .filter((m) => JSON.stringify(m.EventSourceArn).includes(queueIds().main));
    expect(mappings).toHaveLength(1);
    const [mapping] = mappings;
    expect(mapping.BatchSize).toBe(chargeQueueSettings.batchSize);
    expect(mapping.ScalingConfig).toEqual({ MaximumConcurrency: chargeQueueSettings.maxConcurrency });
    expect(mapping.FunctionResponseTypes).toEqual(["ReportBatchItemFailures"]);
    expect(JSON.stringify(mapping.EventSourceArn)).toContain(queueIds().main);
    const consumer = appFunctions().find(([, f]) =>
      (f.Properties.Handler as string).endsWith("charge-consumer.handler"),
    );
    expect(JSON.stringify(mapping.FunctionName)).toContain(consumer?.[0]);
    expect(consumer?.[1].Properties.Timeout).toBe(chargeQueueSettings.consumerTimeoutSeconds);
  });

  it("raises an alarm when anything reaches the dead-letter queue", () => {
    // Every alarm lives in the Monitoring stack (asserted below, "monitoring").
    expect(ofType(resources.Jobs, "AWS::CloudWatch::Alarm")).toHaveLength(0);
    const alarm: Cfn = ofType(resources.Monitoring, "AWS::CloudWatch::Alarm")
      .map(([, a]) => a.Properties)
      .find((a) => a.AlarmName === "test-gym-ChargeDeadLetters");
    expect(alarm.MetricName).toBe("ApproximateNumberOfMessagesVisible");
    expect(alarm.Namespace).toBe("AWS/SQS");
    expect(alarm.Threshold).toBe(1);
    expect(alarm.ComparisonOperator).toBe("GreaterThanOrEqualToThreshold");
    expect(JSON.stringify(alarm.Dimensions)).toContain("ChargeDeadLetters");
  });

  it("lets only the claiming jobs send, only to this queue, and only the consumer receive", () => {
    const { main } = queueIds();
    for (const job of Object.keys(jobSchedule)) {
      const statements = sqsStatements(roleOf(`jobs/${job}.handler`));
      if (enqueuingJobs.includes(job as never)) {
        expect(statements).toHaveLength(1);
        expect(statements[0].Action).toBe("sqs:SendMessage");
        expect(JSON.stringify(statements[0].Resource)).toContain(main);
        const env = appFunctions().find(([, f]) =>
          (f.Properties.Handler as string).endsWith(`jobs/${job}.handler`),
        )?.[1].Properties.Environment.Variables;
        expect(JSON.stringify(env.CHARGE_QUEUE_URL)).toContain(main);
      } else {
        expect(statements).toHaveLength(0);
      }
    }
    expect(sqsStatements(roleOf("api/lambda.handler"))).toHaveLength(0);
    const consumer = sqsStatements(roleOf("charge-consumer.handler"));
    const actions = consumer.flatMap((s) => asArray(s.Action) as string[]);
    expect(actions).toContain("sqs:ReceiveMessage");
    expect(actions).toContain("sqs:DeleteMessage");
    expect(actions).not.toContain("sqs:SendMessage");
    for (const s of consumer) expect(JSON.stringify(s.Resource)).toContain(main);
  });
});

describe("web", () => {
  const CACHING_DISABLED = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad";
  const ALL_VIEWER_EXCEPT_HOST_HEADER = "b689b0a8-53d0-40ab-baf2-68738e2966ac";

  it("has two distributions, each sending /api/* uncached to the API with all methods", () => {
    const distributions = ofType(resources.Web, "AWS::CloudFront::Distribution").map(
      ([, d]) => d.Properties.DistributionConfig,
    );
    expect(distributions).toHaveLength(2);
    for (const config of distributions) {
      const api = config.CacheBehaviors.find((b: Cfn) => b.PathPattern === "/api/*");
      expect(api).toBeDefined();
      expect(api.CachePolicyId).toBe(CACHING_DISABLED);
      expect(api.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
      expect([...api.AllowedMethods].sort()).toEqual(
        ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"].sort(),
      );
      expect(api.ViewerProtocolPolicy).toBe("https-only");
      const origin = config.Origins.find((o: Cfn) => o.Id === api.TargetOriginId);
      expect(JSON.stringify(origin.DomainName)).toContain("execute-api");
      expect(origin.CustomOriginConfig.OriginProtocolPolicy).toBe("https-only");
      // Error pages would apply to /api/* too and hide the API's JSON 403/404.
      expect(config.CustomErrorResponses ?? []).toEqual([]);
      expect(config.DefaultCacheBehavior.FunctionAssociations).toHaveLength(1);
    }
  });

  it("serves CSV exports on the staff host only: /exports/* straight from the uploads bucket, GET only, uncached, signature query passed", () => {
    const distributions = ofType(resources.Web, "AWS::CloudFront::Distribution").map(
      ([, d]) => d.Properties.DistributionConfig,
    );
    const withExports = distributions.filter((c) =>
      c.CacheBehaviors.some((b: Cfn) => b.PathPattern === "/exports/*"),
    );
    expect(withExports).toHaveLength(1);
    expect(JSON.stringify(withExports[0].Comment)).toContain("web-staff");
    const behavior = withExports[0].CacheBehaviors.find((b: Cfn) => b.PathPattern === "/exports/*");
    expect(behavior.CachePolicyId).toBe(CACHING_DISABLED);
    expect([...behavior.AllowedMethods].sort()).toEqual(["GET", "HEAD"]);
    expect(behavior.ViewerProtocolPolicy).toBe("https-only");
    expect(behavior.FunctionAssociations ?? []).toEqual([]);
    const origin = withExports[0].Origins.find((o: Cfn) => o.Id === behavior.TargetOriginId);
    // The bucket's regional endpoint: the Host the presigned URL was signed for.
    expect(JSON.stringify(origin.DomainName)).toMatch(/RegionalDomainName/);
    expect(origin.OriginCustomHeaders ?? []).toEqual([]);
    const policy = resources.Web[behavior.OriginRequestPolicyId.Ref].Properties.OriginRequestPolicyConfig;
    expect(policy.QueryStringsConfig.QueryStringBehavior).toBe("all");
    expect(policy.HeadersConfig.HeaderBehavior).toBe("none");
    expect(policy.CookiesConfig.CookieBehavior).toBe("none");
  });

  it("expires exports after a day, and the uploads bucket refuses anything but TLS", () => {
    const [[, bucket]] = ofType(resources.Storage, "AWS::S3::Bucket");
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual([
      expect.objectContaining({ Prefix: "exports/", ExpirationInDays: 1, Status: "Enabled" }),
    ]);
    const [[, policy]] = ofType(resources.Storage, "AWS::S3::BucketPolicy");
    const denyInsecure = policy.Properties.PolicyDocument.Statement.find(
      (st: Cfn) => st.Effect === "Deny" && st.Condition?.Bool?.["aws:SecureTransport"] === "false",
    );
    expect(denyInsecure).toBeDefined();
    // Nothing in the policy grants public reads: downloads need a signature.
    for (const st of policy.Properties.PolicyDocument.Statement)
      expect(st.Effect === "Allow" && st.Principal === "*").toBe(false);
  });
});

describe("edge security", () => {
  const distributions = () =>
    ofType(resources.Web, "AWS::CloudFront::Distribution").map(([, d]) => d.Properties.DistributionConfig);
  const policy = (ref: Cfn) => resources.Web[ref.Ref].Properties.ResponseHeadersPolicyConfig;
  const secretRef = () => {
    const [[id]] = ofType(resources.API, "AWS::SecretsManager::Secret");
    return id;
  };

  it("generates the origin secret and gives it to CloudFront's API origin and to the API function only", () => {
    const [[, secret]] = ofType(resources.API, "AWS::SecretsManager::Secret");
    expect(secret.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 48 });
    for (const config of distributions()) {
      const api = config.CacheBehaviors.find((b: Cfn) => b.PathPattern === "/api/*");
      const origin = config.Origins.find((o: Cfn) => o.Id === api.TargetOriginId);
      const headers = origin.OriginCustomHeaders as Cfn[];
      expect(headers.map((h) => h.HeaderName)).toEqual([ORIGIN_SECRET_HEADER]);
      // A dynamic reference to the generated secret, resolved at deploy: never plain text here.
      expect(JSON.stringify(headers[0].HeaderValue)).toMatch(/resolve:secretsmanager:/);
    }
    const withSecret = appFunctions().filter(([, fn]) => fn.Properties.Environment.Variables.ORIGIN_SECRET);
    expect(withSecret.map(([, fn]) => fn.Properties.Handler)).toEqual([
      "packages/functions/src/api/lambda.handler",
    ]);
    const value = JSON.stringify(withSecret[0][1].Properties.Environment.Variables.ORIGIN_SECRET);
    expect(value).toMatch(/resolve:secretsmanager:/);
    // The API stack's own secret (a spoofed CloudFront-Viewer-Address without it gets 403; see
    // packages/functions/src/api/security.test.ts).
    expect(value).toContain(secretRef());
  });

  it("sends each site's headers from the values the local server sends", () => {
    const byComment = new Map(distributions().map((c) => [c.Comment as string, c]));
    for (const site of ["staff", "join"] as const) {
      const config = [...byComment].find(([comment]) => comment.endsWith(`web-${site}`))![1];
      const headers = siteHeaders(site);
      const p = policy(config.DefaultCacheBehavior.ResponseHeadersPolicyId).SecurityHeadersConfig;
      expect(p.ContentSecurityPolicy).toEqual({
        ContentSecurityPolicy: headers["Content-Security-Policy"],
        Override: true,
      });
      expect(p.ContentSecurityPolicy.ContentSecurityPolicy).toContain("frame-ancestors 'none'");
      expect(p.ContentTypeOptions).toEqual({ Override: true });
      expect(p.FrameOptions).toEqual({ FrameOption: headers["X-Frame-Options"], Override: true });
      expect(p.ReferrerPolicy).toEqual({ ReferrerPolicy: headers["Referrer-Policy"], Override: true });
      expect(p.StrictTransportSecurity.Override).toBe(true);
    }
  });

  it("sends no-store and nosniff on /api/*", () => {
    for (const config of distributions()) {
      const api = config.CacheBehaviors.find((b: Cfn) => b.PathPattern === "/api/*");
      const p = policy(api.ResponseHeadersPolicyId);
      expect(p.SecurityHeadersConfig.ContentTypeOptions).toEqual({ Override: true });
      expect(p.CustomHeadersConfig.Items).toEqual([
        { Header: "Cache-Control", Value: API_HEADERS["Cache-Control"], Override: false },
      ]);
    }
  });
});

describe("iam", () => {
  const policies = () =>
    allResources()
      .filter(([, r]) => r.Type === "AWS::IAM::Policy")
      .map(([id, r]) => ({
        id,
        roles: r.Properties.Roles,
        statements: r.Properties.PolicyDocument.Statement as Cfn[],
      }));

  it("never grants dynamodb actions on '*'", () => {
    for (const { statements } of policies()) {
      for (const s of statements) {
        const actions = asArray(s.Action) as string[];
        if (!actions.some((a) => a.startsWith("dynamodb:"))) continue;
        expect(asArray(s.Resource)).not.toContain("*");
        expect(actions).not.toContain("dynamodb:*");
      }
    }
  });

  it("gives the app functions only the table and its indexes, the bucket, SES send and their secrets", () => {
    const appRoles = new Set(appFunctions().map(([, fn]) => JSON.stringify(fn.Properties.Role)));
    const appPolicies = policies().filter((p) =>
      p.roles.some((role: Cfn) => appRoles.has(JSON.stringify({ "Fn::GetAtt": [role.Ref, "Arn"] }))),
    );
    expect(appPolicies).toHaveLength(appRoles.size);
    for (const { statements } of appPolicies) {
      const actions = new Set<string>();
      for (const s of statements) {
        expect(s.Effect).toBe("Allow");
        expect(asArray(s.Resource)).not.toContain("*");
        for (const a of asArray(s.Action) as string[]) actions.add(a);
      }
      for (const a of actions) {
        expect(a).toMatch(/^(dynamodb|s3|ses|ssm|sqs):/);
        expect(a).not.toMatch(/:\*$/);
      }
      expect(actions).not.toContain("dynamodb:Scan");
      const ses = statements.find((s) => asArray(s.Action).includes("ses:SendEmail"));
      const sesResources = JSON.stringify(ses.Resource);
      expect(sesResources).toContain(":identity/mail.example.nz");
      expect(sesResources).toContain(":identity/no-reply@mail.example.nz");
      const ssm = statements.filter((s) => asArray(s.Action).includes("ssm:GetParameters"));
      const ssmResources = JSON.stringify(ssm.map((s) => s.Resource));
      for (const name of secretNames) expect(ssmResources).toContain(`/Secret/${name}/value`);
      const dynamo = statements.find((s) => asArray(s.Action).includes("dynamodb:Query"));
      expect(JSON.stringify(dynamo.Resource)).toContain("/index/*");
    }
  });
});

let prod: Synth;
describe("a protected stage with custom domains", () => {
  const certificateArn =
    "arn:aws:acm:us-east-1:123456789012:certificate/0f7e1d2c-aaaa-bbbb-cccc-1234567890ab";

  beforeAll(async () => {
    prod = await synth(
      {
        EMAIL_FROM: "Kia Ora Gym <kiaora@example.nz>",
        STAFF_DOMAIN: "staff.kiaora.example.nz",
        JOIN_DOMAIN: "join.kiaora.example.nz",
        CERTIFICATE_ARN: certificateArn,
        ALARM_EMAIL: "ops@kiaora.example.nz, owner@kiaora.example.nz",
      },
      "prod",
      // Its assertions are the infrastructure's; the bundles are the dev synth's (checked above).
      { reuseBuilds: true },
    );
  });

  it("retains the table and the uploads on removal", () => {
    const [[, table]] = ofType(prod.resources.Storage, "AWS::DynamoDB::Table");
    expect(table.DeletionPolicy).toBe("Retain");
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    const [[, bucket]] = ofType(prod.resources.Storage, "AWS::S3::Bucket");
    expect(bucket.DeletionPolicy).toBe("Retain");
    expect(ofType(prod.resources.Storage, "Custom::S3AutoDeleteObjects")).toHaveLength(0);
    // A development stage is removed cleanly.
    expect(ofType(resources.Storage, "AWS::DynamoDB::Table")[0][1].DeletionPolicy).toBe("Delete");
  });

  it("serves each site on its host with the given certificate", () => {
    const configs = ofType(prod.resources.Web, "AWS::CloudFront::Distribution").map(
      ([, d]) => d.Properties.DistributionConfig,
    );
    expect(configs.map((c) => c.Aliases).sort()).toEqual([
      ["join.kiaora.example.nz"],
      ["staff.kiaora.example.nz"],
    ]);
    for (const c of configs) expect(c.ViewerCertificate.AcmCertificateArn).toBe(certificateArn);
  });

  it("sets the URLs and the shared cookie domain directly, with nothing left to fetch", () => {
    const fns = app(prod);
    expect(fns).toHaveLength(3 + Object.keys(jobSchedule).length);
    for (const [, fn] of fns) {
      const vars = fn.Properties.Environment.Variables;
      expect(vars).toMatchObject({
        STAGE: "prod",
        STAFF_URL: "https://staff.kiaora.example.nz",
        JOIN_URL: "https://join.kiaora.example.nz",
        COOKIE_DOMAIN: "kiaora.example.nz",
      });
      expect(vars.SST_StaticSite_url_StaffSite).toBeUndefined();
      expect(vars.SST_StaticSite_url_JoinSite).toBeUndefined();
    }
  });
});

describe("the outbox's stream", () => {
  it("streams new images and delivers only new outbox items, retried a few times, partial batch failures", () => {
    const [[tableId, table]] = ofType(resources.Storage, "AWS::DynamoDB::Table");
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: "NEW_IMAGE" });
    const streams = ofType(resources.Jobs, "AWS::Lambda::EventSourceMapping")
      .map(([, m]) => m.Properties)
      .filter((m) => !("ScalingConfig" in m));
    expect(streams).toHaveLength(1);
    const [mapping] = streams;
    expect(JSON.stringify(mapping.EventSourceArn)).toContain(tableId);
    expect(mapping.StartingPosition).toBe("LATEST");
    expect(mapping.BatchSize).toBe(outboxStreamSettings.batchSize);
    expect(mapping.MaximumRetryAttempts).toBe(outboxStreamSettings.retryAttempts);
    expect(mapping.FunctionResponseTypes).toEqual(["ReportBatchItemFailures"]);
    const filters = mapping.FilterCriteria.Filters.map((f: Cfn) => JSON.parse(f.Pattern));
    expect(filters).toEqual([
      { eventName: ["INSERT"], dynamodb: { NewImage: { __edb_e__: { S: [outboxStreamSettings.entity] } } } },
    ]);
    const consumer = appFunctions().find(([, f]) =>
      (f.Properties.Handler as string).endsWith("jobs/outbox-stream.handler"),
    );
    expect(JSON.stringify(mapping.FunctionName)).toContain(consumer?.[0]);
  });
});

describe("monitoring", () => {
  const alarms = (s: Synth) =>
    Object.fromEntries(
      ofType(s.resources.Monitoring, "AWS::CloudWatch::Alarm").map(([, a]) => [
        (a.Properties.AlarmName as string).replace(/^\w+-gym-/, ""),
        a.Properties,
      ]),
    );
  const topicOf = (s: Synth) => {
    const topics = ofType(s.resources.Monitoring, "AWS::SNS::Topic");
    expect(topics).toHaveLength(1);
    return topics[0][0];
  };
  /** The metrics an alarm watches: its own, or those of its math expression. */
  const watched = (
    alarm: Cfn,
  ): { namespace: string; name: string; dimensions: Record<string, unknown> }[] => {
    const stats = alarm.MetricName
      ? [
          {
            Metric: {
              Namespace: alarm.Namespace,
              MetricName: alarm.MetricName,
              Dimensions: alarm.Dimensions,
            },
          },
        ]
      : (alarm.Metrics as Cfn[]).filter((m) => m.MetricStat).map((m) => m.MetricStat);
    return stats.map((m: Cfn) => ({
      namespace: m.Metric.Namespace,
      name: m.MetricName ?? m.Metric.MetricName,
      dimensions: Object.fromEntries((m.Metric.Dimensions ?? []).map((d: Cfn) => [d.Name, d.Value])),
    }));
  };
  const pascal = (job: string) => job.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());

  /** Every alarm of a stage: its metric(s), threshold and comparison (the report lists the same). */
  const expected: Record<string, { metrics: string[]; threshold: number; comparison: string }> = {
    ApiServerErrors: {
      metrics: ["AWS/ApiGateway Count", "AWS/ApiGateway 5xx"],
      threshold: limits.apiServerErrorPercent,
      comparison: "GreaterThanThreshold",
    },
    ApiLatency: {
      metrics: ["AWS/ApiGateway Latency"],
      threshold: limits.apiP95LatencyMs,
      comparison: "GreaterThanThreshold",
    },
    BillingDueNotClaimed: {
      metrics: ["Gym/test DueNotClaimed"],
      threshold: 1,
      comparison: "GreaterThanOrEqualToThreshold",
    },
    FailedPaymentRate: {
      metrics: ["Gym/test Settlements", "Gym/test Settlements", "Gym/test Settlements"],
      threshold: limits.failedPaymentPercent,
      comparison: "GreaterThanThreshold",
    },
    ChargeDeadLetters: {
      metrics: ["AWS/SQS ApproximateNumberOfMessagesVisible"],
      threshold: 1,
      comparison: "GreaterThanOrEqualToThreshold",
    },
    ReconciliationMismatches: {
      metrics: ["Gym/test ReconciliationMismatches"],
      threshold: 1,
      comparison: "GreaterThanOrEqualToThreshold",
    },
    LedgerBreaks: {
      metrics: ["Gym/test LedgerBreaks"],
      threshold: 1,
      comparison: "GreaterThanOrEqualToThreshold",
    },
    SubscriptionsUnscheduled: {
      metrics: ["Gym/test SubscriptionsUnscheduled"],
      threshold: 1,
      comparison: "GreaterThanOrEqualToThreshold",
    },
    SettlementsDeferred: {
      metrics: ["Gym/test SettlementsDeferred"],
      threshold: 1,
      comparison: "GreaterThanOrEqualToThreshold",
    },
    OutboxUndelivered: {
      metrics: ["Gym/test OutboxUndelivered"],
      threshold: 1,
      comparison: "GreaterThanOrEqualToThreshold",
    },
    DynamoThrottles: {
      metrics: Array(9).fill("AWS/DynamoDB ThrottledRequests"),
      threshold: limits.dynamoThrottles,
      comparison: "GreaterThanOrEqualToThreshold",
    },
    DynamoSystemErrors: {
      metrics: Array(9).fill("AWS/DynamoDB SystemErrors"),
      threshold: limits.dynamoSystemErrors,
      comparison: "GreaterThanOrEqualToThreshold",
    },
    WebhookRefusals: {
      metrics: ["Gym/test WebhookReceipts"],
      threshold: limits.webhookRefusals,
      comparison: "GreaterThanOrEqualToThreshold",
    },
    WebhookRateLimited: {
      metrics: ["Gym/test WebhookReceipts"],
      threshold: limits.webhookRateLimited,
      comparison: "GreaterThanOrEqualToThreshold",
    },
    ...Object.fromEntries(
      Object.keys(jobSchedule).flatMap((job) => [
        [
          `${pascal(job)}Heartbeat`,
          { metrics: ["Gym/test JobRuns"], threshold: 1, comparison: "LessThanThreshold" },
        ],
        [
          `${pascal(job)}Errors`,
          { metrics: ["AWS/Lambda Errors"], threshold: 1, comparison: "GreaterThanOrEqualToThreshold" },
        ],
      ]),
    ),
  };

  it("has every alarm with its metric, threshold and comparison, each routed (alarm and OK) to the stage's one topic", () => {
    const found = alarms(dev);
    expect(Object.keys(found).sort()).toEqual(Object.keys(expected).sort());
    const topic = topicOf(dev);
    for (const [id, want] of Object.entries(expected)) {
      const alarm = found[id];
      expect(
        watched(alarm)
          .map((m) => `${m.namespace} ${m.name}`)
          .sort(),
        id,
      ).toEqual([...want.metrics].sort());
      expect(alarm.Threshold, id).toBe(want.threshold);
      expect(alarm.ComparisonOperator, id).toBe(want.comparison);
      expect(alarm.AlarmActions, id).toEqual([{ Ref: topic }]);
      expect(alarm.OKActions, id).toEqual([{ Ref: topic }]);
    }
  });

  it("watches each job's heartbeat over twice its cadence, missing runs counting as breaching", () => {
    const found = alarms(dev);
    for (const [job, { everyMinutes }] of Object.entries(jobSchedule)) {
      const alarm = found[`${pascal(job)}Heartbeat`];
      expect(alarm.Period).toBe(heartbeatMinutes(everyMinutes) * 60);
      expect(alarm.Period * alarm.EvaluationPeriods).toBeLessThanOrEqual(86_400);
      expect(alarm.Statistic).toBe("Sum");
      expect(alarm.TreatMissingData).toBe("breaching");
      expect(watched(alarm)[0].dimensions).toEqual({ Job: job });
      const errors = found[`${pascal(job)}Errors`];
      expect(JSON.stringify(errors.Dimensions)).toContain(pascal(job));
    }
    expect(found.ReconciliationMismatches.TreatMissingData).toBe("ignore");
    expect(found.LedgerBreaks.TreatMissingData).toBe("ignore");
    expect(watched(found.LedgerBreaks)[0].dimensions).toEqual({ Job: "reconciliation" });
    expect(watched(found.WebhookRefusals)[0].dimensions).toEqual({ Outcome: "refused_signature" });
    expect(watched(found.WebhookRateLimited)[0].dimensions).toEqual({ Outcome: "rate_limited" });
    expect(watched(found.BillingDueNotClaimed)[0].dimensions).toEqual({ Job: "billing-run" });
  });

  it("has a runbook section in docs/operations.md for every alarm", () => {
    const runbook = readFileSync(path.resolve(import.meta.dirname, "../../docs/operations.md"), "utf8");
    const headings = new Set(
      [...runbook.matchAll(/^#{2,4} (.+)$/gm)].map(([, h]) =>
        h
          .trim()
          .toLowerCase()
          .replace(/[^\w\- ]/g, "")
          .replace(/ /g, "-"),
      ),
    );
    for (const [id, alarm] of [...Object.entries(alarms(dev)), ...Object.entries(alarms(prod))]) {
      const anchor = /docs\/operations\.md#([\w-]+)/.exec(alarm.AlarmDescription)?.[1];
      expect(anchor, id).toBe(id.toLowerCase());
      expect(headings.has(anchor!), `docs/operations.md has no "## ${id}" section`).toBe(true);
    }
  });

  it("emails the alarms to the stage's ALARM_EMAIL; a stage without one has the topic and no subscription", () => {
    expect(ofType(dev.resources.Monitoring, "AWS::SNS::Subscription")).toHaveLength(0);
    const subscriptions = ofType(prod.resources.Monitoring, "AWS::SNS::Subscription").map(
      ([, s]) => s.Properties,
    );
    expect(subscriptions.map((s) => [s.Protocol, s.Endpoint]).sort()).toEqual([
      ["email", "ops@kiaora.example.nz"],
      ["email", "owner@kiaora.example.nz"],
    ]);
    for (const s of subscriptions) expect(s.TopicArn).toEqual({ Ref: topicOf(prod) });
  });

  it("alarms on the account's SES bounce and complaint rates from protected stages only", () => {
    const found = alarms(prod);
    expect(watched(found.SesBounceRate)).toEqual([
      { namespace: "AWS/SES", name: "Reputation.BounceRate", dimensions: {} },
    ]);
    expect(found.SesBounceRate.Threshold).toBe(limits.sesBounceRate);
    expect(watched(found.SesComplaintRate)[0].name).toBe("Reputation.ComplaintRate");
    expect(found.SesComplaintRate.Threshold).toBe(limits.sesComplaintRate);
    expect(Object.keys(found).sort()).toEqual(
      [...Object.keys(expected), "SesBounceRate", "SesComplaintRate"].sort(),
    );
    expect(alarms(dev).SesBounceRate).toBeUndefined();
  });

  it("has one dashboard per stage", () => {
    const [[, dashboard]] = ofType(dev.resources.Monitoring, "AWS::CloudWatch::Dashboard");
    expect(dashboard.Properties.DashboardName).toBe("test-gym-platform");
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const figure of [
      "Settlements",
      "DueNotClaimed",
      "ReconciliationMismatches",
      "WebhookReceipts",
      "JobRuns",
    ]) {
      expect(body).toContain(figure);
    }
  });

  it("keeps logs two weeks on a development stage and a year on a protected one", () => {
    const retention = (s: Synth) =>
      new Set(
        allResourcesOf(s)
          .filter(([, r]) => r.Type === "AWS::Logs::LogGroup")
          .map(([, r]) => r.Properties.RetentionInDays),
      );
    expect([...retention(dev)]).toEqual([14]);
    expect([...retention(prod)]).toEqual([365]);
  });
});

describe("cold-start configuration contract", () => {
  it("every value the loader will fetch is granted to the function, and each site URL parameter exists", () => {
    const siteParameters = ofType(resources.Web, "AWS::SSM::Parameter").map(([, p]) => p.Properties.Name);
    const policies = allResources().filter(([, r]) => r.Type === "AWS::IAM::Policy");
    for (const [, fn] of appFunctions()) {
      const env = fn.Properties.Environment.Variables as Record<string, string>;
      const bindings = pendingBindings(env);
      expect(bindings.map((b) => b.target).sort()).toEqual([...secretNames, "JOIN_URL", "STAFF_URL"].sort());
      const roleId = fn.Properties.Role["Fn::GetAtt"][0];
      const [[, policy]] = policies.filter(([, p]) => p.Properties.Roles.some((r: Cfn) => r.Ref === roleId));
      const granted = JSON.stringify(policy.Properties.PolicyDocument);
      for (const { target, path: parameter, fallbackPath } of bindings) {
        expect(granted).toContain(`:parameter${parameter}"`);
        if (fallbackPath) expect(granted).toContain(`:parameter${fallbackPath}"`);
        if (target.endsWith("_URL")) expect(siteParameters).toContain(parameter);
      }
    }
  });
});
