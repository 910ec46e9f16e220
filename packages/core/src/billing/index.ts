/** Billing calendar and money rules: pure functions, no I/O, no clock. See docs/billing.md. */
export * from "./calendar";
export * from "./dunning";
export * from "./frequency";
export * from "./lifecycle";
export * from "./money";
export * from "./period";
export * from "./pro-rata";
export * from "./pro-rata-window";
export * from "./schedule";
export * from "./subscription-state";
export * from "./term";
