"""Conformance fixtures from random paths of the explored state space (``riftsim verify --export-fixtures``).

Path ``i`` starts from position ``i mod len(positions)`` and picks, with a generator seeded by
(``seed``, ``i``) alone, one of the actions the explorer expands (:func:`simulator.verify.explore.actions_of`,
concede only where the position explores it; concede and end-turn, which end a path soon, are drawn
among all the actions only one time in ten), now and then a pass by a player who may not pass (a
refused command). It stops at a win, after the position's ``turns`` end-turns, or after
:data:`LENGTH` actions: every state on it is one the bounded exploration visits (it expands every state
before its turns bound). Same positions, seed and count: the same fixtures, byte for byte.
"""
from __future__ import annotations

import random
from pathlib import Path

from simulator.core.errors import Loop, RulesBug, ScenarioError
from simulator.core.files import atomic_write
from simulator.game.actions import Action
from simulator.scenario.fixtures import dumps, from_actions, position_game
from simulator.verify.explore import Position, actions_of

#: actions that end a path soon (a duel's concede, an end-turn at the turns bound): drawn among all the actions
#: only this often, else among the others (when there are others)
RARE = ("concede", "end-turn")
RARELY = 0.1
#: the most actions on one sampled path
LENGTH = 40
#: how often a path tries a refused command (a pass by a player without priority or focus)
REFUSED = 0.1


def position_of(pos: Position) -> dict:
    """A verify position as a fixture's starting position (its rulings included)."""
    return {**pos.setup, **({"rulings": dict(pos.rulings)} if pos.rulings else {})}


def walk(pos: Position, rng: random.Random, depth: int | None) -> list[Action]:
    """One random path of the explored space from ``pos`` (see the module's docstring)."""
    game, _ = position_game(position_of(pos), pos.name)
    out: list[Action] = []
    turns = 0
    limit = LENGTH if depth is None else min(LENGTH, depth)
    while len(out) < limit and game.state.winner is None and turns < pos.turns:
        a, refused = _pick(game.state, pos, rng)
        if a is None:
            break
        if refused:
            out.append(a)                                         # refused: the state does not change
            continue
        try:
            game.apply(a, len(out) + 1)
        except (Loop, RulesBug):                                 # verify reports these; a path stops there
            break
        out.append(a)
        turns += a.kind == "end-turn"
    return out


def _pick(g, pos: Position, rng: random.Random) -> tuple[Action | None, bool]:
    """(the next action of the path, whether it is a pass the rules refuse); (None, False) when none is legal."""
    acts = actions_of(g, pos.concede)
    idle = [p for p in g.in_game() if Action("pass", p) not in acts]
    if idle and rng.random() < REFUSED:
        return Action("pass", rng.choice(idle)), True
    plays = [a for a in acts if a.kind not in RARE]
    if not acts:
        return None, False
    return rng.choice(plays if plays and rng.random() >= RARELY else acts), False


def sample(positions: list[Position], n: int, seed: int, depth: int | None = None) -> list[dict]:
    """``n`` fixtures of random paths (path ``i`` from ``positions[i % len(positions)]``)."""
    out = []
    for i in range(n):
        pos = positions[i % len(positions)]
        rng = random.Random(f"riftsim-sample:{seed}:{i}")
        actions = walk(pos, rng, depth)
        prov = {"source": f"riftsim verify --export-fixtures --seed {seed}: position {pos.name}", "seed": seed,
                "path": i, "description": f"a random path of {len(actions)} actions through the state space "
                                          f"explored from {pos.name} (turns {pos.turns})"}
        out.append(from_actions(f"sample-{seed}-{i:04d}-{pos.name}", position_of(pos), actions, prov))
    return out


def export(out: str, positions: list[Position], n: int, seed: int, depth: int | None = None) -> int:
    """Write the sampled fixtures into the folder ``out``; returns how many."""
    target = Path(out)
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ScenarioError(out, f"cannot create the fixtures folder: {e.strerror or e}") from None
    docs = sample(positions, n, seed, depth)
    for doc in docs:
        atomic_write(target / f"{doc['name']}.json", dumps(doc))
    return len(docs)
