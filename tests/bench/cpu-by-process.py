#!/usr/bin/env python3
"""Where a run's CPU goes, by kind of process (docs/performance.md "Suite time", tenth round).

    python3 tests/bench/cpu-by-process.py /tmp/prof.csv &      # samples /proc every second
    CI=true bash .ci/run; touch /tmp/prof.csv.stop              # the run, then stop the sampler
    python3 tests/bench/cpu-by-process.py --sum /tmp/prof.csv [FROM_S TO_S]

Each line of the CSV is `second,kind,cpu_s`: the CPU (user + system) a process used since the last
sample, by what its command line runs. A process that ends between two samples loses at most its
last second, so short-lived ones (npm's scripts, esbuild) are undercounted.
"""
import collections
import os
import sys
import time


def kind(cmd: str) -> str:
    if "DynamoDBLocal" in cmd:
        return "dynamodb"
    if "chrom" in cmd:
        return "chromium-renderer" if "--type=renderer" in cmd else "chromium-other"
    if "vitest" in cmd:
        return "vitest-worker" if ("forks" in cmd or "worker" in cmd) else "vitest-main"
    if "cli.ts start" in cmd:
        return "e2e-product"
    for name in ("tsgo", "typescript", "biome", "esbuild", "npm ci", "vite build"):
        if name in cmd:
            return name
    return "other:" + cmd[:60].replace(",", " ").replace("\n", " ")


def sample(out: str) -> None:
    hz = os.sysconf("SC_CLK_TCK")
    before: dict[str, tuple[int, str]] = {}
    start = time.time()
    first = True
    with open(out, "w") as csv:
        while not os.path.exists(out + ".stop"):
            now: dict[str, tuple[int, str]] = {}
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    stat = open(f"/proc/{pid}/stat").read()
                    fields = stat[stat.rindex(")") + 2 :].split()
                    cmd = open(f"/proc/{pid}/cmdline").read().replace("\0", " ").strip()
                except OSError:
                    continue
                if cmd:
                    now[pid] = (int(fields[11]) + int(fields[12]), cmd)
            for pid, (ticks, cmd) in now.items():
                # A process already running when sampling began counts from then; one that execs
                # another program keeps its pid and its counters.
                base = before[pid][0] if pid in before else (ticks if first else 0)
                if ticks > base:
                    csv.write(f"{time.time() - start:.0f},{kind(cmd)},{(ticks - base) / hz:.2f}\n")
            before, first = now, False
            csv.flush()
            time.sleep(1)


def summary(path: str, low: float, high: float) -> None:
    totals: collections.Counter[str] = collections.Counter()
    for line in open(path):
        second, rest = line.rstrip("\n").split(",", 1)
        name, cpu = rest.rsplit(",", 1)
        if low <= float(second) < high:
            totals[name] += float(cpu)
    for name, cpu in totals.most_common(20):
        print(f"{cpu:8.1f}  {name}")
    print(f"{sum(totals.values()):8.1f}  all")


if __name__ == "__main__":
    if sys.argv[1] == "--sum":
        low = float(sys.argv[3]) if len(sys.argv) > 3 else 0
        high = float(sys.argv[4]) if len(sys.argv) > 4 else float("inf")
        summary(sys.argv[2], low, high)
    else:
        sample(sys.argv[1])
