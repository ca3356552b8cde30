"""Helpers for the multiplayer, team and concede tests (issue 7), on top of conftest's game/do/illegal/expect.

* ``unit(id, owner, at, might, abilities=[...])`` and ``trig(name, when, *effects)``: setup entries in the
  scenario vocabulary.
* ``war(**keys)``, ``skirmish(**keys)``, ``magma(**keys)``: games in those modes (turn order A, B, C[, D];
  battlefields North, South, East), other keys as in the scenario format.
* ``assert_no_stale_holder(g)``: after a concede nobody who left holds focus, priority or the turn, they have
  no legal action, and unless the game is over somebody still in it can do more than concede (no stall).
"""
from __future__ import annotations

from conftest import game

from simulator.game.actions import legal
from simulator.game.engine import Game

BFS = ["North", "South", "East"]


def unit(uid: str, owner: str, at: str = "base", might: int = 1, **kw) -> dict:
    return {"id": uid, "owner": owner, "at": at, "might": might, **kw}


def trig(name: str, when: str, *effects: dict) -> dict:
    """A triggered ability: ``trig("brace", "on-defend")``, ``trig("x", "on-any-attack", {"draw": {}})``."""
    return {"name": name, "trigger": when, "effect": list(effects)}


def war(**keys) -> Game:
    return game({"mode": "war", "players": ["A", "B", "C", "D"], "battlefields": BFS}, **keys)


def skirmish(**keys) -> Game:
    return game({"mode": "skirmish", "players": ["A", "B", "C"], "battlefields": BFS}, **keys)


def magma(**keys) -> Game:
    """2v2: teams A+C and B+D, turn order A, B, C, D (alternating teams, 489)."""
    return game({"mode": "magma-chamber", "players": ["A", "B", "C", "D"], "teams": [["A", "C"], ["B", "D"]],
                 "battlefields": BFS}, **keys)


def assert_no_stale_holder(g: Game) -> None:
    s = g.state
    gone = [p for p in s.order if p not in s.in_game()]
    assert gone, "nobody has left the game"
    assert s.focus not in gone, f"{s.focus} left the game but still holds focus"
    assert s.priority not in gone, f"{s.priority} left the game but still holds priority"
    if s.winner is None:
        assert s.turn not in gone, f"{s.turn} left the game but still has the turn"
    for p in gone:
        assert legal(s, p) == [], f"{p} left the game but may still act"
    if s.winner is None:
        movers = [p for p in s.in_game() if any(a.kind != "concede" for a in legal(s, p))]
        assert movers, "nobody still in the game can do anything but concede: the game is stalled"
