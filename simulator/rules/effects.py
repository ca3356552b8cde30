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
        g.units[n] = Unit(n, item.controller, "base", 0, abilities=g.cfg.cards[item.card].abilities,
                          card=item.card, kind="gear")
        log(g, f"{item.controller}'s gear {n} enters play in base", "337.2, 359.2", item.controller)
        return
    log(g, f"{item.name} resolves", "340" if not item.immediate else "337.2, 429", item.controller)
    g.arrivals = []
    try:
        run_effects(g, item)
    finally:
        arrivals, g.arrivals = g.arrivals, None
    settle_arrivals(g, arrivals)
    if item.kind == "spell":
        fire(g, "chain", "spell_resolved", item=item.name, player=item.controller)   # 419.4.a


def _next_id(g: State, card: str) -> str:
    g.counters[card] = g.counters.get(card, 0) + 1
    return f"{card}#{g.counters[card]}"


def enter_play(g: State, item: Item) -> None:
    """A unit enters play at its chosen location, exhausted (359.2); play triggers follow (383.4.a.2)."""
    n = _next_id(g, item.card)
    card = g.cfg.cards[item.card]
    u = Unit(n, item.controller, item.at or "base", card.might, abilities=card.abilities, card=item.card)
    u.exhausted = True
    g.units[n] = u
    log(g, f"{n} enters play at {u.at}", "337.2, 359.2", item.controller)
    if u.at in g.bfs:
        arrive(g, u, u.at)
    trigger_abilities(g, u, "on-play")


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
        src = g.units.get(item.source)
        if src is not None:
            return src.at
        if item.source in g.bfs:
            return item.source
        return "base"
    return value


def run_effects(g: State, item: Item) -> None:
    here_override: str | None = None
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
        u = g.units.get(args.get("unit")) if "unit" in args else None
        if "unit" in args and (u is None or u.zone != "board"):
            log(g, f"{verb}: {args.get('unit')} is no longer on the board; nothing happens", "340", item.controller)
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
            _replay(g, item, u, args.get("at") or "base")
        elif verb == "play":
            _forced_play(g, item, args["card"], args.get("at") or "base")
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
            g.units[n] = t
            g.dirty = True
            log(g, f"{n} (might {t.might}) is played at {where}", "446, 462", item.controller)
            if where in g.bfs:
                arrive(g, t, where)
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


def _forced_play(g: State, item: Item, card: str, where: str, owner: str | None = None) -> str | None:
    """A forced play of ``card`` (a unit or gear): it enters with its abilities, its play triggers follow."""
    who = owner or item.controller
    c = g.cfg.cards[card]
    if c.type == "unit" and where in g.bfs and (g.bfs[where].controller != who or combat_outsider(g, who, where)):
        log(g, f"{card} may not be played to {where}: it is played to base instead", "359.2, 462", who)
        where = "base"
    new = Item(g.next_uid(), card, who, c.type, card=card, might=c.might, at=where if c.type == "unit" else "base")
    if c.type == "gear":
        resolve(g, new)
        gear = f"{card}#{g.counters[card]}"
        trigger_abilities(g, g.units[gear], "on-play")
        return gear
    enter_play(g, new)
    return f"{card}#{g.counters[card]}"


def _replay(g: State, item: Item, u: Unit, where: str) -> None:
    """Banish ``u``, then its owner plays it ignoring its cost: a new object with a new id (124)."""
    u.zone = "banished"
    u.designation = None
    g.dirty = True
    log(g, f"{u.id} is banished", "340", item.controller)
    if u.card is None or u.card not in g.cfg.cards:
        log(g, f"{u.id} was not made from a card: nothing is played", "124", item.controller)
        return
    n = _forced_play(g, item, u.card, where, u.owner)
    log(g, f"{u.id} is played again as {n}: a new object", "124", u.owner)


def _counter(g: State, item: Item, name) -> None:
    for i in range(len(g.chain) - 1, -1, -1):
        if g.chain[i].name == name or name in (None, "newest"):
            victim = g.chain.pop(i)
            g.dirty = True
            log(g, f"{victim.name} is countered", "340", item.controller)
            return
    log(g, f"nothing named {name} is on the chain to counter", "340", item.controller)
