import { browser } from "../../../app/config";
import { akahuAuthUrl } from "../api/registration";

/** Sends the member to their bank's consent (Akahu); it returns to /connect-akahu with a code. */
export async function goToBankConsent() {
  const { url } = await akahuAuthUrl(`${window.location.origin}/connect-akahu`);
  browser.go(url);
}
