#!/usr/bin/env bash
# Builds and runs the weft benchmarks (JMH) side by side with jox, kotlinx.coroutines and JDK queues,
# then prints a table with ratios and writes JSON, Markdown and an SVG chart to bench/results/.
#
#   bench/run.sh                   quick profile (~12-14 min on 2 cores, build included; without the
#                                  platform-thread, noisy and latency variants: see standard.sh)
#   bench/run.sh --full            full profile: 5 forks, longer iterations (hours on 2 cores)
#   bench/run.sh --flame           add an async-profiler flame graph per benchmark (bench/results/flame/)
#   bench/run.sh --go              add Go channels (bench/go, needs the go toolchain) as an informational column
#   bench/run.sh --no-build        reuse bench/target/benchmarks.jar
#   bench/run.sh --out NAME        results as bench/results/NAME.{json,md,svg} (default: the profile name)
#   bench/run.sh ... -- ARGS       extra JMH arguments; a benchmark regex there replaces the profile's
#                                  selection, e.g.  bench/run.sh --flame -- Rendezvous -p impl=weft
#
# Needs: ./mvnw's requirements (java 17+ to run Maven), a JDK 21+ somewhere (found automatically:
# $WEFT_BENCH_JAVA, $JAVA_HOME, /usr/lib/jvm/*, ...) to run the benchmarks, and python3 for the report.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

profile=quick
flame=0
go=0
build=1
out=""
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) profile=quick ;;
    --full) profile=full ;;
    --flame) flame=1 ;;
    --go) go=1 ;;
    --no-build) build=0 ;;
    --out) out="$2"; shift ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
out="${out:-$profile}"

find_java
echo "== running benchmarks with $JAVA ($("$JAVA" -version 2>&1 | head -n1))" >&2
if [ "$build" = 1 ] || [ ! -f "$JAR" ]; then
  build_jar
fi

results="$BENCH_DIR/results"
mkdir -p "$results"

# Profiles. Virtual-thread scores are bimodal on few cores (which carrier each thread lands on):
# the full profile uses 5 forks and the report compares medians of the fork means.
case "$profile" in
  quick)
    # Sized to finish in ~10 minutes on 2 cores: one fork, short iterations. Good for spotting a
    # 2x difference, not for 10%.
    opts=(-f 1 -wi 3 -w 500ms -i 8 -r 300ms -to 60s)
    ;;
  full)
    opts=(-f 5 -wi 3 -w 2s -i 5 -r 2s -to 120s)
    ;;
esac

profilers=(-prof gc)
if [ "$flame" = 1 ]; then
  lib="$BENCH_DIR/target/async-profiler/linux-x64/libasyncProfiler.so"
  if [ ! -f "$lib" ]; then
    echo "== fetching async-profiler 4.6 (Maven Central: tools.profiler:async-profiler)" >&2
    (cd "$ROOT_DIR" && ./mvnw -B -q -N dependency:copy -Dartifact=tools.profiler:async-profiler:4.6 \
      -DoutputDirectory="$BENCH_DIR/target/async-profiler" -Dmdep.overWriteIfNewer=true)
    python3 - "$BENCH_DIR/target/async-profiler" <<'PY'
import sys, zipfile, pathlib
d = pathlib.Path(sys.argv[1])
with zipfile.ZipFile(d / "async-profiler-4.6.jar") as z:
    z.extract("linux-x64/libasyncProfiler.so", d)
PY
  fi
  mkdir -p "$results/flame"
  # itimer works without perf_event permissions (cycles does not work in containers).
  profilers+=(-prof "async:libPath=$lib;output=flamegraph;event=itimer;interval=1000000;dir=$results/flame")
fi

# Options given after -- win over the profile's.
final=()
i=0
while [ $i -lt ${#opts[@]} ]; do
  o="${opts[$i]}"
  overridden=0
  for e in "${extra[@]}"; do
    [ "$e" = "$o" ] && overridden=1
  done
  [ "$overridden" = 0 ] && final+=("$o" "${opts[$((i + 1))]}")
  i=$((i + 2))
done

json="$results/$out.json"
loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime | sed 's/.*average[s]*: //'; }
load_start="$(loadavg)"
if ! check="$(machine_check)"; then
  echo "WARNING: another process is busy ($check): these figures are not quiet ones" >&2
  load_start="$load_start (BUSY before the run: $check)"
fi
commit="$(git -C "$ROOT_DIR" rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [ -n "$(git -C "$ROOT_DIR" status --porcelain -- channels/src/main 2>/dev/null)" ]; then
  commit="$commit+dirty"
fi
# A regex in the extra arguments replaces the default selection: everything but the platform-thread,
# noisy-neighbour and latency variants, which belong to the standard profile (standard.sh).
select=()
[ ${#extra[@]} -eq 0 ] && select=(-e '\.(Platform|Noisy)\w+Benchmark\.' -e 'LatencyBenchmark\.')
"$JAVA" -jar "$JAR" "${final[@]}" "${profilers[@]}" -rf json -rff "$json" "${select[@]}" "${extra[@]}"

inputs=("$json")
go_note=""
if [ "$go" = 1 ]; then
  echo "== Go channels (informational)" >&2
  case "$profile" in
    quick) go_count=3; go_time=300ms ;;
    full) go_count=5; go_time=2s ;;
  esac
  if bash "$BENCH_DIR/go/run.sh" "$results/$out-go.json" "$go_count" "$go_time"; then
    inputs+=("$results/$out-go.json")
    go_note="; Go $(go version | cut -d' ' -f3) -count $go_count -benchtime $go_time"
  else
    echo "warning: the Go benchmarks did not run; the report has no Go column" >&2
  fi
fi
load_end="$(loadavg)"
note="weft $commit; $(nproc 2>/dev/null || echo '?') cores; $("$JAVA" -version 2>&1 | head -n1 | sed 's/"//g'); JMH ${final[*]}$go_note; load average (1/5/15 min) at start $load_start, at end $load_end"
echo >&2
echo "== $json" >&2
python "$BENCH_DIR/report.py" "${inputs[@]}" --svg "$results/$out.svg" --md "$results/$out.md" \
  --title "weft vs peers — $out profile, $(nproc 2>/dev/null || echo '?') cores" --note "$note"
echo >&2
echo "== wrote $results/$out.{json,md,svg}" >&2
[ "$flame" = 1 ] && echo "== flame graphs under $results/flame/" >&2
exit 0
