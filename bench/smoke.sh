#!/usr/bin/env bash
# CI smoke test of the benchmarks (not a performance gate): builds bench/target/benchmarks.jar,
# runs every benchmark and parameter combination once, very briefly, and fails if any combination
# is missing from the JMH results or has no (NaN / non-positive) score. About 5 minutes on 2 cores.
#
#   bench/smoke.sh              build, then run
#   bench/smoke.sh --no-build   reuse bench/target/benchmarks.jar
set -euo pipefail
. "$(dirname "$0")/lib.sh"

build=1
[ "${1:-}" = "--no-build" ] && build=0

find_java
if [ "$build" = 1 ] || [ ! -f "$JAR" ]; then
  build_jar
fi
mkdir -p "$BENCH_DIR/results"
json="$BENCH_DIR/results/smoke.json"
list="$BENCH_DIR/target/benchmark-list.txt"
rm -f "$json"

# What should run: every benchmark with the cross product of its parameters, as JMH lists them.
"$JAVA" -jar "$JAR" -lp > "$list"

echo "== smoke: every benchmark once, 1 fork, no warmup, one 100 ms iteration ($JAVA)" >&2
start=$(date +%s)
# -foe false: keep going after a failure so that the check below names every broken combination.
"$JAVA" -jar "$JAR" -f 1 -wi 0 -i 1 -r 100ms -to 60s -foe false -rf json -rff "$json" > "$BENCH_DIR/target/smoke.log" 2>&1 || {
  tail -n 50 "$BENCH_DIR/target/smoke.log" >&2
  echo "error: JMH itself failed (log: bench/target/smoke.log)" >&2
  exit 1
}
echo "== ran in $(( $(date +%s) - start )) s" >&2

python - "$list" "$json" <<'PY'
import itertools, json, math, re, sys

listing, results = sys.argv[1], sys.argv[2]
expected = set()
bench, params = None, []
def flush():
    if bench:
        names = [n for n, _ in params]
        for combo in itertools.product(*[vs for _, vs in params]):
            expected.add((bench, tuple(sorted(zip(names, combo)))))
for line in open(listing):
    m = re.match(r'^(\S+\.\w+)$', line.strip())
    p = re.match(r'^\s+param "(\w+)" = \{(.*)\}$', line.rstrip())
    if p:
        params.append((p.group(1), [v.strip() for v in p.group(2).split(",")]))
    elif m and not line.startswith("Benchmarks:"):
        flush()
        bench, params = m.group(1), []
flush()

try:
    data = json.load(open(results))
except (OSError, ValueError) as e:
    data = []
    print(f"error: no readable JMH results: {e}", file=sys.stderr)
got = {}
for rec in data:
    key = (rec["benchmark"], tuple(sorted((rec.get("params") or {}).items())))
    got[key] = rec["primaryMetric"]["score"]

bad = []
for key in sorted(expected):
    name = key[0].split(".", 3)[-1] + " " + " ".join(f"{k}={v}" for k, v in key[1])
    if key not in got:
        bad.append(f"MISSING  {name}")
        continue
    s = got[key]
    if not isinstance(s, (int, float)) or math.isnan(s) or s <= 0:
        bad.append(f"NO SCORE {name}: {s}")
    else:
        print(f"ok       {name}: {s:.1f} ns/op")
impls = sorted({v for _, ps in expected for k, v in ps if k == "impl"})
print(f"\n{len(expected) - len(bad)} passed, {len(bad)} failed")
if bad:
    print("\n".join(bad), file=sys.stderr)
    print("error: benchmark smoke test failed (log: bench/target/smoke.log)", file=sys.stderr)
    sys.exit(1)
print(f"every combination scored, implementations: {', '.join(impls)}")
PY
