/**
 * The staff and join sites live on sibling hosts (spec 000 §1): locally `localhost:3000` and
 * `localhost:3001`; deployed `staff.example.nz` (or `admin.…`) and `join.example.nz`. Each app
 * may be told the other's address at build time (`VITE_JOIN_URL` on the staff site,
 * `VITE_STAFF_URL` on the join site); otherwise it is derived from the current address.
 */
export type Site = "staff" | "join";

interface Place {
  protocol: string;
  hostname: string;
  port: string;
}

const LOCAL_PORTS: Record<Site, string> = { staff: "3000", join: "3001" };
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The origin (no trailing slash) of `target` as seen from the site at `place`.
 * - `configured` (the Vite variable) wins when set;
 * - on a local host, the other site's port (3000 <-> 3001);
 * - otherwise the first label "staff." / "admin." becomes "join." (and "join." becomes "staff.");
 * - when nothing can be derived (e.g. the default `*.cloudfront.net` hosts), the API's redirect
 *   `/api/sites/<target>?path=`, which knows both sites' addresses at run time; callers append the
 *   path, so `${siteUrl("join")}/` still lands on the join site's first page.
 */
export function siteUrl(target: Site, place: Place = window.location, configured?: string | null): string {
  const value = configured?.trim();
  if (value) return value.replace(/\/+$/, "");
  const { protocol, hostname, port } = place;
  const other: Site = target === "join" ? "staff" : "join";
  if (LOCAL_HOSTS.has(hostname) && port === LOCAL_PORTS[other]) {
    return `${protocol}//${hostname}:${LOCAL_PORTS[target]}`;
  }
  const suffix = port ? `:${port}` : "";
  const host =
    target === "join" ? hostname.replace(/^(staff|admin)\./, "join.") : hostname.replace(/^join\./, "staff.");
  if (host === hostname) return `${protocol}//${hostname}${suffix}/api/sites/${target}?path=`;
  return `${protocol}//${host}${suffix}`;
}
