export { BrandMark, type BrandMarkProps } from "./BrandMark";
export { CursorPager } from "./CursorPager";
export { wideScreensOnly, wideScreensOnlyCell } from "./columns";
export { FormError, type FormErrorProps } from "./FormError";
export { PageHeader, type PageHeaderProps } from "./PageHeader";
export { PageLoader } from "./PageLoader";
export { PlaceholderPage, type PlaceholderPageProps } from "./PlaceholderPage";
