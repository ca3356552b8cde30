"""Approve the golden traces: write each bundled scenario's trace, final position and legal actions.

tests/golden/<scenario>.json is the approved output of scenarios/<scenario>.yaml (docs/testing.md);
tests/test_golden.py fails with a diff when a scenario's output differs from it. When the change is
intended and you can explain it, approve it here and say why in the commit message.

With no SCENARIO, every bundled scenario is approved and golden files whose scenario is gone are
deleted. Before writing, the scenario is run on both backends, which must agree.

exit status: 0 approved (or, with --check, nothing to approve); 1 with --check, something differs,
or the two backends disagree; 2 an unknown scenario.

examples:
  riftsim approve --check                 # what would change, as diffs
  riftsim approve seed001-reaction-resolves-before-the-spell
  riftsim approve                          # every bundled scenario
"""
from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from simulator.verify import golden


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("scenarios", nargs="*", metavar="SCENARIO",
                   help="bundled scenario names (scenarios/NAME.yaml) or paths; default: all of them")
    p.add_argument("--check", action="store_true", help="write nothing: print the diffs, exit 1 if any")


def _resolve(names: list[str]) -> list[Path] | str:
    """The scenario files named, or the first name that is not a bundled scenario."""
    if not names:
        return golden.scenario_files()
    known = {p.resolve(): p for p in golden.scenario_files()}
    by_name = {p.stem: p for p in known.values()}
    out = []
    for n in names:
        p = Path(n)
        found = known.get(p.resolve()) if p.suffix == ".yaml" else by_name.get(n)
        if found is None:
            return n
        out.append(found)
    return out


def run(args: argparse.Namespace) -> int:
    paths = _resolve(args.scenarios)
    if isinstance(paths, str):
        print(f"riftsim approve: {paths}: not a bundled scenario (a name from scenarios/*.yaml)", file=sys.stderr)
        return 2
    changed = same = 0
    worst = 0
    for path in paths:
        text = golden.render(path, "compiled")
        other = golden.render(path, "transitions")
        if other != text:
            lines = difflib.unified_diff(text.splitlines(), other.splitlines(), "compiled", "transitions", lineterm="")
            print(f"{golden.rel(path)}: the two backends disagree; not approved:\n" + "\n".join(list(lines)[:60]))
            worst = 1
            continue
        d = golden.diff(path, text)
        if not d:
            same += 1
            continue
        changed += 1
        gp = golden.golden_path(path)
        if args.check:
            print(d if gp.exists() else f"{golden.rel(gp)}: missing (new scenario)")
            worst = 1
        else:
            golden.write(gp, text)
            print(f"approved {golden.rel(gp)}")
    gone = golden.orphans() if not args.scenarios else []
    for g in gone:
        if args.check:
            print(f"{golden.rel(g)}: its scenario is gone")
            worst = 1
        else:
            g.unlink()
            print(f"deleted {golden.rel(g)} (its scenario is gone)")
    verb = "would change" if args.check else "approved"
    print(f"{len(paths)} scenario{'s' if len(paths) != 1 else ''}: {same} unchanged, {changed} {verb}"
          + (f", {len(gone)} golden file{'s' if len(gone) != 1 else ''} {'orphaned' if args.check else 'deleted'}"
             if gone else ""))
    return worst
