#!/usr/bin/env bash
# Runs the Go channel benchmarks (an informational column beside the JMH results) and writes
# them as JMH-like JSON:  bench/go/run.sh OUT.json [COUNT] [BENCHTIME]
# COUNT runs of each benchmark stand in for JMH forks (default 3), BENCHTIME per run (default 300ms).
set -euo pipefail
cd "$(dirname "$0")"
out="$1"
count="${2:-3}"
benchtime="${3:-300ms}"
command -v go >/dev/null 2>&1 || { echo "go not found: skipping the Go column" >&2; exit 3; }
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
GOFLAGS=-mod=mod go test -run '^$' -bench . -benchtime "$benchtime" -count "$count" -timeout 20m . | tee "$log" >&2
python3 - "$log" "$out" <<'PY'
import json, re, statistics, sys
# Two-sided 99.9% Student t quantiles, as JMH uses for its error, by degrees of freedom.
T999 = {1: 636.6, 2: 31.6, 3: 12.92, 4: 8.61, 5: 6.87, 6: 5.96, 7: 5.41, 8: 5.04, 9: 4.78, 10: 4.59,
        12: 4.32, 15: 4.07, 20: 3.85, 30: 3.65}
def t999(df):
    keys = [k for k in sorted(T999) if k <= df]
    return T999[keys[-1]] if keys else float("nan")
runs = {}
for line in open(sys.argv[1]):
    m = re.match(r"^Benchmark(\w+)(?:/(\S+?))?(?:-\d+)?\s+\d+\s+([\d.]+) ns/op", line)
    if m:
        runs.setdefault((m.group(1), m.group(2) or ""), []).append(float(m.group(3)))
records = []
for (name, sub), scores in runs.items():
    params = {"impl": "go"}
    # the parameters the JMH twins carry, so that report.py puts both in one scenario
    if name == "Chained":
        params["channelCount"] = "10000"
    elif name == "Parallel":
        params["pairs"] = "10000"
    for part in filter(None, sub.split("/")):
        k, _, v = part.partition("=")
        params[k] = v
    mean = statistics.fmean(scores)
    err = t999(len(scores) - 1) * statistics.stdev(scores) / len(scores) ** 0.5 if len(scores) > 1 else float("nan")
    records.append({"benchmark": f"go.{name}Benchmark.go", "mode": "avgt", "forks": len(scores), "params": params,
                    "primaryMetric": {"score": mean, "scoreError": err, "scoreUnit": "ns/op",
                                      "rawData": [[s] for s in scores]},
                    "secondaryMetrics": {}})
with open(sys.argv[2], "w") as f:
    json.dump(records, f, indent=2)
print(f"wrote {len(records)} Go results to {sys.argv[2]}", file=sys.stderr)
PY
