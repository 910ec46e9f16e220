import { useLocation, useNavigate, useSearchParams } from "react-router-dom";

/**
 * A list page's filters in the address bar (so paging survives Back and reloads): which keys the
 * page filters by, read from and written to the query string with the page's cursor and number,
 * the API query for one page, and the set filters as a request body (for the list's export call).
 * `F` is the page's filter type: `listSearch<PaymentFilterValues>(["status", …])`.
 */
export function listSearch<F extends { [K in keyof F]: string | null }>(keys: readonly (keyof F & string)[]) {
  const empty = Object.fromEntries(keys.map((key) => [key, null])) as F;
  const write = (filters: F, cursor: string | null = null, page = 1) => {
    const params = new URLSearchParams();
    for (const key of keys) if (filters[key]) params.set(key, String(filters[key]));
    if (cursor) {
      params.set("cursor", cursor);
      params.set("page", String(page));
    }
    return params;
  };
  return {
    empty,
    read(params: URLSearchParams) {
      const filters = { ...empty } as Record<string, string | null>;
      for (const key of keys) filters[key] = params.get(key) || null;
      const page = Number(params.get("page") ?? "1");
      return {
        filters: filters as F,
        cursor: params.get("cursor"),
        page: Number.isInteger(page) && page > 0 ? page : 1,
      };
    },
    write,
    /** The API query for one page: the filters, the cursor and `per_page`. */
    query(filters: F, cursor: string | null, perPage: number) {
      const params = write(filters, cursor);
      params.delete("page");
      params.set("per_page", String(perPage));
      return params;
    },
    body(filters: F): Record<string, string> {
      const body: Record<string, string> = {};
      for (const key of keys) if (filters[key]) body[key] = String(filters[key]);
      return body;
    },
  };
}

export type ListSearch<F extends { [K in keyof F]: string | null }> = ReturnType<typeof listSearch<F>>;

/**
 * A list page's address: its filters, cursor and page number read from the query string, `go` to
 * another address of the page, and `set` to change some filters (back to the first page).
 */
export function useListAddress<F extends { [K in keyof F]: string | null }>(search: ListSearch<F>) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const { filters, cursor, page } = search.read(params);
  const go = (next: URLSearchParams, replace = false) =>
    navigate({ pathname: location.pathname, search: next.toString() ? `?${next}` : "" }, { replace });
  const set = (patch: Partial<F>) => go(search.write({ ...filters, ...patch }));
  return { filters, cursor, page, go, set };
}
