import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { screenshotPath, staffPage, useProductAndBrowser } from "../support/e2e";

const e2e = useProductAndBrowser();

/**
 * The members back-office in the browser: a staff member finds a member from the top bar by two
 * letters of their surname, opens them, writes a note, and sees it in the member's activity.
 */
let memberId: string;

/** A member with a surname nobody else in the demo data starts with, added through core. */
async function addSearchableMember(dynamoPort: number) {
  process.env.DYNAMODB_ENDPOINT = `http://localhost:${dynamoPort}`;
  process.env.TABLE_NAME = "gym-local";
  const { resetDynamo } = await import("../../packages/core/src/db/client");
  resetDynamo();
  // The start-up point, as the product has it: a role written tells the members layer to index
  // the member for the list and search (core.ts), which this process would otherwise not hear.
  await import("../support/core-setup");
  const { findUserByEmail, createUser } = await import("../../packages/core/src/user/service");
  const { rolesOfUser, putRole } = await import("../../packages/core/src/user/roles");
  const { listGyms } = await import("../../packages/core/src/gym/service");
  const admin = await findUserByEmail("admin@example.com");
  if (!admin) throw new Error("The product has no demo data");
  for (const role of await rolesOfUser(admin.user_id)) {
    const gym = (await listGyms(role.organisation_id)).find((g) => /Ponsonby/.test(g.name));
    if (!gym) continue;
    const user = await createUser({ email: "aria.zelinski@example.net", name: "aria zelinski" });
    await putRole({
      organisation_id: role.organisation_id,
      user_id: user.user_id,
      member_gym_ids: [gym.gym_id],
    });
    return user.user_id;
  }
  throw new Error("No Ponsonby gym");
}

beforeAll(async () => {
  memberId = await addSearchableMember(e2e.product.dynamoPort);
});

describe("members", () => {
  it("search by two letters of the surname → open the member → edit a note → see it in the activity", async () => {
    const page = await staffPage(e2e.browser, e2e.product, "admin@example.com");
    await page.goto(`${e2e.product.staffUrl}/members`);
    const table = page.getByRole("table");
    await table.getByText("Aria Zelinski").waitFor();
    await page.screenshot({ path: screenshotPath("members-list"), fullPage: true });

    const search = page.getByRole("searchbox", { name: "Search members" }).locator("visible=true");
    // Nothing found: the spec's message, with the query.
    await search.fill("qqzx");
    await page.getByText('No results found for "qqzx"').waitFor();
    // Typing hides the results until the debounce has passed.
    await search.fill("ze");
    expect(await page.getByRole("listbox", { name: "Search results" }).count()).toBe(0);
    const result = page.getByRole("option").filter({ hasText: "Aria Zelinski" });
    await result.waitFor();
    await expect(
      page.getByRole("option").filter({ hasText: "aria.zelinski@example.net" }).count(),
    ).resolves.toBe(1);
    await page.screenshot({ path: screenshotPath("members-search") });
    await result.click();

    await page.waitForURL(`**/members/${memberId}`);
    expect(await search.inputValue()).toBe("");
    await page.getByRole("heading", { name: "Aria Zelinski", level: 1 }).waitFor();

    const notes = page.getByRole("form", { name: "Notes and tags" });
    await notes.getByLabel("Notes").fill("Prefers the 6 am class; knee injury.");
    await notes.getByRole("button", { name: "Save notes" }).click();
    await page.getByText("Notes saved").waitFor();
    await page.screenshot({ path: screenshotPath("member-show"), fullPage: true });

    await page.getByRole("link", { name: "Activity" }).click();
    await page.waitForURL(`**/members/${memberId}/activity`);
    const entry = page.getByText("Notes edited");
    await entry.waitFor();
    await page.getByText("Prefers the 6 am class; knee injury.", { exact: false }).waitFor();
    await page
      .getByLabel("Activity")
      .getByText(/Avery Admin/)
      .first()
      .waitFor();
    await page.screenshot({ path: screenshotPath("member-activity"), fullPage: true });

    // A member with a membership: the membership card with its lifecycle actions.
    await search.fill("aroha wal");
    await page.getByRole("option").filter({ hasText: "Aroha Walker" }).click();
    await page.getByRole("heading", { name: "Aroha Walker", level: 1 }).waitFor();
    const membership = page.getByRole("region", { name: "Membership" });
    await membership.getByText("Anytime Membership").first().waitFor();
    await membership.getByRole("button", { name: /Pause/ }).waitFor();
    await page.screenshot({ path: screenshotPath("member-show-membership"), fullPage: true });
  });

  it("exports the members list to CSV with its filters, and the file reads back", async () => {
    const page = await staffPage(e2e.browser, e2e.product, "admin@example.com");
    await page.goto(`${e2e.product.staffUrl}/members?state=none`);
    await page.getByRole("table").getByText("Aria Zelinski").waitFor();
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^members-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await readFile((await file.path())!, "utf8")).replace(/^\uFEFF/, "");
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^Member ID,Name,Email,Mobile,Joined,State,Gym,Membership/);
    expect(lines.find((l) => l.startsWith(memberId))).toMatch(
      /,Aria Zelinski,aria\.zelinski@example\.net,,\d{1,2}\/\d{2}\/\d{4},No membership,/,
    );
    // The page's filter went with it: only members without a membership.
    expect(lines.slice(1).every((l) => l.includes(",No membership,"))).toBe(true);
  });
});
