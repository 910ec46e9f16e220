/**
 * `POST /api/accounting/journals/export` and `GET /api/accounting/journals` (docs/accounting.md
 * "Exporting"): the manual journals of a period's days, per gym, as Xero's import file.
 *
 * Each (day, gym) is built once, from the payments settled that day and the mapping of that moment,
 * and kept (`journal_day`, created on the condition that it does not exist): a later export of the
 * same day gives the lines kept, so the day's journal is the same whenever it is exported, and the
 * status call says which days were exported before. Only days that are over may be exported, so a
 * kept day never misses a payment.
 */
import { type Actor, organisationGyms } from "../auth/actor";
import { authorize, policy } from "../auth/policy";
import { staffOrganisation } from "../auth/scope";
import { addDays, type CivilDate, daysBetween } from "../billing/calendar";
import { businessToday } from "../clock";
import {
  accountMessages,
  type JournalStatus,
  journalExportBody,
  journalStatusQuery,
} from "../contract/accounting";
import { db } from "../db/service";
import { NotFoundError, ValidationError } from "../errors";
import { type WrittenExport, writeExport } from "../exports/file";
import { listGyms } from "../gym/service";
import { findSubscriptions } from "../subscription/store";
import { parse } from "../validation";
import { dayJournals, type Journal, journalKinds } from "./journal";
import { mappingOf } from "./mapping";
import { settledOn, settledPayments } from "./settled";
import { journalFile } from "./xero";

export const MAX_DAYS = 366;

interface KeptDay {
  date: CivilDate;
  gym_id: string;
  exported_at: string;
  journals: Journal[];
}

function onlyAdmins(actor: Actor) {
  const organisationId = staffOrganisation(actor);
  authorize(policy.manageOrganisation(actor), "Only organisation admins may export the books.");
  return organisationId;
}

/** The period's checks (422 on the field) and the gyms it covers (404 a gym not of this organisation). */
async function periodOf(
  organisationGyms: Promise<{ gym_id: string; name: string }[]>,
  values: { from: CivilDate; to: CivilDate; gym_id?: string },
) {
  const today = await businessToday();
  if (values.to >= today) throw new ValidationError({ to: [accountMessages.over] });
  if (daysBetween(values.from, values.to) + 1 > MAX_DAYS)
    throw new ValidationError({ to: [accountMessages.tooLong] });
  const gyms = (await organisationGyms).map((g) => ({ gym_id: g.gym_id, name: g.name }));
  if (values.gym_id !== undefined && !gyms.some((g) => g.gym_id === values.gym_id))
    throw new NotFoundError("gym");
  return { gyms: values.gym_id ? gyms.filter((g) => g.gym_id === values.gym_id) : gyms };
}

/** The kept days of the period (one Query: the records sort by date). */
async function keptDays(organisationId: string, from: CivilDate, to: CivilDate): Promise<KeptDay[]> {
  const { data } = await db()
    .entities.journalDay.query.primary({ organisation_id: organisationId })
    .between({ date: from }, { date: addDays(to, 1) })
    .go({ pages: "all" });
  return (data as KeptDay[]).filter((d) => d.date >= from && d.date <= to);
}

function* daysOf(from: CivilDate, to: CivilDate) {
  for (let day = from; day <= to; day = addDays(day, 1)) yield day;
}

/** Keeps a day's journals unless another export kept them first (then those are the day's). */
async function keep(organisationId: string, day: Omit<KeptDay, "exported_at">): Promise<KeptDay> {
  const exported_at = new Date().toISOString();
  try {
    await db()
      .entities.journalDay.create({ organisation_id: organisationId, ...day, exported_at })
      .go();
    return { ...day, exported_at };
  } catch (error) {
    const { data } = await db()
      .entities.journalDay.get({ organisation_id: organisationId, date: day.date, gym_id: day.gym_id })
      .go();
    if (!data) throw error;
    return data as KeptDay;
  }
}

/** DynamoDB's most items in one transaction. */
const TRANSACTION_ITEMS = 100;

/**
 * Keeps the days' journals, up to 100 in one transaction (each created only if no export kept it
 * first), the transactions side by side: a month of two gyms is one request. A transaction another
 * export got in first (a condition failed) is kept day by day instead, each day then the one that
 * export kept (`keep`).
 */
async function keepAll(organisationId: string, days: Omit<KeptDay, "exported_at">[]): Promise<KeptDay[]> {
  const chunks: Omit<KeptDay, "exported_at">[][] = [];
  for (let i = 0; i < days.length; i += TRANSACTION_ITEMS) chunks.push(days.slice(i, i + TRANSACTION_ITEMS));
  const kept = await Promise.all(
    chunks.map(async (chunk) => {
      const exported_at = new Date().toISOString();
      const { canceled } = await db()
        .transaction.write(({ journalDay }) =>
          chunk.map((day) =>
            journalDay.create({ organisation_id: organisationId, ...day, exported_at }).commit(),
          ),
        )
        .go();
      return canceled
        ? Promise.all(chunk.map((day) => keep(organisationId, day)))
        : chunk.map((day) => ({ ...day, exported_at }));
    }),
  );
  return kept.flat();
}

/** Every (day, gym) of the period: kept before, or built now from the day's payments and kept. */
export async function periodJournals(
  organisationId: string,
  values: { from: CivilDate; to: CivilDate; gym_id?: string },
  /** The organisation's gyms (`organisationGyms`: those read with the session for its admin). */
  gymsOf: Promise<{ gym_id: string; name: string }[]> = listGyms(organisationId),
): Promise<{ days: KeptDay[]; gyms: { gym_id: string; name: string }[] }> {
  // The kept days need only the period: read beside the checks and the gyms.
  const keptRead = keptDays(organisationId, values.from, values.to);
  keptRead.catch(() => undefined);
  const { gyms } = await periodOf(gymsOf, values);
  const kept = await keptRead;
  const keptKeys = new Set(kept.map((d) => `${d.date}#${d.gym_id}`));
  const missing = [...daysOf(values.from, values.to)].flatMap((date) =>
    gyms.filter((g) => !keptKeys.has(`${date}#${g.gym_id}`)).map((gym) => ({ date, gym })),
  );
  const days = kept.filter((d) => gyms.some((g) => g.gym_id === d.gym_id));
  if (missing.length) {
    const firstMissing = missing[0].date;
    const lastMissing = missing[missing.length - 1].date;
    const [mapping, payments] = await Promise.all([
      mappingOf(organisationId),
      settledPayments({
        organisationId,
        gymIds: values.gym_id ? [values.gym_id] : null,
        from: firstMissing,
        to: lastMissing,
      }),
    ]);
    const subscriptions = mapping.offerings.length
      ? await findSubscriptions(
          payments
            .filter((p) => p.subscription_id)
            .map((p) => ({ organisation_id: organisationId, subscription_id: p.subscription_id! })),
        )
      : new Map();
    const offeringOf = (id: string | undefined) => (id ? subscriptions.get(id)?.offering_id : undefined);
    const byDay = new Map<string, typeof payments>();
    for (const payment of payments) {
      const key = `${settledOn(payment)}#${payment.gym_id}`;
      byDay.set(key, [...(byDay.get(key) ?? []), payment]);
    }
    days.push(
      ...(await keepAll(
        organisationId,
        missing.map(({ date, gym }) => ({
          date,
          gym_id: gym.gym_id,
          journals: dayJournals({
            date,
            gym,
            payments: byDay.get(`${date}#${gym.gym_id}`) ?? [],
            mapping,
            offeringOf,
          }),
        })),
      )),
    );
  }
  const gymName = new Map(gyms.map((g) => [g.gym_id, g.name]));
  days.sort(
    (a, b) =>
      a.date.localeCompare(b.date) ||
      (gymName.get(a.gym_id) ?? "").localeCompare(gymName.get(b.gym_id) ?? "") ||
      a.gym_id.localeCompare(b.gym_id),
  );
  return { days, gyms };
}

/** The period's journals in order: by day, gym, then card, bank, desk, transfer. */
export function orderedJournals(days: readonly KeptDay[]): Journal[] {
  return days.flatMap((d) =>
    [...d.journals].sort((a, b) => journalKinds.indexOf(a.kind) - journalKinds.indexOf(b.kind)),
  );
}

export function journalFileBase(values: { from: CivilDate; to: CivilDate }) {
  return `xero-journals-${values.from}-to-${values.to}`;
}

/** `POST /api/accounting/journals/export`: 303 to the CSV (or the zip of CSVs past 300 lines). */
export async function exportJournals(actor: Actor, body: unknown): Promise<WrittenExport> {
  const organisationId = onlyAdmins(actor);
  const values = parse(journalExportBody, body ?? {});
  const { days } = await periodJournals(organisationId, values, organisationGyms(actor, organisationId));
  const file = await journalFile(journalFileBase(values), orderedJournals(days));
  return writeExport(
    organisationId,
    file.name,
    (async function* () {
      yield file.bytes;
    })(),
    file.contentType,
  );
}

/** `GET /api/accounting/journals`: which days (and gyms) of the period were exported before. */
export async function journalStatus(actor: Actor, query: unknown): Promise<JournalStatus> {
  const organisationId = onlyAdmins(actor);
  const values = parse(journalStatusQuery, query ?? {});
  const [today, gyms, kept] = await Promise.all([
    businessToday(),
    organisationGyms(actor, organisationId),
    keptDays(organisationId, values.from, values.to),
  ]);
  if (values.gym_id !== undefined && !gyms.some((g) => g.gym_id === values.gym_id))
    throw new NotFoundError("gym");
  const last = values.to < today ? values.to : addDays(today, -1);
  return {
    from: values.from,
    to: values.to,
    exported: kept
      .filter((d) => values.gym_id === undefined || d.gym_id === values.gym_id)
      .map((d) => ({
        date: d.date,
        gym_id: d.gym_id,
        exported_at: d.exported_at,
        lines: d.journals.reduce((s, j) => s + j.lines.length, 0),
      })),
    days: last < values.from ? 0 : daysBetween(values.from, last) + 1,
  };
}
