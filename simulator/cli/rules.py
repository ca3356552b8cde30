"""``riftsim rules``: where a rule is decided, straight from the declarations, and where it is exercised.

examples:
  riftsim rules 340.2        its title; every declaration citing 340.2 or a sub-rule (transitions, schedule
                             steps, timing-table rows, rulings, trace lines and refusals); the bundled scenarios whose trace cites it
  riftsim rules R1           the ruling, its switch, and the same
  riftsim rules              every known rule id with its title and how many declarations cite it

A rule id is known when it has a title (``statecharts/titles.py``), a declaration cites it, or it is a
ruling; anything else is a one-line error (exit 1).
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import statecharts
from statecharts import timing
from statecharts.citations import CITED
from statecharts.rulings import RULINGS
from statecharts.schedule import SCHEDULE
from statecharts.titles import TITLES, title
from simulator.core.model import FORGOTTEN
from simulator.scenario import bundled
from simulator.verify.symmetry import RELIES_ON


def cites(rule: str, query: str) -> bool:
    """``rule`` is ``query`` or one of its sub-rules (``340.2.a`` under ``340.2``; ``R1`` exactly).

    >>> cites("340.2.a", "340.2"), cites("340.20", "340.2"), cites("R10", "R1")
    (True, False, False)
    """
    return rule == query or rule.startswith(query + ".")


def _ids(text: str) -> list[str]:
    return [r.strip() for r in text.split(",") if r.strip()]


def declarations() -> list[tuple[tuple[str, ...], str]]:
    """Every declaration that cites rules, as (rule ids, one line saying where): machine transitions, the
    schedule's steps, the timing tables' rows, the rulings table, the declared citations of trace
    lines and refusals (``statecharts/citations.py``), what a state's identity forgets (``FORGOTTEN``) and what its
    symmetric identity relies on (``RELIES_ON``)."""
    out: list[tuple[tuple[str, ...], str]] = []
    for m in statecharts.MACHINES:
        for leaf in m.leaves():
            for t in leaf.transitions:
                g = [*t.guards, *("!" + u for u in t.unless)]
                guard = f" [{' & '.join(g)}]" if g else ""
                out.append((t.rules, f"{leaf.name}: {t.source} --{t.trigger}{guard}--> {t.dest}"))
    for i, s in enumerate(SCHEDULE, 1):
        when = " and ".join(s.when) or "otherwise"
        out.append((s.rules, f"schedule step {i} {s.name}: when {when}" + (f" / {s.do}" if s.do else "")
                    + (f"; stop: {s.decides}" if s.stop else "")))
    for st, (what, rule) in timing.NEEDS.items():
        out.append(((rule,), f"timing.NEEDS[{st}]: {what}"))
    for st, row in timing.PLAY.items():
        for kw, rules in row.items():
            out.append((rules, f"timing.PLAY[{st}]: {kw} timing is playable"))
    for action, row in timing.ALLOWED.items():
        for st, rules in row.items():
            out.append((rules, f"timing.ALLOWED[{action}]: {st}"))
    for name, table in (("TURN_PLAYER_ONLY", timing.TURN_PLAYER_ONLY), ("NO_PASS", timing.NO_PASS)):
        for st, rules in table.items():
            out.append((rules, f"timing.{name}[{st}]"))
    for path, rules in timing.MOVE_PATHS.items():
        out.append((rules, f"timing.MOVE_PATHS[{path}]: a standard move path"))
    for kw, (speed, rules) in timing.KEYWORD_TIMING.items():
        out.append((rules, f"timing.KEYWORD_TIMING[{kw}]: played this way, it has {speed} timing"))
    for what, (how, rules) in timing.READINESS.items():
        out.append((rules, f"timing.READINESS[{what}]: {how}"))
    for name, c in CITED.items():
        out.append((c.rules, f"{'refusal' if c.kind == 'refusal' else 'trace line'} {name}: {c.what}"))
    for rid, r in RULINGS.items():
        out.append((r.rules, f"statecharts/rulings.py {rid} {r.name}: {r.default}"))
    for (action, st), (reason, cited) in timing.REFUSED.items():
        out.append((tuple(_ids(cited)), f"timing.REFUSED[{action}, {st}]: {reason}"))
    for what, rules in FORGOTTEN.items():
        out.append((rules, f"identity (simulator/core/model.py FORGOTTEN): a state's identity forgets {what}"))
    for what, rules in RELIES_ON.items():
        out.append((rules, f"identity (simulator/verify/symmetry.py RELIES_ON): it holds {what}"))
    return out


def declared() -> set[str]:
    """Every rule id some declaration cites (a transition, a schedule step, a table row, a ruling, a citation)."""
    return {r for rules, _ in declarations() for r in rules}


def undeclared(text: str) -> list[str]:
    """The rule ids in ``text`` (as a trace or a refusal writes them: ``"340, 354.3"``) no declaration cites.

    >>> undeclared("340.2, 354.3, R1"), undeclared("340.2, 999.9")
    ([], ['999.9'])
    """
    have = declared()
    return [r for r in _ids(text) if r not in have]


def known() -> set[str]:
    """Every rule id ``riftsim rules`` resolves without a prefix: titled, declared, or a ruling."""
    out = set(TITLES) | set(RULINGS)
    for rules, _ in declarations():
        out.update(rules)
    return out


def resolves(rule: str) -> bool:
    """A rule id resolves when it or one of its prefixes is known (``340.2.a`` through ``340.2``)."""
    return bool(title(rule)) or rule in known()


def exercised(query: str, scenarios: Path = bundled.FOLDER) -> dict[str, int]:
    """Bundled scenario -> how many of its trace events cite ``query`` or a sub-rule (runs each scenario)."""
    from simulator.scenario import loader

    out: dict[str, int] = {}
    for path in bundled.under(scenarios):
        try:
            res = loader.run(loader.load(str(path)))
        except Exception:                   # a scenario that does not load is reported by `simulate`, not here
            continue
        n = sum(1 for e in res.events if any(cites(r, query) for r in _ids(e.rule or "")))
        if n:
            out[path.stem] = n
    return out


def claiming(query: str, folders: list[Path], run: bool = True) -> list[tuple[str, str, int | None]]:
    """(scenario, audit status, how often its own trace cites ``query``; None unless ``run``) for every scenario
    of ``folders`` whose ``rules:`` header claims ``query`` or one of its sub-rules (format version 3, P2)."""
    from simulator.scenario import loader, provenance
    from simulator.core.errors import ScenarioError

    out: list[tuple[str, str, int | None]] = []
    for folder in folders:
        for path in sorted(folder.glob("*.yaml")):
            try:
                sc = loader.load(str(path))
            except ScenarioError:           # not a scenario (a positions file), or invalid: `simulate` reports it
                continue
            claims = sc.provenance.get("rules") or []
            if not provenance.claimed(claims, query):
                continue
            n = None
            if run:
                cited = [c for c in claims if cites(c, query)]
                try:
                    events = loader.run(sc).events
                except ScenarioError:
                    events = []
                n = sum(1 for e in events if any(cites(r, c) for r in _ids(e.rule or "") for c in cited))
            out.append((path.stem, provenance.status(sc.provenance), n))
    return out


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("rule", nargs="?", help="a Core Rules number (e.g. 340.2) or a ruling id (e.g. R1)")
    p.add_argument("--no-scenarios", action="store_true", help="do not run the bundled scenarios")
    p.add_argument("--in", dest="folders", action="append", default=[], metavar="DIR",
                   help="also list the scenarios (*.yaml) of DIR whose rules: header claims the rule (repeatable)")


def _sort_key(rule: str):
    parts = rule.replace("R", "R.").split(".")
    return [(0, int(x), "") if x.isdigit() else (1, 0, x) for x in parts]


def run(args) -> int:
    decl = declarations()
    if not args.rule:
        for rule in sorted(known(), key=_sort_key):
            n = sum(1 for rules, _ in decl if rule in rules)
            print(f"{rule:12} {n:3} declaration(s)  {title(rule)}")
        return 0
    q = args.rule.strip()
    if _only_claimed(q, args):
        return 0
    if not re.fullmatch(r"R\d+|\d{3}(\.[0-9a-z]+)*", q) or not resolves(q):
        print(f"riftsim rules: {q!r} is not a rule id any declaration, title or ruling knows "
              f"(`riftsim rules` lists them)", file=sys.stderr)
        return 1
    print(title(q) or q)
    if q in RULINGS:
        r = RULINGS[q]
        print(f"  rules: {', '.join(r.rules)}")
        if r.why:
            print(f"  why: {r.why}")
        for value, meaning in r.alternatives:
            print(f"  switch: --ruling {q}={value}  ({meaning})")
    subs = sorted({r for rules, _ in decl for r in rules if cites(r, q) and r != q}, key=_sort_key)
    if subs:
        print("  sub-rules cited: " + ", ".join(subs))
    lines = [f"  {where}   ({', '.join(rules)})" for rules, where in decl if any(cites(r, q) for r in rules)]
    print("declarations:" if lines else "declarations: none (the rule is applied by an effect's trace line only)")
    for line in lines:
        print(line)
    if not getattr(args, "no_scenarios", False):
        seen = exercised(q)
        print("scenarios (`riftsim examples NAME` prints one):" if seen
              else "scenarios: none of the bundled scenarios' traces cite it")
        for stem, n in seen.items():
            print(f"  {stem}  ({n} trace event(s))")
    _print_claims(q, args)
    return 0


def _folders(args) -> list[Path]:
    """The bundled scenarios' folder, then each ``--in DIR``."""
    return [bundled.FOLDER, *(Path(f) for f in getattr(args, "folders", None) or [])]


def _only_claimed(q: str, args) -> bool:
    """A well-formed Core Rules id riftsim has no title or declaration for, but that a scenario claims (P1 accepts
    it): print the claims (True), else nothing (False)."""
    if not re.fullmatch(r"\d{3}(\.[0-9a-z]+)*", q) or resolves(q) or not claiming(q, _folders(args), run=False):
        return False
    print(q)
    _print_claims(q, args)
    return True


def _print_claims(q: str, args) -> None:
    """The section ``scenarios claiming it:`` (P2): each claim's audit status and how often its trace cites it."""
    claims = claiming(q, _folders(args), not getattr(args, "no_scenarios", False))
    print("scenarios claiming it:" if claims else "scenarios claiming it: none")
    for stem, status, n in claims:
        if n is None:
            print(f"  {stem}  ({status})")
        elif n:
            print(f"  {stem}  ({status}; cited {n} time{'s' if n != 1 else ''} in its trace)")
        else:
            print(f"  {stem}  ({status}; claimed but never cited in its trace)")
