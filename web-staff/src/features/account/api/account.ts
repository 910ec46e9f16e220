import { api } from "@gym/web/api";

/** What an invitation link offers (`POST /api/invitations/peek`). */
export interface InvitationPeek {
  valid: boolean;
  kind?: "staff" | "pif";
  organisation?: string;
  gym?: string;
  offer?: string;
  email?: string;
}

export const peekInvitation = (token: string) => api.post<InvitationPeek>("/api/invitations/peek", { token });
export const acceptInvitation = (token: string) =>
  api.post<{ kind: "staff" | "pif"; organisation: string; gym: string }>("/api/invitations/accept", {
    token,
  });
export const declineInvitation = (token: string) =>
  api.post<{ declined: true }>("/api/invitations/decline", { token });
export const confirmEmailChange = (token: string) =>
  api.post<{ email: string }>("/api/email-change/confirm", { token });
export const undoEmailChange = (token: string) =>
  api.post<{ email: string }>("/api/email-change/undo", { token });
export const requestEmailChange = (body: { email: string; password: string }) =>
  api.post<{ sent_to: string }>("/api/me/email", body);
