"""Statistics shared by the bench scripts' reports (Python 3 standard library only).

JMH writes, per benchmark and parameter combination, the raw data of every fork:
primaryMetric.rawData (one list of iteration scores per fork) in the average-time modes, and
primaryMetric.rawDataHistogram (per fork, per iteration, [value, count] pairs) in sample mode.
Virtual-thread scores are bimodal on few cores, so the reports compare medians of per-fork figures
and give bootstrap intervals over forks rather than JMH's error, which treats iterations of
different forks alike.
"""
import random
import statistics

BOOTSTRAP_REPS = 10000


def fork_means(record):
    """The mean score of each fork of one JMH result record (sample mode: mean of the samples)."""
    pm = record["primaryMetric"]
    raw = pm.get("rawData")
    if raw:
        return [statistics.fmean(f) for f in raw if f]
    hist = pm.get("rawDataHistogram")
    if hist:
        out = []
        for fork in hist:
            pairs = [p for it in fork for p in it]
            n = sum(c for _, c in pairs)
            if n:
                out.append(sum(v * c for v, c in pairs) / n)
        return out
    score = pm.get("score")
    return [score] if isinstance(score, (int, float)) else []


def fork_percentiles(record, q):
    """The q-quantile (0 < q < 1) of each fork's samples, for a sample-mode (SampleTime) record."""
    out = []
    for fork in record["primaryMetric"].get("rawDataHistogram") or []:
        pairs = sorted(p for it in fork for p in it)
        n = sum(c for _, c in pairs)
        if not n:
            continue
        rank, seen = q * n, 0
        for v, c in pairs:
            seen += c
            if seen >= rank:
                out.append(v)
                break
    return out


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def bootstrap_ratio(num, den, reps=BOOTSTRAP_REPS, level=0.95, seed=1):
    """A bootstrap interval of median(num) / median(den): both samples (e.g. fork means) resampled
    with replacement, independently, reps times. Returns (low, high); NaNs if a sample is empty."""
    if not num or not den:
        return float("nan"), float("nan")
    rnd = random.Random(seed)
    ratios = sorted(statistics.median([rnd.choice(num) for _ in num])
                    / statistics.median([rnd.choice(den) for _ in den]) for _ in range(reps))
    tail = (1 - level) / 2
    return ratios[int(tail * reps)], ratios[min(reps - 1, int((1 - tail) * reps))]


def impl_label(params):
    """The implementation a record measures: its impl parameter, with jdk named after the JDK queue
    it stands for (SynchronousQueue at capacity 0, ArrayBlockingQueue otherwise)."""
    impl = params.get("impl", "?")
    if impl == "jdk":
        return "SynchronousQueue" if params.get("capacity", "0") == "0" else "ArrayBlockingQueue"
    return impl
