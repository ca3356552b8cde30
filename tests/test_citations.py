"""Every rule id an effect's trace line or a refusal cites resolves to a declaration (issue 12).

Trace lines not written by a transition, and the checks that refuse an action, cite their rules by the name
of a row of ``statecharts/citations.py`` (``cite("effects.killed")``): no rule id is written as a text in
``simulator/rules/`` or ``simulator/game/`` (a ruling switch read by ``ruling_is`` aside). Every rule id of
every golden trace is cited by some declaration (a transition, a schedule step, a timing-table row, a
ruling or a citation), exactly, not only titled; ``tests/conftest.py`` checks the same of every refusal the
whole test run produces (the run fails otherwise).
"""
from __future__ import annotations

import ast
import json
import pathlib
import re
import subprocess
import sys

from simulator.cli.rules import declared, undeclared
from statecharts.citations import CITED

ROOT = pathlib.Path(__file__).resolve().parents[1]
RULE_TEXT = re.compile(r",? ?(\d{3}(\.[0-9a-z]+)*|R\d+)(, (\d{3}(\.[0-9a-z]+)*|R\d+))*,? ?")
CHECKED = ("simulator/rules", "simulator/game")


def rule_literals(src: str, name: str = "<src>") -> list[str]:
    """String literals spelling rule ids (``"340, 354.3"``), docstrings and ``ruling_is`` switches aside.

    >>> rule_literals('log(g, "{unit} is killed", "340", p)'), rule_literals('log(g, "x", cite("effects.killed"))')
    (['<src>:1: "340"'], [])
    >>> rule_literals('if ruling_is(g, "R9", "reset"): pass')
    []
    """
    tree = ast.parse(src)
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body \
                and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
            skip.add(id(node.body[0].value))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ruling_is":
            skip.update(id(a) for a in node.args)
    return [f'{name}:{n.lineno}: "{n.value}"' for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and RULE_TEXT.fullmatch(n.value)
            and id(n) not in skip]


def cited_names(src: str) -> list[tuple[int, str]]:
    """The names given to ``cite(...)`` in ``src`` (both arms of a conditional)."""
    out = []
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "cite" and node.args:
            arms = [node.args[0]]
            while arms:
                a = arms.pop()
                if isinstance(a, ast.IfExp):
                    arms += [a.body, a.orelse]
                elif isinstance(a, ast.Constant) and isinstance(a.value, str):
                    out.append((node.lineno, a.value))
                else:
                    out.append((node.lineno, f"<not a literal name: {ast.unparse(a)}>"))
    return out


def _modules():
    return sorted(p for d in CHECKED for p in (ROOT / d).rglob("*.py"))


def test_no_rule_id_is_written_as_a_text_where_effects_and_refusals_are():
    found = [hit for p in _modules() for hit in rule_literals(p.read_text(), str(p.relative_to(ROOT)))]
    assert not found, "cite a row of statecharts/citations.py instead:\n" + "\n".join(found)


def test_every_cited_name_is_declared_and_every_row_is_cited():
    used = {}
    for p in sorted((ROOT / "simulator").rglob("*.py")):
        for line, name in cited_names(p.read_text()):
            used.setdefault(name, f"{p.relative_to(ROOT)}:{line}")
    unknown = {n: where for n, where in used.items() if n not in CITED}
    assert not unknown, unknown
    assert sorted(set(CITED) - set(used)) == [], "rows nobody cites"


def test_every_rule_id_of_every_golden_trace_is_declared():
    golden = sorted((ROOT / "tests" / "golden").glob("*.json"))
    assert golden
    missing = {}
    n = 0
    for f in golden:
        for e in json.loads(f.read_text())["events"]:
            n += 1
            for r in undeclared(e.get("rules") or ""):
                missing.setdefault(r, f"{f.name}: {e['text']}")
    assert n > 1000
    assert not missing, missing


def test_a_refusal_cites_declared_rules():
    """A rule judge's check: B may not end A's turn (316.9, R14); the refusal names the declared rules."""
    from simulator.core.errors import IllegalAction
    from simulator.game.actions import Action
    from tests.conftest import game

    g = game()
    try:
        g.apply(Action("end-turn", "B"))
    except IllegalAction as e:
        assert e.rule == "316.9, R14" and not undeclared(e.rule)
    else:
        raise AssertionError("B ended A's turn")


def test_riftsim_rules_shows_the_citations():
    r = subprocess.run([sys.executable, "-m", "simulator.cli.main", "rules", "423.1", "--no-scenarios"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "trace line effects.stunned-deals-no-combat-damage" in r.stdout
    assert "423.1" in declared() and "465.2.c.4" in declared()
