import type { JoinOptions } from "@gym/core/contract/registration";
import { useApi } from "@gym/web/api";
import { useSearchParams } from "react-router-dom";
import { joinOptionsKey } from "../register/api/join-options";

/**
 * The gym a page's link names (`?gym=<uuid>`, as the password emails' links do): its name and
 * logo for the header. Undefined while unknown or without one (the layout then shows the gym this
 * device last showed).
 */
export function useLinkedGym() {
  const [params] = useSearchParams();
  const uuid = params.get("gym");
  const { data } = useApi<JoinOptions>(uuid ? joinOptionsKey({ gym: uuid }) : null);
  return { uuid, gym: data?.gym };
}

/** The join site's sign-in page, for this gym when known, with the email filled in and a notice. */
export function signInPath(input: { gym?: string | null; email?: string | null; notice?: string }) {
  const params = new URLSearchParams({ signin: "1" });
  if (input.gym) params.set("gym", input.gym);
  if (input.email) params.set("email", input.email);
  if (input.notice) params.set("notice", input.notice);
  return `/?${params.toString()}`;
}
