/**
 * `npm run simulate -- --members N --days D --seed S [--faults] [--trace] [--trace-member m109]`: the billing simulation
 * (docs/simulation.md). Prints one line per discrepancy and a summary; exits 1 on any discrepancy.
 */
import { SingleBar } from "cli-progress";
import { dollars, formatDiscrepancy } from "./reconcile";
import { MEMBER_YEAR_BUDGET, perMemberYear as perYear, runSimulation } from "./simulation";

const args = process.argv.slice(2);
function flag(name: string, fallback: number): number {
  const at = args.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} needs a whole number (got ${args[at + 1]}).`);
    process.exit(2);
  }
  return value;
}
const members = flag("members", 200);
const days = flag("days", 365);
const seed = flag("seed", 1);
const faults = args.includes("--faults");
// The issue 22 scenarios are on unless --no-scenarios (to compare a seed's run without them).
const scenarios = !args.includes("--no-scenarios");
const startAt = args.indexOf("--start");
const startDate = startAt >= 0 ? args[startAt + 1] : undefined;
// `--trace-member m109[,m12]`: those members' whole story after the run, discrepancy or not.
const traceAt = args.indexOf("--trace-member");
const traceMembers = traceAt >= 0 ? (args[traceAt + 1] ?? "").split(",").filter(Boolean) : [];

console.log(`Simulating ${members} members over ${days} days, seed ${seed}${faults ? ", with faults" : ""}…`);
const bar = new SingleBar({
  format: " [{bar}] {percentage}% day {value}/{total} {label}",
  barCompleteChar: "█",
  barIncompleteChar: "░",
  hideCursor: true,
});
bar.start(days, 0, { label: "" });
const result = await runSimulation({
  members,
  days,
  seed,
  faults,
  scenarios,
  startDate,
  traceMembers,
  onProgress: (day, _total, label) => bar.update(day, { label }),
});
bar.stop();

const traced = new Set<string>();
for (const d of result.discrepancies) {
  console.log(formatDiscrepancy(d, result.describe));
  if (args.includes("--trace") && !traced.has(d.member)) {
    traced.add(d.member);
    for (const line of result.trace(d.member)) console.log(line);
  }
}
for (const member of traceMembers) {
  console.log(`trace of ${result.describe(member)}`);
  for (const line of result.trace(member)) console.log(line);
}
for (const b of result.invariant_breaks)
  console.log(`✗ ${result.describe(b.member)} ${b.day}: ledger invariant ${b.rule}: ${b.detail}`);
const seconds = result.ms / 1000;
const perMemberYear = (requests: number) => perYear(requests, result.members, days);
console.log(`
 members            ${result.members}
 periods            ${result.periods}
 payments           ${result.payments}
 total charged      ${dollars(result.total_charged)} (model: ${dollars(result.total_expected)})
 books              journals ${dollars(result.books.collected)} (model: ${dollars(result.books.model)}): income ${dollars(result.books.income)}, surcharges ${dollars(result.books.surcharges)}, fees ${dollars(result.books.fees)}, credit ${dollars(result.books.credit)}; ${result.books.journals} journals, ${result.books.unbalanced.length} unbalanced
 payouts            ${result.payouts.payouts} Stripe payouts recorded: ${dollars(result.payouts.gross)} of card payments, fees ${dollars(result.payouts.fees)} (Stripe paid out ${dollars(result.payouts.paid_out.gross)} in ${result.payouts.paid_out.payouts}; in transit ${dollars(result.payouts.in_transit.gross)}; journals' card payments ${dollars(result.books.cards)}), ${result.payouts.mismatches.length + result.payouts.problems.length} not matching
 discrepancies      ${result.discrepancies.length}
 invariant breaks   ${result.invariant_breaks.length} (ledger checks: ${result.ledger_checks} subscription-days read)
 double charges     ${result.double_charges}
 missed periods     ${result.missed_periods}
 events             ${Object.entries(result.events)
   .map(([k, v]) => `${k} ${v}`)
   .join(", ")}
 DynamoDB requests  ${result.requests} (${perMemberYear(result.requests).toFixed(0)} per member-year; budget ≤ ${MEMBER_YEAR_BUDGET}; not counted: ${result.localRequests} of the local runtime's own, business clock and mail outbox)
${Object.entries(result.requestsBy)
  .sort((a, b) => b[1] - a[1])
  .map(
    ([doing, n]) =>
      `   ${String(n).padStart(8)}  ${perMemberYear(n).toFixed(0).padStart(5)}/member-year  ${doing}`,
  )
  .join("\n")}
 time               ${seconds.toFixed(1)} s
 replay             npm run simulate -- --members ${members} --days ${days} --seed ${seed}${faults ? " --faults" : ""}${startDate ? ` --start ${startDate}` : ""}
`);
process.exit(result.discrepancies.length > 0 || result.invariant_breaks.length > 0 ? 1 : 0);
