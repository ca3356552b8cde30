"""A fact lives in one place (issue 29): who has won and which battlefield is active are read from the machines'
states, never stored beside them, so the two cannot disagree (the explorer's invariants "the phase is GameOver
exactly when someone has won", 323.1, 651.1, and "one active showdown or combat", 308, 323.12, 460, hold by
construction)."""
from __future__ import annotations

import pathlib

import pytest

from statecharts.battlefield import ONGOING
from statecharts.states import Mode, Phase, PlayerState
from simulator.core.model import State
from simulator.scenario.loader import load, run

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("fact", ["winner", "active"])
def test_the_fact_is_derived_not_stored(fact):
    assert fact not in State.__slots__
    assert isinstance(getattr(State, fact), property) and getattr(State, fact).fset is None


def test_323_1_the_winner_is_the_players_whose_machine_is_won():
    res = run(load(str(ROOT / "scenarios" / "multiplayer-magma-chamber-a-concession-loses-for-the-whole-team.yaml")))
    g = res.state
    assert g.winner is not None and len(g.winner) == 2       # a team of two wins together (651.4)
    assert g.winner == tuple(p for p in g.order if g.ms[("player", p)] == PlayerState.Won)
    assert (g.winner is not None) == (g.ms[("phases", None)] == Phase.GameOver)


def test_460_the_active_battlefield_is_the_one_whose_status_is_ongoing():
    res = run(load(str(ROOT / "scenarios" / "abilities-activated-action-speed-in-a-showdown.yaml")))
    g = res.state
    assert g.active is not None                         # the scenario ends in Showdown Open
    ongoing = [b for b in g.bfs if g.ms[("battlefield.status", b)] in ONGOING]
    assert g.active == (ongoing[0] if ongoing and g.ms[("turn.mode", None)] == Mode.Showdown else None)
