export { SEVERITIES, type ToastOptions, type ToastSeverity, toast, toastApiError } from "./toast";
