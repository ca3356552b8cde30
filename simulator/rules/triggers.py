"""Triggered abilities (383): what triggers and when, its condition, who controls the pending item,
simultaneous triggers ordered by their controllers (383.3.d), decisions due at finalization (383.3.a, 402).

The chain (:mod:`simulator.rules.chain`) holds the items; this module decides which abilities trigger
and how they are placed. :mod:`simulator.rules.effects` (what items do) and :mod:`simulator.rules.moves`
(arrivals) both use it, so neither has to import the other.

Each ``trigger_<kind>`` effect is named on the declared transition that is its event
(``statecharts/triggers.py`` lists every kind with its rules): a unit moving (chain ``moved``), dying
(cleanup ``lethal`` in task 3a, chain ``dies`` for a kill), a showdown beginning (turn.mode
``begin_showdown``), a combat ending (combat ``finish``), a turn starting or ending (phases), a spell
finishing resolving (chain ``spell_resolved``), a unit being chosen (chain ``finalize``).

:func:`pend` is the one place a triggered ability becomes pending: its ``if:`` is evaluated once, right
after the event (383.2.a.1, 383.2.c), once-per-turn is honoured, ``there`` is fixed (359.3.f.3), and the
decisions due at finalization (``may``, targets) are recorded on the item (383.3.a, 402).
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from statecharts.states import CombatStep, Status
from statecharts.citations import cite
from simulator.core.log import N_, fire, log
from simulator.core.model import Ability, Item, State, Unit
from simulator.core.registry import effect, guard
from simulator.rules.chain import put_on_chain
from simulator.rules.targets import target_fields, target_options


def triggered(g: State, ab: Ability, controller: str, source: str) -> Item:
    """The pending item of ``ab`` triggered on ``source`` (383.1), controlled by ``controller`` (383.2)."""
    return Item(g.next_uid(), ab.name, controller, "trigger", ab.effect, source=source, immediate=ab.adds)


def put_trigger(g: State, item: Item) -> None:
    """A triggered ability becomes pending (383); inside :func:`simultaneous` it joins that batch."""
    put_on_chain(g, item, "trigger")
    if g.batch is not None:
        g.batch.append(item.uid)


@contextmanager
def simultaneous(g: State) -> Iterator[None]:
    """Triggers put on the chain inside this block become pending together (one event or batch). Placement
    across players stays as the caller makes it; each player with two or more of them orders their own
    before they are finalized (383.3.d). Nested blocks join the outermost one."""
    if g.batch is not None:
        yield
        return
    g.batch = []
    try:
        yield
    finally:
        uids, g.batch = g.batch, None
    mine: dict[str, int] = {}
    for it in g.chain:
        if it.uid in uids:
            mine[it.controller] = mine.get(it.controller, 0) + 1
    for i, it in enumerate(g.chain):
        if it.uid in uids and mine[it.controller] > 1:
            g.chain[i] = it.but(unordered=True)


# -- conditions ------------------------------------------------------------------------------------------

def source_place(g: State, source: str, recorded: str | None = None) -> str | None:
    """Where an ability's source is: a unit's or gear's location, a battlefield itself."""
    if recorded is not None:
        return recorded
    u = g.units.get(source)
    if u is not None:
        return u.at
    return source if source in g.bfs else None


def holds(g: State, cond: tuple, source: str, controller: str, recorded: str | None = None) -> bool:
    """Every condition of ``cond`` (``((name, arg), ...)``) holds for that source and controller (383.2)."""
    for name, arg in cond:
        if not _holds(g, name, arg, source, controller, recorded):
            return False
    return True


def _holds(g: State, name: str, arg, source: str, controller: str, recorded: str | None) -> bool:
    if name in UNIT_CONDITIONS:
        u = g.units.get(source)
        return u is not None and UNIT_CONDITIONS[name](g, u, arg)
    if name not in CONDITIONS:
        raise ValueError(f"unknown condition {name!r}")      # pragma: no cover - the loader refuses it
    here = source_place(g, source, recorded) or ""
    return CONDITIONS[name](g, here, source, controller)


def _enemy_alone_here(g: State, here: str, source: str, controller: str) -> bool:
    if here not in g.bfs:
        return False
    enemies = [u for u in g.units_at(here) if g.opponents(u.controller, controller)]
    return len(enemies) == 1


#: a condition on the turn or on where the source is (383.2): name -> f(g, here, source, controller)
CONDITIONS = {
    "your-turn": lambda g, here, source, controller: g.turn == controller,
    "not-your-turn": lambda g, here, source, controller: g.turn != controller,
    "at-battlefield": lambda g, here, source, controller: here in g.bfs,
    "controls-here": lambda g, here, source, controller: here in g.bfs and g.bfs[here].controller == controller,
    "alone-here": lambda g, here, source, controller: here in g.bfs and not any(
        u.id != source for u in g.units_at(here, controller)),
    "enemy-alone-here": _enemy_alone_here,
    "in-combat": lambda g, here, source, controller: here in g.bfs and g.active == here
    and g.ms[("combat", None)] != CombatStep.Idle,
}

#: a condition on the source unit itself (false when it is no unit): name -> f(g, unit, arg)
UNIT_CONDITIONS = {
    "not-damaged-this-turn": lambda g, u, arg: not u.hurt,
    "might-at-least": lambda g, u, arg: g.might(u) >= int(arg),
}


def describe(cond: tuple) -> str:
    return ", ".join(name if arg is None else f"{name} {arg}" for name, arg in cond)


# -- becoming pending -------------------------------------------------------------------------------------

def pend(g: State, source: str, ab: Ability, controller: str, *, there: str | None = None,
         here: str | None = None, why: str = cite("triggers.pend-default"), hidden_at: str | None = None) -> bool:
    """``ab`` of ``source`` triggers: it becomes a pending item unless its condition is false or it was used
    this turn. Returns whether it went on the chain."""
    key = (source, ab.name)
    if ab.once and key in g.once:
        log(g, "{source}'s {name} does not trigger: once per turn, already used", cite("triggers.does-not-trigger-once-per"), controller, source=source, name=ab.name)
        return False
    if ab.condition and not holds(g, ab.condition, source, controller, here):
        log(g, "{source}'s {name} does not trigger: {condition} is false",
            cite("triggers.does-not-trigger-false"), controller, source=source, name=ab.name, condition=describe(ab.condition))
        return False
    if ab.once:
        g.once = g.once + (key,)
    ask = (("may",) if ab.optional else ()) + (("target",) if target_fields(ab.effect) else ())
    put_trigger(g, Item(g.next_uid(), ab.name, controller, "trigger", ab.effect, source=source,
                        immediate=ab.adds and not ask, ask=ask, there=there, here=here, ability=key,
                        hidden_at=hidden_at))
    return True


def trigger_abilities(g: State, source: Unit, kind: str, *, there: str | None = None,
                      here: str | None = None, controller: str | None = None, hidden_at: str | None = None) -> None:
    """Each ability of ``source`` of that kind triggers, together (their controller orders them, 383.3.d);
    ``hidden_at``: the play effect of a card played from facedown there chooses there (811.1.d.2)."""
    abilities = [ab for ab in source.abilities if ab.trigger == kind]
    if not abilities:
        return
    with simultaneous(g):
        for ab in abilities:
            pend(g, source.id, ab, controller or source.controller, there=there, here=here, hidden_at=hidden_at)


def battlefield_triggers(g: State, bf: str, kind: str, controller: str | None = None) -> None:
    """190.6: a battlefield's abilities are controlled by its controller; uncontrolled -> the turn player."""
    b = g.bfs[bf]
    abilities = [ab for ab in b.abilities if ab.trigger == kind]
    if not abilities:
        return
    with simultaneous(g):
        for ab in abilities:
            pend(g, bf, ab, controller or b.controller or g.turn, there=bf)


def place_in_turn_order(g: State, pending: list[tuple]) -> None:
    """383.3.d.1: triggers of one event are placed by the turn player first, then the others in turn order;
    ``pending`` holds ``(controller, source, ability, there, here)``; each player's own keep their order."""
    if not pending:
        return
    order = g.from_turn_player({p for p, *_ in pending})
    with simultaneous(g):
        for p in order:
            for who, source, ab, there, here in pending:
                if who == p:
                    pend(g, source, ab, who, there=there, here=here)


def _board(g: State):
    return [u for u in g.units.values() if u.zone == "board"]


def _of(u_or_b, kind: str):
    return [ab for ab in u_or_b.abilities if ab.trigger == kind]


# -- the trigger kinds, as effects of declared transitions -------------------------------------------------

@effect
def _trigger_on_move(g: State, inst, ctx) -> None:
    """144, 446, 383: each moved unit's on-move abilities, and on-arrive where it reached a battlefield (450).
    ``there`` is the battlefield it moved to, or the one it left for its base."""
    pending = []
    for uid, src, dest in ctx["moves"]:
        u = g.units[uid]
        there = dest if dest in g.bfs else (src if src in g.bfs else None)
        pending += [(u.controller, uid, ab, there, None) for ab in _of(u, "on-move")]
        if dest in g.bfs:
            pending += [(u.controller, uid, ab, dest, None) for ab in _of(u, "on-arrive")]
    place_in_turn_order(g, pending)


@effect
def _trigger_on_death(g: State, inst, ctx) -> None:
    """808.1.d: own-death abilities (Deathknell) become pending before the unit reaches the trash, with its
    location as it was (808.1.d.3)."""
    pending = []
    for uid in ctx["units"]:
        u = g.units[uid]
        where = u.at if u.at in g.bfs else None
        mine = [(u.controller, uid, ab, where, u.at) for ab in _of(u, "on-death")]
        if mine:
            log(g, "{uid}'s {mine} triggers (at {at}) before {uid} reaches the trash", cite("triggers.triggers-before-reaches-trash"), u.controller, uid=uid, mine=', '.join(m[2].name for m in mine), at=u.at)
        pending += mine
    place_in_turn_order(g, pending)


@effect
def _trigger_on_showdown_start(g: State, inst, ctx) -> None:
    """344, 383: a showdown begins at the active battlefield: its units' and its own abilities, placed in turn
    order (383.3.d.1). A combat's showdown (323.13) begins before the designations (464.2.b, then 464.2.c), so
    these are pending before any attack or defend trigger (``combat_chain``, 464.2.e) and resolve after them."""
    bf = g.active
    if bf is None:
        return
    b = g.bfs[bf]
    pending = [(u.controller, u.id, ab, bf, None) for u in g.units_at(bf) for ab in _of(u, "on-showdown-start")]
    pending += [(b.controller or g.turn, bf, ab, bf, None) for ab in _of(b, "on-showdown-start")]
    if pending and g.ms[("battlefield.status", bf)] == Status.Combat:
        log(g, "a combat's showdown begins at {bf}: its start-of-showdown abilities trigger before attacker and "
               "defender are designated", cite("triggers.showdown-start-before-designations"), bf=bf)
    place_in_turn_order(g, pending)


@effect
def _trigger_on_combat_end(g: State, inst, ctx) -> None:
    """466.7, 383: the combat ends: abilities of the units that were in it (still on the board) and of its
    battlefield (placed before the designations are removed)."""
    bf = g.active
    if bf is None:
        return
    b = g.bfs[bf]
    pending = [(u.controller, u.id, ab, bf, None) for u in _board(g) if u.fought for ab in _of(u, "on-combat-end")]
    pending += [(b.controller or g.turn, bf, ab, bf, None) for ab in _of(b, "on-combat-end")]
    place_in_turn_order(g, pending)


def _turn_boundary(g: State, kind: str) -> None:
    p = g.turn
    pending = [(p, u.id, ab, u.at if u.at in g.bfs else None, None)
               for u in _board(g) if u.controller == p for ab in _of(u, kind)]
    for name, b in g.bfs.items():
        if b.controller in (p, None):           # an uncontrolled battlefield's fire on every turn (190.6)
            pending += [(p, name, ab, name, None) for ab in _of(b, kind)]
    place_in_turn_order(g, pending)


@effect
def _trigger_on_turn_start(g: State, inst, ctx) -> None:
    """315.2.a, 383: the start of the turn player's turn, evaluated once, before the Scoring Step."""
    _turn_boundary(g, "on-turn-start")


@effect
def _trigger_on_turn_end(g: State, inst, ctx) -> None:
    """317.1, 383: the Ending Step of the turn player's turn, evaluated once."""
    _turn_boundary(g, "on-turn-end")


@effect
def _trigger_on_spell(g: State, inst, ctx) -> None:
    """419.4.a, 383: a spell finished resolving (a countered one never does). A battlefield's fire only if the
    spell's controller has a unit there, controlled as in 190.6."""
    caster = ctx["player"]
    pending = [(u.controller, u.id, ab, u.at if u.at in g.bfs else None, None)
               for u in _board(g) for ab in u.abilities if _on_spell(ab, u.controller, caster)]
    for name, b in g.bfs.items():
        if g.has_units(name, caster):
            who = b.controller or g.turn
            pending += [(who, name, ab, name, None) for ab in b.abilities if _on_spell(ab, who, caster)]
    place_in_turn_order(g, pending)


def _on_spell(ab, controller: str, caster: str) -> bool:
    """The ability triggers on this spell: on any spell, or on its controller's own (419.4.a)."""
    return ab.trigger == "on-spell" or (ab.trigger == "on-spell-mine" and controller == caster)


def _chosen_by(g: State, by: str, chooser: str, owner: str) -> bool:
    if by == "enemy":
        return g.opponents(chooser, owner)
    if by == "friendly":
        return not g.opponents(chooser, owner)
    return True


def _chosen(g: State, it: Item) -> list[tuple]:
    pending = []
    for f, v in it.targets:
        u = g.units.get(v) if f == "unit" else None
        if u is None or u.zone != "board":
            continue
        for ab in _of(u, "on-chosen"):
            if _chosen_by(g, ab.by, it.controller, u.controller):
                pending.append((u.controller, u.id, ab, u.at if u.at in g.bfs else None, None))
    return pending


@effect
def _trigger_on_chosen(g: State, inst, ctx) -> None:
    """383.4.b.2: a unit chosen as a target triggers its on-chosen abilities once the choosing item is
    finalized, once per choice."""
    place_in_turn_order(g, _chosen(g, g.chain[ctx["idx"]]))


@guard
def _pending_after(g: State, inst, ctx) -> bool:
    """337.3: pending items remain after this one, counting those its finalization triggers (383.4.b.2)."""
    if any(not it.finalized for it in g.chain):
        return True
    it = g.chain[ctx["idx"]]
    if not any(f == "unit" for f, _ in it.targets):
        return False
    return any(_would_pend(g, source, ab, who) for who, source, ab, _, _ in _chosen(g, it))


def _would_pend(g: State, source: str, ab: Ability, controller: str) -> bool:
    """Whether :func:`pend` would put ``ab`` on the chain now (once-per-turn, condition)."""
    if ab.once and (source, ab.name) in g.once:
        return False
    return not ab.condition or holds(g, ab.condition, source, controller)


# -- decisions at finalization (383.3.a, 402) -----------------------------------------------------------------

def deciding(g: State) -> Item | None:
    """The oldest pending item, if it has a decision due."""
    for it in g.chain:
        if not it.finalized:
            return it if it.ask else None
    return None


@guard
def _decision_due(g: State, inst, ctx) -> bool:
    return deciding(g) is not None


def orderer(g: State) -> str | None:
    """Who must order their simultaneous triggers now: the controller of the first unordered item, so
    players order in placement order (turn player first; the 464.2.e order for the combat chain)."""
    for it in g.chain:
        if it.unordered:
            return it.controller
    return None


def unordered_labels(g: State, player: str) -> list[str]:
    """``player``'s triggers awaiting their order, as placed (``SOURCE:ABILITY``)."""
    return [it.label for it in g.chain if it.unordered and it.controller == player]


def order_triggers(g: State, player: str, labels: tuple[str, ...]) -> None:
    """383.3.d: ``player`` places the next of their pending triggers: the ones named take the first chain
    positions their triggers occupy, in that order (the first listed goes on the chain first, so it resolves
    last); the others wait for the next pick, and a last one left is placed without a choice."""
    slots = [i for i, it in enumerate(g.chain) if it.unordered and it.controller == player]
    items = [g.chain[i] for i in slots]
    chosen: list[Item] = []
    for lab in labels:                  # a label shared by two items picks the first of them
        k = next(j for j, it in enumerate(items) if it.label == lab)
        chosen.append(items.pop(k).but(unordered=False))
    if len(items) == 1:
        items = [items[0].but(unordered=False)]
    for i, it in zip(slots, chosen + items):
        g.chain[i] = it
    # not a hand-off: a player's action: ordering their triggers (383.3.d)
    fire(g, "chain", "order", player=player)


@guard
def _unordered_triggers(g: State, inst, ctx) -> bool:
    return any(it.unordered for it in g.chain)


@effect
def _await_order(g: State, inst, ctx) -> None:
    """383.3.d: simultaneous triggers are ordered by their controllers before they are finalized."""
    # not a hand-off: the schedule's order-triggers step acting (383.3.d)
    fire(g, "chain", "await_order", player=orderer(g))


def replace_item(g: State, old: Item, new: Item) -> None:
    g.chain[next(i for i, it in enumerate(g.chain) if it.uid == old.uid)] = new


def drop_item(g: State, it: Item, why: str, rule: str, trigger: str = "drop", **values) -> None:
    """383.3.a, 402.4: a triggered ability leaves the chain as if it never triggered (not countered); ``why`` is
    the trace template, ``{source}`` and ``{item}`` its source and name, ``values`` any other field."""
    g.chain[:] = [x for x in g.chain if x.uid != it.uid]
    if it.ability in g.once:                                 # it never triggered: once-per-turn is not used
        g.once = tuple(k for k in g.once if k != it.ability)
    g.dirty = True                                           # 319: an item left the chain
    log(g, why, rule, it.controller, source=it.source, item=it.name, **values)
    # not a hand-off: the schedule's no-legal-target step (402.4) or a player's decision (383.3.a) removes it
    fire(g, "chain", trigger, item=it.name, player=it.controller)


@guard
def _untargetable(g: State, inst, ctx) -> bool:
    """402.4: the triggered ability being finalized needs targets and none is legal."""
    it = deciding(g)
    return it is not None and "target" in it.ask and not target_options(g, it)


@effect
def _drop_untargetable(g: State, inst, ctx) -> None:
    """402.4: a triggered ability with no legal choice is removed, without being countered."""
    it = deciding(g)
    assert it is not None                       # the schedule's guard untargetable held
    drop_item(g, it, N_("{source}'s {item} has no legal target: it is removed"), cite("triggers.has-no-legal-target-removed"))


@effect
def _await_choice(g: State, inst, ctx) -> None:
    """383.3.a, 402.1: its controller makes the ability's choices as it is finalized; nobody has priority."""
    it = deciding(g)
    assert it is not None                       # the schedule's guard decision_due held
    # not a hand-off: the schedule's choices-at-finalization step acting (383.3.a, 402.1)
    fire(g, "chain", "await_choice", item=it.name, player=it.controller)
