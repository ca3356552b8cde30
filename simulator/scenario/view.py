"""The position as the scenario format's expectation keys (and the JSON trace's ``final``), and what
a ``show:`` step or ``simulate --show`` prints of it (:func:`position`, :func:`position_line`)."""
from __future__ import annotations

from statecharts.states import CombatStep, Status
from simulator.core.i18n import gettext_for
from simulator.core.log import N_
from simulator.game.validate import _fmt
from simulator.game.actions import choice, legal
from simulator.game.decision import decision as decide
from simulator.core.model import State
from simulator.rules.moves import UNCONTESTED
from simulator.rules.scoring import points
from simulator.rules.zones import BLANK, card_of, endless


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


def unit_view(g: State, u, every: bool = False) -> dict:
    """A unit as expectations see it; ``ward`` is shown only while it has one (expected ``false`` otherwise);
    with ``every`` (expectations) its ``owner`` too (X5)."""
    v = {"at": u.at, "might": g.might(u), "stunned": u.stunned, "zone": u.zone, "damage": u.damage,
         "controller": u.controller, "exhausted": u.exhausted, "designation": u.designation}
    if u.ward:
        v["ward"] = True
    if every:
        v["owner"] = u.owner
    return v


def chain_items(g: State) -> list[dict]:
    """The chain's items in detail (X4), oldest first, as :func:`chain_names` lists them: name, controller,
    pending, targets (a mapping), source (an ability's)."""
    items = list(g.chain) + ([g.resolving.item] if g.resolving is not None else [])
    return [{"name": it.name, "controller": it.controller, "pending": not it.finalized, "targets": dict(it.targets),
             "source": it.source} for it in items]


def hidden(g: State) -> dict:
    """Facedown cards per battlefield (811), each list sorted."""
    out: dict = {}
    for bf, _, card, _ in g.hidden:
        out.setdefault(bf, []).append(card)
    return {b: sorted(c) for b, c in out.items()}


def zones_view(g: State, names: bool = False) -> dict:
    """Each player's hand, trash and banishment (entries in order), and each modelled deck: its count and the named
    cards on top, top first, down to the first blank card (Z6); ``names``: each card's card name too (``_names``)."""
    out: dict = {"hand": {p: list(g.hands.get(p, ())) for p in g.order}}
    for z in ("trash", "banished"):
        out[z] = {p: list(g.pile(z, p)) for p in g.order}
    decks = {}
    for p in g.order:
        if not endless(g, p):
            deck = g.pile("deck", p)
            top = list(deck[:deck.index(BLANK)] if BLANK in deck else deck)
            decks[p] = {"count": len(deck), "top": top}
    out["deck"] = decks
    if names:                                       # each card's card name, for matching entries (Z6)
        out["_names"] = {c: card_of(g, c) for z in ("hand", "trash", "banished") for cs in out[z].values()
                         for c in cs} | {c: card_of(g, c) for p in decks for c in g.pile("deck", p)}
    return out


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
        "units": {u.id: unit_view(g, u, every) for u in g.units.values() if u.kind == "unit"},
        "players": list(g.in_game()),
        "winner": winner(g),
        "phase": g.ms[("phases", None)],
    }
    _keywords_and_resources(g, v, every)
    if with_legal:
        v["legal"] = {p: sorted(dict.fromkeys(choice(a) for a in legal(g, p))) for p in g.order}
    return v


def _keywords_and_resources(g: State, v: dict, every: bool) -> None:
    """The keys of the keywords and resources (docs/keywords-and-resources.md): always with ``every``
    (expectations), else only where the game uses them, so the view of an older file is unchanged."""
    if every or g.cfg.resources is not None:
        v["energy"] = dict(g.energy)
        v["runes"] = dict(g.runes)
    if every or g.hidden:
        v["hidden"] = hidden(g)
    if every:
        v["gear"] = {u.id: {"exhausted": u.exhausted, "zone": u.zone, "at": u.at, "controller": u.controller}
                     for u in g.units.values() if u.kind == "gear"}
    if every or g.cfg.zones:                        # the zones (Z6): only where the file models them, or asked
        v.update(zones_view(g, every))


# -- asking instead of asserting: show: steps and simulate --show ------------------------------------------

#: keys a ``show:`` step may name besides the expectation keys: they are shown, never checked
SHOW_ONLY = ("passed", "decision")
#: what ``simulate --show`` prints after every step
SHOW_DEFAULT = ("state", "focus", "priority", "passed", "chain", "decision")
#: each key's words in the printed line (a template per key, so that a language may word it)
LABELS = {
    "state": N_("state {value}"), "turn": N_("turn {value}"), "focus": N_("focus {value}"),
    "priority": N_("priority {value}"), "chain": N_("chain {value}"), "active": N_("active {value}"),
    "staged": N_("staged {value}"), "contested": N_("contested {value}"), "controller": N_("controller {value}"),
    "score": N_("score {value}"), "units": N_("units {value}"), "legal": N_("legal {value}"),
    "players": N_("players {value}"), "winner": N_("winner {value}"), "phase": N_("phase {value}"),
    "energy": N_("energy {value}"), "runes": N_("runes {value}"), "hidden": N_("hidden {value}"),
    "gear": N_("gear {value}"), "passed": N_("passed {value}"), "decision": N_("decision {value}"),
    "hand": N_("hand {value}"), "deck": N_("deck {value}"), "trash": N_("trash {value}"),
    "banished": N_("banished {value}"),
}


def passed(g: State) -> dict:
    """Who has passed in succession: priority while a chain exists (339), focus while someone holds it (347.2);
    the passes of a chain or showdown that is over are not shown."""
    return {"priority": list(g.passed) if g.chain else [], "focus": list(g.focus_passed) if g.focus else []}


def passed_now(g: State) -> list[str]:
    """Who has passed in the current round, in order (X1): the priority passes while a chain exists and someone
    holds priority (339, 340.4), the focus passes in Showdown Open (347.2, R3); ``[]`` otherwise (Neutral Open,
    or nobody holds priority: a decision is awaited)."""
    if g.priority is None or g.winner is not None:
        return []
    if g.chain:
        return list(g.passed)
    return list(g.focus_passed) if g.focus is not None else []


def decision(g: State) -> dict | None:
    """Who must decide what now, as the ``decision:`` expectation writes it: ``{kind, player, item}``
    (:func:`simulator.game.decision.decision`); None once the game is over."""
    d = decide(g)
    return d.data() if d is not None else None


def position(g: State, keys) -> dict:
    """The values of ``keys`` (expectation keys, ``passed``, ``decision``) in the position ``g``."""
    v = view(g, with_legal="legal" in keys, every=True)
    v["passed"] = passed(g)
    v["decision"] = decision(g)
    return {k: v[k] for k in keys}


def position_line(values: dict, lang: str = "en") -> str:
    """``position: priority B | chain [deathknell] | decision priority B``, worded in ``lang``."""
    _ = gettext_for(lang)
    parts = [_(LABELS[k]).format(value=_value(k, x, lang)) for k, x in values.items()]
    return _("position: {values}").format(values=" | ".join(parts))


def _value(key: str, x, lang: str) -> str:
    _ = gettext_for(lang)
    if key == "decision":
        return _("nobody") if x is None else f"{x['kind']} {x['player']}" + (f" ({x['item']})" if x["item"] else "")
    if key == "passed":
        return ", ".join(_(LABELS[k]).format(value=_value(k, who, lang)) for k, who in x.items())
    if x is None:
        return _("nobody") if key in ("focus", "priority", "winner") else "null"
    return _fmt(x)
