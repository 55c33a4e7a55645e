# Shared by the bench scripts (sourced, not executed).

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT_DIR="$(cd "$BENCH_DIR/.." && pwd)"
JAR="$BENCH_DIR/target/benchmarks.jar"

# Major version of a java binary, e.g. 17, 21, 25 (0 if it does not run).
java_major() {
  local v
  v="$("$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n1)"
  case "$v" in
    1.*) echo "${v#1.}" | cut -d. -f1 ;;
    "") echo 0 ;;
    *) echo "${v%%.*}" ;;
  esac
}

# Sets JAVA to a java >= 21: $WEFT_BENCH_JAVA, $JAVA_HOME, the highest under /usr/lib/jvm
# (and other usual places), or java on PATH; fails with a clear message otherwise.
find_java() {
  local c best="" best_v=0 v
  for c in "${WEFT_BENCH_JAVA:-}" "${JAVA_HOME:+$JAVA_HOME/bin/java}"; do
    if [ -n "$c" ] && [ -x "$c" ] && [ "$(java_major "$c")" -ge 21 ]; then
      JAVA="$c"
      return 0
    fi
  done
  for c in /usr/lib/jvm/*/bin/java /usr/java/*/bin/java /opt/java/*/bin/java /opt/hostedtoolcache/*/*/x64/bin/java \
           "$HOME"/.sdkman/candidates/java/*/bin/java "$HOME"/.jdks/*/bin/java \
           /Library/Java/JavaVirtualMachines/*/Contents/Home/bin/java "$(command -v java 2>/dev/null || true)"; do
    [ -n "$c" ] && [ -x "$c" ] || continue
    v="$(java_major "$c")"
    if [ "$v" -ge 21 ] && [ "$v" -gt "$best_v" ]; then
      best="$c"
      best_v="$v"
    fi
  done
  if [ -z "$best" ]; then
    echo "error: the benchmarks need a JDK 21 or newer to run, and none was found." >&2
    echo "       Looked at \$WEFT_BENCH_JAVA, \$JAVA_HOME, /usr/lib/jvm/*, ~/.sdkman, ~/.jdks and java on PATH." >&2
    echo "       Install one (e.g. apt-get install openjdk-21-jdk) or set WEFT_BENCH_JAVA=/path/to/bin/java." >&2
    return 1
  fi
  JAVA="$best"
}

# Builds bench/target/benchmarks.jar (and the weft-channels it depends on) with the Maven wrapper.
build_jar() {
  echo "== building $JAR" >&2
  (cd "$ROOT_DIR" && ./mvnw -B -q -pl bench -am package -Dmaven.test.skip=true -DskipTests -Dweft.skipTinySegments=true -Dmaven.javadoc.skip=true) || {
    echo "error: the build failed (see above)" >&2
    return 1
  }
}

python() {
  if command -v python3 >/dev/null 2>&1; then python3 "$@"; else
    echo "error: python3 is needed for the report" >&2
    return 1
  fi
}

# The machine check before a measurement. Prints the load average and the share of all CPUs that
# was busy during the last SECONDS (default 2) seconds, from /proc/stat, as one line:
#   load 0.12 0.40 0.35; busy 3% of 2 cores
# and returns 1 when another process is busy: the busy share above WEFT_BENCH_MAX_BUSY percent
# (default 15). The load average is printed for the record only: it lags by minutes, so between
# the runs of one profile it still counts the profile's own previous JMH forks (and a build that
# just ended), and as a gate it flagged quiet profiles as busy. Setting WEFT_BENCH_MAX_LOAD makes
# it a gate again.
# Prints the "cpu" line's total and steal jiffies, for steal_share.
cpu_snapshot() {
  awk '/^cpu /{t=0; for (i=2;i<=NF;i++) t+=$i; print t, $9}' /proc/stat 2>/dev/null
}

# The share of CPU time (percent) that the hypervisor gave to other guests between two
# cpu_snapshot outputs. A busy check cannot see it (steal counts as busy only while we sample),
# and on a shared VM it can slow one run of a profile and not the next.
steal_share() {
  echo "$1 $2" | awk 'NF == 4 { dt = $3 - $1; if (dt > 0) { printf "%.1f", 100 * ($4 - $2) / dt; exit } } { print "?" }'
}

machine_check() {
  local seconds="${1:-2}" load busy a b
  load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '? ? ?')"
  # /proc/stat "cpu" line: user nice system idle iowait irq softirq steal ...
  a="$(awk '/^cpu /{t=0; for (i=2;i<=NF;i++) t+=$i; print t, $5+$6}' /proc/stat 2>/dev/null)"
  sleep "$seconds"
  b="$(awk '/^cpu /{t=0; for (i=2;i<=NF;i++) t+=$i; print t, $5+$6}' /proc/stat 2>/dev/null)"
  busy="$(echo "$a $b" | awk '{dt=$3-$1; di=$4-$2; if (dt > 0) printf "%d", 100 * (dt - di) / dt; else print "?"}')"
  echo "load $load; busy ${busy}% of $(nproc 2>/dev/null || echo '?') cores"
  awk -v l="${load%% *}" -v b="$busy" -v ml="${WEFT_BENCH_MAX_LOAD:-1000000}" -v mb="${WEFT_BENCH_MAX_BUSY:-15}" \
    'BEGIN { exit !((l != "?" && l + 0 > ml + 0) || (b != "?" && b + 0 > mb + 0)) }' && return 1
  return 0
}
