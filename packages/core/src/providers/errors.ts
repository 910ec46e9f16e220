import { DomainError } from "../errors";

/**
 * A provider refused or failed a call. `declined` is the provider saying no to this input (a bad
 * code, an unknown key): the API answers 422 with the message. `unavailable` is the provider not
 * answering usefully (network, 5xx): 502, worth retrying.
 */
export class ProviderError extends DomainError {
  constructor(
    readonly provider: "stripe" | "akahu" | "kisi" | "branch" | "files",
    message: string,
    readonly kind: "declined" | "unavailable" = "declined",
    readonly detail?: string,
  ) {
    super(
      message,
      kind === "declined" ? 422 : 502,
      kind === "declined" ? "provider_declined" : "provider_unavailable",
    );
  }
}
