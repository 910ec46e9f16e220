export {
  API_TIMEOUT_MS,
  type ApiClient,
  type ApiClientConfig,
  ApiError,
  type ApiList,
  type ApiMeta,
  api,
  buildUrl,
  createApiClient,
  type Envelope,
  errorMessage,
  type FieldErrors,
  isApiError,
  type Query,
  type RequestOptions,
} from "./client";
export { type ListSearch, listSearch, useListAddress } from "./list-search";
export {
  type ApiKey,
  apiErrorRetry,
  apiFetcher,
  swrConfig,
  useApi,
  useApiList,
  useRevalidateUnder,
} from "./swr";
