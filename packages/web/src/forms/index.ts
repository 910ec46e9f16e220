export { z } from "zod";
export {
  applyServerErrors,
  type ServerErrorsResult,
  type SubmitOptions,
  scrollToFirstError,
  submitHandler,
  useZodForm,
  type ZodFormInput,
} from "./forms";
export { emailAddress, MESSAGES, optionalText, requiredSecret, requiredText } from "./schemas";
