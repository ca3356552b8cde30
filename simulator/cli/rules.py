"""Which declared transitions implement a rule (or apply a ruling), straight from the statecharts.

examples:
  riftsim rules 340.2        every transition citing 340.2 or a sub-rule (340.2.a, ...)
  riftsim rules R1           the ruling, its switch, and where it applies
  riftsim rules              every cited rule id with the number of transitions citing it
"""
from __future__ import annotations

import argparse
import sys

import statecharts
from statecharts import timing
from statecharts.rulings import RULINGS


def cites(rule: str, query: str) -> bool:
    """``rule`` is ``query`` or one of its sub-rules (``340.2.a`` under ``340.2``; ``R1`` exactly).

    >>> cites("340.2.a", "340.2"), cites("340.20", "340.2"), cites("R10", "R1")
    (True, False, False)
    """
    return rule == query or rule.startswith(query + ".")


def index() -> dict[str, list[tuple[str, object]]]:
    """rule id -> [(leaf machine name, transition)], over every declared machine."""
    out: dict[str, list] = {}
    for m in statecharts.MACHINES:
        for leaf in m.leaves():
            for t in leaf.transitions:
                for r in t.rules:
                    out.setdefault(r, []).append((leaf.name, t))
    return out


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("rule", nargs="?", help="a Core Rules number (e.g. 340.2) or a ruling id (e.g. R1)")


def _sort_key(rule: str):
    parts = rule.replace("R", "R.").split(".")
    return [(0, int(x), "") if x.isdigit() else (1, 0, x) for x in parts]


def run(args) -> int:
    idx = index()
    if not args.rule:
        for rule in sorted(idx, key=_sort_key):
            print(f"{rule:12} {len(idx[rule])} transition(s)")
        return 0
    q = args.rule.strip()
    found = False
    if q in RULINGS:
        r = RULINGS[q]
        found = True
        print(f"{q} {r['name']}: {r['default']}")
        if "alternative" in r:
            print(f"  switch: --ruling {q}={r['alternative'][0]}  ({r['alternative'][1]})")
    for rule in sorted(idx, key=_sort_key):
        if cites(rule, q):
            for leaf, t in idx[rule]:
                found = True
                guard = " [" + " & ".join([*t.guards, *("!" + u for u in t.unless)]) + "]" if t.guards or t.unless else ""
                print(f"{rule:10} {leaf}: {t.source} --{t.trigger}{guard}--> {t.dest}")
    for table, rows in (("timing.PLAY", timing.PLAY), ("timing.NEEDS", timing.NEEDS),
                        ("timing.MOVE_PATHS", {"standard move": timing.MOVE_PATHS}),
                        ("timing.KEYWORD_TIMING", {k: {v[0]: v[1]} for k, v in timing.KEYWORD_TIMING.items()}),
                        ("timing.ALLOWED", {f"{act} in {st}": {act: r} for act, sts in timing.ALLOWED.items()
                                            for st, r in sts.items()}),
                        ("timing.READINESS", {k: {v[0]: v[1]} for k, v in timing.READINESS.items()})):
        for state, entry in rows.items():
            pairs = entry.items() if isinstance(entry, dict) else [(entry[0], entry[1:])]
            for what, rules in pairs:
                if any(cites(r, q) for r in rules):
                    found = True
                    print(f"{q:10} {table}: {state}: {what}")
    if not found:
        print(f"riftsim: no declaration cites {q}", file=sys.stderr)
        return 1
    return 0
