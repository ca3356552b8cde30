"""What items do when they resolve (340, 337.2): the effect vocabulary, units and gear entering play."""
from __future__ import annotations

from typing import Callable

from statecharts.citations import cite
from simulator.core.rulings import ruling_is
from simulator.core.log import fire, log
from simulator.core.model import ADD_UP, Item, Resolving, State, Unit
from simulator.core.registry import effect, guard
from simulator.rules.damage import deal
from simulator.rules.draw import draw
from simulator.rules.scoring import burn_out
from simulator.rules import zones
from simulator.rules.zones import card_left_chain, leave_board
from simulator.rules.triggers import describe, holds
from simulator.rules.moves import arrive, combat_outsider, forced_move, recall, settle_arrivals
from simulator.rules.triggers import trigger_abilities


@effect
def _resolve_item(g: State, inst, ctx) -> None:
    """340 (or 337.2 for an immediate item): the item leaves the chain and its instructions are carried out."""
    i = ctx.get("idx", len(g.chain) - 1)
    item = g.chain.pop(i)
    if not (item.kind == "ability" and item.immediate):
        g.priority = None               # an Add ability keeps priority with its activator (429, seed 001)
    g.dirty = True                      # 319: an item left the chain
    resolve(g, item)


def resolve(g: State, item: Item) -> None:
    """Carry out a finalized item (340, 337.2)."""
    if item.kind == "unit":
        enter_play(g, item)
        return
    if item.kind == "gear":
        n = _next_id(g, _card(item))
        gear = Unit(n, item.controller, "base", 0, abilities=g.cfg.cards[item.card].abilities,
                    card=item.card, kind="gear")
        g.add_unit(gear)
        log(g, "{player}'s gear {unit} enters play in base", cite("effects.gear-enters-play-base"), item.controller, unit=n)
        trigger_abilities(g, gear, "on-play", hidden_at=item.hidden_at)   # 383.4.a.2: pending after it has entered
        return
    log(g, "{item} resolves", cite("effects.resolves") if not item.immediate else cite("effects.resolves-2"), item.controller, item=item.name)
    _carry_out(g, Resolving(item, 0))


def _carry_out(g: State, r: Resolving, decided: bool | str | None = None) -> None:
    """Carry out ``r.item``'s instructions from entry ``r.at`` (``decided``: the answer to that entry's may);
    stop at the next may decided as it executes, keeping what was done in ``g.resolving`` (383.3.a.3), or
    finish: arrivals settled together (R7), then what it played enters (354.3), then 419.4.a."""
    item = r.item
    g.arrivals = list(r.arrivals)
    entering = [u.clone() for u in r.entering]      # a resumed resolution never shares units with its parent
    try:
        stop = run_effects(g, item, entering, r.at, decided, r.here)
    finally:
        arrivals, g.arrivals = g.arrivals, None
    if stop is not None:
        g.resolving = Resolving(item, stop[0], tuple(entering), tuple(arrivals), stop[1])
        return
    settle_arrivals(g, arrivals)
    for u in entering:                              # 354.3: their play resumes once the item has resolved
        enter_token(g, u, item)
    card_left_chain(g, item)                        # 158: a resolved spell goes to its owner's trash
    if item.kind == "spell" and g.spell_watchers():
        # not a hand-off: 419.4.a once the spell has finished resolving, which only its resolution knows
        fire(g, "chain", "spell_resolved", item=item.name, player=item.controller)   # 419.4.a


def asks_while_resolving(item: Item, i: int, fields: tuple) -> bool:
    """Entry ``i`` has ``may: true`` decided as it executes (383.3.a.3): any entry of a spell or an activated
    ability, a triggered ability's entries after the first (its first is decided at finalization, 383.3.a)."""
    return ("may", True) in fields and not (item.kind == "trigger" and i == 0)


@guard
def _resolving_choice(g: State, inst, ctx) -> bool:
    """An item's resolution waits for its controller's decision on a may (383.3.a.3)."""
    return g.resolving is not None


@guard
def _resolving_discard(g: State, inst, ctx) -> bool:
    """An item's resolution waits for a player's choice of the card to discard (422, Z3)."""
    r = g.resolving
    return r is not None and r.item.effect[r.at][0] == "discard"


@effect
def _await_resolution_choice(g: State, inst, ctx) -> None:
    """383.3.a.3: the resolving item's controller decides its may as that entry executes; nobody has priority."""
    r = g.resolving
    assert r is not None                            # the schedule's guard resolving_choice held
    g.priority = None
    # not a hand-off: the schedule's may-while-resolving step acting (383.3.a.3)
    fire(g, "chain", "await_choice", item=r.item.name, player=r.item.controller)


@effect
def _resume_resolution(g: State, inst, ctx) -> None:
    """383.3.a.3: the decision is made; the resolution goes on from that entry (yes: it is carried out)."""
    r, g.resolving = g.resolving, None
    assert r is not None
    _carry_out(g, r, ctx["option"] if r.item.effect[r.at][0] == "discard" else ctx["option"] == "yes")


@effect
def _abandon_resolution(g: State, inst, ctx) -> None:
    """652.4: the controller of the waiting item left the game: the rest of it is not carried out (it is
    countered), and what it was playing never enters."""
    r, g.resolving = g.resolving, None
    assert r is not None
    g.dirty = True
    log(g, "the rest of {item} is not carried out: its controller left", cite("effects.rest-not-carried-out-controller"), r.item.controller,
        item=r.item.name)


def _card(item: Item) -> str:
    """The card a unit or gear item was played from (every such item has one)."""
    assert item.card is not None, f"{item.name} was not played from a card"
    return item.card


def _next_id(g: State, card: str) -> str:
    g.counters[card] = g.counters.get(card, 0) + 1
    return f"{card}#{g.counters[card]}"


def enter_play(g: State, item: Item) -> None:
    """A unit enters play at its chosen location, exhausted (359.2); play triggers follow (383.4.a.2)."""
    n = _next_id(g, _card(item))
    card = g.cfg.cards[_card(item)]
    u = Unit(n, item.controller, item.at or "base", card.might, abilities=card.abilities, card=item.card,
             keywords=card.keywords)
    u.exhausted = not item.ready
    g.add_unit(u)
    if item.ready:
        log(g, "{unit} enters play ready at {at} (Accelerate)", cite("effects.enters-play-ready-accelerate"), item.controller, unit=n, at=u.at)
    else:
        log(g, "{unit} enters play at {at}", cite("effects.enters-play"), item.controller, unit=n, at=u.at)
    if u.at in g.bfs:
        arrive(g, u, u.at, moved=False)             # being played there is no move: no on-arrive
    trigger_abilities(g, u, "on-play", hidden_at=item.hidden_at)   # from facedown: chosen there (811.1.d.2)


def enter_token(g: State, u: Unit, by: Item) -> None:
    """354.3: a unit or gear played by an item's instruction enters once that item has finished resolving (its
    play process waited, 158.3), a unit exhausted, gear ready in its base (359.2); being played to a battlefield
    is no move (no on-arrive)."""
    g.add_unit(u)
    g.dirty = True                                  # 319: an object entered the board
    if u.kind == "gear":                            # non-unit gear enters ready in its base (359.2)
        log(g, "{player}'s gear {unit} enters play in base: {item} has finished resolving", cite("effects.gear-enters-play-base-has"),
            u.controller, unit=u.id, item=by.name)
        trigger_abilities(g, u, "on-play")          # 383.4.a.2: pending after it has entered
        return
    log(g, "{unit} (might {might}) enters play at {at}: {item} has finished resolving",
        cite("effects.might-enters-play-has-finished"), u.controller, unit=u.id, might=u.might, at=u.at, item=by.name)
    if u.at in g.bfs:
        arrive(g, u, u.at, moved=False)
    if u.card is not None:                          # a card played by an instruction: its play triggers
        trigger_abilities(g, u, "on-play")


UNAVAILABLE = object()                              # location information that is unavailable (359.3.f.2)


def source_location(g: State, item: Item):
    """Where the item's source is as an instruction executes (359.3.f.1): a unit's or gear's place, a
    battlefield itself; a spell, whose source is no permanent, means its controller's base. A unit or gear
    that has left the board has no location: :data:`UNAVAILABLE` (359.3.f.2), never its last place."""
    src = g.units.get(item.source) if item.source is not None else None
    if src is not None:
        return src.at if src.zone == "board" else UNAVAILABLE
    if item.source in g.bfs:
        return item.source
    return "base"


def _value(g: State, item: Item, field: str, value):
    if value == "target":
        return dict(item.targets).get(field)
    if value == "self":
        return item.source
    if value == "there":
        return item.there
    if value == "here":
        if item.here is not None:                   # recorded as it left the board (808.1.d.3)
            return item.here
        return source_location(g, item)
    return value


def run_effects(g: State, item: Item, entering: list | None = None, start: int = 0, decided: bool | str | None = None,
                here_override: str | None = None) -> tuple[int, str | None] | None:
    """Carry out the item's instructions in order from entry ``start``; a unit or gear it plays is added to
    ``entering`` (354.3). An entry whose ``may`` is decided as it executes (383.3.a.3) stops the resolution:
    the entry's index and ``here`` are returned, and it is resumed with ``decided``, the controller's answer."""
    entering = [] if entering is None else entering
    for i in range(start, len(item.effect)):
        verb, fields = item.effect[i]
        meta = dict(f for f in fields if f[0] in ("if", "may"))
        if meta:
            fields = tuple(f for f in fields if f[0] not in ("if", "may"))
        if "if" in meta and not _entry_condition_holds(g, item, verb, meta["if"]):
            continue
        if asks_while_resolving(item, i, item.effect[i][1]):
            if i != start or decided is None:
                return i, here_override             # 383.3.a.3: its controller decides now
            if not decided:
                log(g, "{player} declines {verb}: this part of {item} does nothing", cite("effects.declines-part-does-nothing"), item.controller,
                    verb=verb, item=item.name)
                continue
        args = _arguments(g, item, verb, fields, here_override)
        if args is None:
            continue
        if verb in zones.VERBS and not ("unit" in args and verb in UNIT_VERBS):     # a card, not a unit (Z3)
            if not zones.carry_out(g, item, verb, args, decided if i == start else None):
                return i, here_override             # 422: the player chooses the card as the entry executes
            continue
        here_override = _carry_out_entry(g, item, verb, args, entering, here_override)
    return None


def _entry_condition_holds(g: State, item: Item, verb: str, cond: tuple) -> bool:
    """383.2.b: an entry's own condition, checked as it executes; false, the entry does nothing."""
    if holds(g, cond, item.source or "", item.controller, item.here):
        return True
    log(g, '{verb}: {value} is false; this part does nothing', cite("effects.false-part-does-nothing"), item.controller, verb=verb, value=describe(cond))
    return False


def _arguments(g: State, item: Item, verb: str, fields: tuple, here_override: str | None) -> dict | None:
    """The entry's field values as it executes (359.3.f: ``there``, ``here``, ``self``, its targets), or None when
    an instruction cannot be carried out: no battlefield named by the triggering event, ``here`` unavailable, or
    its unit no longer on the board (the entry does nothing; the trace says why)."""
    declared = dict(fields)
    args = {f: _value(g, item, f, v) for f, v in fields}
    if any(v is None for f, v in args.items() if declared.get(f) == "there"):
        log(g, '{verb}: no battlefield was named by the triggering event; nothing happens', cite("effects.no-battlefield-was-named-triggering"),
            item.controller, verb=verb)
        return None
    if here_override is not None:
        args = {f: (here_override if declared.get(f) == "here" else v) for f, v in args.items()}
    if any(v is UNAVAILABLE for v in args.values()):
        log(g, "{verb}: {source} has left the board, so 'here' is unavailable; the instruction does nothing",
            cite("effects.has-left-board-so-here"), item.controller, verb=verb, source=item.source)
        return None
    if "gear" in args:                              # a gear is acted on as a unit is (Z3: return, banish, kill)
        args["unit"] = args.pop("gear")
    u = g.units.get(args["unit"]) if "unit" in args else None
    if "unit" in args and (u is None or u.zone != "board"):
        log(g, "{verb}: {unit} is no longer on the board; nothing happens" if u is not None else
            "{verb}: {unit} is not on the board (yet); nothing happens",
            cite("effects.no-longer-board-nothing-happens") if u is not None else cite("effects.no-longer-board-nothing-happens-2"), item.controller, verb=verb, unit=args.get("unit"))
        return None
    return args


def _carry_out_entry(g: State, item: Item, verb: str, args: dict, entering: list, here: str | None) -> str | None:
    """Carry out one entry: a verb acting on its unit (:data:`UNIT_VERBS`), or one of :data:`VERBS`. Returns
    ``here`` as the entries after it see it (a unit played into a combat by ``play-unit`` changes it, 462)."""
    if "unit" in args and verb in UNIT_VERBS:
        u = g.units[args["unit"]]
        if verb not in ("move", "recall"):          # (those two edit it themselves, if they change it)
            u = g.edit(u)
        UNIT_VERBS[verb](g, item, u, args, entering)
        return here
    if verb == "play-unit":
        return _play_unit(g, item, args, entering, here)
    act = VERBS.get(verb)
    if act is not None:
        act(g, item, args, entering)
    return here


def _play_unit(g: State, item: Item, args: dict, entering: list, here: str | None) -> str | None:
    """A token unit (186: no card) played by the instruction; it enters once the item has finished resolving
    (354.3). A player with no units at a combat between others plays it to base, and ``here`` means that base (462)."""
    where = args.get("at") or "base"
    if where in g.bfs and combat_outsider(g, item.controller, where):
        log(g, "{player} may not play a unit into the combat at {bf}: it is played to base instead, and 'here' "
               "now means that base", cite("effects.may-not-play-unit-into"), item.controller, bf=where)
        where = "base"
        here = "base"
    g.counters["token"] = g.counters.get("token", 0) + 1
    n = f"token#{g.counters['token']}"
    t = Unit(n, item.controller, where, int(args.get("might", 1)), token=True)   # 186: a token, no card
    t.exhausted = True
    entering.append(t)
    log(g, "{player} plays {unit} (might {might}) at {at}: it enters once {item} has finished resolving",
        cite("effects.plays-might-enters-once-has"), item.controller, unit=n, might=t.might, at=where, item=item.name)
    return here


def _play(g: State, item: Item, args: dict, entering: list) -> None:
    _forced_play(g, item, args["card"], args.get("at") or "base", entering)
    g.made += 1                                     # a card played from nowhere: a card more (zones.census)


def _add(g: State, item: Item, args: dict, entering: list) -> None:
    g.energy[item.controller] = g.energy.get(item.controller, 0) + int(args.get("energy", 1))
    log(g, "{player} adds {energy} energy", cite("effects.adds-energy"), item.controller, energy=args.get("energy", 1))


def _counter_verb(g: State, item: Item, args: dict, entering: list) -> None:
    _counter(g, item, args.get("item"))


def _draw(g: State, item: Item, args: dict, entering: list) -> None:
    draw(g, args.get("player") or item.controller, int(args.get("count", 1)), burn_out)


def _extra_turn(g: State, item: Item, args: dict, entering: list) -> None:
    who = args.get("player") or item.controller
    if ruling_is(g, "R11", "fifo"):
        g.extra.append(who)
    else:
        g.extra.insert(0, who)
    log(g, "{who} will take an extra turn after this one", cite("effects.will-take-extra-turn-after"), item.controller, who=who)


# -- the verbs that act on a unit on the board (its ``unit`` field), ``u`` already written through ``g.edit``
# (but for move and recall, which edit it themselves if they change it) ------------------------------------

def _move(g: State, item: Item, u: Unit, args: dict, entering: list) -> None:
    forced_move(g, u, args["to"])


def _recall(g: State, item: Item, u: Unit, args: dict, entering: list) -> None:
    if u.at != "base":
        recall(g, u, cite("effects.run-effects-recall"))


def _stun(g: State, item: Item, u: Unit, args: dict, entering: list) -> None:
    u.stunned = True
    g.dirty = True
    log(g, "{unit} is stunned: it deals no combat damage this turn", cite("effects.stunned-deals-no-combat-damage"), item.controller, unit=u.id)


def _buff(g: State, item: Item, u: Unit, args: dict, entering: list) -> None:
    u.buff += int(args["might"])
    log(g, "{unit} gets {might} might this turn (now {now})", cite("effects.gets-might-turn-now"), item.controller, unit=u.id,
        might=f"{int(args['might']):+d}", now=g.might(u))


def _en_garde(g: State, item: Item, u: Unit, args: dict, entering: list) -> None:
    u.buff += 1
    alone = [v for v in g.units_at(u.at, item.controller)] == [u]
    if alone:
        u.buff += 1
    log(g, "{unit} gets +{might} might this turn (now {now}): it is the only unit its controller has there"
        if alone else "{unit} gets +{might} might this turn (now {now})", cite("effects.gets-might-turn-now-only"), item.controller,
        unit=u.id, might=2 if alone else 1, now=g.might(u))


def _damage(g: State, item: Item, u: Unit, args: dict, entering: list) -> None:
    deal(g, u, int(args["amount"]))
    g.dirty = True
    log(g, "{unit} takes {amount} damage", cite("effects.takes-damage"), item.controller, unit=u.id, amount=args["amount"])


def _kill(g: State, item: Item, u: Unit, args: dict, entering: list) -> None:
    if u.ward:
        # not a hand-off: the resolving item's kill instruction executing (R21): no transition of its own
        fire(g, "chain", "replaced", units=[u.id])      # R21: the kill is replaced; no death, no on-death
        return
    log(g, '{unit} is killed', cite("effects.killed"), item.controller, unit=u.id)
    if any(ab.trigger == "on-death" for ab in u.abilities):
        # not a hand-off: the resolving item's kill instruction executing (808.1.d): no transition of its own
        fire(g, "chain", "dies", units=[u.id])     # 808.1.d: pending as the kill executes
    leave_board(g, u, "trash")
    g.dirty = True


def _banish(g: State, item: Item, u: Unit, args: dict, entering: list) -> None:
    log(g, '{unit} is banished', cite("effects.banished"), item.controller, unit=u.id)
    leave_board(g, u, "banished")
    g.dirty = True


def _replay_verb(g: State, item: Item, u: Unit, args: dict, entering: list) -> None:
    _replay(g, item, u, args.get("at") or "base", entering)


def _ready_or_exhaust(g: State, item: Item, u: Unit, args: dict, entering: list, exhaust: bool) -> None:
    u.exhausted = exhaust
    g.dirty = True
    log(g, '{unit} is {readied}', cite("effects.readied-or-exhausted"), item.controller, unit=u.id, readied='exhausted' if u.exhausted else 'readied')


def _ward(g: State, item: Item, u: Unit, args: dict, entering: list) -> None:
    u.ward = True
    log(g, "{unit} gets a ward: the next time it would die, instead it is healed, exhausted and recalled",
        cite("effects.gets-ward"), item.controller, unit=u.id)


def _give(g: State, item: Item, u: Unit, args: dict, entering: list) -> None:
    _give_keyword(g, item, u, args["keyword"])


#: the verbs that act on a unit on the board (its ``unit`` field): verb -> what it does to that unit
UNIT_VERBS: dict[str, Callable[..., None]] = {
    "move": _move, "recall": _recall, "stun": _stun, "buff": _buff, "en-garde": _en_garde, "damage": _damage,
    "kill": _kill, "banish": _banish, "replay": _replay_verb,
    "ready": lambda g, item, u, args, entering: _ready_or_exhaust(g, item, u, args, entering, False),
    "exhaust": lambda g, item, u, args, entering: _ready_or_exhaust(g, item, u, args, entering, True),
    "ward": _ward, "give-keyword": _give,
    "return": lambda g, item, u, args, entering: zones.return_unit(g, item, u),
}

#: the other verbs (``play-unit`` aside: it may change ``here``): verb -> what it does
VERBS: dict[str, Callable[..., None]] = {
    "play": _play, "add": _add, "counter": _counter_verb, "draw": _draw, "extra-turn": _extra_turn,
}


def _give_keyword(g: State, item: Item, u: Unit, keyword: tuple) -> None:
    """``u`` (already written through ``g.edit``) has ``keyword``, ``(name, value)``, this turn; a second
    instance of Assault or Shield adds its value to the unit's (807.2, 814.2), of any other keyword changes
    nothing."""
    name, value = keyword
    if name in ADD_UP:
        u.given = u.given + (keyword,)
        log(g, "{unit} gains {keyword} {value} this turn ({keyword} {total} in all)",
            cite("effects.gains-assault-adds-up") if name == "assault" else cite("effects.gains-shield-adds-up"),
            item.controller, unit=u.id, keyword=name, value=value, total=u.kw(name))
        return
    if keyword not in u.given:
        u.given = u.given + (keyword,)
    log(g, '{unit} gains {keyword} this turn', cite("effects.gains-turn"), item.controller, unit=u.id, keyword=name)


def _forced_play(g: State, item: Item, card: str, where: str, entering: list, owner: str | None = None) -> str:
    """A forced play of ``card``: a unit gets the id ``CARD#N`` and its card's abilities, and enters once the
    playing item has finished resolving (354.3), exhausted (359.2), its play triggers after it (383.4.a.2);
    gear too waits for the playing item (158.3, 354.3), then enters its base ready (359.2)."""
    who = owner or item.controller
    c = g.cfg.cards[card]
    if c.type == "gear":
        n = _next_id(g, card)
        entering.append(Unit(n, who, "base", 0, abilities=c.abilities, card=card, kind="gear"))
        log(g, "{who} plays the gear {value}: it enters its base once {item} has finished resolving",
            cite("effects.plays-gear-enters-base-once"), who, who=who, value=n, item=item.name)
        return n
    if where in g.bfs and (g.bfs[where].controller != who or combat_outsider(g, who, where)):
        log(g, '{card} may not be played to {at}: it is played to base instead', cite("effects.may-not-played-played-base"), who, card=card, at=where)
        where = "base"
    n = _next_id(g, card)
    u = Unit(n, who, where, c.might, abilities=c.abilities, card=card)
    u.exhausted = True
    entering.append(u)
    log(g, '{who} plays {value} at {at}: it enters once {item} has finished resolving', cite("effects.plays-enters-once-has-finished"), who, who=who, value=n, at=where, item=item.name)
    return n


def _replay(g: State, item: Item, u: Unit, where: str, entering: list) -> None:
    """Banish ``u``, then its owner plays it ignoring its cost: a new object with a new id (124)."""
    log(g, '{unit} is banished', cite("effects.banished"), item.controller, unit=u.id)
    leave_board(g, u, "banished")
    g.dirty = True
    if u.card is None or u.card not in g.cfg.cards:
        log(g, '{unit} was not made from a card: nothing is played', cite("effects.was-not-made-from-card"), item.controller, unit=u.id)
        return
    n = _forced_play(g, item, u.card, where, entering, u.owner)
    if g.cfg.zones:                                 # the card left the banishment again, as the new object
        zones.take(g, "banished", u.owner, u.id)
    log(g, '{unit} is played again as {value}: a new object', cite("effects.played-again-new-object"), u.owner, unit=u.id, value=n)


def _counter(g: State, item: Item, name) -> None:
    for i in range(len(g.chain) - 1, -1, -1):
        if g.chain[i].name == name or name in (None, "newest"):
            victim = g.chain.pop(i)
            g.dirty = True
            log(g, "{item} is countered", cite("effects.countered"), item.controller, item=victim.name)
            card_left_chain(g, victim)              # 425.1.a.1: a countered card goes to its owner's trash
            return
    log(g, "nothing named {item} is on the chain to counter", cite("effects.nothing-named-chain-counter"), item.controller, item=name)
