"""Combat (459-466): designations, the combat chain, damage, resolution."""
from __future__ import annotations

from statecharts.citations import cite
from statecharts.states import Control, Status
from simulator.rules.cleanup import run_cleanup
from simulator.core.log import fire, log
from simulator.core.model import State
from simulator.core.registry import effect, guard
from simulator.rules.scoring import establish_control
from simulator.rules.triggers import pend, simultaneous


def _active(g: State) -> str:
    """The battlefield of the active showdown or combat (these guards and effects run only while there is one)."""
    bf = g.active
    assert bf is not None, "no active showdown or combat"
    return bf


def _sides(g: State) -> tuple[str, str]:
    """(attacker, defender) of the active combat (designated by ``designate``, 464.2.c)."""
    a, d = g.attacker, g.defender
    assert a is not None and d is not None, "no designated attacker and defender"
    return a, d


@guard
def _both_sides_present(g: State, inst, ctx) -> bool:
    bf = _active(g)
    return bool(g.units_at(bf, g.attacker)) and bool(g.units_at(bf, g.defender))


@guard
def _both_sides_remain(g: State, inst, ctx) -> bool:
    return _both_sides_present(g, inst, ctx)


@guard
def _control_settled(g: State, inst, ctx) -> bool:
    ps = g.players_at(inst)
    return len(ps) == 1 and g.bfs[inst].controller == ps[0]


@effect
def _designate(g: State, inst, ctx) -> None:
    """464.2.c: attacker = who applied Contested, defender = the other player; their units designated."""
    bf = _active(g)
    g.touch("sides")
    g.touch("battlefields")
    g.attacker = g.bfs[bf].contested_by
    present = g.players_at(bf)                      # in turn order from the turn player
    if g.attacker not in present:
        # the applier's units left during the showdown (or the applier left the game) and two others converted it:
        # as for arrivals together (R7), the first of them in turn order from the turn player applies Contested
        g.attacker = g.bfs[bf].contested_by = present[0]
        log(g, "{player} now applies Contested at {bf}: none of the applier's units are left there",
            cite("combat.now-applies-contested-none-applier"), g.attacker, bf=bf)
    g.defender = next(p for p in present if p != g.attacker and g.opponents(p, g.attacker))
    for u in g.units_at(bf):
        u = g.edit(u)
        u.designation = "attacker" if u.controller == g.attacker else "defender" if u.controller == g.defender else None
        u.fought = u.designation is not None
    ctx["bf"] = bf


@effect
def _combat_chain(g: State, inst, ctx) -> None:
    """464.2.e: the triggers of the designations are placed attacker first, then non-defenders in turn order,
    then defender, after any start-of-showdown trigger (464.2.b, placed as the showdown began); each player with
    two or more of them orders their own among the positions they occupy (383.3.d)."""
    bf = _active(g)
    b = g.bfs[bf]
    attacker, defender = _sides(g)
    others = [p for p in g.from_turn_player(g.in_game()) if p not in (attacker, defender)]
    with simultaneous(g):
        for p in [attacker, *others, defender]:
            for u in list(g.units.values()):
                if u.zone != "board" or u.controller != p:
                    continue
                for ab in u.abilities:
                    fires = (ab.trigger == "on-any-attack"
                             or (ab.trigger == "on-attack" and u.at == bf and u.designation == "attacker")
                             or (ab.trigger == "on-defend" and u.at == bf and u.designation == "defender"))
                    if fires:
                        pend(g, u.id, ab, p, there=bf, why=cite("combat.place-combat-triggers-pend"))
            # a battlefield's "when a player attacks / defends here": controlled by that player
            role = "on-attack" if p == attacker else "on-defend" if p == defender else None
            for ab in b.abilities:
                if role and ab.trigger == role:
                    pend(g, bf, ab, p, there=bf, why=cite("combat.place-combat-triggers-pend"))


@guard
def _manual_assignment(g: State, inst, ctx) -> bool:
    """``assign: manual``: the assigning players decide their combat damage (465.2.c)."""
    return g.cfg.manual


@guard
def _assignments_done(g: State, inst, ctx) -> bool:
    """Every player who must assign has assigned (a player with no might or no enemy left skips it)."""
    from simulator.rules.damage import assigner
    return assigner(g) is None


def record_assignment(g: State, p: str, damage: tuple) -> None:
    """A player's manual assignment (checked by the action layer), kept until the damage is dealt."""
    g.assigned = g.assigned + ((p, tuple(damage)),)
    # not a hand-off: a player's action: assigning combat damage (465.2.c)
    fire(g, "combat", "assign", player=p, bf=g.active)


@effect
def _deal_combat_damage(g: State, inst, ctx) -> None:
    """465: each side totals its might (stunned units add 0, 423.1.b), assigns lethal first with Tank first
    and Backline last (815.1.b, 826.3), by hand with assign: manual; all damage is dealt at once."""
    from simulator.rules.damage import automatic, deal, sides, total
    bf = _active(g)
    chosen = dict(g.assigned)
    g.assigned = ()
    hits = []
    totals = {}
    for p, (mine, theirs) in sides(g).items():
        totals[p] = total(g, mine)
        if p in chosen:
            hits += [(g.units[u], n) for u, n in chosen[p] if n]
        else:
            hits += automatic(g, totals[p], theirs)
    attacker, defender = _sides(g)
    att = g.units_at(bf, attacker)
    dfn = g.units_at(bf, defender)
    stunned = [u.id for u in att + dfn if u.stunned]
    log(g, ('combat damage at {bf}: {attacker} deals {attacker2}, {defender} deals {defender2} (stunned, adding nothing: {stunned})' if stunned else 'combat damage at {bf}: {attacker} deals {attacker2}, {defender} deals {defender2}'), cite("combat.combat-damage-deals-deals-stunned"), bf=bf, attacker=attacker, attacker2=totals[attacker], defender=defender, defender2=totals[defender], stunned=', '.join(stunned))
    for u, n in hits:
        u = deal(g, u, n)                           # 465.2: combat damage is damage dealt
        log(g, "{unit} takes {amount} combat damage", cite("combat.takes-combat-damage"), u.controller, unit=u.id, amount=n)
    g.dirty = False                                 # 465.3: skip FEPR, cancel outstanding tasks


@effect
def _perform_combat_cleanup(g: State, inst, ctx) -> None:
    """466.1: the Combat Cleanup (deaths, heal, recall); what it makes pending resolves before the result (466.2).
    Whether it recalled attackers is kept for the result (466.3.d)."""
    g.special = "combat"
    g.recalled = False
    run_cleanup(g)


@effect
def _combat_result(g: State, inst, ctx) -> None:
    """466.3: with the chain empty, the only designated player with units left there wins and the only one with
    none loses; No Result if attackers were recalled in 3d, or both or neither have units there."""
    bf = _active(g)
    attacker, defender = _sides(g)
    a = bool(g.units_at(bf, attacker))
    d = bool(g.units_at(bf, defender))
    if g.recalled or a == d:
        log(g, "combat at {bf}: no result", cite("combat.combat-no-result"), bf=bf)
    else:
        win, lose = (attacker, defender) if a else (defender, attacker)
        log(g, "combat at {bf}: {winner} wins, {loser} loses", cite("combat.combat-wins-loses"), bf=bf, winner=win, loser=lose)
    g.recalled = False


@guard
def _restaged(g: State, inst, ctx) -> bool:
    """466.5: a showdown and a combat are staged at the combat's battlefield (466.3.d.1)."""
    return g.ms[("battlefield.status", _active(g))] == Status.CombatRestaged


@effect
def _combat_control(g: State, inst, ctx) -> None:
    """466.5: the player with units remaining there establishes control (a Conquer if not yet scored, 466.5.d);
    with none, the battlefield becomes uncontrolled (466.5.b: the hand-off ``battlefield.control:lose [abandoned]``);
    Contested is cleared before the chain window of 466.6 (466.5.a: the hand-off ``battlefield.status:settle``).
    Units of both players there (arrived since the result) settle nothing: the combat's end stages a new one
    (466.7, R8; the settle's guard ``!both_sides_remain``)."""
    bf = _active(g)
    attacker, defender = _sides(g)
    a = bool(g.units_at(bf, attacker))
    d = bool(g.units_at(bf, defender))
    if a and d:
        return
    if a or d:
        establish_control(g, bf, attacker if a else defender)
        if g.hidden:
            from simulator.rules.hidden import trash_uncontrolled
            trash_uncontrolled(g, cite("combat.resolve-trash-uncontrolled"), only=bf)
    elif g.bfs[bf].controller is not None:
        g.touch("battlefields")
        g.bfs[bf].controller = None
    g.touch("battlefields")
    g.bfs[bf].contested_by = None


@guard
def _abandoned(g: State, inst, ctx) -> bool:
    """466.5.b: no units of either side remain at the combat's battlefield, and it is controlled: it becomes
    uncontrolled (the combat's control hands it off)."""
    bf = _active(g)
    attacker, defender = _sides(g)
    return g.ms[("battlefield.control", bf)] == Control.Controlled and not g.units_at(bf, attacker) \
        and not g.units_at(bf, defender)


@effect
def _end_combat(g: State, inst, ctx) -> None:
    """466.7: designations are removed."""
    for u in g.units.values():
        if u.designation is not None or u.fought:
            u = g.edit(u)
            u.designation = None
            u.fought = False
    g.dirty = True


@effect
def _settle_showdown(g: State, inst, ctx) -> None:
    """348.2.a: the one player whose units remain establishes control (a Conquer if not yet scored)."""
    bf = _active(g)
    ps = g.players_at(bf)
    if len(ps) == 1:
        establish_control(g, bf, ps[0])
        g.touch("battlefields")
        g.bfs[bf].contested_by = None               # R6, 190.3.b: Contested lasts until control is settled
    ctx["bf"] = bf


@effect
def _clear_active(g: State, inst, ctx) -> None:
    g.touch("active")                   # no status is ongoing any more (State.active)
    g.touch("sides")
    g.attacker = g.defender = None
    g.focus = None
    g.focus_passed = ()
    g.dirty = True


# -- the schedule's steps (statecharts/schedule.py) ------------------------------------------------

@effect
def _assignments_made(g: State, inst, ctx) -> None:
    """465.2.c: every player who assigns has assigned (or none needs to): the damage is dealt."""
    # not a hand-off: the schedule's assignments-made step acting (465.2.c)
    fire(g, "combat", "assign", bf=g.active)


@effect
def _combat_damage(g: State, inst, ctx) -> None:
    # not a hand-off: the schedule's combat-damage step acting (465)
    fire(g, "combat", "damage_dealt", bf=g.active)


@effect
def _combat_result_step(g: State, inst, ctx) -> None:
    """466.2: the chain is empty: the result is determined."""
    # not a hand-off: the schedule's combat-result step acting (466.2)
    fire(g, "combat", "result", bf=g.active)


@effect
def _combat_control_step(g: State, inst, ctx) -> None:
    """466.4: the chain is empty: control."""
    # not a hand-off: the schedule's combat-control step acting (466.4)
    fire(g, "combat", "control", bf=g.active)


@effect
def _finish_combat(g: State, inst, ctx) -> None:
    """466.6: the chain is empty: the combat ends (466.7)."""
    # not a hand-off: the schedule's combat-ends step acting (466.6)
    fire(g, "combat", "finish", bf=g.active)
