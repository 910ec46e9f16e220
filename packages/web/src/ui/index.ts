export { BrandMark, type BrandMarkProps } from "./BrandMark";
export { PageLoader } from "./PageLoader";
export { PlaceholderPage, type PlaceholderPageProps } from "./PlaceholderPage";
