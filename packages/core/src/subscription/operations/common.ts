/** What the lifecycle operations (subscription/operations/*.ts) share: counted words and a refusal as a 422. */
import { ValidationError } from "../../errors";

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function refused(r: { ok: false; error: { field: string; message: string } }): never {
  throw ValidationError.field(r.error.field, r.error.message);
}
