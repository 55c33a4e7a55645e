#!/usr/bin/env python3
"""The standard profile's report (bench/standard.sh): Markdown tables from its JMH JSON files.

Usage: standard_report.py DIR_OR_JSON [MORE ...] [--md OUT.md]

Per scenario (benchmark class + parameters other than impl) and implementation it takes the median
of the fork means (stats.py). It prints:
- the main table: each implementation's median, the best peer, weft / best peer and weft / floor
  with 95% bootstrap intervals over forks, weft's fork range and its allocation per value;
- the floors (pair handoff parking at once or spinning first, on virtual and platform threads;
  the rendezvous of weft's cell design reduced (a reference); the ring of the buffered pair; the 10k chain;
  the atomics of the buffered path alone, for Uncontended; the fan-in mailboxes, for Contention
  16x1 and 256x1 at capacity 16);
- the noisy-neighbour slowdown of each implementation against its quiet figure, with intervals;
- the latency percentiles (p50, p99, p99.9 of a receive: medians over forks of each fork's).
A meta.txt beside the JSON (written by standard.sh: commit, JDK, machine checks) heads the report;
a check that found the machine busy marks it NOT QUIET.
Python 3 standard library only.
"""
import glob
import json
import os
import sys
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stats import bootstrap_ratio, fork_means, fork_percentiles, impl_label, median  # noqa: E402

MAIN = ["Rendezvous", "Buffered", "RequestReply", "Select", "Chained", "Parallel", "Uncontended", "OneShot", "Contention",
        "PlatformRendezvous", "PlatformBuffered"]
NOISY = {"NoisyRendezvous": "Rendezvous", "NoisyBuffered": "Buffered", "NoisyPairFloor": "PairFloor",
         "NoisyCellFloor": "CellFloor"}
LATENCY = ["RendezvousLatency", "BufferedLatency"]
# The link kinds of ChainFloor and ParallelFloor.
LINKS = {"slot": "one-token slots, a park on each side per token",
         "handoff": "handoffs, a park on the first side to come per token"}
FLOORS = ["PairFloor", "CellFloor", "RingFloor", "ChainFloor", "ParallelFloor", "CellPathFloor", "FanInFloor"]
PEERS = ["jox", "jox111", "kotlin"]
JDK = ["SynchronousQueue", "LinkedTransferQueue", "Exchanger", "ArrayBlockingQueue", "LinkedBlockingQueue"]
HIDDEN = {("channelCount", "10000"), ("pairs", "10000")}


class Row:
    def __init__(self, rec):
        cls = rec["benchmark"].split(".")[-2]
        self.cls = cls[:-len("Benchmark")] if cls.endswith("Benchmark") else cls
        params = dict(rec.get("params") or {})
        self.impl = "floor" if self.cls in FLOORS or NOISY.get(self.cls) in FLOORS else impl_label(params)
        params.pop("impl", None)
        self.params = tuple(sorted(params.items()))
        self.rec = rec
        self.forks = fork_means(rec)
        self.median = median(self.forks)
        alloc = (rec.get("secondaryMetrics") or {}).get("gc.alloc.rate.norm")
        self.alloc = alloc.get("score") if alloc else None


def load(paths):
    files = []
    for p in paths:
        files += sorted(glob.glob(os.path.join(p, "*.json"))) if os.path.isdir(p) else [p]
    rows = []
    for f in files:
        with open(f) as fh:
            rows += [Row(r) for r in json.load(fh)]
    table = OrderedDict()
    for r in rows:
        table.setdefault((r.cls, r.params), OrderedDict())[r.impl] = r
    return table


def name(cls, params):
    parts = [cls]
    for k, v in params:
        if (k, v) in HIDDEN:
            continue
        if k == "shape":
            p, c = v.split("x")
            parts.append(f"{p}->1" if c == "1" else v)
        else:
            parts.append(f"{'cap' if k == 'capacity' else k}={v}")
    return " ".join(parts)


def num(x):
    if x is None or x != x:
        return "–"
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.1f}"


def ratio_cell(a, b):
    """median(a)/median(b) [95% bootstrap interval] from two lists of fork figures."""
    if not a or not b:
        return "–"
    lo, hi = bootstrap_ratio(a, b)
    return f"{median(a) / median(b):.2f} [{lo:.2f}, {hi:.2f}]"


def floor_for(table, cls, params):
    """The floor a scenario is measured against, or None: for Buffered the cheaper wait policy of
    the blocking ring of its capacity (when measured), the spinning pair handoff for the other
    single-pair scenarios (on the same kind of thread), the cheaper link kind of the 10k chain and of
    the 10k independent links for Chained and Parallel at capacity 0 (ChainFloor, ParallelFloor),
    the fan-in mailboxes (FanInFloor, depth 2: sized for capacity 16) for fan-in contention at 16."""
    p = dict(params)
    if cls == "Buffered":
        # the cheapest blocking ring of the same capacity, with the better of its two wait policies
        rings = [(f"ring {p.get('capacity')} ({'park at once' if spins == '0' else 'spin'})",
                  table.get(("RingFloor", (("capacity", p.get("capacity")), ("spins", spins))), {}).get("floor"))
                 for spins in ("0", "200")]
        rings = [(label, r) for label, r in rings if r and r.forks]
        if rings:
            return min(rings, key=lambda lr: lr[1].median)
    if cls == "Contention" and p.get("shape", "").endswith("x1") and p.get("capacity") == "16":
        # the fan-in reference of the same shape, with the better of its two wait policies
        boxes = [(f"fan-in {p.get('shape')} ({'park at once' if spins == '0' else 'spin'})",
                  table.get(("FanInFloor", (("depth", "2"), ("shape", p.get("shape")), ("spins", spins))), {})
                  .get("floor"))
                 for spins in ("0", "200")]
        boxes = [(label, r) for label, r in boxes if r and r.forks]
        return min(boxes, key=lambda lr: lr[1].median) if boxes else (None, None)
    if cls in ("Chained", "Parallel") and p.get("capacity") == "0":
        # the cheaper of the two link kinds (one-token slot, handoff) in the same shape
        if cls == "Chained":
            keys = [(f"chain ({link})", ("ChainFloor", (("channelCount", p.get("channelCount", "10000")),
                                                        ("link", link)))) for link in ("slot", "handoff")]
            # profiles before the link parameter ran the slot only
            keys.append(("chain (slot)", ("ChainFloor", (("channelCount", p.get("channelCount", "10000")),))))
        else:
            keys = [(f"parallel ({link})", ("ParallelFloor", (("link", link), ("pairs", p.get("pairs", "10000")),
                                                              ("spins", "0")))) for link in ("slot", "handoff")]
        links = [(label, table.get(key, {}).get("floor")) for label, key in keys]
        links = [(label, r) for label, r in links if r and r.forks]
        return min(links, key=lambda lr: lr[1].median) if links else (None, None)
    if cls in ("Rendezvous", "Buffered", "Select", "PlatformRendezvous", "PlatformBuffered"):
        threads = "platform" if cls.startswith("Platform") else "virtual"
        key = ("PairFloor", (("spins", "200"), ("threads", threads)))
        label = f"pair spin ({threads})"
    elif cls == "Uncontended":
        key = ("CellPathFloor", (("capacity", p.get("capacity")), ("path", "mark")))
        label = "weft's atomics"
    else:
        return None, None
    r = table.get(key, {}).get("floor")
    return (label, r) if r else (None, None)


def order(key):
    cls, params = key
    for i, group in enumerate((MAIN, FLOORS, list(NOISY), LATENCY)):
        if cls in group:
            return (i, group.index(cls), [int(v) if v.isdigit() else v for _, v in params])
    return (9, 0, [])


def main_table(table, out):
    out.write("| scenario | weft | jox 1.0.1 | jox 1.1.1 | kotlin | best JDK | best peer | weft / best peer "
              "| floor | weft / floor | weft forks | weft B/op | forks |\n")
    out.write("|---|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|\n")
    for key in sorted((k for k in table if k[0] in MAIN), key=order):
        impls = table[key]
        w = impls.get("weft")
        peers = [r for i, r in impls.items() if i != "weft" and r.forks]
        best = min(peers, key=lambda r: r.median) if peers else None
        jdk = [r for i, r in impls.items() if i in JDK and r.forks]
        best_jdk = min(jdk, key=lambda r: r.median) if jdk else None
        label, floor = floor_for(table, *key)
        cells = [name(*key), num(w.median) if w else "–"]
        cells += [num(impls[i].median) if i in impls else "–" for i in PEERS]
        cells.append(f"{best_jdk.impl} {num(best_jdk.median)}" if best_jdk else "–")
        cells.append(f"{best.impl} {num(best.median)}" if best else "–")
        cells.append(ratio_cell(w.forks, best.forks) if w and best else "–")
        cells.append(f"{label} {num(floor.median)}" if floor else "–")
        cells.append(ratio_cell(w.forks, floor.forks) if w and floor else "–")
        cells.append(f"{num(min(w.forks))}–{num(max(w.forks))}" if w and w.forks else "–")
        cells.append(num(w.alloc) if w and w.alloc is not None else "–")
        cells.append(str(max((len(r.forks) for r in impls.values()), default=0)))
        out.write("| " + " | ".join(cells) + " |\n")
    out.write("\nns per value (Chained: per hop), medians of fork means. Ratios below 1: weft is faster; "
              "[95% bootstrap interval over forks]. Best peer: the lowest median among all others.\n")


def floors_table(table, out):
    keys = sorted((k for k in table if k[0] in FLOORS), key=order)
    if not keys:
        return
    out.write("\n#### Floors\n\n| floor | median | fork range | forks |\n|---|--:|--:|--:|\n")
    for key in keys:
        r = table[key]["floor"]
        p = dict(key[1])
        if key[0] == "RingFloor":
            what = (f"ring of {p.get('capacity')} values, a virtual producer and consumer, "
                    + ("park at once" if p.get("spins") == "0" else f"{p.get('spins')} spins, then park")
                    + " (ns per value)")
        elif key[0] == "CellFloor":
            weft = table.get(("Rendezvous", ()), {}).get("weft")
            what = (f"rendezvous through cells and two counters only (weft's design reduced: a reference, "
                    f"not a proven bound), a virtual pair, {p.get('spins')} spins, then park (ns per value)"
                    + (f"; weft's Rendezvous / this: {ratio_cell(weft.forks, r.forks)}" if weft else ""))
        elif key[0] == "CellPathFloor":
            what = (f"the atomics of a cell channel's buffered path, one thread, buffer of {p.get('capacity')}, "
                    f"path {p.get('path')} (CellPathFloor: a reference, not a proven bound; ns per value)")
        elif key[0] == "FanInFloor":
            what = (f"fan-in {p.get('shape')}: virtual producers, one mailbox of {p.get('depth')} values each, "
                    "one virtual consumer, "
                    + ("park at once" if p.get("spins") == "0" else f"{p.get('spins')} spins, then park")
                    + " (FanInFloor: a reference, not a proven bound; ns per value)")
        elif key[0] == "PairFloor":
            what = (f"pair handoff, {p.get('threads')} threads, "
                    + ("park at once" if p.get("spins") == "0" else f"{p.get('spins')} spins, then park")
                    + " (ns per handoff)")
        elif key[0] == "ParallelFloor":
            what = (f"{p.get('pairs')} independent links ({LINKS.get(p.get('link'), p.get('link'))}), a virtual putter "
                    "and taker each, "
                    + ("park at once" if p.get("spins", "0") == "0" else f"{p.get('spins')} spins, then park")
                    + " (ns per token)")
        else:
            what = (f"chain of {p.get('channelCount')} virtual threads, links: "
                    f"{LINKS.get(p.get('link', 'slot'), p.get('link'))}, park at once (ns per hop)")
        rng = f"{num(min(r.forks))}–{num(max(r.forks))}" if r.forks else "–"
        out.write(f"| {what} | {num(r.median)} | {rng} | {len(r.forks)} |\n")


def noisy_table(table, out):
    keys = sorted((k for k in table if k[0] in NOISY), key=order)
    if not keys:
        return
    out.write("\n#### Noisy neighbour: slowdown against the quiet figure\n\n"
              "| scenario | impl | quiet | noisy | slowdown | rank |\n|---|---|--:|--:|--:|--:|\n")
    for key in keys:
        quiet = table.get((NOISY[key[0]], key[1]), {})
        rows = []
        for impl, r in table[key].items():
            q = quiet.get(impl)
            s = r.median / q.median if q and q.forks and r.forks else float("inf")
            rows.append((s, impl, r, q))
        rows.sort(key=lambda t: t[0])
        for rank, (s, impl, r, q) in enumerate(rows, 1):
            out.write(f"| {name(*key)} | {impl} | {num(q.median) if q else '–'} | {num(r.median)} | "
                      f"{ratio_cell(r.forks, q.forks) if q else '–'} | {rank} |\n")
    out.write("\nslowdown = noisy median / quiet median [95% bootstrap interval]; rank 1: the smallest.\n")


def latency_table(table, out):
    keys = sorted((k for k in table if k[0] in LATENCY), key=order)
    if not keys:
        return
    out.write("\n#### Latency of a receive, ns\n\n| scenario | impl | p50 | p99 | p99.9 | mean | forks |\n"
              "|---|---|--:|--:|--:|--:|--:|\n")
    for key in keys:
        for impl, r in sorted(table[key].items(), key=lambda kv: median(fork_percentiles(kv[1].rec, 0.999))):
            ps = [median(fork_percentiles(r.rec, q)) for q in (0.5, 0.99, 0.999)]
            out.write(f"| {name(*key)} | {impl} | " + " | ".join(num(p) for p in ps)
                      + f" | {num(r.median)} | {len(r.forks)} |\n")
    out.write("\nPercentiles: the median over forks of each fork's percentile; rows by p99.9.\n")


def report(table, meta, out):
    busy = [line for line in meta if line.startswith("BUSY")]
    out.write("### weft vs peers and floors — standard profile\n\n")
    if busy:
        out.write("**NOT QUIET: another process was busy during this run; do not publish these as quiet "
                  "figures.**\n\n")
    for line in meta:
        out.write(f"- {line}\n")
    if meta:
        out.write("\n")
    main_table(table, out)
    floors_table(table, out)
    noisy_table(table, out)
    latency_table(table, out)


def main(argv):
    paths, md = [], None
    it = iter(argv)
    for a in it:
        if a == "--md":
            md = next(it)
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            paths.append(a)
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    table = load(paths)
    if not table:
        print("no results in " + ", ".join(paths), file=sys.stderr)
        return 1
    meta = []
    for p in paths:
        m = os.path.join(p if os.path.isdir(p) else os.path.dirname(p), "meta.txt")
        if os.path.exists(m):
            meta += [line.rstrip("\n") for line in open(m) if line.strip()]
    report(table, meta, sys.stdout)
    if md:
        with open(md, "w") as f:
            report(table, meta, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
