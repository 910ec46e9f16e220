import { config } from "@gym/core/config";
import { errorSchema } from "@gym/core/contract/http";
import { log } from "@gym/core/log";
import { fieldErrors } from "@gym/core/validation";
import type { MiddlewareHandler } from "hono";
import type { z } from "zod";

/** A route's `responses`, as @hono/zod-openapi takes them (a `$ref` entry is not checked). */
type Declared = Record<string, object | undefined>;
type WithContent = { content?: Record<string, { schema?: unknown } | undefined> };

/** What is wrong with an answer, measured against the route's declared responses; null when it holds. */
export async function answerProblem(res: Response, responses: Declared): Promise<string | null> {
  const declared = responses[String(res.status)] as WithContent | undefined;
  const schema = declared?.content?.["application/json"]?.schema as z.ZodType | undefined;
  const isJson = /application\/json/.test(res.headers.get("content-type") ?? "");
  if (!declared && res.status < 400) return `status ${res.status} is not declared`;
  // A status may also declare another media type (a CSV beside the JSON): such an answer holds.
  const mediaType = (res.headers.get("content-type") ?? "").split(";")[0].trim();
  if (!isJson && mediaType && declared?.content?.[mediaType]) return null;
  // Undeclared errors (401 from the access check, 400 for an unreadable body …) keep the error shape.
  const expected = schema ?? (res.status >= 400 ? errorSchema : undefined);
  if (!expected) return null;
  if (!isJson)
    return `status ${res.status} declares JSON but the answer is ${res.headers.get("content-type")}`;
  let body: unknown;
  try {
    body = await res.clone().json();
  } catch {
    return "the answer is not valid JSON";
  }
  const result = expected.safeParse(body);
  return result.success ? null : JSON.stringify(fieldErrors(result.error));
}

/**
 * Test mode (APP_ENV=test): every answer is checked against the schema its route declares for
 * that status, so the OpenAPI document (and the web's types, which come from the same schemas)
 * cannot drift from what the API sends. A mismatch answers 500 `answer_contract_violation` and
 * logs why, which fails the API test that made the call. Outside tests it only calls next().
 */
export function checkAnswers(responses: Declared): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (config.appEnv !== "test") return;
    const problem = await answerProblem(c.res, responses);
    if (!problem) return;
    const message = `${c.req.method} ${c.req.path} answered ${c.res.status} outside its declared schema: ${problem}`;
    log.error("answer_contract_violation", {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      problem,
    });
    c.res = new Response(JSON.stringify({ message, error: "answer_contract_violation" }), {
      status: 500,
      headers: { "Content-Type": "application/json" },
    });
  };
}
