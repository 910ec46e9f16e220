import { attributeDefinitions, table as design, type IndexName, projectionOf } from "@gym/core/db/table";
import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { BillingMode } from "aws-cdk-lib/aws-dynamodb";
import { BlockPublicAccess, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { Bucket, type StackContext, Table, type TableGlobalIndexProps } from "sst/constructs";
import { isProtectedStage } from "./settings";

/**
 * The one DynamoDB table (built from packages/core/src/db/table.ts, so keys cannot drift from the code)
 * with its stream (the outbox's delivery, docs/data-model.md "The outbox"), and the private uploads bucket (profile pictures, gym logos, CSV exports).
 */
export function Storage({ stack, app }: StackContext) {
  const keep = isProtectedStage(app.stage);
  const removalPolicy = keep ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

  const globalIndexes: Record<string, TableGlobalIndexProps> = {};
  for (const [name, keys] of Object.entries(design.globalIndexes)) {
    const projection = projectionOf(name as IndexName);
    globalIndexes[name] = {
      partitionKey: keys.partitionKey,
      sortKey: keys.sortKey,
      projection: projection === "all" ? "all" : [...projection],
    };
  }

  const table = new Table(stack, "Table", {
    fields: Object.fromEntries(attributeDefinitions().map(({ AttributeName }) => [AttributeName, "string"])),
    primaryIndex: { partitionKey: design.partitionKey, sortKey: design.sortKey },
    globalIndexes,
    timeToLiveAttribute: design.ttlAttribute,
    // The outbox's delivery (infra/jobs.ts consumes it, filtered to new outbox items).
    stream: "new_image",
    cdk: {
      table: {
        billingMode: BillingMode.PAY_PER_REQUEST,
        // SST sets the deprecated `pointInTimeRecovery`; CDK refuses both at once.
        pointInTimeRecovery: undefined,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        deletionProtection: keep,
        removalPolicy,
      },
    },
  });

  const uploads = new Bucket(stack, "Uploads", {
    cors: false,
    cdk: {
      bucket: {
        blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
        objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
        encryption: BucketEncryption.S3_MANAGED,
        enforceSSL: true,
        // CSV exports are handed out once by a 5-minute signed address (docs/exports.md); keep a day.
        lifecycleRules: [{ id: "ExpireExports", prefix: "exports/", expiration: Duration.days(1) }],
        removalPolicy,
        autoDeleteObjects: !keep,
      },
    },
  });

  stack.addOutputs({ TableName: table.tableName, UploadsBucket: uploads.bucketName });
  return { table, uploads };
}
