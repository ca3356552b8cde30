"""HOT FEPR and the turn cycle are declared (statecharts/schedule.py, 334-340): the engine only runs the schedule.

The compiled schedule is checked against a plain reading of the declaration on every bundled scenario: the
same traces. The declaration itself is checked: every name is registered, every state is declared, the
last step holds always, and the engine's settle loop names no machine state.
"""
from __future__ import annotations

import ast
import pathlib
import sys

import pytest

import statecharts
from statecharts.schedule import SCHEDULE

from simulator.core import registry
from simulator.core.errors import RulesBug
from simulator.game import engine
from simulator.rules import install
from simulator.scenario import loader

ROOT = pathlib.Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "scenarios").glob("*.yaml"))


def interpreted_settle(g) -> None:
    """The schedule read literally: the first step whose conditions hold, its effect, stop or start over."""
    for _ in range(engine.LIMIT):
        for s in SCHEDULE:
            if all(registry.GUARDS[name](g, None, None) if state is None else g.ms[(name, None)] == state
                   for name, state in s.conditions()):
                if s.do:
                    registry.EFFECTS[s.do](g, None, {})
                break
        else:
            raise RulesBug("no step")
        if s.stop:
            return
    raise RulesBug("did not settle")


def test_the_declaration_names_only_registered_guards_effects_and_declared_states():
    install()
    for s in SCHEDULE:
        assert s.rules, s.name
        assert not s.do or s.do in registry.EFFECTS, s.do
        assert s.stop == bool(s.decides), f"{s.name}: a stop says who decides, and only a stop"
        for name, state in s.conditions():
            if state is None:
                assert name in registry.GUARDS, name
            else:
                leaf = statecharts.LEAVES[name]
                assert state in leaf.states and leaf.per == "game", (name, state)
    assert SCHEDULE[-1].when == () and all(s.when for s in SCHEDULE[:-1]), "only the last step always holds"


def test_the_engine_settle_names_no_state_and_no_machine():
    """engine.settle runs the schedule: no machine or state name is written in it."""
    tree = ast.parse((ROOT / "simulator" / "game" / "engine.py").read_text())
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "settle")
    names = {leaf.name for leaf in statecharts.LEAVES.values()} | {s for leaf in statecharts.LEAVES.values()
                                                                   for s in leaf.states}
    literals = {n.value for n in ast.walk(fn) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert literals & names == set()


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_compiled_schedule_gives_the_same_trace_as_the_declaration_read_literally(path, monkeypatch):
    compiled = loader.run(loader.load(str(path)))
    monkeypatch.setattr(engine, "settle", interpreted_settle)
    literal = loader.run(loader.load(str(path)))
    assert literal.status == compiled.status
    assert literal.events == compiled.events and compiled.events


def test_the_order_is_the_rule(monkeypatch):
    """334: outstanding tasks are handled first; a schedule that gives the turn player priority in the Main
    Phase before handling them never opens the showdown of seed 002 (so the declared order decides)."""
    path = ROOT / "scenarios" / "seed002-showdown-becomes-a-combat.yaml"
    before = loader.run(loader.load(str(path)))
    i = next(k for k, s in enumerate(SCHEDULE) if s.name == "outstanding tasks")
    j = next(k for k, s in enumerate(SCHEDULE) if s.name == "main phase")
    swapped = list(SCHEDULE)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    monkeypatch.setattr(sys.modules[__name__], "SCHEDULE", tuple(swapped))
    monkeypatch.setattr(engine, "settle", interpreted_settle)
    after = loader.run(loader.load(str(path)))
    assert before.status == "pass" and after.status == "fail"
    assert "the turn is now in a Showdown state" in [e.event for e in before.events]
    assert "the turn is now in a Showdown state" not in [e.event for e in after.events]
