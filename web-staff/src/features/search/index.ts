export { GlobalSearch, type GlobalSearchProps } from "./components/GlobalSearch";
