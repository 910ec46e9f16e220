import { useApi } from "@gym/web/api";

/** One email from the local outbox (GET /api/dev/mail, newest first). */
export interface DevMail {
  id: string;
  to: string | string[];
  subject: string;
  text?: string | null;
  html?: string | null;
  reply_to?: string | null;
  /** List-Unsubscribe and List-Unsubscribe-Post on optional emails. */
  headers?: Record<string, string> | null;
  sent_at: string;
}

export const DEV_MAIL_REFRESH_MS = 3000;

export function recipients(mail: Pick<DevMail, "to">): string {
  return Array.isArray(mail.to) ? mail.to.join(", ") : mail.to;
}

/** The local mailbox, re-read every few seconds. */
export function useDevMail() {
  return useApi<DevMail[]>("/api/dev/mail", { refreshInterval: DEV_MAIL_REFRESH_MS });
}
