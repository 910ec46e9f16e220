import useSWR, { type SWRConfiguration, type SWRResponse, useSWRConfig } from "swr";
import { type ApiError, type ApiList, api, isApiError } from "./client";

/**
 * SWR keys: a path string reads `data`; `[path, "list"]` reads `{ data, meta }`.
 * Keeping both shapes under distinct keys lets one path be cached as either.
 */
export type ApiKey = string | readonly [path: string, kind: "list"];

export function apiFetcher(key: ApiKey): Promise<unknown> {
  if (typeof key === "string") return api.get(key);
  return api.list(key[0]);
}

/** Retry only what may succeed on retry: no answer, 5xx, 429. Never 4xx. */
export const apiErrorRetry: NonNullable<SWRConfiguration["onErrorRetry"]> = (
  error,
  _key,
  config,
  revalidate,
  { retryCount },
) => {
  if (isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 429) return;
  if (retryCount >= 3) return;
  const delay = (config.errorRetryInterval ?? 5000) * 2 ** retryCount;
  setTimeout(() => void revalidate({ retryCount }), delay);
};

export const swrConfig: SWRConfiguration = {
  fetcher: apiFetcher,
  onErrorRetry: apiErrorRetry,
  revalidateOnFocus: true,
  dedupingInterval: 2000,
};

/** Reads `data` of a GET; pass `null` to wait (conditional fetching). */
export function useApi<T>(
  path: string | null,
  config?: SWRConfiguration<T, ApiError>,
): SWRResponse<T, ApiError> {
  return useSWR<T, ApiError>(path, apiFetcher as (key: string) => Promise<T>, config);
}

/** Reads a list with its paging `meta`. */
export function useApiList<T>(
  path: string | null,
  config?: SWRConfiguration<ApiList<T>, ApiError>,
): SWRResponse<ApiList<T>, ApiError> {
  return useSWR<ApiList<T>, ApiError>(
    path === null ? null : ([path, "list"] as const),
    apiFetcher as (key: ApiKey) => Promise<ApiList<T>>,
    config,
  );
}

/** The path of an SWR key (a read or a list), or null for keys that are not the API's. */
function pathOfKey(key: unknown): string | null {
  if (typeof key === "string") return key;
  return Array.isArray(key) && typeof key[0] === "string" ? key[0] : null;
}

/**
 * Revalidates every read at or under the given paths (`/api/members/u-1` covers the member,
 * `/api/members/u-1/access-control` and its lists): after a change whose effects other panels show
 * (a desk payment clears the debt, so the door standing changes), none of them stays stale until a
 * reload (issue 34 item 13).
 */
export function useRevalidateUnder() {
  const { mutate } = useSWRConfig();
  return (...paths: string[]) =>
    mutate((key) => {
      const path = pathOfKey(key);
      return (
        path !== null && paths.some((p) => path === p || path.startsWith(`${p}/`) || path.startsWith(`${p}?`))
      );
    });
}
