export {
  aucklandParts,
  type DateLike,
  formatDate,
  formatDateTime,
  formatLongDate,
  formatMoney,
  formatShortDay,
  formatTime,
  LOCALE,
  parseNzDate,
  TIME_ZONE,
  titleCase,
} from "./format";
