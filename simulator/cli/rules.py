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
from statecharts.spec import T, send
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
    return [(rules, where) for rules, where, _ in _rows()]


def _rows() -> list[tuple[tuple[str, ...], str, object]]:
    """:func:`declarations`, each with what it declares: ``(leaf, T)`` for a transition, a schedule ``Step``, else
    None (what :func:`deciders` explains)."""
    return [*_transition_rows(), *_schedule_rows(), *((rules, where, None) for rules, where in _table_rows())]


def _transition_rows() -> list[tuple[tuple[str, ...], str, object]]:
    out: list[tuple[tuple[str, ...], str, object]] = []
    for m in statecharts.MACHINES:
        for leaf in m.leaves():
            for t in leaf.transitions:
                g = [*t.guards, *("!" + u for u in t.unless)]
                guard = f" [{' & '.join(g)}]" if g else ""
                out.append((t.rules, f"{leaf.name}: {t.source} --{t.trigger}{guard}--> {t.dest}", (leaf.name, t)))
    return out


def _schedule_rows() -> list[tuple[tuple[str, ...], str, object]]:
    return [(s.rules, _step_line(i, s), s) for i, s in enumerate(SCHEDULE, 1)]


def _step_line(i: int, s) -> str:
    when = " and ".join(s.when) or "otherwise"
    return (f"schedule step {i} {s.name}: when {when}" + (f" / {s.do}" if s.do else "")
            + (f"; stop: {s.decides}" if s.stop else ""))


def _timing_rows() -> list[tuple[tuple[str, ...], str]]:
    out: list[tuple[tuple[str, ...], str]] = [((rule,), f"timing.NEEDS[{st}]: {what}")
                                              for st, (what, rule) in timing.NEEDS.items()]
    out += [(rules, f"timing.PLAY[{st}]: {kw} timing is playable")
            for st, row in timing.PLAY.items() for kw, rules in row.items()]
    out += [(rules, f"timing.ALLOWED[{action}]: {st}") for action, row in timing.ALLOWED.items()
            for st, rules in row.items()]
    out += [(rules, f"timing.{name}[{st}]") for name, table in (("TURN_PLAYER_ONLY", timing.TURN_PLAYER_ONLY),
                                                               ("NO_PASS", timing.NO_PASS))
            for st, rules in table.items()]
    out += [(rules, f"timing.MOVE_PATHS[{path}]: a standard move path") for path, rules in timing.MOVE_PATHS.items()]
    out += [(rules, f"timing.KEYWORD_TIMING[{kw}]: played this way, it has {speed} timing")
            for kw, (speed, rules) in timing.KEYWORD_TIMING.items()]
    out += [(rules, f"timing.READINESS[{what}]: {how}") for what, (how, rules) in timing.READINESS.items()]
    return out


def _table_rows() -> list[tuple[tuple[str, ...], str]]:
    out = _timing_rows()
    out += [(c.rules, f"{'refusal' if c.kind == 'refusal' else 'trace line'} {name}: {c.what}")
            for name, c in CITED.items()]
    out += [(r.rules, f"statecharts/rulings.py {rid} {r.name}: {r.default}") for rid, r in RULINGS.items()]
    out += [(tuple(_ids(cited)), f"timing.REFUSED[{action}, {st}]: {reason}")
            for (action, st), (reason, cited) in timing.REFUSED.items()]
    out += [(rules, f"identity (simulator/core/model.py FORGOTTEN): a state's identity forgets {what}")
            for what, rules in FORGOTTEN.items()]
    out += [(rules, f"identity (simulator/verify/symmetry.py RELIES_ON): it holds {what}")
            for what, rules in RELIES_ON.items()]
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
            n = _citing(sc, [c for c in claims if cites(c, query)]) if run else None
            out.append((path.stem, provenance.status(sc.provenance), n))
    return out


def _citing(sc, cited: list[str]) -> int:
    """How many lines of the scenario's own trace cite one of ``cited`` (none if it does not run)."""
    from simulator.scenario import loader
    from simulator.core.errors import ScenarioError

    try:
        events = loader.run(sc).events
    except ScenarioError:
        events = []
    return sum(1 for e in events if any(cites(r, c) for r in _ids(e.rule or "") for c in cited))


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("rule", nargs="?", help="a Core Rules number (e.g. 340.2) or a ruling id (e.g. R1)")
    p.add_argument("--no-scenarios", action="store_true", help="do not run the bundled scenarios")
    p.add_argument("--in", dest="folders", action="append", default=[], metavar="DIR",
                   help="also list the scenarios (*.yaml) of DIR whose rules: header claims the rule (repeatable)")


def _sort_key(rule: str):
    parts = rule.replace("R", "R.").split(".")
    return [(0, int(x), "") if x.isdigit() else (1, 0, x) for x in parts]


def run(args) -> int:
    if not args.rule:
        _list_all(declarations())
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
        _print_ruling(q)
    rows = _rows()
    _print_subs(q, rows)
    _print_declarations(q, rows)
    if not getattr(args, "no_scenarios", False):
        _print_scenarios(q)
    _print_claims(q, args)
    return 0


def _print_subs(q: str, rows: list[tuple[tuple[str, ...], str, object]]) -> None:
    """The sub-rules of ``q`` the declarations cite."""
    subs = sorted({r for rules, _, _ in rows for r in rules if cites(r, q) and r != q}, key=_sort_key)
    if subs:
        print("  sub-rules cited: " + ", ".join(subs))


def _list_all(decl: list[tuple[tuple[str, ...], str]]) -> None:
    for rule in sorted(known(), key=_sort_key):
        n = sum(1 for rules, _ in decl if rule in rules)
        print(f"{rule:12} {n:3} declaration(s)  {title(rule)}")


def _print_ruling(q: str) -> None:
    r = RULINGS[q]
    print(f"  rules: {', '.join(r.rules)}")
    if r.why:
        print(f"  why: {r.why}")
    for value, meaning in r.alternatives:
        print(f"  switch: --ruling {q}={value}  ({meaning})")


def _print_declarations(q: str, rows: list[tuple[tuple[str, ...], str, object]]) -> None:
    """Each declaration citing ``q``; under a transition or a schedule step, the functions that decide it."""
    hits = [(rules, where, what) for rules, where, what in rows if any(cites(r, q) for r in rules)]
    print("declarations:" if hits else "declarations: none (the rule is applied by an effect's trace line only)")
    found = Deciders() if any(what is not None for _, _, what in hits) else None
    for rules, where, what in hits:
        print(f"  {where}   ({', '.join(rules)})")
        if found is not None and what is not None:
            for line in found.explain(what):
                print(f"      {line}")


def _print_scenarios(q: str) -> None:
    seen = exercised(q)
    print("scenarios (`riftsim examples NAME` prints one):" if seen
          else "scenarios: none of the bundled scenarios' traces cite it")
    for stem, n in seen.items():
        print(f"  {stem}  ({n} trace event(s))")


# -- the functions that decide a declaration -----------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]


class Deciders:
    """Where the code that decides a declaration is: the function of each named guard and effect (module file,
    line, function), the transitions that hand a trigger off (``sends``), and the places in ``simulator/rules/``
    that fire it (``fire(g, LEAF, TRIGGER)``, ``rt.steps``, ``rt.run``), with the schedule step whose ``do`` it is."""

    def __init__(self) -> None:
        from simulator import rules
        from simulator.core import registry

        rules.install()
        self.guards, self.effects = registry.GUARDS, registry.EFFECTS
        self.sites = fire_sites()
        self.senders: dict[tuple[str, str], list[tuple[str, T, str]]] = {}   # (leaf, trigger) -> (sender leaf, T, send)
        for decl in statecharts.LEAVES.values():
            for t in decl.transitions:
                for text in t.sends:
                    h = send(text)
                    self.senders.setdefault((h.machine, h.trigger), []).append((decl.name, t, text))
        self.do_of = {s.do: (i, s) for i, s in enumerate(SCHEDULE, 1) if s.do}
        self.effect_of: dict[str, list[str]] = {}       # effect name -> the transitions it is an effect of
        for decl in statecharts.LEAVES.values():
            for t in decl.transitions:
                for e in t.effects:
                    self.effect_of.setdefault(e, []).append(_line(decl.name, t))

    def explain(self, what) -> list[str]:
        if isinstance(what, tuple):
            return self._transition(*what)
        return self._step(what)

    def _transition(self, leaf: str, t) -> list[str]:
        out = [f"guard {n}: {self.where(self.guards[n])}" for n in t.guards]
        out += [f"unless {n}: {self.where(self.guards[n])}" for n in t.unless]
        out += [f"effect {n}: {self.where(self.effects[n])}" for n in t.effects]
        enter = statecharts.LEAVES[leaf].enter.get(t.dest)
        if enter and t.dest != t.source:
            out.append(f"on entering {t.dest}, effect {enter}: {self.where(self.effects[enter])}")
        out += [f"hands off to {s}" for s in t.sends]
        for sleaf, st, text in self.senders.get((leaf, t.trigger), ()):
            out += self._sent_by(sleaf, st, text)
        return out + self._fired_by(leaf, t.trigger)

    def _sent_by(self, leaf: str, t: T, text: str) -> list[str]:
        """A transition that hands this one off (``text``, one of its ``sends``): its guards on the hand-off, its
        effects (they run first), and where it is fired."""
        h = send(text)
        out = [f"sent by {_line(leaf, t)}: a declared hand-off, {text}"]
        out += [f"  hand-off guard {n}: {self.where(self.guards[n])}" for n in h.guards]
        out += [f"  hand-off unless {n}: {self.where(self.guards[n])}" for n in h.unless]
        out += [f"  after its effect {n}: {self.where(self.effects[n])}" for n in t.effects]
        return out + ["  " + line for line in self._fired_by(leaf, t.trigger)]

    def _fired_by(self, leaf: str, trigger: str) -> list[str]:
        """Where ``simulator/rules/`` fires ``trigger`` on ``leaf``, and what the firing function is: the ``do`` of a
        schedule step, or the effect of a transition."""
        out = []
        for path, line, func in self.sites.get((leaf, trigger), ()):
            name = func.split(" ")[0].lstrip("_")
            hit = self.do_of.get(name)
            of = [f"the `do` of schedule step {hit[0]} {hit[1].name}, when {' and '.join(hit[1].when) or 'otherwise'}"
                  ] if hit else []
            of += [f"an effect of {t}" for t in self.effect_of.get(name, ())]
            out.append(f"fired by {path}:{line} in {func}" + (f" ({'; '.join(of)})" if of else ""))
        return out

    def _step(self, s) -> list[str]:
        out = [f"condition {name}: {self.where(self.guards[name])}" for name, state in s.conditions()
               if state is None]
        if s.do:
            out.append(f"do {s.do}: {self.where(self.effects[s.do])}")
        return out

    @staticmethod
    def where(fn) -> str:
        """``simulator/rules/chain.py:52 _chain_empty``: a function's file, the line of its ``def`` (of its
        ``test(...)`` for a one-expression guard), and its name."""
        import inspect
        import sys as _sys

        try:
            lines, start = inspect.getsourcelines(fn)
            line = start + next(i for i, text in enumerate(lines) if text.lstrip().startswith("def "))
            path = Path(inspect.getsourcefile(fn) or "")
        except (OSError, TypeError, StopIteration):     # built from an expression (registry.test): find its test(...)
            path, line = _test_site(fn, _sys.modules)
        try:
            shown = path.resolve().relative_to(ROOT).as_posix()
        except ValueError:
            shown = str(path)
        return f"{shown}:{line} {fn.__name__}"


def _line(leaf: str, t) -> str:
    return f"{leaf}: {t.source} --{t.trigger}--> {t.dest} ({', '.join(t.rules)})"


def _test_site(fn, modules) -> tuple[Path, int]:
    """The file and line of the ``test("NAME", ...)`` that built the one-expression guard ``fn``."""
    from simulator import rules

    for mod in rules.MODULES:
        if any(v is fn for v in vars(mod).values()) and mod.__file__:
            text = Path(mod.__file__).read_text(encoding="utf-8").splitlines()
            for i, line in enumerate(text, 1):
                if f'test("{fn.__name__}"' in line:
                    return Path(mod.__file__), i
    return Path("?"), 0


def fire_sites() -> dict[tuple[str, str], list[tuple[str, int, str]]]:
    """(leaf, trigger) -> every place in ``simulator/rules/`` and ``simulator/game/`` (a player's action) that fires it: ``fire(g, LEAF, TRIGGER, ...)``, and the
    procedures ``rt.steps(g, LEAF, TRIGGER, ...)`` and ``rt.run(g, LEAF, START, STEP, ...)``, as (file, line,
    enclosing function). A trigger that is a variable (``fire(g, "player", trigger, ...)``) counts for every trigger
    of its leaf."""
    import ast

    out: dict[tuple[str, str], list[tuple[str, int, str]]] = {}
    for path in [*sorted((ROOT / "simulator" / "rules").glob("*.py")), *sorted((ROOT / "simulator" / "game").glob("*.py"))]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for func in tree.body:                      # a module-level function (a nested one counts as its own)
            if not isinstance(func, ast.FunctionDef):
                continue
            for node in ast.walk(func):
                for leaf, trig, chosen in _fired(node):
                    out.setdefault((leaf, trig), []).append((path.relative_to(ROOT).as_posix(),
                                                             getattr(node, "lineno", 0),
                                                             func.name + (" (its trigger chosen there)" if chosen else "")))
    return out


def _fired(node) -> list[tuple[str, str, bool]]:
    """The (leaf, trigger) pairs a call node fires, if it is one of the calls :func:`fire_sites` reads."""
    import ast

    if not isinstance(node, ast.Call):
        return []
    name = _called(node.func)
    texts = [_text(a) for a in node.args[1:]]
    if name not in ("fire", "steps", "run") or len(texts) < 2 or texts[0] not in statecharts.LEAVES:
        return []
    leaf = texts[0]
    wanted = texts[1:3] if name == "run" else texts[1:2]
    triggers = statecharts.LEAVES[leaf].triggers()
    return [(leaf, trig, want is None) for want in wanted for trig in triggers if want is None or want == trig]


def _called(f) -> str:
    """The name a call node calls (``fire`` of ``rt.fire``)."""
    import ast

    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _text(a) -> str | None:
    """A literal string argument's text, else None."""
    import ast

    return a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None


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
