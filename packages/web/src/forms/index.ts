// The spec's messages and field rules are the API contract's (one definition, in core).
export {
  email as emailAddress,
  messages as MESSAGES,
  optionalText,
  requiredSecret,
  requiredText,
} from "@gym/core/contract/fields";
export { z } from "zod";
export { type Action, type ActionOptions, useAction } from "./action";
export { bodyFormSchema, centsOrNull, checkBody, isBlank, toCents, wholeOrNull } from "./body";
export { type FormDraft, formDraft } from "./draft";
export { useZodForm, type ZodFormInput } from "./forms";
export { type LazyZodForm, type LazyZodFormInput, useLazyZodForm } from "./lazy";
export { NOT_A_NUMBER, numberFieldProps } from "./number-input";
export {
  applyServerErrors,
  type ServerErrorsResult,
  type SubmitOptions,
  scrollToFirstError,
  submitHandler,
} from "./submit";
