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
    outcomes = [_approve(path, args.check) for path in paths]     # "same", "changed", or "failed" (exit 1)
    gone = golden.orphans() if not args.scenarios else []
    for g in gone:
        _orphaned(g, args.check)
    print(_summary(outcomes, len(gone), args.check))
    return 1 if "failed" in outcomes or "differs" in outcomes or (gone and args.check) else 0


def _orphaned(g: Path, check: bool) -> None:
    """A golden file whose scenario is gone: named (``check``), else deleted."""
    if check:
        print(f"{golden.rel(g)}: its scenario is gone")
        return
    g.unlink()
    print(f"deleted {golden.rel(g)} (its scenario is gone)")


def _summary(outcomes: list[str], gone: int, check: bool) -> str:
    verb = "would change" if check else "approved"
    n = len(outcomes)
    return (f"{n} scenario{'s' if n != 1 else ''}: {outcomes.count('same')} unchanged, "
            f"{outcomes.count('changed') + outcomes.count('differs')} {verb}"
            + (f", {gone} golden file{'s' if gone != 1 else ''} {'orphaned' if check else 'deleted'}" if gone else ""))


def _approve(path: Path, check: bool) -> str:
    """Run one scenario on both backends; write its golden file (or, with ``check``, print the diff). "same",
    "changed" (written), "differs" (``check``: would change) or "failed" (the backends disagree)."""
    text = golden.render(path, "compiled")
    other = golden.render(path, "transitions")
    if other != text:
        lines = difflib.unified_diff(text.splitlines(), other.splitlines(), "compiled", "transitions", lineterm="")
        print(f"{golden.rel(path)}: the two backends disagree; not approved:\n" + "\n".join(list(lines)[:60]))
        return "failed"
    d = golden.diff(path, text)
    if not d:
        return "same"
    gp = golden.golden_path(path)
    if check:
        print(d if gp.exists() else f"{golden.rel(gp)}: missing (new scenario)")
        return "differs"
    golden.write(gp, text)
    print(f"approved {golden.rel(gp)}")
    return "changed"
