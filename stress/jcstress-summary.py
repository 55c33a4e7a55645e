#!/usr/bin/env python3
"""Condenses a jcstress console log (the RUN RESULTS part) to one block per scenario:
status, then each observed outcome with its sample count and expectation. Usage:
jcstress-summary.py jcstress.log. Exit status 1 when a scenario failed or errored."""
import re
import sys

text = open(sys.argv[1], errors="replace").read()
run = text.split("RUN RESULTS:", 1)
body = run[1] if len(run) > 1 else ""
tests = {}
order = []
current = None
for line in body.splitlines():
    m = re.match(r"^\.*\s*\[(OK|FAILED|ERROR)\]\s+(\S+)", line.strip())
    if m:
        status, name = m.groups()
        name = name.rsplit(".", 1)[-1]
        if name not in tests:
            tests[name] = {"status": status, "rows": [], "msg": []}
            order.append(name)
        elif status != "OK":
            tests[name]["status"] = status
        # jcstress lists a failed test twice (interesting + failed): keep the first table only.
        current = tests[name] if not tests[name]["rows"] else None
        continue
    if current is None:
        continue
    m = re.match(r"^\s+(.+?)\s+(\d+)\s+([\d.]+%)\s+(Acceptable|Forbidden|Interesting)\s+(.*)$", line)
    if m:
        current["rows"].append((m.group(1), int(m.group(2)), m.group(4)))
    elif re.match(r"^\s+(java|org|dev)\.\S+(Exception|Error)\b", line) and "jcstress" not in line:
        if len(current["msg"]) < 2:
            current["msg"].append(line.strip())

# Failures are listed before the RUN RESULTS part; pick up their names too.
for m in re.finditer(r"\[(FAILED|ERROR)\]\s+(\S+)", text):
    name = m.group(2).rsplit(".", 1)[-1]
    t = tests.setdefault(name, {"status": m.group(1), "rows": [], "msg": []})
    if name not in order:
        order.append(name)
    t["status"] = m.group(1) if t["status"] == "OK" else t["status"]

bad = 0
for name in sorted(order):
    t = tests[name]
    agg = {}
    for outcome, n, expect in t["rows"]:
        key = (outcome, expect)
        agg[key] = agg.get(key, 0) + n
    parts = ", ".join(f"[{o}] x{n} {e[:4].lower()}" for (o, e), n in sorted(agg.items(), key=lambda kv: -kv[1]))
    print(f"{t['status']:6} {name}: {parts}")
    for msg in t["msg"]:
        print(f"         {msg}")
    if t["status"] != "OK":
        bad += 1
print(f"{len(order)} scenarios, {bad} failed or errored")
sys.exit(1 if bad else 0)
