"""Timing permissions come from the declared tables (statecharts/timing.py: 155, 308.1.a, 309.1.a, 806, 813,
144, 316.9, R13, R14): actions.py asks them and restates none of them."""
from __future__ import annotations

import ast
import pathlib

from statecharts import timing
from statecharts.turn import NEUTRAL_CLOSED, NEUTRAL_OPEN, SHOWDOWN_OPEN, TURN_STATES

from conftest import do, expect, game, illegal

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_every_refusal_where_a_table_allows_nothing_is_declared():
    """Each (action, state) the tables do not allow has a declared reason and rule (so every refusal names
    a table row)."""
    for st in TURN_STATES:
        assert st in timing.NEEDS and st in timing.PLAY
        for action, rows in timing.ALLOWED.items():
            assert (st in rows) != ((action, st) in timing.REFUSED), (action, st)
        if set(timing.PLAY[st]) != {"normal", "action", "reaction"}:
            assert ("play", st) in timing.REFUSED


def test_actions_restate_no_turn_state():
    """No turn-state name is written in the legality code (the generic checks and each action kind's): it reads
    the tables (and the declared constants)."""
    src = "\n".join((ROOT / "simulator" / "game" / f).read_text() for f in ("actions.py", "action_kinds.py"))
    literals = {n.value for n in ast.walk(ast.parse(src)) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert literals & set(TURN_STATES) == set()
    for table in ("NEEDS", "PLAY", "ALLOWED", "TURN_PLAYER_ONLY", "NO_PASS", "REFUSED"):
        assert f"timing.{table}" in src, f"the legality code does not read timing.{table}"


def test_showdown_refusals_name_the_table_rows():
    """308.1.a, 806: a normal spell is refused in Showdown Open with the row's reason and rules; 144: no move."""
    g = game(units=[{"id": "a1", "owner": "A", "at": "base"}, {"id": "a2", "owner": "A", "at": "base"}],
             hands={"A": ["normal-spell"]})
    do(g, "A move a1 North")
    expect(g, state=SHOWDOWN_OPEN, focus="A")
    reason, rules = timing.REFUSED[("play", SHOWDOWN_OPEN)]
    illegal(g, "A play normal-spell", reason.format(what="normal-spell"), rules)
    illegal(g, "A move a2 South", timing.REFUSED[("move", SHOWDOWN_OPEN)][0], "144")


def test_changing_a_row_changes_what_is_legal(monkeypatch):
    """The table is the only place: allowing normal timing in Showdown Open makes the spell playable there."""
    g = game(units=[{"id": "a1", "owner": "A", "at": "base"}], hands={"A": ["normal-spell"]})
    do(g, "A move a1 North")
    assert "play normal-spell" not in g.legal_summary("A")
    monkeypatch.setitem(timing.PLAY, SHOWDOWN_OPEN, {**timing.PLAY[SHOWDOWN_OPEN], "normal": ("test",)})
    assert "play normal-spell" in g.legal_summary("A")


def test_closed_state_and_end_turn_refusals():
    """309.1.a, 813: only Reactions while a chain exists; R14: the turn does not end in a Closed state."""
    g = game(hands={"A": ["normal-spell", "normal-spell"]})
    do(g, "A play normal-spell")
    expect(g, state=NEUTRAL_CLOSED)
    illegal(g, "A play normal-spell", "is not a Reaction", "309.1.a, 813")
    illegal(g, "A end-turn", f"the turn can't end in a {NEUTRAL_CLOSED} state", "R14")
    assert NEUTRAL_OPEN in timing.ALLOWED["end-turn"]
