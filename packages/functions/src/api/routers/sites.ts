import { config } from "@gym/core/config";
import { z } from "@hono/zod-openapi";
import { createRouter, publicRoute } from "../context";
import { errorResponses } from "../respond";

/**
 * Sends the browser to the other site. The sites know each other's address when it can be
 * derived from their own (sibling hosts); on hosts where it cannot (CloudFront's default
 * domains), they come here, because the API knows both addresses at run time.
 */
export const sitesRouter = createRouter().openapi(
  publicRoute({
    method: "get",
    path: "/sites/{site}",
    tags: ["System"],
    summary: "Redirect to a path on the staff or join site",
    request: {
      params: z.object({ site: z.enum(["staff", "join"]) }),
      query: z.object({
        // Only a path on that site: never another host ("//evil.example" or "https:"), and no
        // control characters (a CR/LF would split the Location header).
        path: z
          .string()
          .max(2000)
          // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
          .regex(/^\/(?!\/)[^\\\u0000-\u001f\u007f]*$/, "Must be a path on the site")
          .optional(),
      }),
    },
    responses: { 302: { description: "Redirect to the site" }, 422: errorResponses[422] },
  }),
  (c) => {
    const { site } = c.req.valid("param");
    const base = site === "staff" ? config.staffUrl : config.joinUrl;
    return c.redirect(`${base.replace(/\/+$/, "")}${c.req.valid("query").path ?? "/"}`, 302);
  },
);
