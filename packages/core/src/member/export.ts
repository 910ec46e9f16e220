/**
 * `POST /api/members/export`: the filtered members list as CSV (docs/exports.md), produced page by
 * page through the same matcher as the list (`matchingMembers`), each page's users read by one
 * BatchGet for their mobile numbers; written to the uploads store by exports/file.ts, so memory
 * stays flat however many members match. Cells written by exports/csv.ts (quoted, formulas neutralised).
 */
import type { Actor } from "../auth/actor";
import { authorize } from "../auth/policy";
import { adminGymIds, staffOrganisation } from "../auth/scope";
import { aucklandDate, type CivilDate, lastDayOf } from "../billing/calendar";
import { passOf } from "../billing/pass";
import { businessNow, businessToday } from "../clock";
import { labelOf, memberStateLabels, paymentKindLabels } from "../contract/labels";
import { memberExportBody, memberExportColumns } from "../contract/member";
import { csvRows } from "../exports/csv";
import { civilDateNz } from "../exports/dates";
import { type WrittenExport, writeExport } from "../exports/file";
import { titleCase } from "../text";
import { parse } from "../validation";
import { type MemberListFilters, type MemberRow, matchingMembers } from "./list";
import { summaryOf } from "./state";

export const MEMBER_EXPORT_PAGE = 500;

/** Checks access and filters first (so errors answer 422/403/404 before any file is written). */
export function prepareMemberExport(actor: Actor, body: unknown) {
  const organisationId = staffOrganisation(actor);
  authorize(adminGymIds(actor).length > 0, "Only admins can export members.");
  const values: MemberListFilters = parse(memberExportBody, body ?? {});
  return { actor, organisationId, values };
}

/** An instant as its Auckland calendar date, en-NZ ("23/11/2026"). */
function dateOf(iso: string): string {
  return civilDateNz(aucklandDate(new Date(iso)));
}

export function memberExportRow(row: MemberRow, mobile: string | undefined, now: Date): string[] {
  const { member, sub } = row;
  const summary = sub ? summaryOf(sub, now) : null;
  return [
    member.user_id,
    titleCase(member.name),
    member.email,
    mobile ?? "",
    dateOf(member.joined_at),
    memberStateLabels[summary?.state ?? "none"],
    summary?.gym.name ?? "",
    summary?.offering.name ?? "",
    summary?.price.label ?? "",
    summary ? labelOf(paymentKindLabels, summary.payment_method) : "",
    summary?.membership_type ?? "",
    (member.tags ?? []).join("; "),
    member.deleted_at ? dateOf(member.deleted_at) : "",
    ...offerCells(sub),
  ];
}

/** The latest membership's offers (docs/offers.md "Reporting"): its trial's last day, its promo code, its pass's visits. */
function offerCells(sub: MemberRow["sub"]): string[] {
  const pass = sub ? passOf(sub) : null;
  return [
    sub?.trial_ends_on ? civilDateNz(lastDayOf(sub.trial_ends_on)) : "",
    sub?.promo_code ?? "",
    pass ? `${pass.used} of ${pass.visits}` : "",
  ];
}

/** The CSV, header first (with a BOM so spreadsheets read UTF-8), then one chunk per page. */
export async function* membersCsv(prepared: ReturnType<typeof prepareMemberExport>): AsyncGenerator<string> {
  yield `\uFEFF${await csvRows([memberExportColumns as unknown as string[]])}`;
  const now = await businessNow();
  let cursor: string | undefined;
  do {
    const page = await matchingMembers(
      prepared.actor,
      { ...prepared.values, cursor },
      MEMBER_EXPORT_PAGE,
      now,
      // The mobiles the members gave this organisation (never another's), in each batch's read.
      { profiles: true },
    );
    if (page.rows.length)
      yield await csvRows(page.rows.map((r) => memberExportRow(r, r.profile?.mobile_number, now)));
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
}

export function memberExportFileName(today: CivilDate): string {
  return `members-${today}.csv`;
}

/** `POST /api/members/export`: checks, then writes the file; answers where it is (docs/exports.md). */
export async function exportMembers(actor: Actor, body: unknown): Promise<WrittenExport> {
  const prepared = prepareMemberExport(actor, body);
  const name = memberExportFileName(await businessToday());
  return writeExport(prepared.organisationId, name, membersCsv(prepared));
}
