import { OpenAPIHono } from "@hono/zod-openapi";
import { fieldErrors } from "@gym/core/validation";

/** What middleware puts on the request context for routers. */
export interface AppEnv {
  Variables: {
    requestId: string;
  };
}

/**
 * A router for one domain. Invalid params, query or body answer 422 with the field messages
 * (never a 500), in the API's error shape.
 */
export function createRouter<E extends AppEnv = AppEnv>() {
  return new OpenAPIHono<E>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const errors = fieldErrors(result.error);
        const first = Object.values(errors)[0]?.[0];
        return c.json({ message: first ?? "The given data was invalid.", errors, error: "validation_failed" }, 422);
      }
    },
  });
}
