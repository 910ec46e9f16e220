/**
 * `POST /api/visits/export`: the filtered visits list as CSV (docs/exports.md), produced a page at
 * a time through the list itself (`listVisits`, so the same reach and filters) and written to the
 * uploads store by exports/file.ts. Admins only, as the other exports.
 */

import type { Actor } from "../auth/actor";
import { authorize } from "../auth/policy";
import { adminGymIds, staffOrganisation } from "../auth/scope";
import { businessToday } from "../clock";
import { visitExportBody, visitExportColumns } from "../contract/access";
import { csvRows } from "../exports/csv";
import { instantNz } from "../exports/dates";
import { type WrittenExport, writeExport } from "../exports/file";
import { titleCase } from "../text";
import { parse } from "../validation";
import { listVisits } from "./visits";

const PAGE = 100;

export async function exportVisits(actor: Actor, body: unknown): Promise<WrittenExport> {
  const organisationId = staffOrganisation(actor);
  authorize(adminGymIds(actor).length > 0, "Only admins can export visits.");
  const filters = parse(visitExportBody, body ?? {});
  // The first page before any file exists: a gym or member out of reach answers 404 here.
  const first = await listVisits(actor, { ...filters, per_page: PAGE });
  async function* csv() {
    yield `\uFEFF${await csvRows([visitExportColumns as unknown as string[]])}`;
    let page = first;
    for (;;) {
      if (page.data.length)
        yield await csvRows(
          page.data.map((v) => [
            v.id,
            instantNz(v.visited_at),
            titleCase(v.member_name ?? ""),
            v.user_id,
            v.gym_name ?? "",
            v.door_name ?? "",
            v.successful ? "yes" : "no",
            v.pass_visit ? "yes" : "no",
          ]),
        );
      if (!page.next_cursor) return;
      page = await listVisits(actor, { ...filters, per_page: PAGE, cursor: page.next_cursor });
    }
  }
  return writeExport(organisationId, `visits-${await businessToday()}.csv`, csv());
}
