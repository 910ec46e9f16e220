/**
 * The response headers the product sends, defined once: the local server (functions/src/local/
 * server.ts) and the API middleware set them from here, and CloudFront's response headers
 * policies (infra/web.ts) are built from the same values, so local runs and AWS answer alike.
 */

export type Site = "staff" | "join";

/**
 * The paths each site answers with its index.html, which paints that page before any JavaScript
 * (a prerendered shell): the join site's register page, the staff site's sign-in page (`/` goes
 * to it). Every other path gets app.html, the same document without the shell. The local server
 * and CloudFront's viewer-request function (infra/web.ts) both route by this.
 */
export const SHELL_PAGES: Record<Site, readonly string[]> = {
  join: ["/"],
  staff: ["/", "/login"],
};

/** Where Stripe's card element (Stripe.js) loads from, talks to, and frames (join site). */
const STRIPE_SCRIPTS = ["https://js.stripe.com"];
const STRIPE_FRAMES = ["https://js.stripe.com", "https://hooks.stripe.com"];
const STRIPE_CONNECT = ["https://api.stripe.com"];

function policy(directives: Record<string, string[]>) {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(" "))
    .join("; ");
}

/**
 * Content Security Policy per site. Scripts only from the site itself (the Vite build has no
 * inline script); styles also inline, because Mantine writes its CSS variables into `<style>`
 * tags and `style` attributes at run time; images also `data:`/`blob:` (logo previews); no
 * framing by anyone (`frame-ancestors 'none'`, with X-Frame-Options for old browsers). The join
 * site also allows Stripe.js and its frames for the card element.
 */
export function contentSecurityPolicy(site: Site): string {
  const join = site === "join";
  return policy({
    "default-src": ["'self'"],
    "script-src": ["'self'", ...(join ? STRIPE_SCRIPTS : [])],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", ...(join ? ["https://*.stripe.com"] : [])],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...(join ? STRIPE_CONNECT : [])],
    "frame-src": join ? STRIPE_FRAMES : ["'none'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  });
}

export const STRICT_TRANSPORT_SECURITY = { maxAgeSeconds: 63_072_000, includeSubdomains: true } as const;

/**
 * Every answer of a site (pages and static files). Reset and invitation pages carry their token
 * in the URL: `no-referrer` keeps it from leaving with any request the page makes.
 */
export function siteHeaders(site: Site): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(site),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
  };
}

/**
 * Every answer under /api: never stored by a browser or a shared cache (answers carry personal
 * data and sessions), never sniffed. A route that serves an immutable public file (a logo named
 * by its content hash) may set its own `public` Cache-Control instead.
 */
export const API_HEADERS: Record<string, string> = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

/**
 * A public answer that is the same for everyone and may be a minute old: a join link's gym and
 * public prices (`GET /api/join`, read by every phone that opens the link). A browser reuses it
 * for a minute and then shows it while asking again for up to five; with its ETag, asking again
 * costs a 304.
 */
export const PUBLIC_SHORT_CACHE = "public, max-age=60, stale-while-revalidate=300";

/**
 * CloudFront adds this header, with a secret generated at deploy, to every request it sends to the
 * API origin. In AWS the API answers only requests that carry it, so the API Gateway address
 * cannot be called directly, and only then trusts CloudFront's viewer-address header.
 */
export const ORIGIN_SECRET_HEADER = "x-origin-verify";

/** Largest webhook body any provider route reads. */
export const WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;
/** Largest body of any other API call (the 5 MB logo plus multipart framing). */
export const API_BODY_LIMIT_BYTES = 6 * 1024 * 1024;
