"""Moving units (144, 445-458): destinations, Contested, recalls, arrivals."""
from __future__ import annotations

from statecharts.states import Status
from statecharts.citations import cite
from simulator.core.log import fire, log
from simulator.core.model import State, Unit

#: the trigger kinds a move fires (the chain's ``moved`` transition is fired only for a unit that has one)
MOVE_TRIGGERS = ("on-move", "on-arrive")


#: statuses in which a battlefield is not Contested (190.3.a.1: an arrival may apply it): Calm, and an
#: ongoing combat whose control is already settled (466.5.a)
UNCONTESTED = (Status.Calm, Status.Settled)


def contest(g: State, bf: str, player: str) -> None:
    """190.3.a.1: ``player`` applies Contested to ``bf``."""
    g.touch("battlefields")
    g.bfs[bf].contested_by = player
    g.dirty = True
    # not a hand-off: a unit arriving applies it (190.3.a.1, 450; 323.11.a): no transition moves a unit
    fire(g, "battlefield.status", "contest", bf, player=player)


def combat_outsider(g: State, player: str, bf: str) -> bool:
    """462, 447.2.a: a staged or ongoing combat between two others, and ``player`` has no units there (an
    attacker or defender of the ongoing combat is no outsider, even with no units left there)."""
    st = g.ms[("battlefield.status", bf)]
    if st not in (Status.StagedCombat, Status.ShowdownCombatStaged, Status.Combat, Status.Settled, Status.CombatRestaged):
        return False
    if g.units_at(bf, player):
        return False
    if g.active == bf and player in (g.attacker, g.defender):
        return False
    return True


def destination_problem(g: State, u: Unit, dest: str) -> tuple[str, str] | None:
    """Why ``u`` may not go to battlefield ``dest`` now, with the rule; None if it may (447.2, 144)."""
    if dest == "base":
        return None
    if combat_outsider(g, u.controller, dest):
        return (f"{dest} has a staged or ongoing combat between two other players", cite("moves.has-staged-or-ongoing-combat"))
    others = {p for p in g.players_at(dest) if p != u.controller}
    if any(g.teammates(u.controller, p) for p in others):
        return (f"{dest} is occupied by a teammate's units", cite("moves.occupied-teammate-units"))
    if len(others) >= 2:
        return (f"{dest} already has units of two other players", cite("moves.already-has-units-two-other"))
    return None


def relocate(g: State, u: Unit, dest: str, rule: str, verb: str = "moves") -> None:
    """Put ``u`` at ``dest``; arriving at a battlefield may apply Contested (190.3.a.1, 450); its move
    abilities trigger (446, 383)."""
    u = g.edit(u)
    src, u.at = u.at, dest
    g.dirty = True                                  # 453: a move completes -> cleanup
    log(g, "{unit} moves to {dest}", rule, u.controller, unit=u.id, dest=dest)
    if dest in g.bfs:
        arrive(g, u, dest)
    if any(ab.trigger in MOVE_TRIGGERS for ab in u.abilities):
        # not a hand-off: a move (446) is no transition: its triggers are noted as it completes (383)
        fire(g, "chain", "moved", moves=[(u.id, src, dest)], player=u.controller)   # 446, 383


def arrive(g: State, u: Unit, bf: str, moved: bool = True) -> None:
    """190.3.a.1: arriving where your controller lacks control applies Contested, if not already Contested.
    During one effect, arrivals are collected and settled together by :func:`settle_arrivals` (R7). Only a
    move fires ``on-arrive`` (the chain's ``moved`` transition, :func:`relocate` and :func:`standard_move`): a
    unit played to a battlefield arrives there without moving (446, 383.4); ``moved`` says which it is."""
    if g.arrivals is not None:
        g.arrivals.append((bf, u.controller))
    else:
        b = g.bfs[bf]
        if b.controller != u.controller and g.ms[("battlefield.status", bf)] in UNCONTESTED:
            contest(g, bf, u.controller)


def recall(g: State, u: Unit, rule: str) -> None:
    """455: to its base, not a move."""
    u = g.edit(u)
    u.at = "base"
    u.designation = None
    g.dirty = True
    log(g, "{unit} is recalled to base", rule, u.controller, unit=u.id)


def forced_move(g: State, u: Unit, dest: str) -> None:
    """446: a move by an effect; an invalid destination becomes a recall (447.2.c). A move to the place where
    the unit already is cannot happen and is ignored (355.4.a: a move's location is one other than the
    unit's own; 055: impossible instructions are ignored): no move, no recall, no arrival."""
    if u.at == dest:
        log(g, "{unit} is already at {dest}: the move does nothing (no move, no recall)", cite("moves.already-move-does-nothing-no"),
            u.controller, unit=u.id, dest=dest)
        return
    problem = destination_problem(g, u, dest)
    if problem:
        log(g, "{unit} cannot move to {dest} ({problem}): it is recalled instead", cite("moves.cannot-move-recalled-instead") + ", " + problem[1],
            u.controller, unit=u.id, dest=dest, problem=problem[0])
        if u.at != "base":
            recall(g, u, cite("moves.forced-move-recall"))
        return
    relocate(g, u, dest, cite("moves.forced-move-relocate"))


def standard_move(g: State, player: str, units: list[Unit], dest: str) -> None:
    """144: exhaust each unit and move them together to one destination."""
    units = [g.edit(u) for u in units]
    for u in units:
        u.exhausted = True
    names = " ".join(u.id for u in units)
    log(g, "{player} moves {units} to {dest}", cite("moves.moves"), player, units=names, dest=dest)
    g.events_on, was = False, g.events_on
    moves = [(u.id, u.at, dest) for u in units]
    try:
        for u in units:
            u.at = dest
    finally:
        g.events_on = was
    g.dirty = True
    if dest in g.bfs:
        for u in units:
            arrive(g, u, dest)
    if any(ab.trigger in MOVE_TRIGGERS for u in units for ab in u.abilities):
        # not a hand-off: a standard move (144) is a player's action: its triggers are noted as it completes
        fire(g, "chain", "moved", moves=moves, player=player)  # 144, 383: one move, its triggers simultaneous


def settle_arrivals(g: State, arrivals: list) -> None:
    """R7 (303.2.a): when one effect brings units of several players, the turn player applies Contested if
    among them, else the first of them in turn order from the turn player."""
    for bf in dict.fromkeys(bf for bf, _ in arrivals):
        b = g.bfs[bf]
        who = [p for p in g.from_turn_player({p for x, p in arrivals if x == bf}) if p != b.controller]
        if who and g.ms[("battlefield.status", bf)] in UNCONTESTED:
            if len(who) > 1:
                log(g, "units of {players} arrive at {bf} together: {player} applies Contested",
                    cite("moves.units-arrive-together-applies-contested"), who[0], players=", ".join(who), bf=bf)
            contest(g, bf, who[0])
