import { AwsClient } from "aws4fetch";
import { config } from "../config";

/**
 * AWS calls as signed HTTPS requests (SigV4 via aws4fetch) with the function's role credentials
 * from the environment. Used for the few calls core makes outside DynamoDB (SES, S3, SSM): the
 * SDK clients would add about 1 MB to the Lambda bundle for a handful of requests.
 */
export interface AwsCallOptions {
  region?: string;
  /** A stand-in's address in tests; the service's regional endpoint by default. */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

export function awsClient(service: string, options: AwsCallOptions = {}) {
  const region = options.region ?? config.region;
  const credentials = options.credentials ?? {
    accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? "",
    secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? "",
    sessionToken: process.env.AWS_SESSION_TOKEN,
  };
  return { region, client: new AwsClient({ ...credentials, region, service }) };
}
