"""State names are declared constants, never texts: the simulator writes ``ChainState.Decide``, not ``"Decide"``.

The rule (checked on every module under ``simulator/``): no string literal may equal a declared state
name of any machine (``statecharts.LEAVES``), wherever it appears (a comparison, a tuple tested with
``in``, a dict key, an assignment into ``g.ms``, an argument). Docstrings do not count. A word that
only happens to spell a state name (a label shown to a user) carries the marker comment
``# a word ..., not a state`` on its line. The declarations themselves (``statecharts/``) are the one place the
names are written, and ``statecharts/states.py`` is checked against them on import.

Trigger names are checked the other way round: every ``fire(g, LEAF, TRIGGER, ...)`` (and ``fire_ctx``)
whose leaf and trigger are written as texts must name a trigger that leaf declares.
"""
from __future__ import annotations

import ast
import pathlib

import pytest

import statecharts
from statecharts.states import NAMESPACES, ChainState, check

ROOT = pathlib.Path(__file__).resolve().parents[1]
STATE_NAMES = {s for leaf in statecharts.LEAVES.values() for s in leaf.states}
MARKER = "not a state"


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                out.add(id(first.value))
    return out


def state_literals(src: str, name: str = "<src>") -> list[str]:
    """Every string literal in ``src`` that spells a declared state name (docstrings and marked lines aside).

    >>> state_literals('if g.ms[("chain", None)] == "Decide": pass')
    ['<src>:1: "Decide"']
    >>> state_literals('if g.ms[("chain", None)] == ChainState.Decide: pass')
    []
    """
    tree = ast.parse(src)
    lines = src.splitlines()
    docs = _docstrings(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in STATE_NAMES \
                and id(node) not in docs and MARKER not in lines[node.lineno - 1]:
            out.append(f'{name}:{node.lineno}: "{node.value}"')
    return out


def undeclared_triggers(src: str, name: str = "<src>") -> list[str]:
    """Every ``fire``/``fire_ctx`` call naming, as texts, a leaf or a trigger the declarations do not have.

    >>> undeclared_triggers('fire(g, "chain", "add", item="x")'), undeclared_triggers('fire(g, "chain", "ad")')
    ([], ['<src>:1: chain has no trigger "ad"'])
    """
    out = []
    for node in ast.walk(ast.parse(src)):
        if not (isinstance(node, ast.Call) and len(node.args) >= 3):
            continue
        f = node.func
        fname = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if fname not in ("fire", "fire_ctx"):
            continue
        leaf, trig = node.args[1], node.args[2]
        if not (isinstance(leaf, ast.Constant) and isinstance(leaf.value, str)):
            continue
        decl = statecharts.LEAVES.get(leaf.value)
        if decl is None:
            out.append(f"{name}:{node.lineno}: no leaf machine {leaf.value!r}")
        elif isinstance(trig, ast.Constant) and trig.value not in {t.trigger for t in decl.transitions}:
            out.append(f'{name}:{node.lineno}: {leaf.value} has no trigger "{trig.value}"')
    return out


def _modules():
    """The simulator's hand-written modules: not the code ``riftsim generate`` derives from the declarations
    (``simulator/core/compiled/``: its names are the declarations' own, and ``tests/test_generated.py`` checks
    it is what they generate)."""
    compiled = ROOT / "simulator" / "core" / "compiled"
    return sorted(p for p in (ROOT / "simulator").rglob("*.py") if compiled not in p.parents)


def test_no_state_name_is_written_as_a_text_in_the_simulator():
    found = [hit for p in _modules() for hit in state_literals(p.read_text(), str(p.relative_to(ROOT)))]
    assert not found, "state names written as texts (use statecharts.states' constants):\n" + "\n".join(found)


def test_the_rule_catches_a_state_literal_wherever_it_is_used():
    """The shapes a state literal takes in the engine: each one is caught."""
    for src in ('x = g.ms[("chain", None)] == "Execute"', 'ONGOING = ("Combat", "Settled")',
                'g.ms[("battlefield.control", bf)] = "Controlled"', 'kinds = {"Staged": 1}',
                'st = "Contested" if a else None', 'g.cfg.rt.run(g, "cleanup", "run", "next", "Idle")'):
        assert state_literals(src), src
    assert not state_literals('label = "Contested"  # a word shown on the page, not a state')


def test_every_literal_trigger_fired_is_declared_by_its_leaf():
    found = [hit for p in _modules() for hit in undeclared_triggers(p.read_text(), str(p.relative_to(ROOT)))]
    assert not found, "\n".join(found)


def test_each_namespace_is_exactly_its_machines_declared_states():
    for name, leaf in statecharts.LEAVES.items():
        assert NAMESPACES[name].names() == leaf.states, name
    assert ChainState.Decide == "Decide"
    assert not hasattr(ChainState, "Decidee")             # a typo is an AttributeError


def test_a_state_declared_without_its_constant_fails_on_import():
    chain = statecharts.LEAVES["chain"]
    renamed = statecharts.Machine(chain.name, chain.title, (*chain.states, "Extra"), chain.initial)
    with pytest.raises(ValueError, match="ChainState"):
        check({**statecharts.LEAVES, "chain": renamed})
