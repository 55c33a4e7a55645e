#!/usr/bin/env bash
# Compares two builds of weft (e.g. before and after a change) on five benchmarks, weft only:
# Rendezvous, Buffered 16, Select 2 clauses, Chained 0 and Contention 16x16 (SCENARIOS picks
# others: rdv buf sel chn con, c2 for Contention 2x2, prdv and pbuf for the platform-thread
# Rendezvous and Buffered 16, e.g. SCENARIOS="prdv pbuf"; sel1 for Select 1 clause, b100 for
# Buffered 100 (b1, b2, b4, b8 for capacities 1 to 8), ch16/ch100 and par16/par100 for Chained
# and Parallel at capacity 16 and 100, c256, c16x1 and c256x1 for Contention 256x256, 16->1 and 256->1, rr for
# Request-reply over two channels of 16). Forks alternate
# between the two jars (before, after, before, ...), ROUNDS forks each (default 5), and the
# report gives the median of the fork means and a 95% bootstrap interval of the ratio.
# Both versions have the same class names, so this is a sequence of one-fork JMH runs, not one
# JMH run. Run it on a quiet machine and nothing else meanwhile.
# BEFORE_JVM_ARGS and AFTER_JVM_ARGS add JVM options to one side's forks (JMH -jvmArgsPrepend, which
# keeps the benchmarks' own @Fork(jvmArgsAppend) options, the 1 GB heap; -jvmArgsAppend on the
# command line replaced them, so until stop 32 such a side ran with the default heap; heap options
# given here are overridden by the later -Xms1g -Xmx1g), so
# one jar can be compared with itself under a tuning property, e.g.
#   AFTER_JVM_ARGS=-Dweft.spins.virtual=0 bench/compare-versions.sh X.jar X.jar
#
#   bench/compare-versions.sh BEFORE.jar AFTER.jar [OUTDIR]
# Build a jar of another commit with: git worktree add /tmp/old <commit> &&
#   (cd /tmp/old && ./mvnw -B -q -pl bench -am package -DskipTests) && cp /tmp/old/bench/target/benchmarks.jar BEFORE.jar
set -euo pipefail
before=${1:?before jar}; after=${2:?after jar}; out=${3:-bench/results/compare}
rounds=${ROUNDS:-5}
scenarios=${SCENARIOS:-rdv buf sel chn con}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
find_java
java=$JAVA
mkdir -p "$out"
opts=(-f 1 -wi 3 -w 1s -i 5 -r 1s -to 120s)
if check="$(machine_check)"; then
  echo "machine before the run: $check"
else
  echo "WARNING: another process is busy ($check): these figures are not quiet ones" >&2
fi
for round in $(seq 1 "$rounds"); do
  for ver in before after; do
    jar=$before; jvm=${BEFORE_JVM_ARGS:-}
    [ "$ver" = after ] && jar=$after && jvm=${AFTER_JVM_ARGS:-}
    extra=(); [ -n "$jvm" ] && extra=(-jvmArgsPrepend "$jvm")
    for b in $scenarios; do
      case $b in
        rdv) args=('\.RendezvousBenchmark\.') ;;
        buf) args=('\.BufferedBenchmark\.' -p capacity=16) ;;
        sel) args=('\.SelectBenchmark\.' -p clauses=2) ;;
        sel1) args=('\.SelectBenchmark\.' -p clauses=1) ;;
        b100) args=('\.BufferedBenchmark\.' -p capacity=100) ;;
        b1) args=('\.BufferedBenchmark\.' -p capacity=1) ;;
        b2) args=('\.BufferedBenchmark\.' -p capacity=2) ;;
        b4) args=('\.BufferedBenchmark\.' -p capacity=4) ;;
        b8) args=('\.BufferedBenchmark\.' -p capacity=8) ;;
        ch16) args=('\.ChainedBenchmark\.' -p capacity=16) ;;
        ch100) args=('\.ChainedBenchmark\.' -p capacity=100) ;;
        par16) args=('\.ParallelBenchmark\.' -p capacity=16) ;;
        par100) args=('\.ParallelBenchmark\.' -p capacity=100) ;;
        c256) args=('\.ContentionBenchmark\.' -p shape=256x256) ;;
        c16x1) args=('\.ContentionBenchmark\.' -p shape=16x1) ;;
        c256x1) args=('\.ContentionBenchmark\.' -p shape=256x1) ;;
        chn) args=('\.ChainedBenchmark\.' -p capacity=0) ;;
        con) args=('\.ContentionBenchmark\.' -p shape=16x16) ;;
        c2) args=('\.ContentionBenchmark\.' -p shape=2x2) ;;
        rr) args=('\.RequestReplyBenchmark\.' -p capacity=16) ;;
        prdv) args=('\.PlatformRendezvousBenchmark\.') ;;
        pbuf) args=('\.PlatformBufferedBenchmark\.' -p capacity=16) ;;
        *) echo "unknown scenario $b" >&2; exit 2 ;;
      esac
      "$java" -jar "$jar" "${args[@]}" -p impl=weft "${opts[@]}" ${extra[@]+"${extra[@]}"} -rf json -rff "$out/r-$ver-$round-$b.json" > /dev/null
    done
    echo "round $round $ver done, load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
python3 - "$here" "$out" <<'PY'
import glob, json, sys
sys.path.insert(0, sys.argv[1])
from stats import bootstrap_ratio, fork_means, median
out = sys.argv[2]
names = {'rdv': 'Rendezvous', 'buf': 'Buffered 16', 'sel': 'Select 2 clauses', 'chn': 'Chained 0 (10k)',
         'con': 'Contention 16x16', 'c2': 'Contention 2x2', 'prdv': 'Platform rendezvous', 'pbuf': 'Platform buffered 16',
         'sel1': 'Select 1 clause', 'b100': 'Buffered 100', 'b1': 'Buffered 1', 'b2': 'Buffered 2',
         'b4': 'Buffered 4', 'b8': 'Buffered 8', 'ch16': 'Chained 16 (10k)', 'ch100': 'Chained 100 (10k)',
         'par16': 'Parallel 16 (10k)', 'rr': 'Request-reply 16', 'par100': 'Parallel 100 (10k)', 'c256': 'Contention 256x256', 'c256x1': 'Contention 256->1',
         'c16x1': 'Contention 16->1'}
res = {}
for f in glob.glob(out + '/r-*.json'):
    _, ver, rnd, b = f.rsplit('/', 1)[1][:-5].split('-')
    d = json.load(open(f))
    if len(d) != 1:
        # one scenario per file: a pattern that matches more than one benchmark (e.g. the noisy
        # and platform variants of a class name) would otherwise be reported under the wrong name
        sys.exit(f'{f}: {len(d)} benchmark results, expected 1: {[r["benchmark"] for r in d]}')
    res.setdefault(b, {}).setdefault(ver, []).extend(fork_means(d[0]))
print('| scenario | before ns (fork means) | after ns (fork means) | median before | median after | after/before | 95% bootstrap CI |')
print('|---|---|---|--:|--:|--:|---|')
for b in names:
    x = res.get(b, {}).get('before', []); y = res.get(b, {}).get('after', [])
    if not x or not y:
        continue
    lo, hi = bootstrap_ratio(y, x)
    print(f"| {names[b]} | {', '.join(f'{v:.0f}' for v in sorted(x))} | {', '.join(f'{v:.0f}' for v in sorted(y))} | "
          f"{median(x):.0f} | {median(y):.0f} | {median(y) / median(x):.2f} | [{lo:.2f}, {hi:.2f}] |")
PY
