#!/usr/bin/env bash
# The standard profile: the scenarios of the performance issue for weft, every peer (jox 1.0.1 and
# 1.1.1, kotlinx.coroutines, the JDK queues; not jox 1.0.1 in the many-channel and contention
# shapes) and the floors, sized to give trustworthy ratios in
# at most 30 minutes on 2 cores. Writes one JMH JSON file per run to bench/results/standard/, then
# a Markdown table (medians of fork means, ratios weft/best peer and weft/floor with 95% bootstrap
# intervals over forks, noisy-neighbour slowdowns, latency percentiles) to bench/results/standard.md
# and a chart to bench/results/standard.svg.
#
#   bench/standard.sh              build, check the machine, run, report
#   bench/standard.sh --plan       print the runs and the estimated duration, run nothing
#   bench/standard.sh --no-build   reuse bench/target/benchmarks.jar
#   bench/standard.sh --force      run even when another process is busy (the report says so, loudly)
#   bench/standard.sh --only a,b   only the named runs (see --plan), e.g. to redo one
#   bench/standard.sh --out DIR    JSON to DIR, tables to DIR.md and DIR.svg (default bench/results/standard)
#   bench/standard_report.py DIR      the tables again from the JSON
#
# Runs (forks x warm-up/measured iterations; every score ns per value, per handoff or per hop):
#   single (5 forks, 3 x 500 ms + 4 x 500 ms, -prof gc): Rendezvous, Buffered 16, Request-reply over
#     two channels of 16 (no kotlin), Select 2 clauses,
#     pair floors (virtual threads, park at once and 200 spins), the ring floor of Buffered 16
#     (RingFloor: park at once and 200 spins), the cell reference of Rendezvous (CellFloor: weft's
#     design reduced, 2,000 spins). Their fork means are bimodal.
#   platform (3 forks, 1 + 3 x 500 ms): Rendezvous and Buffered 16 on platform threads, the pair
#     floor on platform threads (200 spins; parking at once cost 7-25 us there in the profiles).
#   noisy (3 forks, 2 + 3 x 500 ms): Rendezvous and Buffered 16 beside a CPU-burning platform thread,
#     and the virtual pair floors and the cell reference beside it (what the floors lose to the noise).
#   latency (2 forks, sample mode, 2 x 500 ms + 2 x 1 s): p50/p99/p99.9 of a receive, rendezvous and
#     buffered 16 (no kotlin: see LatencyBenchmark).
#   many (2 forks, 2 + 3 x 1 s; jox 1.1.1, not 1.0.1): Chained and Parallel 10k at capacity 0, 16,
#     100; the chain and parallel floors (ChainFloor, ParallelFloor with handoff links: the first
#     side to come parks, the second unparks it; the one-token slots cost more, by hand only).
#     Longer than before stop 36: kotlinx gets faster there for seconds (docs/PERFORMANCE.md).
#   contention (2 forks, 3 + 3 x 1 s; jox 1.1.1, not 1.0.1): the five contention shapes at capacity
#     16; beside the fan-in shapes (16x1, 256x1) their reference (FanInFloor: a mailbox of 2 values
#     per producer, park at once and 200 spins). Longer than the other groups because kotlinx's
#     scores there drift up for seconds and weft's down (1 + 2 x 500 ms measured kotlinx's
#     first, faster seconds: see docs/PERFORMANCE.md, stop 35).
#   uncontended (2 forks, 2 + 3 x 500 ms): one thread sends 16 values into a buffered channel of 16
#     or 100 and receives them (UncontendedBenchmark): the per-value cost without any waiting.
#     Beside it the same with the atomics of a cell channel's path alone (CellPathFloor: weft's
#     mark, a completed count instead, kotlinx's; the paths counters and expand by hand).
#   oneshot (2 forks, 2 + 3 x 500 ms): create a channel of capacity 1 or 1000, send one value into
#     it and receive it, on one thread (OneShotBenchmark): what a reply channel or a short-lived
#     mailbox costs; with -prof gc its bytes are the channel's footprint. Capacity 1000 shows what
#     a large buffer costs a channel that carries little (its first receive creates the cells of
#     the whole buffer; docs/PERFORMANCE.md, stop 39). Capacity 16 only by hand (the same bytes as
#     1; in the profile at 4e4d122 1.2x the time of capacity 1, 1.0x in alternating runs).
#
# Estimated duration, from the iteration settings (--plan computes it): about 37 minutes, counting
# 1.5 s per fork for starting the JVM and half an invocation per iteration past its time (about
# 0.5 s on platform threads, 0.3 s for 10,000 channels). Build not included. The estimate is
# cautious: the profile at 871b32d ran in 23 minutes against an estimate of 32, the one at 4e4d122
# (with OneShot at capacities 1 and 16, and 4 warm-up iterations in group uncontended) in 31
# against 40, which is why OneShot runs capacity 1 only and that group warms up 3 times. Stop 35
# lengthened the contention group (see above) and paid for it with a fork less for latency and
# uncontended and two CellPathFloor paths less; with these settings the profile at 3413553 ran in
# 30 minutes against an estimate of 38. Stop 36 lengthened the many group and paid for it with jox
# 1.0.1 out of that group and the platform pair floor's park at once; still, the profile at 3731231
# ran in 31 minutes against an estimate of 39. Stop 37 took a measured iteration from group single
# and from latency, a warm-up from platform and from uncontended (est. 37 min). Stop 39 added
# OneShot at capacity 1000 (est. 37.4 min).
#
# The machine check: before the first run the script reads the load average and samples /proc/stat
# (lib.sh machine_check); when another process is busy it refuses to run (exit 3) unless --force.
# It samples the CPUs again before every run (the load average then still counts the previous run)
# and writes every check into DIR/meta.txt, which the report prints; a busy check marks the report
# as NOT QUIET. After every run it also writes the share of CPU time the hypervisor stole during
# it (lib.sh steal_share), which no check before a run can see.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

build=1
force=0
plan_only=0
only=""
out="$BENCH_DIR/results/standard"
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=0 ;;
    --force) force=1 ;;
    --plan) plan_only=1 ;;
    --only) only="$2"; shift ;;
    --out) out="$2"; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

# Iteration settings: warm-up iterations, warm-up ms, measured iterations, measured ms, forks,
# and the estimated ms an iteration runs past its time (half an invocation).
declare -A WI=([single]=3 [platform]=1 [noisy]=2 [latency]=2 [many]=2 [contention]=3 [uncontended]=2)
declare -A WMS=([single]=500 [platform]=500 [noisy]=500 [latency]=500 [many]=1000 [contention]=1000 [uncontended]=500)
declare -A IT=([single]=4 [platform]=3 [noisy]=3 [latency]=2 [many]=3 [contention]=3 [uncontended]=3)
declare -A RMS=([single]=500 [platform]=500 [noisy]=500 [latency]=1000 [many]=1000 [contention]=1000 [uncontended]=500)
declare -A FORKS=([single]=5 [platform]=3 [noisy]=3 [latency]=2 [many]=2 [contention]=2 [uncontended]=2)
declare -A OVER=([single]=50 [platform]=500 [noisy]=50 [latency]=0 [many]=300 [contention]=20 [uncontended]=0)
STARTUP_MS=1500

RDV=weft,jox,jox111,kotlin,SynchronousQueue,LinkedTransferQueue,Exchanger
BUF=weft,jox,jox111,kotlin,ArrayBlockingQueue,LinkedBlockingQueue
MANY=weft,jox111,kotlin,jdk
# name | group | JMH arguments (an anchored class regex and its parameters)
RUNS=(
  "rendezvous|single|\.RendezvousBenchmark\. -p impl=$RDV"
  "buffered16|single|\.BufferedBenchmark\. -p capacity=16 -p impl=$BUF"
  "request-reply16|single|\.RequestReplyBenchmark\. -p capacity=16 -p impl=weft,jox,jox111,ArrayBlockingQueue,LinkedBlockingQueue"
  "select2|single|\.SelectBenchmark\. -p clauses=2 -p impl=weft,jox,jox111,kotlin"
  "floor-pair|single|\.PairFloorBenchmark\. -p threads=virtual -p spins=0,200"
  "floor-ring|single|\.RingFloorBenchmark\. -p capacity=16 -p spins=0,200"
  "floor-cell|single|\.CellFloorBenchmark\. -p spins=2000"
  "platform-rendezvous|platform|\.PlatformRendezvousBenchmark\. -p impl=$RDV"
  "platform-buffered16|platform|\.PlatformBufferedBenchmark\. -p capacity=16 -p impl=$BUF"
  "floor-pair-platform|platform|\.PairFloorBenchmark\. -p threads=platform -p spins=200"
  "noisy-rendezvous|noisy|\.NoisyRendezvousBenchmark\. -p impl=$RDV"
  "noisy-buffered16|noisy|\.NoisyBufferedBenchmark\. -p capacity=16 -p impl=$BUF"
  "noisy-floor-pair|noisy|\.NoisyPairFloorBenchmark\. -p threads=virtual -p spins=0,200"
  "noisy-floor-cell|noisy|\.NoisyCellFloorBenchmark\. -p spins=2000"
  "latency-rendezvous|latency|\.RendezvousLatencyBenchmark\. -p impl=weft,jox,jox111,SynchronousQueue,LinkedTransferQueue,Exchanger"
  "latency-buffered16|latency|\.BufferedLatencyBenchmark\. -p impl=weft,jox,jox111,ArrayBlockingQueue,LinkedBlockingQueue"
  "chained|many|\.ChainedBenchmark\. -p channelCount=10000 -p capacity=0,16,100 -p impl=$MANY"
  "parallel|many|\.ParallelBenchmark\. -p pairs=10000 -p capacity=0,16,100 -p impl=$MANY"
  "floor-chain|many|\.ChainFloorBenchmark\. -p channelCount=10000 -p link=handoff"
  "floor-parallel|many|\.ParallelFloorBenchmark\. -p pairs=10000 -p link=handoff -p spins=0"
  "uncontended|uncontended|\.UncontendedBenchmark\. -p capacity=16,100 -p impl=weft,jox,jox111,kotlin,ArrayBlockingQueue"
  "oneshot|uncontended|\.OneShotBenchmark\. -p capacity=1,1000 -p impl=weft,jox,jox111,kotlin,ArrayBlockingQueue"
  "floor-cellpath|uncontended|\.CellPathFloorBenchmark\. -p capacity=16,100 -p path=mark,counted,kotlinx"
  "contention|contention|\.ContentionBenchmark\. -p capacity=16 -p shape=2x2,16x16,256x256,16x1,256x1 -p impl=weft,jox111,kotlin,jdk"
  "floor-fanin|contention|\.FanInFloorBenchmark\. -p shape=16x1,256x1 -p spins=0,200 -p depth=2"
)

# Parameter combinations of a run: the product of the value counts of its -p options.
combos() {
  local n=1 prev="" a
  for a in $1; do
    if [ "$prev" = "-p" ]; then
      n=$((n * $(echo "${a#*=}" | tr ',' '\n' | wc -l)))
    fi
    prev="$a"
  done
  echo "$n"
}

selected() {
  [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]
}

total_ms=0
printf '%-22s %-10s %6s %5s %8s\n' run group combos forks "est. s" >&2
for r in "${RUNS[@]}"; do
  IFS='|' read -r name group args <<<"$r"
  selected "$name" || continue
  c="$(combos "$args")"
  f="${FORKS[$group]}"
  fork_ms=$((STARTUP_MS + WI[$group] * WMS[$group] + IT[$group] * RMS[$group] + (WI[$group] + IT[$group]) * OVER[$group]))
  ms=$((c * f * fork_ms))
  total_ms=$((total_ms + ms))
  printf '%-22s %-10s %6s %5s %8s\n' "$name" "$group" "$c" "$f" "$((ms / 1000))" >&2
done
echo "estimated duration: $((total_ms / 60000)) min $((total_ms / 1000 % 60)) s (build not included)" >&2
[ "$plan_only" = 1 ] && exit 0

find_java
if [ "$build" = 1 ] || [ ! -f "$JAR" ]; then
  build_jar
fi
mkdir -p "$out"
meta="$out/meta.txt"
commit="$(git -C "$ROOT_DIR" rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [ -n "$(git -C "$ROOT_DIR" status --porcelain -- channels/src/main 2>/dev/null)" ]; then
  commit="$commit+dirty"
fi
# A partial rerun (--only) keeps the checks of the runs it does not redo.
[ -z "$only" ] && rm -f "$meta"
echo "weft $commit; $(nproc 2>/dev/null || echo '?') cores; $("$JAVA" -version 2>&1 | head -n1 | sed 's/"//g'); started $(date -u '+%Y-%m-%d %H:%M UTC')${only:+ (only $only)}" >> "$meta"

if check="$(machine_check 3)"; then
  echo "machine check before the profile: $check" | tee -a "$meta" >&2
else
  if [ "$force" = 0 ]; then
    echo "error: another process is busy ($check); the figures would not be quiet ones." >&2
    echo "       Wait for a quiet machine, or run with --force to measure anyway (the report says so)." >&2
    exit 3
  fi
  echo "BUSY before the profile (--force): $check" | tee -a "$meta" >&2
  echo "WARNING: MEASURING ON A BUSY MACHINE: these figures must not be published as quiet ones" >&2
fi

start=$(date +%s)
first=1
for r in "${RUNS[@]}"; do
  IFS='|' read -r name group args <<<"$r"
  selected "$name" || continue
  if [ "$first" = 1 ]; then
    first=0
  else
    # Between runs our own JVMs are gone: a busy CPU now is somebody else. The load average
    # still counts our last run, so only the busy share decides here.
    if check="$(WEFT_BENCH_MAX_LOAD=1000 machine_check 1)"; then
      echo "before $name: $check" >> "$meta"
    else
      echo "BUSY before $name: $check" >> "$meta"
      echo "WARNING: another process is busy before $name ($check)" >&2
    fi
  fi
  opts=(-f "${FORKS[$group]}" -wi "${WI[$group]}" -w "${WMS[$group]}ms" -i "${IT[$group]}" -r "${RMS[$group]}ms" -to 120s)
  [ "$group" != latency ] && opts+=(-prof gc)
  echo "== $name ($group): $args" >&2
  cpu_before="$(cpu_snapshot)"
  # shellcheck disable=SC2086  # args is a list of words by construction
  "$JAVA" -jar "$JAR" $args "${opts[@]}" -rf json -rff "$out/$name.json" > "$out/$name.log" 2>&1 || {
    tail -n 30 "$out/$name.log" >&2
    echo "error: JMH failed in $name (log: $out/$name.log)" >&2
    exit 1
  }
  echo "during $name: steal $(steal_share "$cpu_before" "$(cpu_snapshot)")% of CPU time" >> "$meta"
done
echo "finished $(date -u '+%Y-%m-%d %H:%M UTC') after $(( ($(date +%s) - start) / 60 )) min; load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$meta"

python "$BENCH_DIR/standard_report.py" "$out" --md "$out.md"
# The chart: the average-time runs (the latency runs are in the table only).
charts=()
for f in "$out"/*.json; do
  case "$(basename "$f")" in latency-*) ;; *) charts+=("$f") ;; esac
done
python "$BENCH_DIR/report.py" "${charts[@]}" --svg "$out.svg" \
  --title "weft vs peers and floors — standard profile, $(nproc 2>/dev/null || echo '?') cores" \
  --note "$(tr '\n' ';' < "$meta" | sed 's/;$//; s/;/; /g')" > /dev/null
echo "== wrote $out/*.json, $out.md and $out.svg" >&2
