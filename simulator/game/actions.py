"""Actions (the scenario vocabulary) and their legality, each refusal naming its rule."""
from __future__ import annotations

from contextlib import contextmanager
from typing import cast
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product

from statecharts import timing
from statecharts.states import ChainState, Phase
from statecharts.citations import cite

from simulator.rules.targets import check_targets, pool, target_fields, target_options, target_pool
from simulator.rules.triggers import deciding, orderer, unordered_labels
from simulator.rules import damage, hidden as facedown
from simulator.rules.resources import available, cost_of
from simulator.rules import zones
from simulator.rules.zones import card_of, trash_cost
from simulator.core.cards import keyword
from simulator.core.errors import IllegalAction, TooCostly, need as _need
from simulator.core.model import State
from simulator.rules.moves import combat_outsider, destination_problem

KINDS = ("move", "play", "activate", "pass", "choose", "concede", "end-turn", "invite", "order", "target", "assign",
         "hide")


@dataclass(frozen=True)
class Action:
    kind: str
    player: str
    units: tuple[str, ...] = ()
    to: str | None = None
    card: str | None = None
    targets: tuple[tuple[str, str], ...] = ()
    at: str | None = None
    source: str | None = None
    ability: str | None = None
    battlefield: str | None = None
    teammate: str | None = None
    triggers: tuple[str, ...] = ()   # order: the player's pending triggers, first placed first (383.3.d)
    option: str | None = None        # choose: yes | no, for a may (383.3.a)
    damage: tuple[tuple[str, int], ...] = ()   # assign: (unit, amount) pairs (465.2.c)
    accelerate: bool = False         # play: pay Accelerate's extra cost to enter ready (805)
    hidden: bool = False             # play: from a facedown card at a battlefield (811.1.d), not the hand
    origin: str | None = None        # play, hide: "trash": from the player's trash (Z4), not the hand

    def summary(self) -> str:
        """The action as the scenario format's ``legal`` lists it (one entry per card or unit set)."""
        k = self.kind
        if k == "move":
            return f"move {' '.join(self.units)} {self.to}"
        if k == "play":
            return f"play {self.card}" + (" from hidden" if self.hidden else " from trash" if self.origin else "")
        if k == "hide":
            return f"hide {self.card} {self.at}" + (" from trash" if self.origin else "")
        if k == "activate":
            return f"activate {self.source} {self.ability}"
        if k == "choose":
            return f"choose {self.option}" if self.option is not None else f"choose card {self.card}" \
                if self.card is not None else f"choose {self.battlefield}"
        if k == "invite":
            return f"invite {self.teammate}"
        if k == "order":
            return f"order {' '.join(self.triggers)}"
        return k

    def describe(self) -> str:
        s = f"{self.player} {self.summary()}"
        if self.targets:
            s += " (" + ", ".join(f"{k}: {v}" for k, v in self.targets) + ")"
        if self.damage:
            s += " (" + ", ".join(f"{k}: {v}" for k, v in self.damage) + ")"
        if self.kind == "hide":
            return s
        if self.accelerate:
            s += " paying Accelerate"
        if self.at:
            s += f" at {self.at}"
        return s


def _refuse(action: str, st: str, **fmt: str) -> IllegalAction:
    """The refusal the timing table declares for ``action`` in the turn state ``st``."""
    reason, rules = timing.REFUSED[(action, st)]
    return IllegalAction(reason.format(state=st, **fmt), rules)


#: the fields each kind of action takes (every other field keeps its default), and the rule it cites
SHAPES = {
    "move": (("units", "to"), cite("actions.shapes-move")),
    "play": (("card", "targets", "at", "accelerate", "hidden", "origin"), cite("actions.shapes-play")),
    "activate": (("source", "ability", "targets"), cite("actions.shapes-activate")),
    "pass": ((), cite("actions.shapes-pass")),
    "choose": (("battlefield", "option", "card"), cite("actions.shapes-choose")),
    "concede": ((), cite("actions.shapes-concede")),
    "end-turn": ((), cite("actions.shapes-end-turn")),
    "invite": (("teammate",), cite("actions.shapes-invite")),
    "order": (("triggers",), cite("actions.shapes-order")),
    "target": (("targets",), cite("actions.shapes-target")),
    "assign": (("damage",), cite("actions.shapes-assign")),
    "hide": (("card", "at", "origin"), cite("actions.shapes-hide")),
}
_FIELDS = ("units", "to", "card", "targets", "at", "source", "ability", "battlefield", "teammate", "triggers",
           "option", "damage", "accelerate", "hidden", "origin")


def check(g: State, a: Action) -> None:
    """Raise :class:`IllegalAction` if the rules forbid ``a`` now; return None if it is legal.

    Only actions of the shape :func:`legal` produces are accepted: the fields of their kind, of the right
    types, a card's own target fields each once (:func:`check_shape`)."""
    check_shape(g, a)
    _check_player(g, a.player)
    if a.kind != "concede":
        _check_choice(g, a, g.turn_state())


def check_shape(g: State, a: Action) -> None:
    """The action is one :func:`legal` could produce, whatever the moment: its kind's fields only, ids as
    texts, a play naming exactly its card's target fields (each once) and ``at`` only for a
    unit card. Raises :class:`IllegalAction` citing the rule of that kind of action.

    >>> from simulator.game.engine import Game
    >>> g = Game.from_setup({"players": ["A", "B"], "hands": {"A": ["action-spell"]}}).state
    >>> check_shape(g, Action("play", "A", card="action-spell", at="base"))
    Traceback (most recent call last):
    ...
    simulator.core.errors.IllegalAction: action-spell is a spell: at is only for playing a unit [353]
    """
    if not isinstance(a, Action):
        raise IllegalAction(f"not an action: {type(a).__name__}", cite("actions.not-action"))
    if a.kind not in SHAPES:
        raise IllegalAction(f"unknown action {a.kind!r}", cite("actions.unknown-action"))
    takes, rule = SHAPES[a.kind]
    if not isinstance(a.player, str):
        raise IllegalAction(f"the player must be a player name, not {type(a.player).__name__}", cite("actions.player-must-player-name-not"))
    for f in _FIELDS:
        v = getattr(a, f)
        if f not in takes:
            if v not in (None, (), False):
                raise IllegalAction(f"{a.kind} takes no {f}" + (f" (it takes: {', '.join(takes)})" if takes else ""),
                                    rule)
            continue
        if f in ("units", "triggers", "targets"):
            if not isinstance(v, tuple):
                raise IllegalAction(f"{a.kind}'s {f} must be a tuple, not {type(v).__name__}", rule)
            if f == "targets":
                if not all(isinstance(t, tuple) and len(t) == 2 and all(isinstance(x, str) for x in t) for t in v):
                    raise IllegalAction("targets must be (field, value) pairs of texts", cite("actions.targets-must-field-value-pairs"))
            elif not all(isinstance(x, str) for x in v):
                raise IllegalAction(f"{a.kind}'s {f} must name ids as texts", rule)
        elif f == "damage":
            if not isinstance(v, tuple) or not all(isinstance(t, tuple) and len(t) == 2 and isinstance(t[0], str)
                                                   and isinstance(t[1], int) for t in v):
                raise IllegalAction("assign's damage must be (unit, amount) pairs", rule)
        elif f in ("accelerate", "hidden"):
            if not isinstance(v, bool):
                raise IllegalAction(f"{a.kind}'s {f} must be true or false", rule)
        elif v is not None and not isinstance(v, str):
            raise IllegalAction(f"{a.kind}'s {f} must be a text, not {type(v).__name__}", rule)
    required = {"move": ("to",), "play": ("card",), "activate": ("source", "ability"),
                "invite": ("teammate",), "hide": ("card",)}.get(a.kind, ())
    for f in required:
        if getattr(a, f) is None:
            raise IllegalAction(f"{a.kind} needs {f}", rule)
    if a.kind == "play":
        card = _card(g, a)
        if card is None:
            raise IllegalAction(f"{a.card} is not a card of this game", cite("actions.not-card-game"))
        if a.at is not None and card.type != "unit" and not a.hidden:
            raise IllegalAction(f"{a.card} is a {card.type}: at is only for playing a unit", cite("actions.only-playing-unit"))
        names = [f for f, _ in a.targets]
        if len(set(names)) != len(names):
            raise IllegalAction(f"a target field is named twice: {', '.join(names)}", cite("actions.target-field-named-twice"))
        fields = target_fields(card.effect)
        extra = [f for f in names if f not in fields]
        if extra:
            raise IllegalAction(f"{a.card} takes no target {extra[0]!r}"
                                + (f" (it takes: {', '.join(fields)})" if fields else ""), cite("actions.takes-no-target-takes"))


def _check_player(g: State, p: str) -> None:
    """What every action of ``p`` needs: a player of this game, still in it, the game not over."""
    if p not in g.order:
        raise IllegalAction(f"{p} is not a player in this game", cite("actions.not-player-game"))
    if g.winner is not None:
        raise IllegalAction("the game is over", cite("actions.game-over"))
    if p not in g.in_game():
        raise IllegalAction(f"{p} has left the game and makes no more choices", cite("actions.has-left-game-makes-no"))


def _check_choice(g: State, a: Action, st: str) -> None:
    """The rest of :func:`check`, for any action but concede, in the turn state ``st``."""
    p = a.player
    if g.choosing:
        if a.kind != "choose":
            raise IllegalAction(f"{g.turn} must first choose which staged showdown or combat opens", cite("actions.must-first-choose-which-staged"))
        if p != g.turn:
            raise IllegalAction(f"only the turn player {g.turn} chooses", cite("actions.only-turn-player-chooses"))
        if a.battlefield not in g.choosing:
            raise IllegalAction(f"{a.battlefield} is not among the candidates ({', '.join(g.choosing)})", cite("actions.not-among-candidates"))
        return
    if a.kind == "choose" and a.option is None and a.card is None:
        raise IllegalAction("there is no choice of battlefield to make", cite("actions.there-no-choice-battlefield-make"))
    if g.ms[("chain", None)] == ChainState.ResolveChoice and g.resolving is not None:
        return _check_resolving_choice(g, a)
    who = orderer(g)
    if who is not None:
        return _check_order(g, a, who)
    if a.kind == "order":
        raise IllegalAction("there are no simultaneous triggers to order", cite("actions.there-are-no-simultaneous-triggers"))
    if g.ms[("chain", None)] == ChainState.Decide and deciding(g) is not None:
        return _check_decision(g, a)
    if a.kind == "choose":
        raise IllegalAction("there is no optional ability to decide", cite("actions.there-no-optional-ability-decide"))
    if a.kind == "target":
        raise IllegalAction("there is no triggered ability waiting for its targets", cite("actions.there-no-triggered-ability-waiting"))
    who = damage.assigner(g)
    if who is not None:
        return _check_assign(g, a, who)
    if a.kind == "assign":
        raise IllegalAction("there is no combat damage to assign now", cite("actions.there-no-combat-damage-assign"))
    return _check_with_priority(g, a, st)


def _check_with_priority(g: State, a: Action, st: str) -> None:
    """The rest of :func:`_check_choice` once no choice, order, decision or assignment is due: the
    discretionary actions of the timing tables (pass, end-turn, invite, hide, move, play, activate)."""
    p = a.player
    if a.kind == "hide":
        return _check_hide(g, a, st)
    if a.kind == "pass":
        if g.priority != p:
            raise IllegalAction(f"{p} holds neither priority nor focus", cite("actions.holds-neither-priority-nor-focus"))
        if st in timing.NO_PASS and g.invited != p:
            raise IllegalAction("in Neutral Open the turn player ends the turn instead of passing",
                                ", ".join(timing.NO_PASS[st]))
        return
    if a.kind == "end-turn":
        if p != g.turn:
            raise IllegalAction(f"only the turn player {g.turn} may end the turn", cite("actions.only-turn-player-may-end"))
        if st not in timing.ALLOWED["end-turn"]:
            raise _refuse("end-turn", st)
        if g.priority != p:
            raise IllegalAction(f"{p} does not hold priority", cite("actions.does-not-hold-priority"))
        return
    if a.kind == "invite":
        if g.cfg.mode != "magma-chamber":
            raise IllegalAction("invitations exist only in magma-chamber", cite("actions.invitations-exist-only-magma-chamber"))
        if st not in timing.ALLOWED["invite"]:
            raise _refuse("invite", st)
        if p != g.turn or g.priority != p:
            raise IllegalAction("only the turn player holding priority in Neutral Open may invite",
                                ", ".join(timing.ALLOWED["invite"][st]))
        if a.teammate not in g.in_game() or not g.teammates(p, a.teammate):
            raise IllegalAction(f"{a.teammate} is not {p}'s teammate in the game", cite("actions.not-teammate-game"))
        return
    if a.kind == "move":
        return _check_move(g, a, st)
    if a.kind == "play":
        return _check_play(g, a, st)
    if a.kind == "activate":
        return _check_activate(g, a, st)
    raise IllegalAction(f"unknown action {a.kind!r}", cite("actions.unknown-action"))


def _check_order(g: State, a: Action, who: str) -> None:
    """383.3.d: while ``who`` orders their simultaneous triggers, that is the only decision (no priority)."""
    if a.kind != "order":
        raise IllegalAction(f"{who} must first order their simultaneous triggers; nobody has priority", cite("actions.must-first-order-their-simultaneous"))
    if a.player != who:
        raise IllegalAction(f"only {who} orders now: players order their triggers in placement order",
                            cite("actions.only-orders-now-players-order"))
    mine = unordered_labels(g, who)
    if not a.triggers:
        raise IllegalAction("an order names at least the next trigger to place", cite("actions.order-names-least-next-trigger"))
    left = list(mine)
    for lab in a.triggers:
        if lab not in left:
            other = next((it.controller for it in g.chain if it.unordered and it.label == lab), None)
            if other is not None and other != who:
                raise IllegalAction(f"{lab} is {other}'s trigger: each player orders only their own", cite("actions.trigger-each-player-orders-only"))
            if lab in mine:
                raise IllegalAction(f"{lab} is listed more times than {who} has it pending", cite("actions.listed-more-times-than-has"))
            raise IllegalAction(f"{lab} is not one of {who}'s pending triggers ({', '.join(mine)})", cite("actions.not-one-pending-triggers"))
        left.remove(lab)


def _check_decision(g: State, a: Action) -> None:
    """383.3.a, 402.1: the controller of the triggered ability being finalized decides its may, then its
    targets; nothing else happens meanwhile (nobody has priority)."""
    it = deciding(g)
    if it is None:
        raise IllegalAction("nobody is deciding a triggered ability now", cite("actions.nobody-deciding-triggered-ability-now"))
    need = it.ask[0]
    if a.kind not in ("choose", "target") or (a.kind == "choose") != (need == "may"):
        what = "choose yes or no" if need == "may" else "choose its targets"
        raise IllegalAction(f"{it.controller} must first {what} for {it.source}'s {it.name}; nobody has priority",
                            cite("actions.must-first-nobody-has-priority"))
    if a.player != it.controller:
        raise IllegalAction(f"only {it.controller}, who controls {it.source}'s {it.name}, decides", cite("actions.only-who-controls-decides"))
    if a.kind == "choose":
        if a.option not in ("yes", "no"):
            raise IllegalAction("a may is decided with option yes or no", cite("actions.may-decided-with-option-yes"))
        return
    check_targets(g, a.player, a.targets, target_fields(it.effect), f"{it.source}'s {it.name}",
                  hidden_at=it.hidden_at)


def _check_resolving_choice(g: State, a: Action) -> None:
    """383.3.a.3, 158.3: an item waits mid-resolution for its controller's yes or no on a may; nothing else
    happens meanwhile (nobody has priority, no trigger is ordered, no cleanup runs)."""
    r = _need(g.resolving, "the resolving item")
    it = r.item
    if it.effect[r.at][0] == "discard":
        return _check_discard_choice(g, a, r)
    if a.kind != "choose":
        raise IllegalAction(f"{it.controller} must first decide whether {it.name} does its optional part as it "
                            f"resolves; nobody has priority", cite("actions.must-first-decide-optional-part"))
    if a.player != it.controller:
        raise IllegalAction(f"only {it.controller}, who controls {it.name}, decides", cite("actions.only-controller-decides-optional-part"))
    if a.option not in ("yes", "no"):
        raise IllegalAction("a may is decided with option yes or no", cite("actions.optional-part-option-yes-or-no"))


def _check_discard_choice(g: State, a: Action, r) -> None:
    """422 (Z3): a discard of cards that differ waits for its player's choice of a card in their hand."""
    args = dict(r.item.effect[r.at][1])
    who = zones.discarder(r.item, args)
    if a.kind != "choose" or a.card is None:
        raise IllegalAction(f"{who} must first choose the card to discard for {r.item.name}; nobody has priority",
                            cite("actions.must-first-choose-discard"))
    if a.player != who:
        raise IllegalAction(f"only {who} chooses the card to discard", cite("actions.only-discarder-chooses"))
    if a.card not in zones.discard_options(g, r.item, args):
        raise IllegalAction(f"{a.card} is not in {who}'s hand", cite("actions.discard-not-in-hand"))


def _check_assign(g: State, a: Action, who: str) -> None:
    """465.2.c: while ``who`` assigns combat damage, that is the only decision (nobody has priority)."""
    if a.kind != "assign":
        raise IllegalAction(f"{who} must first assign their combat damage; nobody has priority", cite("actions.must-first-assign-their-combat"))
    if a.player != who:
        raise IllegalAction(f"{who} assigns now: the attacker assigns first, then the defender", cite("actions.assigns-now-attacker-assigns-first"))
    why = damage.problem(g, who, a.damage)
    if why:
        raise IllegalAction(*why)


def _check_hide(g: State, a: Action, st: str) -> None:
    """811.1.b: a card with Hidden, from the hand, at a battlefield its controller controls with no facedown
    card of theirs, on their own turn in Neutral Open while holding priority (no chain)."""
    p = a.player
    card = _card(g, a)
    if a.origin == "trash":
        raise IllegalAction("Hidden lets a card be hidden from the hand only; a permission to play from the trash "
                            "does not allow hiding", cite("actions.hide-from-hand-only"))
    if card is None or a.card not in g.hands.get(p, []):
        raise IllegalAction(f"{a.card} is not in {p}'s hand", cite("actions.not-hand"))
    if keyword(card.keywords, "hidden") is None:
        raise IllegalAction(f"{a.card} has no Hidden: it can't be hidden", cite("actions.has-no-hidden-can-t"))
    if st not in timing.ALLOWED["hide"] or p != g.turn or g.priority != p:
        raise IllegalAction("a card is hidden only on its controller's own turn, in Neutral Open, holding priority",
                            ", ".join(timing.ALLOWED["hide"][timing.NEUTRAL_OPEN]))
    if a.at not in g.bfs:
        raise IllegalAction(f"{a.at} is not a battlefield", cite("actions.not-battlefield"))
    if g.bfs[a.at].controller != p:
        raise IllegalAction(f"{p} does not control {a.at}: cards are hidden only where their controller has control",
                            cite("actions.does-not-control-cards-are"))
    if any(e[0] == a.at and e[1] == p for e in g.hidden):
        raise IllegalAction(f"{p} already has a facedown card at {a.at}", cite("actions.already-has-facedown-card"))


def _timing(g: State, p: str, timing_kw: str, st: str, what: str) -> None:
    """155, 806, 813, 308.1.a, 309.1.a: may ``p`` use something with that timing now?"""
    if g.priority != p:
        need = timing.NEEDS[st]
        raise IllegalAction(f"{p} does not hold {need[0]}", need[1])
    if st in timing.TURN_PLAYER_ONLY and p != g.turn and g.invited != p:
        raise IllegalAction("only the turn player acts in Neutral Open", ", ".join(timing.TURN_PLAYER_ONLY[st]))
    if timing_kw not in timing.PLAY[st]:
        raise _refuse("play", st, what=what)


def _check_move(g: State, a: Action, st: str) -> None:
    p = a.player
    if st not in timing.ALLOWED["move"]:
        raise _refuse("move", st)
    if p != g.turn or g.priority != p:
        raise IllegalAction("only the turn player holding priority may make a standard move",
                            ", ".join(timing.ALLOWED["move"][st]))
    if g.ms[("phases", None)] != Phase.Main:
        raise IllegalAction("standard moves happen in the Main Phase", cite("actions.standard-moves-happen-main-phase"))
    if not a.units:
        raise IllegalAction("a move names at least one unit", cite("actions.move-names-least-one-unit"))
    twice = next((u for i, u in enumerate(a.units) if u in a.units[:i]), None)
    if twice is not None:
        raise IllegalAction(f"{twice} is named twice: a move moves each of its units once", cite("actions.named-twice-move-moves-each"))
    if a.to != "base" and a.to not in g.bfs:
        raise IllegalAction(f"{a.to} is not a battlefield or base", cite("actions.not-battlefield-or-base"))
    for uid in a.units:
        u = g.units.get(uid)
        if u is None or u.zone != "board" or u.kind != "unit":
            raise IllegalAction(f"{uid} is not a unit on the board", cite("actions.not-unit-board"))
        if u.controller != p:
            if g.teammates(p, u.controller):
                raise IllegalAction(f"{uid} is a teammate's unit: no standard move of it", cite("actions.teammate-unit-no-standard-move"))
            raise IllegalAction(f"{uid} is not {p}'s unit", cite("actions.not-unit"))
        if u.exhausted:
            raise IllegalAction(f"{uid} is exhausted", cite("actions.exhausted"))
        if u.at == a.to:
            raise IllegalAction(f"{uid} is already at {a.to}", cite("actions.already"))
        if u.at != "base" and a.to != "base" and u.kw("ganking") is None:
            raise IllegalAction(f"{uid} can't move from one battlefield to another without Ganking", cite("actions.can-t-move-from-one"))
        problem = destination_problem(g, u, a.to)
        if problem:
            raise IllegalAction(problem[0], problem[1])


def _card(g: State, a: Action):
    return g.cfg.cards.get(card_of(g, a.card)) if a.card is not None else None


#: the timing keywords from the least to the most permissive
_SPEED = {"normal": 0, "action": 1, "reaction": 2}


def _check_play(g: State, a: Action, st: str) -> None:
    p = a.player
    name = _need(a.card, "play's card")
    card = _card(g, a)
    kw = card.timing if card is not None else "normal"
    where_hidden = None
    if a.hidden:
        e = facedown.entry(g, p, name, a.at)
        if e is None and card is not None and card.type == "unit":
            e = facedown.entry(g, p, name, None)           # a unit's at: is where it enters (checked below)
        if card is None or e is None:
            raise IllegalAction(f"{p} has no facedown {a.card}" + (f" at {a.at}" if a.at else ""), cite("actions.has-no-facedown"))
        if e[3]:
            raise IllegalAction(f"{a.card} was hidden this turn: it can be played from the next turn", cite("actions.was-hidden-turn-can-played"))
        where_hidden = e[0]
        kw = max(kw, timing.KEYWORD_TIMING["hidden"][0], key=_SPEED.__getitem__)
    elif a.origin == "trash":
        _check_from_trash(g, a, card)
    elif card is None or a.card not in g.hands.get(p, []):
        raise IllegalAction(f"{a.card} is not in {p}'s hand", cite("actions.not-hand-2"))
    if card.type == "unit" and not a.hidden and keyword(card.keywords, "ambush") is not None \
            and a.at in g.bfs and g.has_units(a.at, p):
        kw = max(kw, timing.KEYWORD_TIMING["ambush"][0], key=_SPEED.__getitem__)     # 822.1.b
    _timing(g, p, kw, st, name)
    if card.type == "unit":
        where = a.at or (where_hidden or "base")
        if where_hidden is not None and where != where_hidden:
            raise IllegalAction(f"a unit played from facedown enters where it was hidden ({where_hidden})", cite("actions.unit-played-from-facedown-enters"))
        if where != "base" and where_hidden is None:
            if where not in g.bfs:
                raise IllegalAction(f"{where} is not a battlefield", cite("actions.not-battlefield-2"))
            ambush = keyword(card.keywords, "ambush") is not None and g.has_units(where, p)
            if g.bfs[where].controller != p and not ambush:
                raise IllegalAction(f"a unit is played to its base or a battlefield its controller controls; "
                                    f"{p} does not control {where}", cite("actions.unit-played-base-or-battlefield-ambush"
                                    if keyword(card.keywords, "ambush") is not None
                                    else "actions.unit-played-base-or-battlefield"))
            if combat_outsider(g, p, where):
                raise IllegalAction(f"{where} has a staged or ongoing combat between two other players: "
                                    f"{p} may not play a unit there", cite("actions.has-staged-or-ongoing-combat"))
    if a.accelerate and keyword(card.keywords, "accelerate") is None:
        raise IllegalAction(f"{a.card} has no Accelerate", cite("actions.has-no-accelerate"))
    check_targets(g, p, a.targets, card.target_fields(), name, card.friendly, hidden_at=where_hidden)
    if g.cfg.resources is not None:
        need = play_cost(g, a, card)
        if need > available(g, p):
            raise IllegalAction(f"{a.card} costs {need} energy; {p} has {g.energy.get(p, 0)} in the pool and "
                                f"{g.runes.get(p, 0)} ready runes", cite("actions.costs-energy-has-pool-ready-2"))


def _trash_plays(g: State, p: str, board: list) -> list:
    """Z4: ``play CARD from trash`` for each card name in ``p``'s trash that something lets them play from there
    (each candidate checked like a play from the hand); never a hide."""
    out = []
    for cid in dict.fromkeys(g.pile("trash", p)):
        card = g.cfg.cards.get(card_of(g, cid))
        if card is None or trash_cost(g, p, card) is None:
            continue
        if card.type == "unit":
            out += [_action("play", p, card=cid, at=where, origin="trash") for where in ("base", *g.bfs)]
        else:
            fields = card.target_fields()
            for combo in product(*[target_pool(g, f, board) for f in fields]):
                out.append(_action("play", p, card=cid, targets=tuple(zip(fields, combo)), origin="trash"))
    return out


def play_cost(g: State, a: Action, card) -> int:
    """The energy a play costs (354): from the trash, the cost that a permission or the card's own
    ``play-from-trash`` sets (Z4)."""
    return cost_of(card, accelerate=a.accelerate, hidden=a.hidden,
                   base=trash_cost(g, a.player, card) if a.origin == "trash" else None)


def _check_from_trash(g: State, a: Action, card) -> None:
    """Z4: a card in the player's own trash, played only where something lets them (419.1.a)."""
    p = a.player
    if card is None or a.card not in g.pile("trash", p):
        raise IllegalAction(f"{a.card} is not in {p}'s trash", cite("actions.not-in-trash"))
    if trash_cost(g, p, card) is None:
        raise IllegalAction(f"nothing lets {p} play {a.card} from the trash", cite("actions.nothing-lets-play-from-trash"))


def _check_activate(g: State, a: Action, st: str) -> None:
    p = a.player
    src = g.units.get(a.source) if a.source is not None else None
    if src is None or src.zone != "board":
        raise IllegalAction(f"{a.source} is not on the board", cite("actions.not-board"))
    if src.controller != p:
        raise IllegalAction(f"{p} does not control {a.source}", cite("actions.does-not-control"))
    ab = next((x for x in src.abilities if x.name == a.ability and x.activated), None)
    if ab is None:
        raise IllegalAction(f"{a.source} has no activated ability {a.ability!r}", cite("actions.has-no-activated-ability"))
    if ab.exhaust and src.exhausted:
        raise IllegalAction(f"{a.source} is exhausted: exhausting it is {a.ability}'s cost", cite("actions.exhausted-exhausting-cost"))
    if ab.once and (src.id, ab.name) in g.once:
        raise IllegalAction(f"{a.source}'s {a.ability} is used once per turn and was used this turn", cite("actions.used-once-per-turn-was"))
    _timing(g, p, "reaction" if ab.adds else ab.speed, st, f"{a.source}'s {a.ability}")
    check_targets(g, p, a.targets, target_fields(ab.effect), f"{a.source}'s {a.ability}")
    if g.cfg.resources is not None and ab.cost > available(g, p):      # 377, 354: its cost is paid as it is activated
        raise IllegalAction(f"{a.source}'s {a.ability} costs {ab.cost} energy; {p} has {g.energy.get(p, 0)} in the "
                            f"pool and {g.runes.get(p, 0)} ready runes", cite("actions.costs-energy-has-pool-ready"))


# -- enumeration ---------------------------------------------------------------------------------

def _resolving_choices(g: State, p: str) -> list[Action]:
    """What ``p`` may choose while an item waits mid-resolution: yes or no on a may (383.3.a.3), or the card to
    discard (422, Z3); nothing if someone else decides."""
    r = g.resolving
    if r is not None and r.item.effect[r.at][0] == "discard":
        args = dict(r.item.effect[r.at][1])
        return [_action("choose", p, card=c) for c in zones.discard_options(g, r.item, args)] \
            if zones.discarder(r.item, args) == p else []
    if r is None or r.item.controller != p:
        return []
    return [_action("choose", p, option="yes"), _action("choose", p, option="no")]


#: ``Action(...)`` memoised on its arguments: an Action is an immutable value of exactly those arguments, so
#: an entry can never go stale; there are few distinct ones (players x units x destinations, cards x targets)
_action = lru_cache(maxsize=None)(Action)


def candidates(g: State, p: str) -> list[Action]:
    """Every action worth checking for ``p``: targets enumerated, legality not yet checked; a standard
    move once per unit and destination (a group move is legal exactly when each of its units' moves is);
    an order of simultaneous triggers (383.3.d) as one pick per trigger that may be placed next."""
    out: list[Action] = [_action("concede", p)]
    if g.choosing:
        return out + [_action("choose", p, battlefield=b) for b in g.choosing]
    if g.ms[("chain", None)] == ChainState.ResolveChoice:    # a may (383.3.a.3) or a discard (422) as it executes
        return out + _resolving_choices(g, p)
    if orderer(g) == p:                  # a sequence of picks: the next item to place (383.3.d), n choices not n!
        return out + [_action("order", p, triggers=(lab,)) for lab in dict.fromkeys(unordered_labels(g, p))]
    if g.ms[("chain", None)] == ChainState.Decide:
        it = deciding(g)
        if it is None or it.controller != p:
            return out
        if it.ask[0] == "may":
            return out + [_action("choose", p, option="yes"), _action("choose", p, option="no")]
        return out + [_action("target", p, targets=t) for t in target_options(g, it)]
    if damage.assigner(g) == p:                                           # one per distinct outcome (465.2.c)
        return out + [_action("assign", p, damage=d) for d in damage.choices(g, p)]
    if g.priority != p:
        return out
    out += [_action("pass", p), _action("end-turn", p)]
    if g.cfg.mode == "magma-chamber":
        out += [_action("invite", p, teammate=m) for m in g.cfg.teams[g.team(p)] if m != p]
    mine = [u for u in g.units.values() if u.zone == "board" and u.kind == "unit" and u.controller == p
            and not u.exhausted]
    for dest in ("base", *g.bfs):
        for u in mine:
            if u.at != dest and (u.at == "base" or dest == "base" or u.kw("ganking") is not None):
                out.append(_action("move", p, units=(u.id,), to=dest))
    board = [u.id for u in g.units.values() if u.zone == "board" and u.kind == "unit"]
    for cid in dict.fromkeys(g.hands.get(p, [])):
        card = g.cfg.cards.get(cid)
        if card is None:
            continue
        fields = card.target_fields()
        pools = [target_pool(g, f, board) for f in fields]
        acc = (False, True) if keyword(card.keywords, "accelerate") is not None and g.cfg.resources is not None \
            else (False,)
        if card.type == "unit":
            for where in ("base", *g.bfs):
                for x in acc:
                    out.append(_action("play", p, card=cid, at=where, accelerate=x))
        else:
            for combo in product(*pools):
                out.append(_action("play", p, card=cid, targets=tuple(zip(fields, combo))))
        if keyword(card.keywords, "hidden") is not None:
            for bf in g.bfs:
                out.append(_action("hide", p, card=cid, at=bf))
    out += _trash_plays(g, p, board)
    for bf, owner, cid, fresh in g.hidden:
        card = g.cfg.cards.get(cid)
        if owner != p or fresh or card is None:
            continue
        fields = card.target_fields()
        pools = [board if f == "unit" else [bf] if f in ("to", "at") else [] for f in fields]
        if card.type == "unit":
            out.append(_action("play", p, card=cid, at=bf, hidden=True))
        else:
            for combo in product(*pools):
                out.append(_action("play", p, card=cid, targets=tuple(zip(fields, combo)), at=bf, hidden=True))
    for u in g.units.values():
        if u.zone == "board" and u.controller == p:
            for ab in u.abilities:
                if ab.activated:
                    fields = target_fields(ab.effect)
                    for combo in product(*[pool(g, f) for f in fields]):
                        out.append(_action("activate", p, source=u.id, ability=ab.name,
                                           targets=tuple(zip(fields, combo))))
    return out





MOVES = ("compact", "single", "all")
_BUDGET: list[int] = []          # the candidate checks legal() may still make, innermost budget last


@contextmanager
def budget(checks: int):
    """Within the block, :func:`legal` raises :class:`TooCostly` once it has checked more than ``checks``
    candidate actions in all (a scenario run's bound: its cost stays bounded whatever the file asks)."""
    _BUDGET.append(checks)
    try:
        yield
    finally:
        _BUDGET.pop()


def _refused_now(g: State, p: str, st: str):
    """A test ``shut(a)``: True for a candidate of ``p`` that :func:`_check_choice` refuses in the turn state
    ``st`` by the timing tables alone (``statecharts/timing.py``: ``ALLOWED``, ``NO_PASS``, ``PLAY``), whatever
    its cards, units or targets, computed once per state so that :func:`legal` skips those candidates
    without building each refusal. Only a necessary condition: every other candidate is still checked in
    full (by :func:`_check_with_priority`: the part of :func:`_check_choice` that is left then). None while a
    choice, an order, a decision (383.3.a, also while resolving) or a damage assignment is due (those come
    first in :func:`_check_choice`, and :func:`candidates` offers only them), or when ``p`` lacks priority."""
    if g.choosing or g.priority != p or g.ms[("chain", None)] in (ChainState.Decide, ChainState.ResolveChoice) \
            or orderer(g) is not None or damage.assigner(g) is not None:
        return None
    turn = p == g.turn
    no_pass = st in timing.NO_PASS and g.invited != p
    end = not (turn and st in timing.ALLOWED["end-turn"])
    move = not (turn and st in timing.ALLOWED["move"] and g.ms[("phases", None)] == Phase.Main)
    invite = not (turn and st in timing.ALLOWED["invite"])
    speeds = timing.PLAY[st]
    cards = g.cfg.cards

    def shut(a: Action) -> bool:
        k = a.kind
        if k == "pass":
            return no_pass
        if k == "end-turn":
            return end
        if k == "move":
            return move
        if k == "invite":
            return invite
        if k == "play" and not a.hidden:
            card = cards.get(a.card)
            # a card whose timing a keyword may raise (Ambush, 822.1.b) is left to the full check
            return card is not None and card.timing not in speeds and keyword(card.keywords, "ambush") is None
        return False

    return shut


def legal(g: State, p: str, *, moves: str = "compact") -> list[Action]:
    """The candidates :func:`check` accepts; its player part, the same for every candidate, is checked once.

    Standard moves (144) are described compactly by default: ONE move action per destination, naming
    every unit that may move there; any non-empty subset of those units is a legal move too (each unit's
    move is checked on its own), so the action stands for all of them without listing 2^n - 1 groups.
    ``moves="single"`` gives one move per unit and destination (what the explorer expands), ``moves="all"``
    every group (:func:`expand`: exponential, for small positions). (Orders of simultaneous triggers are
    picks of the next trigger, 383.3.d: n choices, never n!.)
    """
    if moves not in MOVES:
        raise ValueError(f"moves is one of {', '.join(MOVES)}, not {moves!r}")
    cands = candidates(g, p)
    if _BUDGET:
        _BUDGET[-1] -= len(cands)
        if _BUDGET[-1] < 0:
            raise TooCostly("the legal actions would take too many candidate checks")
    try:
        _check_player(g, p)
    except IllegalAction:
        return []
    if len(cands) == 1:                          # concede alone (the first candidate): legal once the player is
        return cands                             # (the loop below checks nothing else of a concede)
    st = g.turn_state()
    res: list[Action | str] = []
    movers: dict[str, list[str]] = {}
    shut = _refused_now(g, p, st)
    # with priority and nothing else due, _check_choice comes down to its last part for every candidate
    rest = _check_choice if shut is None else _check_with_priority
    for a in cands:
        if a.kind != "concede":
            if shut is not None and shut(a):
                continue                         # the timing tables refuse it whatever its details
            try:
                rest(g, a, st)
            except IllegalAction:
                continue
        if a.kind == "move" and moves != "single":
            to = _need(a.to, "move's destination")
            if to not in movers:
                movers[to] = []
                res.append(to)                   # the destination's place in the list, filled in below
            movers[to].append(a.units[0])
            continue
        res.append(a)
    if not movers:                               # no destination was added: res holds actions only
        return cast("list[Action]", res)
    out: list[Action] = []
    for x in res:
        if isinstance(x, str):
            group = _action("move", p, units=tuple(movers[x]), to=x)
            out += expand(group) if moves == "all" else [group]
        else:
            out.append(x)
    return out


def expand(a: Action) -> list[Action]:
    """A compact move (:func:`legal`) as every move it stands for: each non-empty subset of its units,
    singles first, units in the order given.

    >>> [x.summary() for x in expand(Action("move", "A", units=("a1", "a2"), to="North"))]
    ['move a1 North', 'move a2 North', 'move a1 a2 North']
    """
    if a.kind != "move":
        return [a]
    return [_action("move", a.player, units=group, to=a.to)
            for k in range(1, len(a.units) + 1) for group in combinations(a.units, k)]


def choice(a: Action) -> str:
    """An action as the ``legal`` expectation lists it: its summary, except that an order names only the
    trigger placed first (383.3.d: "order a1:brace" = a1:brace may be placed next, the rest in any order).

    >>> choice(Action("order", "A", triggers=("a1:x", "a1:y")))
    'order a1:x'
    """
    return f"order {a.triggers[0]}" if a.kind == "order" else a.summary()
