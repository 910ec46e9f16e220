import { createRequire } from "node:module";
import type { Page } from "playwright-core";

/** One axe-core finding: the rule, how bad, what it asks, and where on the page. */
export interface Violation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/**
 * axe-core (WCAG 2.0/2.1/2.2 A and AA rules plus best practices) on the page as it stands: every
 * violation. The page's context needs `bypassCSP` (the sites' CSP refuses an injected script).
 */
export async function axeViolations(page: Page): Promise<Violation[]> {
  // Once per loaded page: a page moved to inside the app keeps it.
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run: () => Promise<{
            violations: { id: string; impact: string; help: string; nodes: { target: unknown[] }[] }[];
          }>;
        };
      }
    ).axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.map(String).join(" ")),
    }));
  });
}

/** The violations a page must not have: serious or critical. */
export const serious = (violations: Violation[]) =>
  violations.filter((v) => v.impact === "serious" || v.impact === "critical");
