import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { config } from "../config";
import { rangeKeyConditions } from "./local-engine";

let documentClient: DynamoDBDocumentClient | undefined;

/** One DynamoDB client per process (Lambda reuses it across invocations). */
export function dynamo(): DynamoDBDocumentClient {
  if (!documentClient) {
    const endpoint = config.dynamoEndpoint;
    const client = new DynamoDBClient({
      region: config.region,
      ...(endpoint
        ? { endpoint, credentials: { accessKeyId: "local", secretAccessKey: "local" }, maxAttempts: 3 }
        : {}),
    });
    documentClient = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
    // DynamoDB Local reads a whole partition for `begins_with`: local-engine.ts.
    if (endpoint) rangeKeyConditions(documentClient);
  }
  return documentClient;
}

/** Forget the client (tests that point at another endpoint). */
export function resetDynamo(): void {
  documentClient = undefined;
}
