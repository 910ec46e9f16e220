import useSWR, { type SWRConfiguration, type SWRResponse } from "swr";
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
