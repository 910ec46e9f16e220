export {
  aucklandParts,
  type DateLike,
  formatDate,
  formatDateTime,
  formatLongDate,
  formatMoney,
  formatTime,
  LOCALE,
  parseNzDate,
  TIME_ZONE,
  titleCase,
} from "./format";
