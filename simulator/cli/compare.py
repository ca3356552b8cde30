"""Run one scenario under two readings of the rules and show where their traces part.

Reading A is the scenario as written (its own ``rulings:``); reading B pins the ``--ruling``
switches over it. When the file already pins those very values, reading A is the default reading
of those switches instead. Both runs are the same as ``riftsim simulate``'s; the first step whose
trace lines (or resulting position) differ is named, with each reading's continuation from there.

exit status: 0 compared (whether or not the readings differ); 2 the file is not a valid scenario or
a switch is unknown.

examples:
  riftsim compare scenarios/seed002-showdown-becomes-a-combat.yaml --ruling R1=attacker
  riftsim compare scenarios/multiplayer-war-focus-defender-last-r2.yaml --ruling R2=default --html r2.html
"""
from __future__ import annotations

import argparse
import sys

from simulator.cli.simulate import _ruling
from simulator.core.text import shown
from simulator.core.i18n import gettext_for, languages
from simulator.game.setup import RULINGS
from simulator.scenario.loader import load
from simulator.scenario.record import Recorded, record


def readings(sc, switches: dict) -> tuple[dict, dict]:
    """(rulings of reading A, rulings of reading B) to pass over the file's own.

    >>> class S: rulings = {"R1": "attacker"}
    >>> readings(S, {"R1": "attacker"}), readings(S, {"R2": "defender-last"})
    (({'R1': 'default'}, {'R1': 'attacker'}), ({}, {'R2': 'defender-last'}))
    """
    b = dict(switches)
    if all(sc.rulings.get(k, "default") == v for k, v in b.items()):     # the file reads it that way already
        return {k: RULINGS[k][1] if v == "default" else "default" for k, v in b.items()}, b
    return {}, b


def _lines(step: dict, lang: str = "en") -> list[str]:
    out = [f"{e['step']}  {e['event']}" + (f"  [{e['rule']}]" if e["rule"] else "") for e in step["events"]]
    if step["failure"]:
        _ = gettext_for(lang)
        out.append(f"{step['n']}  " + _("FAILED: {message}").format(message=step["failure"]))
    return out


def divergence(a: Recorded, b: Recorded) -> dict | None:
    """The first step index where the two readings differ: their trace lines, their positions, or one
    stopping before the other; with the trace line index within that step. None when identical."""
    for i in range(max(len(a.steps), len(b.steps))):
        if i >= len(a.steps) or i >= len(b.steps):
            s = (a.steps if i < len(a.steps) else b.steps)[i]
            return {"index": i, "n": s["n"], "line": s["line"], "label": s["label"], "event": 0, "what": "stopped"}
        sa, sb = a.steps[i], b.steps[i]
        la, lb = _lines(sa), _lines(sb)
        if la != lb or sa["state"] != sb["state"]:
            k = next((j for j, (x, y) in enumerate(zip(la, lb)) if x != y), min(len(la), len(lb)))
            what = "lines" if la != lb else "position"
            return {"index": i, "n": sa["n"], "line": sa["line"], "label": sa["label"], "event": k, "what": what}
    return None


def _describe(pins: dict, sc, lang: str = "en") -> str:
    merged = {**sc.rulings, **pins}
    _ = gettext_for(lang)
    return ", ".join(f"{k}={v}" for k, v in sorted(merged.items())) or _("every ruling at its default")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="a scenario file (YAML)")
    alternatives = "; ".join(f"{r}={'|'.join(v)}" for r, v in RULINGS.items())
    p.add_argument("--ruling", action="append", type=_ruling, default=[], metavar="ID=VALUE", required=True,
                   help=f"the switch(es) of reading B ({alternatives}); repeatable")
    p.add_argument("--backend", choices=("compiled", "transitions"), default="compiled",
                   help="how declared transitions are picked (both give the same traces)")
    p.add_argument("--html", metavar="OUT.html", help="also write the viewer page with both readings side by side")
    p.add_argument("--lang", choices=languages(), default="en",
                   help="narrate both readings (text and --html page) in this language; rules are cited unchanged")


def run(args: argparse.Namespace) -> int:
    sc = load(args.file)
    pins_a, pins_b = readings(sc, dict(args.ruling))
    lang = getattr(args, "lang", "en")
    _ = gettext_for(lang)
    a = record(sc, backend=args.backend, rulings=pins_a, lang=lang)
    b = record(sc, backend=args.backend, rulings=pins_b, lang=lang)
    label_a, label_b = _describe(pins_a, sc, lang), _describe(pins_b, sc, lang)
    out = sys.stdout
    print(shown(f"== {sc.file}: {sc.name}"), file=out)
    for name, rec, label in (("A", a, label_a), ("B", b, label_b)):
        print(shown(_("reading {name} ({label}): {status}").format(name=name, label=label,
                                                                   status=_status(rec.result, lang))), file=out)
    d = divergence(a, b)
    if d is None:
        print(_("-- the two readings give the same trace and the same positions"), file=out)
    else:
        _print_divergence(sc, d, a, b, lang)
    if args.html:
        data = [{"name": sc.name, "file": sc.file, "diverge": d,
                 "readings": [_scenario_data(a, label_a), _scenario_data(b, label_b)]}]
        return _write_html(args.html, data, sc.name, lang)
    return 0


def _status(res, lang: str) -> str:
    _ = gettext_for(lang)
    if res.status == "pass":
        return _("PASS: {steps} steps, {checks} expectations held").format(steps=res.steps_run, checks=res.checks)
    if res.status == "pending":
        return _("PENDING: {message}").format(message=res.message)
    return _("FAIL: {message}").format(message=res.message)


def _print_divergence(sc, d: dict, a: Recorded, b: Recorded, lang: str) -> None:
    """Where the readings part, and each one's continuation from there."""
    _ = gettext_for(lang)
    out = sys.stdout
    where = f"{sc.file}:{d['line']}: " if d["line"] else ""
    how = {"lines": _("trace line {n} of that step").format(n=d["event"] + 1),
           "position": _("the same trace lines, but the positions after it differ"),
           "stopped": _("one reading stopped before it")}[d["what"]]
    print(shown(_("-- first difference: {where}step {n} ({label}), {how}").format(
        where=where, n=d["n"], label=d["label"], how=how)), file=out)
    for name, rec in (("A", a), ("B", b)):
        print(_("-- reading {name} from there:").format(name=name), file=out)
        lines = [ln for s in rec.steps[d["index"]:] for ln in _lines(s, lang)]
        skip = d["event"] if d["index"] < len(rec.steps) else 0
        for ln in lines[skip:] or [_("(nothing: this reading stopped before that step)")]:
            print("  " + shown(ln), file=out)


def _scenario_data(rec: Recorded, label: str) -> dict:
    from simulator.cli.viewer import scenario_data
    return scenario_data(rec, label)


def _write_html(path: str, data: list[dict], name: str, lang: str) -> int:
    from simulator.cli.diagrams import inline_svgs
    from simulator.cli.viewer import write_page
    try:
        write_page(path, data, inline_svgs(lang=lang), title=f"riftsim compare: {name}", lang=lang)
    except OSError as e:
        print(shown(f"riftsim compare: cannot write {path}: {e.strerror or e}"), file=sys.stderr)
        return 2
    print(shown(f"viewer written to {path}"), file=sys.stderr)
    return 0


