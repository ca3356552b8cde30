"""Targets (356): what a player may name for a ``target`` field, and whether the named targets are legal.

Used by the game layer's legality checks (playing a card, activating an ability, the ``target`` step) and by
the chain's schedule, which removes a triggered ability that has no legal target at all (402.4).
"""
from __future__ import annotations

from itertools import product

from statecharts.citations import cite
from simulator.core.errors import IllegalAction
from simulator.core.model import State
from simulator.rules.moves import destination_problem


def target_fields(effect: tuple) -> tuple[str, ...]:
    """The fields an effect leaves to the player (value ``target``), in order."""
    out: list[str] = []
    for _, fields in effect:
        for f, v in fields:
            if v == "target" and f not in out:
                out.append(f)
    return tuple(out)


def target_options(g: State, it) -> list[tuple]:
    """The legal ``targets`` of a triggered ability (402.4: none -> it is removed)."""
    fields = target_fields(it.effect)
    out = []
    for combo in product(*[pool(g, f) for f in fields]):
        t = tuple(zip(fields, combo))
        try:
            check_targets(g, it.controller, t, fields, it.name, hidden_at=it.hidden_at)
        except IllegalAction:
            continue
        out.append(t)
    return out


def pool(g: State, f: str) -> list[str]:
    return target_pool(g, f, [u.id for u in g.units.values() if u.zone == "board" and u.kind == "unit"])


def check_targets(g: State, player: str, targets: tuple, fields: tuple, what: str, friendly: bool = False,
                  hidden_at: str | None = None) -> None:
    """356: every target field named, each target legal; ``hidden_at``: a card played from facedown there, or its
    play effect, chooses only there (811.1.d.2)."""
    given = dict(targets)
    for f in given:
        if f not in fields:
            raise IllegalAction(f"{what} takes no target {f!r}", cite("targets.takes-no-target"))
    for f in fields:
        if f not in given:
            raise IllegalAction(f"{what} needs a target for {f!r}", cite("targets.needs-target"))
    for f, check in FIELD_CHECKS:
        if f in given and f in fields:
            check(g, player, given, what, friendly)
    if hidden_at is not None:
        _check_hidden_choices(g, given, what, hidden_at)


def _check_unit(g: State, player: str, given: dict, what: str, friendly: bool) -> None:
    """A unit on the board; a friendly one for an item that targets a friendly unit."""
    u = g.units.get(given["unit"])
    if u is None or u.zone != "board" or u.kind != "unit":
        raise IllegalAction(f"{given['unit']} is not a unit on the board", cite("targets.not-unit-board"))
    if friendly and u.controller != player and not g.teammates(player, u.controller):
        raise IllegalAction(f"{what} targets a friendly unit; {u.id} is not", cite("targets.targets-friendly-unit-not"))


def _check_destination(g: State, player: str, given: dict, what: str, friendly: bool) -> None:
    """A base or battlefield the unit moved may go to (447.2, 144), other than where it is."""
    dest = given["to"]
    if dest != "base" and dest not in g.bfs:
        raise IllegalAction(f"{dest} is not a battlefield or base", cite("targets.not-battlefield-or-base"))
    u = g.units.get(given.get("unit") or "")
    if u is None:
        return
    if u.at == dest:
        raise IllegalAction(f"{u.id} is already at {dest}", cite("targets.already"))
    problem = destination_problem(g, u, dest)
    if problem:
        raise IllegalAction(f"{dest} is not a valid destination: {problem[0]}", problem[1])


def _check_place(g: State, player: str, given: dict, what: str, friendly: bool) -> None:
    if given["at"] != "base" and given["at"] not in g.bfs:
        raise IllegalAction(f"{given['at']} is not a battlefield or base", cite("targets.not-battlefield-or-base"))


def _check_item(g: State, player: str, given: dict, what: str, friendly: bool) -> None:
    if not any(it.name == given["item"] for it in g.chain):
        raise IllegalAction(f"{what} targets a chain item; {given['item']} is not on the chain", cite("targets.targets-chain-item-not-chain"))


def _check_player(g: State, player: str, given: dict, what: str, friendly: bool) -> None:
    if given["player"] not in g.in_game():
        raise IllegalAction(f"{given['player']} is not a player in the game", cite("targets.not-player-game"))


def _check_gear(g: State, player: str, given: dict, what: str, friendly: bool) -> None:
    u = g.units.get(given["gear"])
    if u is None or u.zone != "board" or u.kind != "gear":
        raise IllegalAction(f"{given['gear']} is not gear on the board", cite("targets.not-gear-board"))


def _check_card(g: State, player: str, given: dict, what: str, friendly: bool) -> None:
    """A card target names a card in a trash (Z3)."""
    if given["card"] not in trashed(g):
        raise IllegalAction(f"{what} targets a card in a trash; {given['card']} is not in a trash",
                            cite("targets.not-in-a-trash"))

#: each target field and what makes a target for it legal, in the order they are checked
FIELD_CHECKS = (("unit", _check_unit), ("to", _check_destination), ("at", _check_place), ("item", _check_item),
                ("player", _check_player), ("gear", _check_gear), ("card", _check_card))


def _check_hidden_choices(g: State, given: dict, what: str, bf: str) -> None:
    """811.1.d.2: a card played from facedown at ``bf`` makes its choices only there, and so does its play effect
    (a hidden unit's or gear's play trigger): a unit chosen must be at ``bf``, a place chosen must be ``bf``."""
    for f, v in given.items():
        if f == "unit":
            u = g.units.get(v)
            if u is not None and u.at != bf:
                raise IllegalAction(f"{what} chooses only at {bf} (played from facedown there): {v} is not there",
                                    cite("targets.was-played-from-facedown-not"))
        elif f in ("to", "at") and v != bf:
            raise IllegalAction(f"{what} chooses only at {bf} (played from facedown there), not {v}",
                                cite("targets.was-played-from-facedown-choices"))




def trashed(g: State) -> list[str]:
    """The cards a ``card: target`` may name (Z3): every card in a trash, each entry once, in turn order."""
    return list(dict.fromkeys(c for p in g.cfg.order for c in g.pile("trash", p)))


def target_pool(g: State, field: str, board: list[str]) -> list:
    """What a player may name for a ``target`` field (356): a unit on the board, a place, a chain item (by its
    name: the newest of that name), a player in the game. Every kind the effect vocabulary lets a card
    target has a pool, so ``legal`` lists a card whenever some choice of targets is legal."""
    if field == "unit":
        return board
    if field in ("to", "at"):
        return ["base", *g.bfs]
    if field == "item":
        return list(dict.fromkeys(it.name for it in g.chain))
    if field == "player":
        return list(g.in_game())
    if field == "card":
        return trashed(g)
    if field == "gear":
        return [u.id for u in g.units.values() if u.zone == "board" and u.kind == "gear"]
    raise ValueError(f"{field!r} is not a target field")   # the validator refuses it (TARGET_FIELDS)
