import type { CostAndVisitBreakdown, DashboardStats, UserBreakdown } from "@gym/core/contract/dashboard";
import { useApi } from "@gym/web/api";

/** Which rows the dashboard reads: a gym, or the organisation (`all`), and a date range. */
export interface DashboardFilter {
  gym: string | "all";
  from: string;
  to: string;
}

function scopeQuery(filter: DashboardFilter) {
  return filter.gym === "all" ? "scope=organisation" : `gym_id=${encodeURIComponent(filter.gym)}`;
}

export function useDashboard(filter: DashboardFilter | null) {
  const q = filter ? scopeQuery(filter) : null;
  const stats = useApi<DashboardStats>(q ? `/api/stats?${q}` : null);
  const breakdown = useApi<UserBreakdown>(q ? `/api/user-breakdown?${q}` : null);
  const range = useApi<CostAndVisitBreakdown>(
    // Only with a range (the first read asks the stats for the business date; an empty range is a 422).
    q && filter?.from && filter.to
      ? `/api/cost-and-visit-breakdown?${q}&from=${filter.from}&to=${filter.to}`
      : null,
  );
  return { stats, breakdown, range };
}
