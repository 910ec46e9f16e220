import type { TestProject } from "vitest/node";
import { startDynamoLocal } from "../../packages/functions/src/local/database";
import { freePort } from "./free-port";

declare module "vitest" {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

/**
 * One in-memory DynamoDB Local for the whole API project; each test file makes its own table. It
 * answers the files' requests for the whole first phase of `npm test`, so with the optimising
 * compiler (`longRun`).
 */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamoLocal({ port: await freePort(), longRun: true });
  project.provide("dynamoEndpoint", dynamo.endpoint);
  return () => dynamo.stop();
}
