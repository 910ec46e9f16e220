export { AppProviders, type AppProvidersProps, BaseProviders } from "./AppProviders";
export { ErrorBoundary, type ErrorBoundaryProps } from "./ErrorBoundary";
export {
  ErrorPage,
  type ErrorPageProps,
  NotFoundPage,
  type NotFoundPageProps,
  RouteErrorPage,
} from "./ErrorPages";
export { InsideMain, useMainTag } from "./landmarks";
export { ScrollToTop } from "./ScrollToTop";
export { baseTheme, touchTheme } from "./theme";
