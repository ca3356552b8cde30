"""Hand-offs are declared: a machine that tells another something does it through the sending transition's
``sends``, on both backends, and a guarded hand-off fires only when its guards hold.

466.5.a is the worked example: when the combat's control is decided (the combat machine's ``control``), the
battlefield is settled, no longer Contested, before the chain window of 466.6 (``battlefield.status:settle``),
unless both sides have units there (``[!both_sides_remain]``, 466.7, R8); with nobody's units left it becomes
uncontrolled (466.5.b, ``battlefield.control:lose [abandoned]``).
"""
from __future__ import annotations

import pathlib

import pytest

import statecharts
from statecharts.spec import send
from statecharts.states import Control, Status
from simulator.core import registry
from simulator.scenario.loader import load
from simulator.scenario.record import record

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "rule-466.5.a-combat-clears-contested-before-the-conquer-window.yaml"


def _after_control(backend: str) -> list:
    """What fired from the combat's control on, up to the next combat transition or the next cleanup."""
    fired = record(load(str(SCENARIO)), backend=backend, snapshots=False).fired
    i = next(k for k, f in enumerate(fired) if f.leaf == "combat" and f.t.trigger == "control")
    end = next(k for k in range(i + 1, len(fired)) if fired[k].leaf in ("combat", "cleanup"))
    return fired[i:end]


def test_the_combats_control_declares_its_handoffs():
    control = [t for t in statecharts.LEAVES["combat"].transitions if t.trigger == "control" and not t.guards]
    assert [send(s) for s in control[0].sends] == [send("battlefield.control:lose [abandoned]"),
                                                   send("battlefield.status:settle [!both_sides_remain]")]


@pytest.mark.parametrize("backend", ["compiled", "transitions"])
def test_466_5_a_settle_is_handed_off_by_the_combats_control(backend):
    """466.5.a: Contested is cleared as control is settled: the settle follows the combat's control, before the
    combat ends (466.7), and the battlefield is Settled."""
    after = _after_control(backend)
    settle = [f for f in after if (f.leaf, f.t.trigger) == ("battlefield.status", "settle")]
    assert len(settle) == 1, "no settle between the combat's control and its next step"
    assert settle[0].t.dest == Status.Settled and "466.5.a" in settle[0].t.rules
    assert after[-1] is settle[0], "the settle comes last: handed off after the control's effects (the Conquer)"


@pytest.mark.parametrize("backend", ["compiled", "transitions"])
def test_a_guarded_handoff_fires_only_when_its_guard_holds(backend, monkeypatch):
    """466.5.b: the battlefield becomes uncontrolled only when nobody's units remain (``abandoned``). Here the
    attacker's units remain and it gains control: no lose; with the guard forced, the lose is handed off."""
    assert not any((f.leaf, f.t.trigger) == ("battlefield.control", "lose") for f in _after_control(backend))
    monkeypatch.setitem(registry.GUARDS, "abandoned", lambda g, inst, ctx: True)
    after = _after_control(backend)
    lose = [f for f in after if (f.leaf, f.t.trigger) == ("battlefield.control", "lose")]
    assert len(lose) == 1 and lose[0].t.dest == Control.Uncontrolled
    assert after[-2:] == [lose[0], after[-1]], "lose then settle: the hand-offs in their declared order"
