import { describe, expect, it } from "vitest";
import { newestMailId, screenshotPath, staffPage, useProductAndBrowser, viewports } from "../support/e2e";

const e2e = useProductAndBrowser();

/** Staff management: an organisation admin invites a trainer, who accepts by the emailed link; then the admin deactivates them. */

async function inviteLinkFor(email: string, after?: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = (
      (await (await fetch(`${e2e.product.staffUrl}/api/dev/mail`)).json()) as {
        data: { id: string; to: string; subject: string; text?: string }[];
      }
    ).data;
    const message = mail.find(
      (m) => m.to === email && /invited/i.test(m.subject) && (!after || m.id > after),
    );
    const link = message?.text?.match(/https?:\/\/\S+\/set-password\?token=\S+/)?.[0];
    if (link) return link;
    if (Date.now() > deadline) throw new Error(`No invitation emailed to ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("staff", () => {
  it("invite a trainer → they set a password from the emailed link → the admin deactivates them", async () => {
    const page = await staffPage(e2e.browser, e2e.product, "admin@example.com");
    await page.goto(`${e2e.product.staffUrl}/staff`);
    await page.getByRole("heading", { name: "Staff", level: 1 }).waitFor();
    await page.getByRole("table").getByText("Taylor Trainer").waitFor();

    const before = await newestMailId(e2e.product.staffUrl);
    await page.getByRole("button", { name: "Invite staff" }).click();
    const form = page.getByRole("form", { name: "Invite staff" });
    await form.getByRole("button", { name: "Send invitation" }).click();
    await form.getByText("Value is required").first().waitFor();
    await form.getByRole("textbox", { name: /^Email/ }).fill("rua.coach@example.net");
    await form.getByRole("textbox", { name: /^Name/ }).fill("rua coach");
    await form.getByRole("combobox", { name: /^Role/ }).click();
    await page.getByRole("option", { name: "Per gym", exact: true }).click();
    await form.getByRole("combobox", { name: "Harbour Fitness Ponsonby" }).click();
    await page.getByRole("option", { name: "Personal trainer", exact: true }).click();
    await page.screenshot({ path: screenshotPath("staff-invite") });
    await form.getByRole("button", { name: "Send invitation" }).click();
    await page.getByText("Invitation sent to rua.coach@example.net").waitFor();
    const row = page.getByRole("row").filter({ hasText: "Rua Coach" });
    await row.getByText("Invitation pending").waitFor();
    await page.screenshot({ path: screenshotPath("staff-list"), fullPage: true });

    // The invited person sets a password from the emailed link.
    const link = await inviteLinkFor("rua.coach@example.net", before);
    const guest = await e2e.browser.newPage({ viewport: viewports.desktop });
    await guest.goto(link);
    await guest.getByLabel(/^New password/).fill("a harbour coach passphrase");
    await guest.getByLabel(/^Confirm new password/).fill("a harbour coach passphrase");
    await guest.getByRole("button", { name: "Set password and continue" }).click();
    await guest.waitForURL(/\/welcome/);
    await guest.close();

    await page.reload();
    await row.getByText("Active").waitFor();
    await row.getByRole("link", { name: "Rua Coach" }).click();
    await page.getByRole("heading", { name: "Rua Coach", level: 1 }).waitFor();
    await page.getByText("Harbour Fitness Ponsonby: Personal trainer").waitFor();
    // Door access at their gym: switched on, the answer says so after a reload.
    const door = page.getByRole("switch", { name: "Harbour Fitness Ponsonby" });
    expect(await door.isChecked()).toBe(false);
    await door.click({ force: true });
    await page.getByText("Door access given at Harbour Fitness Ponsonby").waitFor();
    await page.reload();
    await expect
      .poll(() => page.getByRole("switch", { name: "Harbour Fitness Ponsonby" }).isChecked())
      .toBe(true);
    await page.screenshot({ path: screenshotPath("staff-show") });
    await page.getByRole("button", { name: "Deactivate" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Deactivate" }).click();
    await page.getByText("Rua Coach deactivated").waitFor();
    await page.waitForURL(/\/staff$/);
    await page.getByRole("table").getByText("Taylor Trainer").waitFor();
    await expect.poll(() => page.getByRole("table").getByText("Rua Coach").count()).toBe(0);
  });
});
