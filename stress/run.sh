#!/usr/bin/env bash
# Randomized stress + memory-boundedness for weft channels.
#
#   stress/run.sh ci      ~4 minutes: RandomStress 50 s at the default segment size, 50 s with
#                         1-cell segments, 20 s with 2-cell segments (each over capacities
#                         0,1,2,16,100,unlimited), RandomStress with one virtual producer and one
#                         virtual consumer (a pair, whose waiters park at once: -Dstress.pair=true)
#                         15 s at 32 and 10 s at 2 (capacities 16,100,unlimited),
#                         CloseVsLoopingPairs 40 s at the default segment
#                         size and 20 s with 2-cell segments, then MemoryBoundedness (1,000,000
#                         waiters per kind, checked with weak references and heap after GC)
#   stress/run.sh long    ~45 minutes: RandomStress 10 min at each segment size (default, 1, 2),
#                         the pair variant 5 min at 32 and at 2, CloseVsLoopingPairs 2 min at 32 and at 2, then MemoryBoundedness
#   stress/run.sh custom SECONDS [CAPACITIES] [SEGMENT_SIZES]   e.g. custom 60 0,1,-1 32,1
#
# Builds stress/target/jcstress.jar first (./mvnw -pl stress -am package -DskipTests), unless
# STRESS_SKIP_BUILD=1 and the jar exists. Every run is a separate JVM (the segment size is read once per
# JVM from -Dweft.segmentSize). Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

MODE="${1:-ci}"
JAR=stress/target/jcstress.jar
JAVA="${JAVA:-}"
if [[ -z "$JAVA" ]]; then
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]] && "$JAVA_HOME/bin/java" -version 2>&1 | grep -qE 'version "(2[1-9]|[3-9][0-9])'; then
    JAVA="$JAVA_HOME/bin/java"
  else
    for j in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*25* /usr/lib/jvm/*21*; do
      if [[ -x "$j/bin/java" ]]; then JAVA="$j/bin/java"; break; fi
    done
    JAVA="${JAVA:-java}"
  fi
fi
# Rebuild the uber-jar from the current sources unless told not to (stress/ci.sh builds it once).
if [[ "${STRESS_SKIP_BUILD:-0}" != 1 || ! -f "$JAR" ]]; then
  ./mvnw -B -q -pl stress -am package -DskipTests
fi

# STRESS_JAVA_OPTS adds JVM flags, e.g. RandomStress's debug knobs for narrowing a failure down:
#   -Dstress.sendOps=0123 -Dstress.receiveOps=0123 (no selects), -Dstress.interrupts=false,
#   -Dstress.earlyClose=false, -Dstress.timedSelects=false (see RandomStress).
read -r -a EXTRA <<< "${STRESS_JAVA_OPTS:-}"
JVM_OPTS=(-Xmx2g -XX:+UseParallelGC "${EXTRA[@]}")
start=$(date +%s)

random_stress() { # seconds capacities segment-size
  echo "=== RandomStress ${1}s capacities=$2 segmentSize=$3"
  "$JAVA" "${JVM_OPTS[@]}" -Dweft.segmentSize="$3" -cp "$JAR" dev.weft.stress.RandomStress "$1" "$2"
}

pair_stress() { # seconds segment-size: RandomStress with one virtual producer and one virtual consumer
  echo "=== RandomStress (pair) ${1}s capacities=16,100,-1 segmentSize=$2"
  "$JAVA" "${JVM_OPTS[@]}" -Dstress.pair=true -Dweft.segmentSize="$2" -cp "$JAR" dev.weft.stress.RandomStress "$1" 16,100,-1
}

close_vs_pairs() { # seconds segment-size
  echo "=== CloseVsLoopingPairs ${1}s segmentSize=$2"
  "$JAVA" "${JVM_OPTS[@]}" -Dweft.segmentSize="$2" -cp "$JAR" dev.weft.stress.CloseVsLoopingPairs "$1"
}

memory() { # count
  echo "=== MemoryBoundedness $1 waiters per kind (default segment size)"
  "$JAVA" "${JVM_OPTS[@]}" -cp "$JAR" dev.weft.stress.MemoryBoundedness "$1"
}

ALL=0,1,2,16,100,200,-1  # 200: births at every segment size (above 4 segments)
case "$MODE" in
  ci)
    random_stress 50 "$ALL" 32
    random_stress 50 "$ALL" 1
    random_stress 20 "$ALL" 2
    pair_stress 15 32
    pair_stress 10 2
    close_vs_pairs 40 32
    close_vs_pairs 20 2
    memory 1000000
    ;;
  long)
    random_stress 600 "$ALL" 32
    random_stress 600 "$ALL" 1
    random_stress 600 "$ALL" 2
    pair_stress 300 32
    pair_stress 300 2
    close_vs_pairs 120 32
    close_vs_pairs 120 2
    memory 1000000
    ;;
  custom)
    IFS=',' read -r -a sizes <<< "${4:-32,1}"
    for s in "${sizes[@]}"; do random_stress "${2:-30}" "${3:-$ALL}" "$s"; done
    ;;
  *)
    echo "usage: $0 ci|long|custom SECONDS [CAPACITIES] [SEGMENT_SIZES]" >&2
    exit 2
    ;;
esac
echo "=== stress/run.sh $MODE passed in $(( $(date +%s) - start )) s"
