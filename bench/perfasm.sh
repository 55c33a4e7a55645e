#!/usr/bin/env bash
# Runs JMH benchmarks with the perfasm profiler: the hottest instructions of the compiled code,
# with the Java source line each comes from. This host's perf has no hardware cycle counter, so it
# samples the cpu-clock software event; read the score of a profiled run as a check, not a result.
#
#   bench/perfasm.sh OUT.txt JMH-ARGS...   e.g.
#   bench/perfasm.sh /tmp/uncontended.txt UncontendedBenchmark -p capacity=16 -p impl=weft -f 1
#
# Needs perf, gcc and Debian's libhsdis0-fcml (apt-get install linux-perf gcc libhsdis0-fcml);
# builds the shim hsdis-shim.c next to the jar the first time (see that file for why), and uses
# bench/target/benchmarks.jar as it is (build it first).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 2 ] || { sed -n '2,11p' "$0"; exit 2; }
out="$1"
shift
lib=/usr/lib/x86_64-linux-gnu/libhsdis.so.0
[ -e "$lib" ] || { echo "perfasm.sh: $lib is missing (apt-get install libhsdis0-fcml)" >&2; exit 1; }
command -v perf > /dev/null || { echo "perfasm.sh: perf is missing" >&2; exit 1; }
[ -e "$JAR" ] || { echo "perfasm.sh: $JAR is missing (build it: ./mvnw -pl bench -am package -DskipTests)" >&2; exit 1; }
dir="$BENCH_DIR/target/hsdis"
if [ ! -e "$dir/hsdis-amd64.so" ] || [ "$BENCH_DIR/perfasm/hsdis-shim.c" -nt "$dir/hsdis-amd64.so" ]; then
  mkdir -p "$dir"
  gcc -shared -fPIC -O2 -o "$dir/hsdis-amd64.so" "$BENCH_DIR/perfasm/hsdis-shim.c" "$lib" \
    -Wl,-rpath,"$(dirname "$lib")"
fi
find_java
LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  "$JAVA" -jar "$JAR" "$@" -prof 'perfasm:events=cpu-clock;top=4' > "$out" 2>&1 \
  || { echo "perfasm.sh: JMH failed, see $out" >&2; exit 1; }
echo "perfasm.sh: wrote $out"
