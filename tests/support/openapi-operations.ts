/**
 * The API's documented operations, read from its own OpenAPI document, as the tests that go through
 * every route call them (isolation, the role × route matrix, the request budgets): each with its
 * body's documented example and its required headers' documented examples (an Idempotency-Key), so
 * a call passes validation and reaches what the test is about.
 */
import { HttpClient } from "./http";

export interface DocumentedOperation {
  method: string;
  path: string;
  access: "public" | "session" | "user" | "staff";
  hasBody: boolean;
  /** The request body's documented example (the contract's `.meta({ example })`), if any. */
  example: unknown;
  /** The required headers' documented examples. */
  headers: Record<string, string>;
  /** The answers the document gives it below 400 (its successes: a 2xx, an export's 303). */
  successes: number[];
}

export async function documentedOperations(apiUrl: string): Promise<DocumentedOperation[]> {
  const doc = (await new HttpClient(apiUrl).get("/api/openapi.json")).body;
  const resolve = (schema: any): any =>
    schema?.$ref ? doc.components.schemas[schema.$ref.split("/").pop()] : schema;
  const out: DocumentedOperation[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const schema = resolve(op.requestBody?.content?.["application/json"]?.schema);
      const headers: Record<string, string> = {};
      for (const param of op.parameters ?? []) {
        const example = param.example ?? param.schema?.example ?? param.schema?.examples?.[0];
        if (param.in === "header" && param.required && example !== undefined)
          headers[param.name] = String(example);
      }
      out.push({
        method: method.toUpperCase(),
        path,
        access: op["x-access"] ?? (op.security?.length === 0 ? "public" : "user"),
        hasBody: Boolean(op.requestBody),
        example: schema?.example ?? schema?.examples?.[0],
        headers,
        successes: Object.keys(op.responses ?? {})
          .map(Number)
          .filter((status) => status < 400),
      });
    }
  }
  return out;
}

/** The body a documented operation is called with: its example, `{}` for a write without one. */
export const documentedBody = (op: DocumentedOperation) =>
  op.hasBody ? (op.example ?? {}) : op.method === "GET" || op.method === "DELETE" ? undefined : {};
