"""The position as the scenario format's expectation keys (and the JSON trace's ``final``)."""
from __future__ import annotations

from statecharts.states import CombatStep, Status
from simulator.game.actions import choice, legal
from simulator.core.model import State
from simulator.rules.moves import UNCONTESTED
from simulator.rules.scoring import points


def chain_names(g: State) -> list[str]:
    """The chain's items, oldest first; an item waiting mid-resolution for a may (383.3.a.3) is listed last."""
    names = [it.name for it in g.chain]
    return names + [g.resolving.item.name] if g.resolving is not None else names


def active(g: State):
    if g.active is None:
        return None
    if g.ms[("combat", None)] != CombatStep.Idle:
        return {"kind": "combat", "at": g.active, "attacker": g.attacker, "defender": g.defender}
    return {"kind": "showdown", "at": g.active}


def staged(g: State) -> dict:
    out = {}
    for name in g.bfs:
        st = g.ms[("battlefield.status", name)]
        kinds = {Status.Staged: ["showdown"], Status.StagedCombat: ["showdown", "combat"],
                 Status.ShowdownCombatStaged: ["combat"], Status.CombatRestaged: ["showdown", "combat"]}.get(st)
        if kinds:
            out[name] = kinds
    return out


def contested(g: State) -> list[str]:
    return [n for n in g.bfs if g.ms[("battlefield.status", n)] not in UNCONTESTED]


def unit_view(g: State, u) -> dict:
    """A unit as expectations see it; ``ward`` is shown only while it has one (expected ``false`` otherwise)."""
    v = {"at": u.at, "might": g.might(u), "stunned": u.stunned, "zone": u.zone, "damage": u.damage,
         "controller": u.controller, "exhausted": u.exhausted, "designation": u.designation}
    if u.ward:
        v["ward"] = True
    return v


def hidden(g: State) -> dict:
    """Facedown cards per battlefield (811), each list sorted."""
    out: dict = {}
    for bf, _, card, _ in g.hidden:
        out.setdefault(bf, []).append(card)
    return {b: sorted(c) for b, c in out.items()}


def winner(g: State):
    if g.winner is None:
        return None
    if g.cfg.mode == "magma-chamber":
        return list(g.winner)
    return g.winner[0]


def view(g: State, *, with_legal: bool = True, every: bool = False) -> dict:
    v = {
        "state": g.turn_state(),
        "turn": g.turn,
        "focus": g.focus,
        "priority": g.priority,
        "chain": chain_names(g),
        "active": active(g),
        "staged": staged(g),
        "contested": contested(g),
        "controller": {n: b.controller for n, b in g.bfs.items()},
        "score": {p: points(g, p) for p in g.order},
        "units": {u.id: unit_view(g, u) for u in g.units.values() if u.kind == "unit"},
        "players": list(g.in_game()),
        "winner": winner(g),
        "phase": g.ms[("phases", None)],
    }
    # the keys of the keywords and resources (docs/keywords-and-resources.md): always with ``every``
    # (expectations), else only where the game uses them, so the view of an older file is unchanged
    if every or g.cfg.resources is not None:
        v["energy"] = dict(g.energy)
        v["runes"] = dict(g.runes)
    if every or g.hidden:
        v["hidden"] = hidden(g)
    if every:
        v["gear"] = {u.id: {"exhausted": u.exhausted, "zone": u.zone} for u in g.units.values() if u.kind == "gear"}
    if with_legal:
        v["legal"] = {p: sorted(dict.fromkeys(choice(a) for a in legal(g, p))) for p in g.order}
    return v
