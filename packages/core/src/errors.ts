/**
 * Domain errors. Core throws these; the API maps each to its HTTP status and the error shape
 * `{ message, errors?, error? }`. Nothing here knows about HTTP beyond the status it suggests.
 */
export type FieldErrors = Record<string, string[]>;

export class DomainError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  constructor(
    readonly errors: FieldErrors,
    message = firstMessage(errors) ?? "The given data was invalid.",
  ) {
    super(message, 422, "validation_failed");
  }

  static field(field: string, message: string) {
    return new ValidationError({ [field]: [message] });
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(message = "Unauthenticated.") {
    super(message, 401, "unauthenticated");
  }
}

export class TwoFactorRequiredError extends DomainError {
  constructor() {
    super("Enter the code we emailed you to finish signing in.", 400, "not_two_factor_authenticated");
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = "You do not have permission to do that.") {
    super(message, 403, "forbidden");
  }
}

/** Also used for other organisations' ids: their existence is never revealed. */
export class NotFoundError extends DomainError {
  constructor(what = "record") {
    super(`That ${what} could not be found.`, 404, "not_found");
  }
}

/** `data`: the record that already exists, when the conflict is "it is already there" (answered beside the message). */
export class ConflictError extends DomainError {
  constructor(
    message: string,
    code = "conflict",
    readonly data?: unknown,
  ) {
    super(message, 409, code);
  }
}

export class RateLimitedError extends DomainError {
  constructor(
    message = "Too many attempts. Please wait a few minutes and try again.",
    readonly retryAfterSeconds = 60,
  ) {
    super(message, 429, "rate_limited");
  }
}

function firstMessage(errors: FieldErrors): string | undefined {
  for (const messages of Object.values(errors)) if (messages[0]) return messages[0];
  return undefined;
}
