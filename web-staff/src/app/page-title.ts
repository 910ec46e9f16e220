import { useAuth } from "@gym/web/auth";
import { useDocumentTitle } from "@mantine/hooks";

/**
 * Every signed-in page's title: `<page> · <gym or organisation>` (the current gym, else the
 * current organisation). Signed-out pages read `<page> · Gym back office`.
 */
export function usePageTitle(page: string) {
  const { me } = useAuth();
  const user = me?.status === "signed_in" ? me.user : null;
  const gym = user?.current_gym ? user.gyms.find((g) => g.id === user.current_gym?.id)?.name : undefined;
  useDocumentTitle(`${page} · ${gym ?? user?.current_organisation?.name ?? "Gym back office"}`);
}
