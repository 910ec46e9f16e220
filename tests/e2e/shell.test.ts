import { describe, expect, it } from "vitest";
import { screenshotPath, staffPage, useProductAndBrowser, viewports } from "../support/e2e";

const e2e = useProductAndBrowser();

/** The signed-in layout: what each role sees, and the phone-sized drawer. */

describe("the staff layout", () => {
  it("shows organisation admins the Organisation group, with its pages reachable", async () => {
    const page = await staffPage(e2e.browser, e2e.product, "admin@example.com");
    await page.goto(`${e2e.product.staffUrl}/gyms`);
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Gyms" }).waitFor();
    // The group stays open while one of its pages is shown.
    expect(await nav.getByRole("link", { name: "Gyms" }).getAttribute("aria-current")).toBe("page");
    for (const name of ["Staff", "Settings", "Calculate Pro Rata"]) {
      expect(await nav.getByRole("link", { name }).isVisible()).toBe(true);
    }
    await page.getByRole("group", { name: "Signed in as" }).getByText("Organisation admin").waitFor();
    await page.screenshot({ path: screenshotPath("shell-admin-gyms-desktop") });
    await page.context().close();
  });

  it("hides the Organisation group from a trainer and sends them from settings to the dashboard", async () => {
    const page = await staffPage(e2e.browser, e2e.product, "trainer@example.com");
    await page.goto(`${e2e.product.staffUrl}/dashboard`);
    await page.getByRole("heading", { level: 1, name: /, Taylor$/ }).waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Offerings" }).waitFor();
    expect(await nav.getByText("Organisation", { exact: true }).count()).toBe(0);
    expect(await nav.getByRole("link", { name: "Settings" }).count()).toBe(0);
    // One organisation and one gym: no switchers.
    expect(await page.getByRole("button", { name: /^Organisation:/ }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Gym:/ }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath("shell-trainer-dashboard-desktop") });

    await page.goto(`${e2e.product.staffUrl}/organisation/settings`);
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole("heading", { level: 1, name: /, Taylor$/ }).waitFor();
    await page.context().close();
  });

  it("uses a slide-in drawer on a phone that closes after navigating", async () => {
    const page = await staffPage(e2e.browser, e2e.product, "admin@example.com", viewports.phone);
    await page.goto(`${e2e.product.staffUrl}/dashboard`);
    await page.getByRole("heading", { level: 1, name: /, Avery$/ }).waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.count()).toBe(0);
    await page.screenshot({ path: screenshotPath("shell-dashboard-phone"), fullPage: true });

    await page.getByRole("button", { name: "Open navigation" }).click();
    const drawer = page.getByRole("dialog");
    await drawer.getByRole("navigation", { name: "Main" }).waitFor();
    await page.waitForTimeout(300); // let the slide-in finish for the picture
    await page.screenshot({ path: screenshotPath("shell-drawer-phone") });

    await drawer.getByRole("link", { name: "Members" }).click();
    await page.waitForURL(/\/members$/);
    await drawer.waitFor({ state: "hidden" });
    expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);
    await page.getByRole("heading", { level: 1, name: "Members" }).waitFor();
    await page.screenshot({ path: screenshotPath("shell-members-phone") });
    await page.context().close();
  });
});
