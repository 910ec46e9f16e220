/**
 * A form's draft kept in sessionStorage, so a reload (or a phone dropping the tab) does not wipe
 * what a person typed. Only for this tab and this visit; secrets (a password) are never kept.
 */
export interface FormDraft<Values extends Record<string, unknown>> {
  /** What was kept for this form, if anything. */
  read(): Partial<Values>;
  /** Keeps the values, without the fields named in `omit`. */
  write(values: Values): void;
  /** Forgets the draft (after the form was sent). */
  clear(): void;
}

export function formDraft<Values extends Record<string, unknown>>(
  key: string,
  omit: readonly (keyof Values)[] = [],
): FormDraft<Values> {
  const storage = () => {
    try {
      return globalThis.sessionStorage ?? null;
    } catch {
      return null; // storage disabled
    }
  };
  return {
    read() {
      try {
        const kept = JSON.parse(storage()?.getItem(key) ?? "null") as unknown;
        if (!kept || typeof kept !== "object" || Array.isArray(kept)) return {};
        const values = { ...(kept as Partial<Values>) };
        for (const field of omit) delete values[field];
        return values;
      } catch {
        return {};
      }
    },
    write(values) {
      const kept: Record<string, unknown> = { ...values };
      for (const field of omit) delete kept[field as string];
      try {
        storage()?.setItem(key, JSON.stringify(kept));
      } catch {
        // full or disabled: the draft is a courtesy
      }
    },
    clear() {
      try {
        storage()?.removeItem(key);
      } catch {
        // disabled
      }
    },
  };
}
