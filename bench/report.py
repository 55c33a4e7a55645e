#!/usr/bin/env python3
"""Summarize JMH JSON results of the weft benchmarks: a table, ratios and an SVG chart.

Usage: report.py RESULT.json [MORE.json ...] [--svg OUT.svg] [--md OUT.md] [--title TEXT] [--note TEXT]

For every scenario (benchmark class + its parameters other than impl) it prints each
implementation's score (ns per value; mean ± JMH's 99.9% error), the median of the per-fork means
(virtual-thread results are bimodal on few cores, so compare medians when there are >= 3 forks),
the allocation per value from -prof gc (gc.alloc.rate.norm), and the ratios weft/jox and
weft/kotlin with the errors propagated:  r = a/b,  err(r) = r * sqrt((ea/a)^2 + (eb/b)^2).
Python 3 standard library only.
"""
import json
import math
import os
import sys
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stats import fork_means, impl_label, median  # noqa: E402

CLASS_ORDER = ["Rendezvous", "Buffered", "Select", "Chained", "Parallel", "Uncontended", "OneShot", "Contention", "PairFloor",
               "ChainFloor", "ParallelFloor",
               "PlatformRendezvous", "PlatformBuffered", "NoisyRendezvous", "NoisyBuffered",
               "RendezvousLatency", "BufferedLatency"]
IMPL_ORDER = ["weft", "jox", "jox111", "kotlin", "go", "SynchronousQueue", "LinkedTransferQueue", "Exchanger",
              "ArrayBlockingQueue", "LinkedBlockingQueue", "floor"]
JDK = {"SynchronousQueue", "LinkedTransferQueue", "Exchanger", "ArrayBlockingQueue", "LinkedBlockingQueue"}
# Not peers: Go is another runtime (informational), a floor is no channel at all.
NOT_PEERS = {"weft", "go", "floor"}
COLORS = {
    "weft": "#d62728", "jox": "#1f77b4", "jox111": "#aec7e8", "kotlin": "#9467bd", "go": "#17becf",
    "floor": "#7f7f7f",
    "SynchronousQueue": "#2ca02c", "LinkedTransferQueue": "#98df8a", "Exchanger": "#bcbd22",
    "ArrayBlockingQueue": "#ff7f0e", "LinkedBlockingQueue": "#ffbb78",
}
PARAM_LABELS = {"capacity": "cap", "clauses": "clauses", "channelCount": "channels", "pairs": "pairs"}


def nan(x):
    return x is None or (isinstance(x, float) and math.isnan(x))


def fmt(x, digits=1):
    if nan(x):
        return "?"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


class Result:
    def __init__(self, rec):
        bench = rec["benchmark"]  # dev.weft.bench.ChainedBenchmark.chain
        cls = bench.split(".")[-2]
        self.cls = cls[:-len("Benchmark")] if cls.endswith("Benchmark") else cls
        self.params = dict(rec.get("params") or {})
        # jdk: the JDK's counterpart of a channel of this capacity; the floors have no impl.
        self.impl = "floor" if self.cls.endswith("Floor") else impl_label(self.params)
        self.params.pop("impl", None)
        pm = rec["primaryMetric"]
        self.unit = pm.get("scoreUnit", "")
        self.score = pm.get("score")
        self.error = pm.get("scoreError")
        if isinstance(self.score, str):
            self.score = float("nan")
        if isinstance(self.error, str):
            self.error = float("nan")
        self.fork_means = fork_means(rec)
        self.median = median(self.fork_means) if self.fork_means else self.score
        sec = rec.get("secondaryMetrics") or {}
        alloc = sec.get("gc.alloc.rate.norm")
        self.alloc = alloc.get("score") if alloc else None
        self.forks = len(self.fork_means)

    def key(self):
        return (self.cls, tuple(sorted(self.params.items())))


def scenario_name(cls, params):
    parts = []
    for k, v in params:
        if k == "shape":
            p, c = v.split("x")
            parts.insert(0, f"{p}->1 fan-in" if c == "1" else f"{p}x{c}")
        elif k in ("channelCount", "pairs") and v == "10000":
            continue  # the default, named in the class name already
        else:
            parts.append(f"{PARAM_LABELS.get(k, k)}={v}")
    return cls + (" " + " ".join(parts) if parts else "")


def ratio(a, ea, b, eb):
    if nan(a) or nan(b) or b == 0:
        return float("nan"), float("nan")
    r = a / b
    if nan(ea) or nan(eb) or a == 0:
        return r, float("nan")
    return r, r * math.sqrt((ea / a) ** 2 + (eb / b) ** 2)


def load(paths):
    results = []
    for p in paths:
        with open(p) as f:
            for rec in json.load(f):
                results.append(Result(rec))
    scenarios = OrderedDict()

    def order(r):
        ci = CLASS_ORDER.index(r.cls) if r.cls in CLASS_ORDER else len(CLASS_ORDER)
        shape = r.params.get("shape", "")
        shape_key = (0, 0)
        if "x" in shape:
            p, c = shape.split("x")
            shape_key = (1 if c == "1" else 0, int(p))
        nums = tuple(int(v) if str(v).isdigit() else 0 for _, v in sorted(r.params.items()) if _ != "shape")
        return (ci, shape_key, nums)

    for r in sorted(results, key=order):
        scenarios.setdefault(r.key(), OrderedDict())
        scenarios[r.key()][r.impl] = r
    out = OrderedDict()
    for key, impls in scenarios.items():
        ordered = OrderedDict(sorted(impls.items(),
                                     key=lambda kv: IMPL_ORDER.index(kv[0]) if kv[0] in IMPL_ORDER else 99))
        out[scenario_name(key[0], key[1])] = ordered
    return out


def summarize(scenarios):
    """Rows for the ratio table: scenario, weft/jox, weft/kotlin, best peer, weft/best."""
    rows = []
    for name, impls in scenarios.items():
        w = impls.get("weft")
        row = {"scenario": name, "weft": w}
        for peer in ("jox", "kotlin"):
            p = impls.get(peer)
            row[peer] = ratio(w.score, w.error, p.score, p.error) if (w and p) else None
            row[peer + "_median"] = (w.median / p.median) if (w and p and p.median and not nan(w.median)) else None
        # Go is an informational column (another runtime), not a peer to beat.
        peers = [r for i, r in impls.items() if i not in NOT_PEERS and not nan(r.score)]
        if peers:
            best = min(peers, key=lambda r: r.score)
            row["best"] = best
            row["vs_best"] = ratio(w.score, w.error, best.score, best.error) if w else None
        rows.append(row)
    return rows


def text_report(scenarios, out):
    forks = max((r.forks for impls in scenarios.values() for i, r in impls.items() if i != "go"), default=0)
    w = max((len(n) for n in scenarios), default=10)
    out.write(f"{'scenario':<{w}}  {'impl':<20} {'ns/op':>10} {'± err':>9} {'median':>9} {'B/op':>8}\n")
    for name, impls in scenarios.items():
        for i, (impl, r) in enumerate(impls.items()):
            out.write(f"{name if i == 0 else '':<{w}}  {impl:<20} {fmt(r.score):>10} {('±' + fmt(r.error)):>9} "
                      f"{fmt(r.median):>9} {fmt(r.alloc):>8}\n")
    out.write(f"\n(median = median of per-fork means; {forks} fork(s) per benchmark"
              f"{' — too few to trust medians, rerun with the full profile' if forks < 3 else ''})\n\n")
    out.write(f"{'scenario':<{w}}  {'weft/jox':>15} {'weft/kotlin':>15} {'best peer':>24} {'weft/best':>15}\n")
    for row in summarize(scenarios):
        def rr(v):
            return "-" if not v else f"{v[0]:.2f} ± {fmt(v[1], 2)}" if not nan(v[0]) else "?"
        best = row.get("best")
        out.write(f"{row['scenario']:<{w}}  {rr(row['jox']):>15} {rr(row['kotlin']):>15} "
                  f"{(best.impl + ' ' + fmt(best.score)) if best else '-':>24} {rr(row.get('vs_best')):>15}\n")
    out.write("\nratio < 1: weft is faster. Errors propagated from JMH's 99.9% confidence intervals.\n")


def md_report(scenarios, out, title, note=""):
    impls_all = []
    for impls in scenarios.values():
        for i in impls:
            if i not in impls_all:
                impls_all.append(i)
    impls_all.sort(key=lambda i: IMPL_ORDER.index(i) if i in IMPL_ORDER else 99)
    forks = max((r.forks for impls in scenarios.values() for i, r in impls.items() if i != "go"), default=0)

    def rr(v):
        return "" if not v or nan(v[0]) else f"{v[0]:.2f} ± {fmt(v[1], 2)}"

    def sc(r):
        return "" if r is None else f"{fmt(r.score)} ± {fmt(r.error)}"

    out.write(f"### {title}\n\n")
    if note:
        out.write(f"{note}\n\n")
    out.write("ns per value (mean ± JMH 99.9% error, {} fork(s)); ratios < 1: weft is faster; ".format(forks)
              + "errors of ratios propagated from the scores'.\n\n")
    has_go = "go" in impls_all
    out.write("| scenario | weft | jox | jox 1.1.1 | kotlin | best JDK peer | weft/jox | weft/kotlin | weft/best peer "
              "| floor |" + (" Go (informational) |" if has_go else "") + "\n")
    out.write("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|" + ("--:|" if has_go else "") + "\n")
    for row in summarize(scenarios):
        impls = scenarios[row["scenario"]]
        jdk = [r for i, r in impls.items() if i in JDK and not nan(r.score)]
        best_jdk = min(jdk, key=lambda r: r.score) if jdk else None
        out.write(f"| {row['scenario']} | {sc(impls.get('weft'))} | {sc(impls.get('jox'))} | "
                  f"{sc(impls.get('jox111'))} | {sc(impls.get('kotlin'))} | "
                  f"{(best_jdk.impl + ' ' + sc(best_jdk)) if best_jdk else ''} | "
                  f"{rr(row['jox'])} | {rr(row['kotlin'])} | {rr(row.get('vs_best'))} | {sc(impls.get('floor'))} |"
                  + (f" {sc(impls.get('go'))} |" if has_go else "") + "\n")
    out.write("\nAllocation, bytes per value (`-prof gc`, gc.alloc.rate.norm):\n\n")
    jvm_all = [i for i in impls_all if i != "go"]
    out.write("| scenario | " + " | ".join(jvm_all) + " |\n")
    out.write("|---" + "|--:" * len(jvm_all) + "|\n")
    for name, impls in scenarios.items():
        cells = ["" if impls.get(i) is None else fmt(impls[i].alloc, 1) for i in jvm_all]
        out.write(f"| {name} | " + " | ".join(cells) + " |\n")
    if any(i in JDK for i in impls_all):
        out.write("\nAll JDK peers, ns per value:\n\n")
        jdk_all = [i for i in impls_all if i in JDK]
        out.write("| scenario | " + " | ".join(jdk_all) + " |\n")
        out.write("|---" + "|--:" * len(jdk_all) + "|\n")
        for name, impls in scenarios.items():
            out.write(f"| {name} | " + " | ".join(sc(impls.get(i)) for i in jdk_all) + " |\n")


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg_chart(scenarios, title, note=""):
    bar_h, gap, left, right, top = 11, 10, 300, 110, 60
    plot_w = 560
    vals = [r.score + (0 if nan(r.error) else r.error) for impls in scenarios.values() for r in impls.values()
            if not nan(r.score)]
    lows = [max(r.score, 1e-9) for impls in scenarios.values() for r in impls.values() if not nan(r.score)]
    lo = 10 ** math.floor(math.log10(max(min(lows), 1e-3))) if lows else 1
    hi = 10 ** math.ceil(math.log10(max(vals))) if vals else 10
    if hi <= lo:
        hi = lo * 10

    def x(v):
        v = min(max(v, lo), hi)
        return left + plot_w * (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))

    rows = sum(len(impls) for impls in scenarios.values())
    note_lines = []
    for part in (note.split("; ") if note else []):
        if note_lines and len(note_lines[-1]) + len(part) + 2 <= 170:
            note_lines[-1] += "; " + part
        else:
            note_lines.append(part)
    plot_bottom = top + rows * bar_h + len(scenarios) * gap
    height = plot_bottom + 48 + 12 * len(note_lines)
    width = left + plot_w + right
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
         f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10">',
         f'<rect width="{width}" height="{height}" fill="white"/>',
         f'<text x="{width / 2}" y="18" text-anchor="middle" font-size="14" font-weight="bold">{esc(title)}</text>',
         f'<text x="{width / 2}" y="34" text-anchor="middle" fill="#555">ns per value, log scale, '
         'lower is better; whiskers: JMH 99.9% error</text>']
    # decades grid
    d = lo
    while d <= hi * 1.0001:
        for m in (1, 2, 5):
            v = d * m
            if v > hi * 1.0001:
                break
            gx = x(v)
            s.append(f'<line x1="{gx:.1f}" y1="{top - 6}" x2="{gx:.1f}" y2="{plot_bottom}" '
                     f'stroke="{"#ccc" if m == 1 else "#eee"}"/>')
            s.append(f'<text x="{gx:.1f}" y="{top - 9}" text-anchor="middle" fill="#555">{fmt(v, 0)}</text>')
        d *= 10
    y = top
    for name, impls in scenarios.items():
        block_h = len(impls) * bar_h
        head, _, rest = name.partition(" ")
        cy = y + block_h / 2 + (0 if rest else 4)
        s.append(f'<text x="12" y="{cy:.1f}" font-weight="bold" font-size="11">{esc(head)}</text>')
        if rest:
            s.append(f'<text x="12" y="{cy + 12:.1f}" fill="#333">{esc(rest)}</text>')
        for impl, r in impls.items():
            c = COLORS.get(impl, "#7f7f7f")
            s.append(f'<text x="{left - 4}" y="{y + bar_h - 2}" text-anchor="end" fill="#333">{esc(impl)}</text>')
            if not nan(r.score):
                s.append(f'<rect x="{left}" y="{y + 1}" width="{max(x(r.score) - left, 1):.1f}" '
                         f'height="{bar_h - 2}" fill="{c}"/>')
                if not nan(r.error) and r.error > 0:
                    x0, x1 = x(max(r.score - r.error, lo)), x(r.score + r.error)
                    cy = y + bar_h / 2
                    s.append(f'<line x1="{x0:.1f}" y1="{cy}" x2="{x1:.1f}" y2="{cy}" stroke="black"/>')
                    s.append(f'<line x1="{x1:.1f}" y1="{cy - 3}" x2="{x1:.1f}" y2="{cy + 3}" stroke="black"/>')
                label = fmt(r.score) + ("" if r.alloc is None else f"  ({fmt(r.alloc, 0)} B)")
                s.append(f'<text x="{left + plot_w + 6}" y="{y + bar_h - 2}" fill="#333">{esc(label)}</text>')
            else:
                s.append(f'<text x="{left + 4}" y="{y + bar_h - 2}" fill="#a00">no score</text>')
            y += bar_h
        y += gap
        s.append(f'<line x1="10" y1="{y - gap / 2}" x2="{width - 10}" y2="{y - gap / 2}" stroke="#ddd"/>')
    s.append(f'<text x="{left + plot_w + 6}" y="{top - 22}" fill="#555">ns/op  (B/op)</text>')
    foot = height - 14 - 12 * len(note_lines)
    s.append(f'<text x="10" y="{foot}" fill="#555">SynchronousQueue / ArrayBlockingQueue rows '
             'in Chained, Parallel and Contention are the JDK counterpart of the capacity.</text>')
    for n, line in enumerate(note_lines):
        s.append(f'<text x="10" y="{foot + 14 + 12 * n}" fill="#555" font-size="9">{esc(line)}</text>')
    s.append("</svg>")
    return "\n".join(s) + "\n"


def main(argv):
    paths, svg, md, title, note = [], None, None, "weft benchmarks", ""
    it = iter(argv)
    for a in it:
        if a == "--svg":
            svg = next(it)
        elif a == "--md":
            md = next(it)
        elif a == "--title":
            title = next(it)
        elif a == "--note":
            note = next(it)
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            paths.append(a)
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    scenarios = load(paths)
    if not scenarios:
        print("no results in " + ", ".join(paths), file=sys.stderr)
        return 1
    text_report(scenarios, sys.stdout)
    if svg:
        with open(svg, "w") as f:
            f.write(svg_chart(scenarios, title, note))
    if md:
        with open(md, "w") as f:
            md_report(scenarios, f, title, note)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
