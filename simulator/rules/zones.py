"""The zones (108, 056, 124, 186): the hand, the Main Deck, the trash and banishment as real zones with card identity,
and tokens, which cease to exist off the board.

A unit's ``zone`` is ``board``, ``hand``, ``deck``, ``trash``, ``banished`` or ``removed``. Every rule that puts a unit
or gear off the board (a kill, lethal damage, a banish, a return, a replay, a conceding player's banish and removal)
goes through :func:`leave_board`, so a token (``token#N``, from ``play-unit``) put into any non-board zone other than
the chain ceases to exist at once (186.1): it is then in no zone, reported as ``removed``; it cannot be chosen,
returned or replayed, and nothing refers to it again.

In a game that models its zones (``Config.zones``: the file has ``decks:``, ``trash:`` or ``banished:``), each
player's hand (``State.hands``) and piles (``State.piles``: deck top first, trash in the order the cards arrived,
banishment) hold **entries**: a card's id (a zone entry's ``id``, a former unit's or gear's id) or, for a card
named by its card name only, that name. :func:`card_of` reads an entry's card; ``card`` is a blank card (Z1).
Every card goes to its owner's zones (056); whatever leaves the board for a non-board zone is a new object if it
comes back (124).
"""
from __future__ import annotations

from statecharts.citations import cite
from simulator.core.errors import RulesBug
from simulator.core.log import log
from simulator.core.model import Item, State, Unit

#: the card whose face a scenario does not care about (Z1): no type, cost or abilities; it cannot be played
BLANK = "card"
#: the non-board zones that hold cards, besides the hand
PILES = ("deck", "trash", "banished")
ZONES = ("hand", *PILES)


def card_of(g: State, entry: str) -> str:
    """The card name of a zone entry: a former unit's or gear's card (an anonymous one's is its id), a declared
    id's card (``{id: h4, card: unit-2}``), else the entry itself (a card named by its card name)."""
    u = g.units.get(entry)
    if u is not None:
        return u.card or u.id
    return g.cfg.ids.get(entry, entry)


def cards_in(g: State, zone: str, p: str) -> tuple[str, ...]:
    """The entries of ``p``'s ``zone`` (a hand in its order, a deck top first)."""
    return tuple(g.hands.get(p, ())) if zone == "hand" else g.pile(zone, p)


def endless(g: State, p: str) -> bool:
    """``p`` has no modelled deck: draws never run out (the version 2 behaviour, Z1)."""
    return ("deck", p) not in g.piles


def put(g: State, zone: str, p: str, entry: str, top: bool = False) -> None:
    """``entry`` arrives in ``p``'s ``zone`` (at the bottom of a deck unless ``top``); a former unit's or gear's
    card reports that zone."""
    if zone == "hand":
        g.set_hand(p, [*g.hands.get(p, ()), entry])
    else:
        cur = g.pile(zone, p)
        g.set_pile(zone, p, (entry, *cur) if top else (*cur, entry))
    u = g.units.get(entry)
    if u is not None and u.zone != zone:
        g.edit(u).zone = zone


def take(g: State, zone: str, p: str, entry: str) -> bool:
    """Take ``entry`` (its first occurrence) out of ``p``'s ``zone``; False if it is not there."""
    cur = list(cards_in(g, zone, p))
    if entry not in cur:
        return False
    cur.remove(entry)
    if zone == "hand":
        g.set_hand(p, cur)
    else:
        g.set_pile(zone, p, tuple(cur))
    return True


def where(g: State, entry: str) -> tuple[str, str] | None:
    """The (zone, player) holding ``entry`` outside the board, if any: hands first, then piles."""
    for p, h in g.hands.items():
        if entry in h:
            return "hand", p
    for (z, p), c in g.piles.items():
        if entry in c:
            return z, p
    return None


def census(g: State) -> int:
    """How many cards the game holds (Z1): in hands, decks, trashes and banishments, on the board (not tokens,
    which are no cards), on the chain (cards being played), facedown, and held by an item waiting mid-resolution.
    It changes only where a rule creates a card (an instruction playing a card from nowhere, a draw from an
    endless deck) or removes one (a recycle into an endless deck, a player leaving the game): ``State.made``."""
    n = sum(len(h) for h in g.hands.values()) + sum(len(c) for c in g.piles.values()) + len(g.hidden)
    n += sum(1 for u in g.units.values() if u.zone == "board" and not u.token)
    n += sum(1 for it in g.chain if it.card is not None and it.kind in ("spell", "unit", "gear"))
    r = g.resolving
    if r is not None:
        n += (r.item.card is not None and r.item.kind == "spell") + sum(1 for u in r.entering if not u.token)
    return n


def leave_board(g: State, u: Unit, zone: str) -> None:
    """``u`` (already written through ``g.edit``) leaves the board for ``zone`` and loses its designation; a token
    ceases to exist there instead of staying (186, 186.1). The caller writes its own trace line first (killed,
    dies, banished, returned, removed from the game). In a game that models its zones, the card goes to its owner's
    zone (056) under its board id (Z1)."""
    u.zone = zone
    u.designation = None
    if u.token and zone != "removed":
        u.zone = "removed"
        log(g, "{unit} ceases to exist: a token cannot exist outside the board or the chain",
            cite("zones.token-ceases-to-exist"), u.controller, unit=u.id)
    elif g.cfg.zones and zone in ZONES:
        put(g, zone, u.owner, u.id)


def to_chain(g: State, p: str, zone: str, entry: str) -> None:
    """A card played from ``p``'s ``zone`` moves to the chain first (354.1): it is no longer in that zone; a former
    unit's or gear's card reports ``chain`` (Z1)."""
    take(g, zone, p, entry)
    u = g.units.get(entry)
    if u is not None:
        g.edit(u).zone = "chain"


def trash_cost(g: State, p: str, card) -> int | None:
    """Z4: what ``card`` costs ``p`` played from their trash, or None if nothing lets them: a ``may-play-from:
    trash`` permission of a permanent ``p`` controls (its own cost), else the card's own ``play-from-trash`` (an
    alternate cost, 356.1.a)."""
    for u in g.units.values():
        if u.zone == "board" and u.controller == p and any(ab.play_from == "trash" for ab in u.abilities):
            return card.cost
    return card.trash_cost


def remove_zones(g: State, p: str) -> None:
    """652.3: every card ``p`` owns outside the board leaves the game with them (their piles empty)."""
    for z in PILES:
        if g.pile(z, p):
            g.set_pile(z, p, ())


def card_left_chain(g: State, item: Item) -> None:
    """A spell that resolved or was countered, or a card countered while being played, goes to its owner's trash
    (157, 425.1.a.1), in a game that models its zones; an ability is no card and goes nowhere; the card of a player
    who left the game left with them (652.3)."""
    if g.cfg.zones and item.card is not None and item.kind in ("spell", "unit", "gear") \
            and item.controller in g.in_game():
        put(g, "trash", item.controller, item.entry or item.card)


# -- the zone verbs (Z3): return, discard, recycle, banish cards -------------------------------------------------

#: effect verbs carried out here when they name a card (``card``) or a number of cards (``count``)
VERBS = ("return", "discard", "recycle", "banish")
#: where each verb looks for a named card, and where it puts it
_FROM = {"return": ("trash",), "discard": ("hand",), "recycle": ("trash", "hand", "banished"),
         "banish": ("hand", "trash", "deck")}


def return_unit(g: State, item: Item, u: Unit) -> None:
    """A unit (already written through ``g.edit``) returns to its owner's hand: it leaves the board without dying
    (no own-death abilities), a token ceases to exist instead (186.1), and it is a new object if played again
    (124, Z3)."""
    log(g, "{object} returns to {owner}'s hand", cite("zones.returns-to-hand"), item.controller, object=u.id,
        owner=u.owner)
    leave_board(g, u, "hand")
    g.dirty = True


def discarder(item: Item, args: dict) -> str:
    """Who discards: the entry's ``player``, else the item's controller."""
    return args.get("player") or item.controller


def must_choose(g: State, item: Item, verb: str, args: dict) -> bool:
    """A discard of ``count`` cards waits for its player's choice (422) unless the candidates are alike or all go."""
    if verb != "discard" or "card" in args:
        return False
    have = cards_in(g, "hand", discarder(item, args))
    return min(int(args.get("count", 1)), len(have)) < len(have) and len({card_of(g, c) for c in have}) > 1


def discard_options(g: State, item: Item, args: dict) -> list[str]:
    """The cards a player may choose to discard: each distinct entry of their hand (Z3)."""
    return list(dict.fromkeys(cards_in(g, "hand", discarder(item, args))))


def carry_out(g: State, item: Item, verb: str, args: dict, decided=None) -> bool:
    """``return``, ``discard``, ``recycle`` or ``banish`` of a card (``card``: an entry, or ``target``'s choice)
    or of ``count`` cards of a player's zone (discard: the hand; recycle: ``from``, default the trash); ``decided``:
    the card a player chose to discard (422), the rest of the count taken when alike. False: the entry waits for
    that choice (nothing was done)."""
    entry = args.get("card")
    if isinstance(decided, str):
        _move(g, verb, "hand", discarder(item, args), decided)
        if int(args.get("count", 1)) > 1:
            _some(g, item, verb, {**args, "count": int(args["count"]) - 1})
        return True
    if must_choose(g, item, verb, args):
        return False
    if entry is None:
        _some(g, item, verb, args)
        return True
    found = next(((z, p) for z, p in _located(g, entry) if z in _FROM[verb]), None)
    if found is None:
        log(g, "{verb}: {card} is not where the instruction looks for it; nothing happens", cite("zones.no-such-card"),
            item.controller, verb=verb, card=entry)
        return True
    _move(g, verb, found[0], found[1], entry)
    return True


def _located(g: State, entry: str) -> list[tuple[str, str]]:
    """Every (zone, player) outside the board holding ``entry``, hands first, then in turn order."""
    out = [("hand", p) for p in g.cfg.order if entry in g.hands.get(p, ())]
    return out + [(z, p) for z in PILES for p in g.cfg.order if entry in g.pile(z, p)]


def _some(g: State, item: Item, verb: str, args: dict) -> None:
    """``count`` cards (default 1) of ``player``'s (default the controller's) zone: the hand for a discard, ``from``
    (default the trash) for a recycle; as many as there are (422.4, 416.4). Which cards, when they differ, is the
    player's choice (riftsim takes them only when they are alike or all must go)."""
    p = discarder(item, args)
    zone = "hand" if verb == "discard" else args.get("from") or "trash"
    have = cards_in(g, zone, p)
    n = min(int(args.get("count", 1)), len(have))
    if n < len(have) and len({card_of(g, c) for c in have}) > 1:
        raise RulesBug(f"{p} must choose {n} of {len(have)} different cards to {verb}: riftsim asks for one "
                       f"card at a time, and only for a discard (Z3)")
    for entry in have[:n]:
        _move(g, verb, zone, p, entry)


def _move(g: State, verb: str, zone: str, p: str, entry: str) -> None:
    """``entry`` leaves ``p``'s ``zone`` for the zone ``verb`` puts it in, with the verb's trace line."""
    take(g, zone, p, entry)
    if verb == "return":
        put(g, "hand", p, entry)
        log(g, "{object} returns to {owner}'s hand", cite("zones.returns-to-hand"), p, object=entry, owner=p)
    elif verb == "discard":
        put(g, "trash", p, entry)
        log(g, "{player} discards {card}", cite("zones.discards"), p, card=entry)
    elif verb == "recycle":
        if not endless(g, p):
            put(g, "deck", p, entry)
        else:                                       # an endless deck keeps no bottom (Z1): the card is lost in it
            g.made -= 1
            if entry in g.units:
                g.edit(g.units[entry]).zone = "deck"
        log(g, "{card} is recycled to the bottom of {owner}'s Main Deck", cite("zones.recycled"), p, card=entry,
            owner=p)
    else:
        put(g, "banished", p, entry)
        log(g, "{card} is banished from {owner}'s {zone}", cite("zones.banished-from"), p, card=entry, owner=p,
            zone=zone)
