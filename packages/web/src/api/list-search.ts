/**
 * A paged list's filters, cursor and page number kept in the address bar, so paging survives Back
 * and reloads. `keys` are the filter names (also the API's query parameters).
 */
export function listSearch<K extends string>(keys: readonly K[]) {
  type Filters = Record<K, string | null>;
  const write = (filters: Partial<Filters>, cursor: string | null = null, page = 1) => {
    const params = new URLSearchParams();
    for (const key of keys) if (filters[key]) params.set(key, String(filters[key]));
    if (cursor) {
      params.set("cursor", cursor);
      params.set("page", String(page));
    }
    return params;
  };
  return {
    read(params: URLSearchParams) {
      const filters = {} as Filters;
      for (const key of keys) filters[key] = params.get(key) || null;
      const page = Number(params.get("page") ?? "1");
      return { filters, cursor: params.get("cursor"), page: Number.isInteger(page) && page > 0 ? page : 1 };
    },
    write,
    /** The API query for one page: the filters, the cursor and `per_page`. */
    query(filters: Partial<Filters>, cursor: string | null, perPage: number) {
      const params = write(filters, cursor);
      params.delete("page");
      params.set("per_page", String(perPage));
      return params;
    },
  };
}
