#!/usr/bin/env bash
# CI entry point for the stress module (called from .ci/run); 6.5-10 minutes on 2 cores (measured):
#   1. jcstress, -m sanity, every scenario at the default segment size (32);
#   2. jcstress, -m sanity, with 1-cell segments (-jvmArgsPrepend -Dweft.segmentSize=1), on the
#      subset of scenarios whose race involves segment boundaries or cell cleanup (TINY below);
#   3. stress/run.sh ci (randomized stress at segment sizes 32, 1, 2, closing vs looping pairs,
#      memory boundedness).
# The Lincheck model-checking tests run as JUnit tests of this module inside ./mvnw verify.
# Exits non-zero if any jcstress scenario fails or errors, or the stress run fails.
# Reports go to stress/target/jcstress-default and stress/target/jcstress-tiny.
set -uo pipefail
cd "$(dirname "$0")/.."
source_start=$(date +%s)

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
export JAVA

# Always rebuild the uber-jar from the current sources (channels included), so jcstress and the
# stress run never test a stale build. STRESS_SKIP_BUILD=1 skips this.
if [[ "${STRESS_SKIP_BUILD:-0}" != 1 ]]; then
  ./mvnw -B -q -pl stress -am package -DskipTests -Dweft.skipTinySegments=true || exit 1
fi
export STRESS_SKIP_BUILD=1

# Scenarios re-run with 1-cell segments (every operation crosses a segment boundary).
TINY='\.(SendVsTryReceiveBroken|TrySendVsTryReceiveBuffered|TrySendBehindATakingReceive|TrySendsAcrossDoneBuffered1|BufferExpansionVsInterruptedSender|ReceiveResumesBufferedSender|BufferedFifoAcrossExpansion|InterruptVsResumeSend|InterruptVsResumeReceive|TimeoutVsResumeSend|SelectVsSelectOppositeOrder|SelectVsSend|SegmentRemovalVsTraversal|WithdrawLastLiveCell|ExpansionVsSegmentBirth|UnlimitedGrowthAcrossSegments|CloseVsSend|CloseLinearizableUnlimited|CloseObserved(Done|Error)(Rendezvous|Buffered1|Buffered16|Unlimited))$'

status=0
run_jcstress() { # name extra-args...
  local name=$1; shift
  local dir="stress/target/jcstress-$name"
  rm -rf "$dir"; mkdir -p "$dir"
  echo "=== jcstress ($name): $*"
  local t0; t0=$(date +%s)
  # jcstress writes its result blob into the working directory: run it inside the report dir.
  (cd "$dir" && "$JAVA" -jar ../jcstress.jar -m sanity -v -r . "$@" > jcstress.log 2>&1)
  local rc=$?
  grep -E '^\s*\(Results:' "$dir/jcstress.log" | tail -1
  if command -v python3 > /dev/null; then
    python3 stress/jcstress-summary.py "$dir/jcstress.log" || true
  fi
  # jcstress exits 0 even when tests fail; read its summary instead.
  if [[ $rc -ne 0 ]] || grep -qE '\[(FAILED|ERROR)\]' "$dir/jcstress.log" \
     || ! grep -q 'Failed tests: No matches' "$dir/jcstress.log" \
     || ! grep -q 'Error tests: No matches' "$dir/jcstress.log"; then
    echo "jcstress ($name) FAILED (rc=$rc); details: $dir/jcstress.log, $dir/index.html"
    grep -E -A12 '\[(FAILED|ERROR)\]' "$dir/jcstress.log" | head -120
    status=1
  fi
  echo "=== jcstress ($name) took $(( $(date +%s) - t0 )) s"
}

run_jcstress default
run_jcstress tiny -t "$TINY" -jvmArgsPrepend "-Dweft.segmentSize=1"

echo "=== stress/run.sh ci"
stress/run.sh ci || status=1

echo "=== stress/ci.sh finished in $(( $(date +%s) - source_start )) s: $([[ $status == 0 ]] && echo PASSED || echo FAILED)"
exit $status
