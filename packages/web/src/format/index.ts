export {
  aucklandParts,
  type DateLike,
  formatDate,
  formatDateTime,
  formatLongDate,
  formatMoney,
  formatTime,
  LOCALE,
  TIME_ZONE,
  titleCase,
} from "./format";
