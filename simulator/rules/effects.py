"""What items do when they resolve (340, 337.2): the effect vocabulary, units and gear entering play."""
from __future__ import annotations

from simulator.core.log import fire, log
from simulator.core.model import Item, State, Unit
from simulator.core.registry import effect
from simulator.rules.triggers import describe, holds
from simulator.rules.moves import arrive, combat_outsider, forced_move, recall, settle_arrivals
from simulator.rules.triggers import trigger_abilities


@effect("resolve_item")
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
        n = _next_id(g, item.card)
        gear = Unit(n, item.controller, "base", 0, abilities=g.cfg.cards[item.card].abilities,
                    card=item.card, kind="gear")
        g.units[n] = gear
        log(g, f"{item.controller}'s gear {n} enters play in base", "337.2, 359.2", item.controller)
        trigger_abilities(g, gear, "on-play")          # 383.4.a.2: pending after it has entered
        return
    log(g, f"{item.name} resolves", "340" if not item.immediate else "337.2, 429", item.controller)
    g.arrivals = []
    entering: list[Unit] = []
    try:
        run_effects(g, item, entering)
    finally:
        arrivals, g.arrivals = g.arrivals, None
    settle_arrivals(g, arrivals)
    for u in entering:                              # 354.3: their play resumes once the item has resolved
        enter_token(g, u, item)
    if item.kind == "spell" and g.spell_watchers():
        fire(g, "chain", "spell_resolved", item=item.name, player=item.controller)   # 419.4.a


def _next_id(g: State, card: str) -> str:
    g.counters[card] = g.counters.get(card, 0) + 1
    return f"{card}#{g.counters[card]}"


def enter_play(g: State, item: Item) -> None:
    """A unit enters play at its chosen location, exhausted (359.2); play triggers follow (383.4.a.2)."""
    n = _next_id(g, item.card)
    card = g.cfg.cards[item.card]
    u = Unit(n, item.controller, item.at or "base", card.might, abilities=card.abilities, card=item.card,
             keywords=card.keywords)
    u.exhausted = not item.ready
    g.units[n] = u
    if item.ready:
        log(g, f"{n} enters play ready at {u.at} (Accelerate)", "337.2, 805", item.controller)
    else:
        log(g, f"{n} enters play at {u.at}", "337.2, 359.2", item.controller)
    if u.at in g.bfs:
        arrive(g, u, u.at, moved=False)             # being played there is no move: no on-arrive
    trigger_abilities(g, u, "on-play")


def enter_token(g: State, u: Unit, by: Item) -> None:
    """354.3: a unit played by an item's instruction enters once that item has finished resolving (its play
    process waited), exhausted (359.2); being played to a battlefield is no move (no on-arrive)."""
    g.units[u.id] = u
    g.dirty = True                                  # 319: an object entered the board
    log(g, f"{u.id} (might {u.might}) enters play at {u.at}: {by.name} has finished resolving",
        "354.3, 359.2", u.controller)
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


def run_effects(g: State, item: Item, entering: list | None = None) -> None:
    """Carry out the item's instructions in order; a unit it plays is added to ``entering`` (354.3)."""
    here_override: str | None = None
    entering = [] if entering is None else entering
    for verb, fields in item.effect:
        meta = dict(f for f in fields if f[0] in ("if", "may"))
        if meta:
            fields = tuple(f for f in fields if f[0] not in ("if", "may"))
        if "if" in meta:                            # 383.2.b: an entry's own condition, checked as it executes
            src = item.source or ""
            if not holds(g, meta["if"], src, item.controller, item.here):
                log(g, f"{verb}: {describe(meta['if'])} is false; this part does nothing", "383.2.b", item.controller)
                continue
        args = {f: _value(g, item, f, v) for f, v in fields}
        if any(v is None for f, v in args.items() if dict(fields).get(f) == "there"):
            log(g, f"{verb}: no battlefield was named by the triggering event; nothing happens", "359.3.f.3",
                item.controller)
            continue
        if here_override is not None:
            args = {f: (here_override if dict(fields).get(f) == "here" else v) for f, v in args.items()}
        if any(v is UNAVAILABLE for v in args.values()):
            log(g, f"{verb}: {item.source} has left the board, so 'here' is unavailable; the instruction does "
                   f"nothing", "359.3.f.2", item.controller)
            continue
        u = g.units.get(args.get("unit")) if "unit" in args else None
        if "unit" in args and (u is None or u.zone != "board"):
            log(g, f"{verb}: {args.get('unit')} is " + ("not on the board (yet)" if u is None else
                                                         "no longer on the board") + "; nothing happens",
                "340" if u is not None else "340, 354.3", item.controller)
            continue
        if verb == "move":
            forced_move(g, u, args["to"])
        elif verb == "recall":
            if u.at != "base":
                recall(g, u, "455")
        elif verb == "stun":
            u.stunned = True
            g.dirty = True
            log(g, f"{u.id} is stunned: it deals no combat damage this turn", "423.1", item.controller)
        elif verb == "buff":
            u.buff += int(args["might"])
            log(g, f"{u.id} gets {int(args['might']):+d} might this turn (now {g.might(u)})", "340", item.controller)
        elif verb == "en-garde":
            u.buff += 1
            alone = [v for v in g.units_at(u.at, item.controller)] == [u]
            if alone:
                u.buff += 1
            log(g, f"{u.id} gets +{2 if alone else 1} might this turn (now {g.might(u)})"
                   + (": it is the only unit its controller has there" if alone else ""), "340", item.controller)
        elif verb == "damage":
            u.damage += int(args["amount"])
            u.hurt = True
            g.dirty = True
            log(g, f"{u.id} takes {args['amount']} damage", "340", item.controller)
        elif verb == "kill":
            log(g, f"{u.id} is killed", "340", item.controller)
            if any(ab.trigger == "on-death" for ab in u.abilities):
                fire(g, "chain", "dies", units=[u.id])     # 808.1.d: pending as the kill executes
            u.zone = "trash"
            u.designation = None
            g.dirty = True
        elif verb == "banish":
            u.zone = "banished"
            u.designation = None
            g.dirty = True
            log(g, f"{u.id} is banished", "340", item.controller)
        elif verb == "replay":
            _replay(g, item, u, args.get("at") or "base", entering)
        elif verb == "play":
            _forced_play(g, item, args["card"], args.get("at") or "base", entering)
        elif verb in ("ready", "exhaust"):
            u.exhausted = verb == "exhaust"
            g.dirty = True
            log(g, f"{u.id} is {'exhausted' if u.exhausted else 'readied'}", "340", item.controller)
        elif verb == "give-keyword":
            if args["keyword"] not in u.given:
                u.given = u.given + (args["keyword"],)
            log(g, f"{u.id} gains {args['keyword']} this turn", "340", item.controller)
        elif verb == "play-unit":
            where = args.get("at") or "base"
            if where in g.bfs and combat_outsider(g, item.controller, where):
                log(g, f"{item.controller} may not play a unit into the combat at {where}: it is played to "
                       f"base instead, and 'here' now means that base", "462, 447.2", item.controller)
                where = "base"
                here_override = "base"
            g.counters["token"] = g.counters.get("token", 0) + 1
            n = f"token#{g.counters['token']}"
            t = Unit(n, item.controller, where, int(args.get("might", 1)))
            t.exhausted = True
            entering.append(t)
            log(g, f"{item.controller} plays {n} (might {t.might}) at {where}: it enters once {item.name} has "
                   f"finished resolving", "354.3, 462", item.controller)
        elif verb == "add":
            g.energy[item.controller] = g.energy.get(item.controller, 0) + int(args.get("energy", 1))
            log(g, f"{item.controller} adds {args.get('energy', 1)} energy", "429", item.controller)
        elif verb == "counter":
            _counter(g, item, args.get("item"))
        elif verb == "draw":
            k = int(args.get("count", 1))
            g.drawn[item.controller] = g.drawn.get(item.controller, 0) + k
            log(g, f"{item.controller} draws {k}", "340", item.controller)
        elif verb == "extra-turn":
            who = args.get("player") or item.controller
            if g.cfg.rulings.get("R11") == "fifo":
                g.extra.append(who)
            else:
                g.extra.insert(0, who)
            log(g, f"{who} will take an extra turn after this one", "735, R11", item.controller)


def _forced_play(g: State, item: Item, card: str, where: str, entering: list, owner: str | None = None) -> str:
    """A forced play of ``card``: a unit gets the id ``CARD#N`` and its card's abilities, and enters once the
    playing item has finished resolving (354.3), exhausted (359.2), its play triggers after it (383.4.a.2);
    gear enters its base at once."""
    who = owner or item.controller
    c = g.cfg.cards[card]
    if c.type == "gear":
        resolve(g, Item(g.next_uid(), card, who, "gear", card=card))
        return f"{card}#{g.counters[card]}"
    if where in g.bfs and (g.bfs[where].controller != who or combat_outsider(g, who, where)):
        log(g, f"{card} may not be played to {where}: it is played to base instead", "359.2, 462", who)
        where = "base"
    n = _next_id(g, card)
    u = Unit(n, who, where, c.might, abilities=c.abilities, card=card)
    u.exhausted = True
    entering.append(u)
    log(g, f"{who} plays {n} at {where}: it enters once {item.name} has finished resolving", "354.3", who)
    return n


def _replay(g: State, item: Item, u: Unit, where: str, entering: list) -> None:
    """Banish ``u``, then its owner plays it ignoring its cost: a new object with a new id (124)."""
    u.zone = "banished"
    u.designation = None
    g.dirty = True
    log(g, f"{u.id} is banished", "340", item.controller)
    if u.card is None or u.card not in g.cfg.cards:
        log(g, f"{u.id} was not made from a card: nothing is played", "124", item.controller)
        return
    n = _forced_play(g, item, u.card, where, entering, u.owner)
    log(g, f"{u.id} is played again as {n}: a new object", "124", u.owner)


def _counter(g: State, item: Item, name) -> None:
    for i in range(len(g.chain) - 1, -1, -1):
        if g.chain[i].name == name or name in (None, "newest"):
            victim = g.chain.pop(i)
            g.dirty = True
            log(g, f"{victim.name} is countered", "340", item.controller)
            return
    log(g, f"nothing named {name} is on the chain to counter", "340", item.controller)
