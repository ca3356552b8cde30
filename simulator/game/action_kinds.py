"""The action kinds, declared once: :data:`KINDS`, one row per kind.

A row says everything about one kind of action (the scenario vocabulary): its parameters as a scenario
step, ``riftsim play`` and the tests write them (``params``: name and kind of value; ``needs``: the ones
that must be given), its text form (``words``: the parameters written in order after the kind; the others
are ``field=value``), the decisions it answers (:mod:`simulator.game.decision`), its legality (``check``:
the timing tables of ``statecharts/timing.py`` and the rules it cites), what it may be now (``offer``: the
candidates :func:`simulator.game.actions.legal` checks), what it does (``perform``: its trace line and the
declared transitions it fires) and what refuses it while another decision is due (``idle``).

Everything else is derived from the rows: the one parser of the text form (:func:`read`: ``riftsim play``
and the tests) and of the file form (:func:`build`: scenario steps, conformance commands), the file form
back (:func:`step_of`: ``play``'s ``save``, verify's counterexamples, the conformance fixtures), the
``legal`` summary (:meth:`Action.summary`), the shape check of an action, and the scenario JSON Schema's
``do:`` steps. A new kind of action is one row, plus its functions.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Any, Callable

from statecharts import timing
from statecharts.citations import cite
from statecharts.states import ChainState, Phase

from simulator.core.cards import keyword
from simulator.core.errors import IllegalAction, RiftsimError, need
from simulator.core.log import N_, fire, log
from simulator.core.model import Item, State
from simulator.game.decision import PRIORITY, Decision, discarding
from simulator.rules import concede as conceding, damage, hidden as facedown, zones
from simulator.rules.chain import pass_priority, put_on_chain
from simulator.rules.cleanup import open_at
from simulator.rules.combat import record_assignment
from simulator.rules.moves import combat_outsider, destination_problem, standard_move
from simulator.rules.resources import available, cost_of, pay
from simulator.rules.targets import check_targets, pool, target_fields, target_options, target_pool
from simulator.rules.triggers import deciding, drop_item, order_triggers, replace_item, unordered_labels
from simulator.rules.zones import card_of, trash_cost


class ParseError(RiftsimError):
    """An action's text that is not one (one line: what is wrong, and how it is written)."""


@dataclass(frozen=True)
class Action:
    """One action of one player: its kind (a key of :data:`KINDS`) and the fields that kind takes."""
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
        row = KINDS.get(self.kind)
        return row.summary(self) if row is not None else self.kind

    def describe(self) -> str:
        s = f"{self.player} {self.summary()}"
        if self.targets:
            s += " (" + ", ".join(f"{k}: {v}" for k, v in self.targets) + ")"
        if self.damage:
            s += " (" + ", ".join(f"{k}: {v}" for k, v in self.damage) + ")"
        row = KINDS.get(self.kind)
        if row is not None and "at" in row.words:
            return s
        if self.accelerate:
            s += " paying Accelerate"
        if self.at:
            s += f" at {self.at}"
        return s


#: ``Action(...)`` memoised on its arguments, for the offers: an Action is an immutable value of exactly those
#: arguments, so an entry never goes stale; there are few distinct ones (players x units x places, cards x targets)
_act = lru_cache(maxsize=None)(Action)

#: a refusal while a decision this kind does not answer is due: (the rank of the last decision it comes
#: after, in :data:`simulator.game.decision.RANK`; the reason; the rules it cites)
Idle = tuple[int, str, str]


def _words(a: Action, row: "ActionKind") -> str:
    vals = [getattr(a, f) for f in row.words]
    return " ".join([a.kind, *(" ".join(v) if isinstance(v, tuple) else str(v) for v in vals)])


@dataclass(frozen=True)
class ActionKind:
    """One row of :data:`KINDS` (see the module's text)."""
    name: str
    params: tuple[tuple[str, str], ...]   # (parameter, kind of value), as a scenario step writes them
    needs: tuple[str, ...]                # the parameters a step must give
    rule: str                             # the rules its shape cites
    words: tuple[str, ...]                # the parameters written in order after the kind (text, summary)
    answers: tuple[str, ...]              # the decision kinds it answers
    check: Callable[[State, Action, Decision, str], None]
    offer: Callable[[State, str, Decision], list[Action]]
    perform: Callable[[State, Action], None]
    usage: str                            # how it is written (a text-form error says it)
    idle: Callable[[Action], Idle | None] = lambda a: None
    shut: Callable[[State, str, str, Action], bool] | None = None   # the timing tables' quick no
    named_needed: bool = False            # the text form needs field=value words (targets, damage)
    fix: Callable[[dict], dict] = lambda params: params   # text words -> parameters, where a word decides
    text: Callable[[Action, "ActionKind"], str] = _words  # the summary
    shape: Callable[[State, Action], None] = lambda g, a: None   # what else its shape needs (a play's card)
    prefix: tuple[tuple[str, str], ...] = ()   # text form: a leading word naming the parameter the next word gives

    def summary(self, a: Action) -> str:
        return self.text(a, self)

    @property
    def takes(self) -> tuple[str, ...]:
        """The :class:`Action` fields it takes (every other field keeps its default)."""
        return tuple(f for p, vk in self.params for f in FIELDS_OF.get(vk, (FIELD_OF.get(p, p),)))


#: a parameter whose Action field is named differently (``from: hidden`` -> ``hidden=True``)
FIELD_OF = {"from": "hidden"}
#: the Action fields a ``from:`` parameter sets, by its kind of value: a play's (``from: hidden`` -> ``hidden``,
#: ``from: trash`` -> ``origin``), a hide's (``from: trash`` -> ``origin``, refused as it is checked: 811.1.c.1)
FIELDS_OF = {"from": ("hidden", "origin"), "trash": ("origin",)}


def from_fields(v) -> dict:
    """The Action fields a ``from:`` sets: a facedown card (811.1.d) or the trash (Z4); the hand sets none."""
    return {"hidden": True} if v == "hidden" else {"origin": "trash"} if v == "trash" else {}


def from_value(a: Action) -> str | None:
    """``from:`` back from an action's fields (None: the hand)."""
    return "hidden" if a.hidden else a.origin
#: the parameters that hold a list of words (written first, as many as given, in the text form)
LISTS = ("units", "triggers")


# -- shared checks ----------------------------------------------------------------------------------------

def _refuse(action: str, st: str, **fmt: str) -> IllegalAction:
    """The refusal the timing table declares for ``action`` in the turn state ``st``."""
    reason, rules = timing.REFUSED[(action, st)]
    return IllegalAction(reason.format(state=st, **fmt), rules)


#: the timing keywords from the least to the most permissive
_SPEED = {"normal": 0, "action": 1, "reaction": 2}


def _timing(g: State, p: str, timing_kw: str, st: str, what: str) -> None:
    """155, 806, 813, 308.1.a, 309.1.a: may ``p`` use something with that timing now?"""
    if g.priority != p:
        req = timing.NEEDS[st]
        raise IllegalAction(f"{p} does not hold {req[0]}", req[1])
    if st in timing.TURN_PLAYER_ONLY and p != g.turn and g.invited != p:
        raise IllegalAction("only the turn player acts in Neutral Open", ", ".join(timing.TURN_PLAYER_ONLY[st]))
    if timing_kw not in timing.PLAY[st]:
        raise _refuse("play", st, what=what)


def _targets(a: Action) -> str:
    return ", ".join(f"{f}: {v}" for f, v in a.targets)


def _nothing(g: State, p: str, d: Decision) -> list[Action]:
    return []


def _no_check(g: State, a: Action, d: Decision, st: str) -> None:
    return None


def _just(kind: str) -> Callable[[State, str, Decision], list[Action]]:
    """The offer of a kind that takes no parameter: that action."""
    return lambda g, p, d: [_act(kind, p)]


def _always(rank: int, reason: str, rule: str) -> Callable[[Action], Idle]:
    return lambda a: (rank, reason, rule)


# -- pass (312, 313, 339, 347.2) -----------------------------------------------------------------------

def check_pass(g: State, a: Action, d: Decision, st: str) -> None:
    p = a.player
    if g.priority != p:
        raise IllegalAction(f"{p} holds neither priority nor focus", cite("actions.holds-neither-priority-nor-focus"))
    if st in timing.NO_PASS and g.invited != p:
        raise IllegalAction("in Neutral Open the turn player ends the turn instead of passing",
                            ", ".join(timing.NO_PASS[st]))


def perform_pass(g: State, a: Action) -> None:
    p = a.player
    if g.invited == p and g.turn_state() in timing.NO_PASS:
        log(g, "{player} declines the invitation; priority returns to {turn}", cite("engine.declines-invitation-priority-returns"), p, turn=g.turn)
        g.invited = None
    elif g.ms[("chain", None)] == ChainState.Execute:
        log(g, "{player} passes priority", cite("engine.passes-priority"), p)
        pass_priority(g, p)
    else:
        log(g, "{player} passes focus", cite("engine.passes-focus"), p)
        g.focus_passed = g.focus_passed + (p,)
        fire(g, "focus", "pass_focus", player=p)


def shut_pass(g: State, p: str, st: str, a: Action) -> bool:
    return st in timing.NO_PASS and g.invited != p


# -- end-turn (316.9, R14) --------------------------------------------------------------------------------

def check_end_turn(g: State, a: Action, d: Decision, st: str) -> None:
    p = a.player
    if p != g.turn:
        raise IllegalAction(f"only the turn player {g.turn} may end the turn", cite("actions.only-turn-player-may-end"))
    if st not in timing.ALLOWED["end-turn"]:
        raise _refuse("end-turn", st)
    if g.priority != p:
        raise IllegalAction(f"{p} does not hold priority", cite("actions.does-not-hold-priority"))


def perform_end_turn(g: State, a: Action) -> None:
    g.priority = None
    fire(g, "phases", "end_turn", player=a.player)
    g.dirty = True                                       # 319: moving between phases


def shut_end_turn(g: State, p: str, st: str, a: Action) -> bool:
    return not (p == g.turn and st in timing.ALLOWED["end-turn"])


# -- invite (316.5.b.1, R13; magma-chamber) ------------------------------------------------------------------

def check_invite(g: State, a: Action, d: Decision, st: str) -> None:
    p = a.player
    if g.cfg.mode != "magma-chamber":
        raise IllegalAction("invitations exist only in magma-chamber", cite("actions.invitations-exist-only-magma-chamber"))
    if st not in timing.ALLOWED["invite"]:
        raise _refuse("invite", st)
    if p != g.turn or g.priority != p:
        raise IllegalAction("only the turn player holding priority in Neutral Open may invite",
                            ", ".join(timing.ALLOWED["invite"][st]))
    if a.teammate not in g.in_game() or not g.teammates(p, a.teammate):
        raise IllegalAction(f"{a.teammate} is not {p}'s teammate in the game", cite("actions.not-teammate-game"))


def offer_invite(g: State, p: str, d: Decision) -> list[Action]:
    if g.cfg.mode != "magma-chamber":
        return []
    return [_act("invite", p, teammate=m) for m in g.cfg.teams[g.team(p)] if m != p]


def perform_invite(g: State, a: Action) -> None:
    g.invited = a.teammate
    g.priority = a.teammate
    log(g, "{player} invites {teammate} to act with {player}'s priority", cite("engine.invites-act-with-priority"),
        a.player, teammate=a.teammate)


def shut_invite(g: State, p: str, st: str, a: Action) -> bool:
    return not (p == g.turn and st in timing.ALLOWED["invite"])


# -- move: the standard move (144, 810) ----------------------------------------------------------------------

def check_move(g: State, a: Action, d: Decision, st: str) -> None:
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
        _check_mover(g, p, uid, need(a.to, "move's destination"))


def _check_mover(g: State, p: str, uid: str, to: str) -> None:
    """One unit of a standard move: ``p``'s, ready, elsewhere, on a path it may take (144, 810)."""
    u = g.units.get(uid)
    if u is None or u.zone != "board" or u.kind != "unit":
        raise IllegalAction(f"{uid} is not a unit on the board", cite("actions.not-unit-board"))
    if u.controller != p:
        if g.teammates(p, u.controller):
            raise IllegalAction(f"{uid} is a teammate's unit: no standard move of it", cite("actions.teammate-unit-no-standard-move"))
        raise IllegalAction(f"{uid} is not {p}'s unit", cite("actions.not-unit"))
    if u.exhausted:
        raise IllegalAction(f"{uid} is exhausted", cite("actions.exhausted"))
    if u.at == to:
        raise IllegalAction(f"{uid} is already at {to}", cite("actions.already"))
    if u.at != "base" and to != "base" and u.kw("ganking") is None:
        raise IllegalAction(f"{uid} can't move from one battlefield to another without Ganking", cite("actions.can-t-move-from-one"))
    problem = destination_problem(g, u, to)
    if problem:
        raise IllegalAction(problem[0], problem[1])


def offer_move(g: State, p: str, d: Decision) -> list[Action]:
    """Once per unit and destination (a group move is legal exactly when each of its units' moves is)."""
    mine = [u for u in g.units.values() if u.zone == "board" and u.kind == "unit" and u.controller == p
            and not u.exhausted]
    return [_act("move", p, units=(u.id,), to=dest) for dest in ("base", *g.bfs) for u in mine
            if u.at != dest and (u.at == "base" or dest == "base" or u.kw("ganking") is not None)]


def perform_move(g: State, a: Action) -> None:
    standard_move(g, a.player, [g.units[u] for u in a.units], need(a.to, "move's destination"))


def shut_move(g: State, p: str, st: str, a: Action) -> bool:
    return not (p == g.turn and st in timing.ALLOWED["move"] and g.ms[("phases", None)] == Phase.Main)


# -- play: a card from the hand or from facedown (155, 353-359, 805, 811.1.d, 822.1.b) ---------------------------

def check_play(g: State, a: Action, d: Decision, st: str) -> None:
    p = a.player
    name = need(a.card, "play's card")
    card = g.cfg.cards.get(card_of(g, name))
    kw, where_hidden = _play_source(g, a, card)
    if card is None:                         # pragma: no cover - _play_source refuses an unknown card
        raise IllegalAction(f"{a.card} is not in {p}'s hand", cite("actions.not-hand-2"))
    if card.type == "unit" and not a.hidden and keyword(card.keywords, "ambush") is not None \
            and a.at in g.bfs and g.has_units(a.at, p):
        kw = max(kw, timing.KEYWORD_TIMING["ambush"][0], key=_SPEED.__getitem__)     # 822.1.b
    _timing(g, p, kw, st, name)
    if card.type == "unit":
        _check_unit_place(g, a, card, where_hidden)
    if a.accelerate and keyword(card.keywords, "accelerate") is None:
        raise IllegalAction(f"{a.card} has no Accelerate", cite("actions.has-no-accelerate"))
    check_targets(g, p, a.targets, card.target_fields(), name, card.friendly, hidden_at=where_hidden)
    if g.cfg.resources is not None:
        cost = play_cost(g, a, card)
        if cost > available(g, p):
            raise IllegalAction(f"{a.card} costs {cost} energy; {p} has {g.energy.get(p, 0)} in the pool and "
                                f"{g.runes.get(p, 0)} ready runes", cite("actions.costs-energy-has-pool-ready-2"))


def _play_source(g: State, a: Action, card) -> tuple[str, str | None]:
    """Where the card is played from (the hand, or facedown, 811.1.d): its timing, and where it was hidden."""
    p, name = a.player, need(a.card, "play's card")
    kw = card.timing if card is not None else "normal"
    if a.origin == "trash":
        _check_from_trash(g, a, card)
        return kw, None
    if not a.hidden:
        if card is None or name not in g.hands.get(p, []):
            raise IllegalAction(f"{a.card} is not in {p}'s hand", cite("actions.not-hand-2"))
        return kw, None
    e = facedown.entry(g, p, name, a.at)
    if e is None and card is not None and card.type == "unit":
        e = facedown.entry(g, p, name, None)           # a unit's at: is where it enters (checked below)
    if card is None or e is None:
        raise IllegalAction(f"{p} has no facedown {a.card}" + (f" at {a.at}" if a.at else ""), cite("actions.has-no-facedown"))
    if e[3]:
        raise IllegalAction(f"{a.card} was hidden this turn: it can be played from the next turn", cite("actions.was-hidden-turn-can-played"))
    return max(kw, timing.KEYWORD_TIMING["hidden"][0], key=_SPEED.__getitem__), e[0]


def _check_from_trash(g: State, a: Action, card) -> None:
    """Z4: a card in the player's own trash, played only where something lets them (419.1.a)."""
    p = a.player
    if card is None or a.card not in g.pile("trash", p):
        raise IllegalAction(f"{a.card} is not in {p}'s trash", cite("actions.not-in-trash"))
    if trash_cost(g, p, card) is None:
        raise IllegalAction(f"nothing lets {p} play {a.card} from the trash", cite("actions.nothing-lets-play-from-trash"))


def play_cost(g: State, a: Action, card) -> int:
    """The energy a play costs (354): from the trash, the cost that a permission or the card's own
    ``play-from-trash`` sets (Z4)."""
    return cost_of(card, accelerate=a.accelerate, hidden=a.hidden,
                   base=trash_cost(g, a.player, card) if a.origin == "trash" else None)


def _check_unit_place(g: State, a: Action, card, where_hidden: str | None) -> None:
    """359.2, 822.1.b, 811.1.d.1: a unit enters its base, a battlefield its controller controls (or, with
    Ambush, one where they have units), or where it was hidden; never into another pair's combat."""
    p = a.player
    where = a.at or (where_hidden or "base")
    if where_hidden is not None and where != where_hidden:
        raise IllegalAction(f"a unit played from facedown enters where it was hidden ({where_hidden})", cite("actions.unit-played-from-facedown-enters"))
    if where == "base" or where_hidden is not None:
        return
    if where not in g.bfs:
        raise IllegalAction(f"{where} is not a battlefield", cite("actions.not-battlefield-2"))
    has_ambush = keyword(card.keywords, "ambush") is not None
    if g.bfs[where].controller != p and not (has_ambush and g.has_units(where, p)):
        raise IllegalAction(f"a unit is played to its base or a battlefield its controller controls; "
                            f"{p} does not control {where}", cite("actions.unit-played-base-or-battlefield-ambush"
                                                                  if has_ambush
                                                                  else "actions.unit-played-base-or-battlefield"))
    if combat_outsider(g, p, where):
        raise IllegalAction(f"{where} has a staged or ongoing combat between two other players: "
                            f"{p} may not play a unit there", cite("actions.has-staged-or-ongoing-combat"))


def offer_play(g: State, p: str, d: Decision) -> list[Action]:
    """Every card of the hand with every choice of targets (a unit: every place, with and without
    Accelerate), then every facedown card that may be played (811.1.d)."""
    board = [u.id for u in g.units.values() if u.zone == "board" and u.kind == "unit"]
    out: list[Action] = []
    for cid in dict.fromkeys(g.hands.get(p, [])):
        card = g.cfg.cards.get(cid)
        if card is None:
            continue
        fields = card.target_fields()
        if card.type == "unit":
            acc = (False, True) if keyword(card.keywords, "accelerate") is not None and g.cfg.resources is not None \
                else (False,)
            out += [_act("play", p, card=cid, at=where, accelerate=x) for where in ("base", *g.bfs) for x in acc]
        else:
            out += [_act("play", p, card=cid, targets=tuple(zip(fields, combo)))
                    for combo in product(*[target_pool(g, f, board) for f in fields])]
    return out + _offer_trash(g, p, board) + _offer_facedown(g, p, board)


def _offer_trash(g: State, p: str, board: list[str]) -> list[Action]:
    """Z4: ``play CARD from trash`` for each card in ``p``'s trash that something lets them play from there
    (each candidate checked like a play from the hand); never a hide."""
    out: list[Action] = []
    for cid in dict.fromkeys(g.pile("trash", p)):
        card = g.cfg.cards.get(card_of(g, cid))
        if card is None or trash_cost(g, p, card) is None:
            continue
        if card.type == "unit":
            out += [_act("play", p, card=cid, at=where, origin="trash") for where in ("base", *g.bfs)]
        else:
            fields = card.target_fields()
            out += [_act("play", p, card=cid, targets=tuple(zip(fields, combo)), origin="trash")
                    for combo in product(*[target_pool(g, f, board) for f in fields])]
    return out


def _offer_facedown(g: State, p: str, board: list[str]) -> list[Action]:
    out: list[Action] = []
    for bf, owner, cid, fresh in g.hidden:
        card = g.cfg.cards.get(cid)
        if owner != p or fresh or card is None:
            continue
        if card.type == "unit":
            out.append(_act("play", p, card=cid, at=bf, hidden=True))
            continue
        fields = card.target_fields()
        pools = [board if f == "unit" else [bf] if f in ("to", "at") else [] for f in fields]
        out += [_act("play", p, card=cid, targets=tuple(zip(fields, combo)), at=bf, hidden=True)
                for combo in product(*pools)]
    return out


#: "P plays CARD": (a unit, with targets) -> the trace template
PLAYS = {(False, False): N_("{player} plays {card}"), (True, False): N_("{player} plays {card} at {at}"),
         (False, True): N_("{player} plays {card} ({targets})"),
         (True, True): N_("{player} plays {card} at {at} ({targets})")}


def perform_play(g: State, a: Action) -> None:
    p = a.player
    name = need(a.card, "play's card")
    card = g.cfg.cards[card_of(g, name)]
    at = _take_played(g, a, name, card.type == "unit")
    g.invited = None
    pay(g, p, play_cost(g, a, card), name + (" and its Accelerate" if a.accelerate else ""))
    ready = keyword(card.keywords, "accelerate") is not None and (a.accelerate or g.cfg.resources is None)
    item = Item(g.next_uid(), card.id, p, card.type, card.effect, targets=a.targets, card=card.id,
                immediate=card.type in ("unit", "gear"), might=card.might, at=at, ready=ready,
                hidden_at=at if a.hidden and card.type != "spell" else None,   # its play effect (811.1.d.2)
                entry=name if name != card.id else None)
    put_on_chain(g, item, "card")


def _take_played(g: State, a: Action, name: str, unit: bool) -> str:
    """The played card leaves where it was for the chain (354.1): a facedown card (its battlefield is where a unit
    enters, 811.1.d), the trash (Z4) or the hand; its trace line. Returns where a unit is played."""
    p, at = a.player, a.at or "base"
    if a.hidden:
        e = need(facedown.entry(g, p, name, a.at), "the facedown card")
        facedown.take(g, e)
        at = e[0]
        log(g, "{player} plays {card} from facedown at {at} ({targets})" if a.targets else
            "{player} plays {card} from facedown at {at}", cite("engine.plays-from-facedown"), p, card=name, at=at,
            targets=_targets(a))
    elif a.origin == "trash":
        zones.to_chain(g, p, "trash", name)
        log(g, "{player} plays {card} from the trash ({targets})" if a.targets else
            "{player} plays {card} from the trash", cite("engine.plays-from-trash"), p, card=name,
            targets=_targets(a))
    else:
        zones.to_chain(g, p, "hand", name)
        log(g, PLAYS[unit, bool(a.targets)], cite("engine.plays"), p, card=name, at=at, targets=_targets(a))
    return at


def shut_play(g: State, p: str, st: str, a: Action) -> bool:
    if a.hidden:
        return False
    card = g.cfg.cards.get(a.card)
    # a card whose timing a keyword may raise (Ambush, 822.1.b) is left to the full check
    return card is not None and card.timing not in timing.PLAY[st] and keyword(card.keywords, "ambush") is None


def shape_play(g: State, a: Action) -> None:
    """A play names a card of this game, ``at`` only for a unit (or from facedown), its card's own target
    fields, each once (353, 356)."""
    card = g.cfg.cards.get(card_of(g, need(a.card, "play's card")))
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


def summary_play(a: Action, row: ActionKind) -> str:
    return f"play {a.card}" + (" from hidden" if a.hidden else " from trash" if a.origin else "")


# -- hide (811.1.b) ------------------------------------------------------------------------------------------------

def check_hide(g: State, a: Action, d: Decision, st: str) -> None:
    """811.1.b: a card with Hidden, from the hand, at a battlefield its controller controls with no facedown
    card of theirs, on their own turn in Neutral Open while holding priority (no chain)."""
    p = a.player
    card = g.cfg.cards.get(card_of(g, a.card)) if a.card is not None else None
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


def offer_hide(g: State, p: str, d: Decision) -> list[Action]:
    return [_act("hide", p, card=cid, at=bf) for cid in dict.fromkeys(g.hands.get(p, []))
            if (card := g.cfg.cards.get(cid)) is not None and keyword(card.keywords, "hidden") is not None
            for bf in g.bfs]


def perform_hide(g: State, a: Action) -> None:
    facedown.hide(g, a.player, need(a.card, "hide's card"), need(a.at, "hide's battlefield"))


def summary_hide(a: Action, row: ActionKind) -> str:
    return _words(a, row) + (" from trash" if a.origin else "")


# -- activate (377, 381, 429) ------------------------------------------------------------------------------------

def _ability(g: State, a: Action):
    src = g.units.get(a.source) if a.source is not None else None
    if src is None or src.zone != "board":
        raise IllegalAction(f"{a.source} is not on the board", cite("actions.not-board"))
    if src.controller != a.player:
        raise IllegalAction(f"{a.player} does not control {a.source}", cite("actions.does-not-control"))
    ab = next((x for x in src.abilities if x.name == a.ability and x.activated), None)
    if ab is None:
        raise IllegalAction(f"{a.source} has no activated ability {a.ability!r}", cite("actions.has-no-activated-ability"))
    return src, ab


def check_activate(g: State, a: Action, d: Decision, st: str) -> None:
    p = a.player
    src, ab = _ability(g, a)
    if ab.exhaust and src.exhausted:
        raise IllegalAction(f"{a.source} is exhausted: exhausting it is {a.ability}'s cost", cite("actions.exhausted-exhausting-cost"))
    if ab.once and (src.id, ab.name) in g.once:
        raise IllegalAction(f"{a.source}'s {a.ability} is used once per turn and was used this turn", cite("actions.used-once-per-turn-was"))
    _timing(g, p, "reaction" if ab.adds else ab.speed, st, f"{a.source}'s {a.ability}")
    check_targets(g, p, a.targets, target_fields(ab.effect), f"{a.source}'s {a.ability}")
    if g.cfg.resources is not None and ab.cost > available(g, p):      # 377, 354: its cost is paid as it is activated
        raise IllegalAction(f"{a.source}'s {a.ability} costs {ab.cost} energy; {p} has {g.energy.get(p, 0)} in the "
                            f"pool and {g.runes.get(p, 0)} ready runes", cite("actions.costs-energy-has-pool-ready"))


def offer_activate(g: State, p: str, d: Decision) -> list[Action]:
    out: list[Action] = []
    for u in g.units.values():
        if u.zone == "board" and u.controller == p:
            for ab in u.abilities:
                if ab.activated:
                    fields = target_fields(ab.effect)
                    out += [_act("activate", p, source=u.id, ability=ab.name, targets=tuple(zip(fields, combo)))
                            for combo in product(*[pool(g, f) for f in fields])]
    return out


def perform_activate(g: State, a: Action) -> None:
    p = a.player
    src = g.units[need(a.source, "activate's source")]
    ab = next(x for x in src.abilities if x.name == a.ability and x.activated)
    if ab.exhaust:
        g.edit(src).exhausted = True                            # its cost (377)
    if ab.once:
        g.once = g.once + ((src.id, ab.name),)
    g.invited = None
    log(g, "{player} activates {source}'s {ability} ({targets})" if a.targets else
        "{player} activates {source}'s {ability}", cite("engine.activates"), p, source=a.source, ability=a.ability,
        targets=_targets(a))
    pay(g, p, ab.cost, f"{a.source}'s {a.ability}")     # its energy cost (377, 354), with resources: only
    given = dict(a.targets)
    item = Item(g.next_uid(), ab.name, p, "ability", ab.effect, source=src.id, immediate=ab.adds,
                targets=tuple((f, given[f]) for f in target_fields(ab.effect)), ability=(src.id, ab.name),
                there=src.at if src.at in g.bfs else None)
    put_on_chain(g, item, "add" if ab.adds else "card")


# -- choose: a staged battlefield (323.12-13), or yes / no for a may (383.3.a) --------------------------------------

def check_choose(g: State, a: Action, d: Decision, st: str) -> None:
    p = a.player
    if d.kind == "battlefield":
        if p != g.turn:
            raise IllegalAction(f"only the turn player {g.turn} chooses", cite("actions.only-turn-player-chooses"))
        if a.battlefield not in g.choosing:
            raise IllegalAction(f"{a.battlefield} is not among the candidates ({', '.join(g.choosing)})", cite("actions.not-among-candidates"))
        return
    if a.option is None and a.card is None:
        raise IllegalAction("there is no choice of battlefield to make", cite("actions.there-no-choice-battlefield-make"))
    if d.kind == "choose" and discarding(g) is not None:
        return _check_discard_choice(g, a, d)
    if d.kind == "choose":
        it = need(g.resolving, "the resolving item").item
        if p != it.controller:
            raise IllegalAction(f"only {it.controller}, who controls {it.name}, decides", cite("actions.only-controller-decides-optional-part"))
        if a.option not in ("yes", "no"):
            raise IllegalAction("a may is decided with option yes or no", cite("actions.optional-part-option-yes-or-no"))
        return
    it = _deciding(g, a)
    if a.option not in ("yes", "no"):
        raise IllegalAction("a may is decided with option yes or no", cite("actions.may-decided-with-option-yes"))


def _check_discard_choice(g: State, a: Action, d: Decision) -> None:
    """422 (Z3): a discard of cards that differ waits for its player's choice of a card in their hand."""
    who, item = need(d.player, "the discarder"), d.item
    if a.card is None:
        raise IllegalAction(f"{who} must first choose the card to discard for {item}; nobody has priority",
                            cite("actions.must-first-choose-discard"))
    if a.player != who:
        raise IllegalAction(f"only {who} chooses the card to discard", cite("actions.only-discarder-chooses"))
    if a.card not in d.options:
        raise IllegalAction(f"{a.card} is not in {who}'s hand", cite("actions.discard-not-in-hand"))


def _deciding(g: State, a: Action):
    """383.3.a, 402.1: the triggered ability being finalized, which its controller alone decides."""
    it = deciding(g)
    if it is None:
        raise IllegalAction("nobody is deciding a triggered ability now", cite("actions.nobody-deciding-triggered-ability-now"))
    if a.player != it.controller:
        raise IllegalAction(f"only {it.controller}, who controls {it.source}'s {it.name}, decides", cite("actions.only-who-controls-decides"))
    return it


def offer_choose(g: State, p: str, d: Decision) -> list[Action]:
    if d.kind == "battlefield":
        return [_act("choose", p, battlefield=b) for b in d.options]
    if d.kind == "choose" and discarding(g) is not None:         # the card to discard (422, Z3)
        return [_act("choose", p, card=c) for c in d.options]
    return [_act("choose", p, option="yes"), _act("choose", p, option="no")]


def perform_choose(g: State, a: Action) -> None:
    p = a.player
    if a.card is not None:
        r = need(g.resolving, "the resolving item")
        log(g, "{player} chooses {card} to discard ({item})", cite("engine.chooses-discard"), p, card=a.card,
            item=r.item.name)
        fire(g, "chain", "decide", item=r.item.name, player=p, option=a.card)
    elif a.option is None:
        log(g, "{player} chooses {bf}", cite("engine.chooses"), p, bf=a.battlefield)
        open_at(g, need(a.battlefield, "choose's battlefield"))
    elif g.ms[("chain", None)] == ChainState.ResolveChoice:
        r = need(g.resolving, "the resolving item")
        if a.option == "yes":
            log(g, "{player} chooses to {verb} ({item}'s optional part)", cite("engine.chooses-optional-part"), p,
                verb=r.item.effect[r.at][0], item=r.item.name)
        fire(g, "chain", "decide", item=r.item.name, player=p, option=a.option)
    else:
        it = need(deciding(g), "the item being decided")
        if a.option == "yes":
            log(g, "{player} chooses to use {source}'s {name}", cite("engine.chooses-use"), p, source=it.source, name=it.name)
            replace_item(g, it, it.but(ask=it.ask[1:]))
            fire(g, "chain", "decide", item=it.name, player=p)
        else:
            drop_item(g, it, N_("{player} declines {source}'s {item}: it is removed as if it never triggered"),
                      cite("engine.declined"), "decide")


def idle_choose(a: Action) -> Idle:
    if a.option is None and a.card is None:
        return (0, "there is no choice of battlefield to make", cite("actions.there-no-choice-battlefield-make"))
    return (3, "there is no optional ability to decide", cite("actions.there-no-optional-ability-decide"))


def summary_choose(a: Action, row: ActionKind) -> str:
    if a.card is not None:
        return f"choose card {a.card}"
    return f"choose {a.option}" if a.option is not None else f"choose {a.battlefield}"


def fix_choose(params: dict) -> dict:
    """``choose yes`` / ``choose no`` decide a may (383.3.a); any other word is a battlefield."""
    return {"option": params["battlefield"]} if params.get("battlefield") in ("yes", "no") else params


# -- target: a pending triggered ability's targets (383.3.a, 356) ------------------------------------------------

def check_target(g: State, a: Action, d: Decision, st: str) -> None:
    it = _deciding(g, a)
    check_targets(g, a.player, a.targets, target_fields(it.effect), f"{it.source}'s {it.name}",
                  hidden_at=it.hidden_at)


def offer_target(g: State, p: str, d: Decision) -> list[Action]:
    it = deciding(g)
    return [_act("target", p, targets=t) for t in target_options(g, it)] if it is not None else []


def perform_target(g: State, a: Action) -> None:
    it = need(deciding(g), "the item being decided")
    log(g, "{player} chooses targets for {source}'s {item}: {targets}", cite("engine.chooses-targets"), a.player,
        source=it.source, item=it.name, targets=_targets(a))
    given = dict(a.targets)
    replace_item(g, it, it.but(ask=it.ask[1:], targets=tuple((f, given[f]) for f in target_fields(it.effect))))
    fire(g, "chain", "decide", item=it.name, player=a.player)


# -- order: simultaneous triggers (383.3.d) --------------------------------------------------------------------------

def check_order(g: State, a: Action, d: Decision, st: str) -> None:
    """383.3.d: while ``who`` orders their simultaneous triggers, that is the only decision (no priority)."""
    who = need(d.player, "the orderer")
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


def offer_order(g: State, p: str, d: Decision) -> list[Action]:
    """A sequence of picks: the next trigger to place (383.3.d), n choices, not n!."""
    return [_act("order", p, triggers=(lab,)) for lab in dict.fromkeys(d.options)]


def perform_order(g: State, a: Action) -> None:
    p = a.player
    rest = unordered_labels(g, p)
    for lab in a.triggers:
        rest.remove(lab)
    if len(rest) <= 1:                                   # the order is complete (a last one has no choice)
        log(g, '{player} orders their simultaneous triggers: {rest} (the last resolves first)', cite("engine.orders-their-simultaneous-triggers-last"), p, rest=', '.join([*a.triggers, *rest]))
    else:
        log(g, '{player} places {triggers} next among their simultaneous triggers; {rest} remain to be ordered', cite("engine.places-next-among-their-simultaneous"), p, triggers=', '.join(a.triggers), rest=len(rest))
    order_triggers(g, p, a.triggers)


# -- assign: combat damage (465.2.c) ----------------------------------------------------------------------------------

def check_assign(g: State, a: Action, d: Decision, st: str) -> None:
    """465.2.c: while ``who`` assigns combat damage, that is the only decision (nobody has priority)."""
    who = need(d.player, "the assigner")
    if a.player != who:
        raise IllegalAction(f"{who} assigns now: the attacker assigns first, then the defender", cite("actions.assigns-now-attacker-assigns-first"))
    why = damage.problem(g, who, a.damage)
    if why:
        raise IllegalAction(*why)


def offer_assign(g: State, p: str, d: Decision) -> list[Action]:
    """One per distinct outcome (465.2.c)."""
    return [_act("assign", p, damage=x) for x in damage.choices(g, p)]


def perform_assign(g: State, a: Action) -> None:
    log(g, "{player} assigns combat damage: {damage}", cite("engine.assigns-combat-damage"), a.player,
        damage=", ".join(f"{u} {n}" for u, n in a.damage))
    record_assignment(g, a.player, a.damage)


# -- concede (651, 652) ----------------------------------------------------------------------------------------------

def perform_concede(g: State, a: Action) -> None:
    conceding.concede(g, a.player)


# -- the table -------------------------------------------------------------------------------------------------------

KINDS: dict[str, ActionKind] = {k.name: k for k in (
    ActionKind("move", (("units", "units"), ("to", "place")), ("units", "to"), cite("actions.shapes-move"),
               ("units", "to"), PRIORITY, check_move, offer_move, perform_move,
               "move needs units and a destination: A move a1 North", shut=shut_move),
    ActionKind("play", (("card", "card"), ("targets", "targets"), ("at", "place"), ("accelerate", "flag"),
                        ("from", "from")), ("card",), cite("actions.shapes-play"),
               ("card",), PRIORITY, check_play, offer_play, perform_play,
               "play needs one card id (targets as field=value)", shut=shut_play, text=summary_play, shape=shape_play),
    ActionKind("activate", (("source", "source"), ("ability", "text"), ("targets", "targets")), ("source", "ability"),
               cite("actions.shapes-activate"), ("source", "ability"), PRIORITY, check_activate, offer_activate,
               perform_activate, "activate needs a source and an ability: A activate g1 add"),
    ActionKind("pass", (), (), cite("actions.shapes-pass"), (), PRIORITY, check_pass, _just("pass"), perform_pass,
               "pass takes nothing after it", shut=shut_pass),
    ActionKind("choose", (("battlefield", "battlefield"), ("option", "option"), ("card", "entry")), (),
               cite("actions.shapes-choose"), ("battlefield",), ("battlefield", "choose", "may"), check_choose,
               offer_choose, perform_choose, "choose needs a battlefield, yes / no, or card CARD", idle=idle_choose,
               fix=fix_choose, text=summary_choose, prefix=(("card", "card"),)),
    ActionKind("concede", (), (), cite("actions.shapes-concede"), (), (), _no_check, _nothing, perform_concede,
               "concede takes nothing after it"),
    ActionKind("end-turn", (), (), cite("actions.shapes-end-turn"), (), PRIORITY, check_end_turn, _just("end-turn"),
               perform_end_turn, "end-turn takes nothing after it", shut=shut_end_turn),
    ActionKind("invite", (("teammate", "player"),), ("teammate",), cite("actions.shapes-invite"), ("teammate",), PRIORITY,
               check_invite, offer_invite, perform_invite, "invite needs a teammate", shut=shut_invite),
    ActionKind("order", (("triggers", "labels"),), ("triggers",), cite("actions.shapes-order"), ("triggers",), ("order",),
               check_order, offer_order, perform_order,
               "order lists the player's pending triggers as SOURCE:ABILITY: A order a1:brace a2:guard",
               idle=_always(2, "there are no simultaneous triggers to order", cite("actions.there-are-no-simultaneous-triggers"))),
    ActionKind("target", (("targets", "targets"),), ("targets",), cite("actions.shapes-target"), (), ("finalize",),
               check_target, offer_target, perform_target,
               "target names the ability's targets as field=value: A target unit=b1", named_needed=True,
               idle=_always(3, "there is no triggered ability waiting for its targets", cite("actions.there-no-triggered-ability-waiting"))),
    ActionKind("assign", (("damage", "damage"),), ("damage",), cite("actions.shapes-assign"), (), ("assign",),
               check_assign, offer_assign, perform_assign, "assign names units and amounts: B assign a1=2 a2=1",
               named_needed=True,
               idle=_always(4, "there is no combat damage to assign now", cite("actions.there-no-combat-damage-assign"))),
    ActionKind("hide", (("card", "card"), ("at", "battlefield"), ("from", "trash")), ("card", "at"),
               cite("actions.shapes-hide"), ("card", "at"), PRIORITY, check_hide, offer_hide, perform_hide,
               "hide needs a card and a battlefield: A hide 'Back Off' North", text=summary_hide),
)}


def must_first(g: State, d: Decision) -> IllegalAction:
    """The refusal of an action that does not answer the decision ``d`` now due (nobody has priority)."""
    if d.kind == "battlefield":
        return IllegalAction(f"{g.turn} must first choose which staged showdown or combat opens", cite("actions.must-first-choose-which-staged"))
    if d.kind == "choose" and discarding(g) is not None:
        return IllegalAction(f"{d.player} must first choose the card to discard for {d.item}; nobody has priority",
                             cite("actions.must-first-choose-discard"))
    if d.kind == "choose":
        return IllegalAction(f"{d.player} must first decide whether {d.item} does its optional part as it "
                             f"resolves; nobody has priority", cite("actions.must-first-decide-optional-part"))
    if d.kind == "order":
        return IllegalAction(f"{d.player} must first order their simultaneous triggers; nobody has priority", cite("actions.must-first-order-their-simultaneous"))
    if d.kind == "assign":
        return IllegalAction(f"{d.player} must first assign their combat damage; nobody has priority", cite("actions.must-first-assign-their-combat"))
    it = need(deciding(g), "the item being decided")
    what = "choose yes or no" if d.kind == "may" else "choose its targets"
    return IllegalAction(f"{it.controller} must first {what} for {it.source}'s {it.name}; nobody has priority",
                         cite("actions.must-first-nobody-has-priority"))


# -- the text form and the file form, from the rows ---------------------------------------------------------------

#: the parameters a file or a text gives as a mapping (``field=value`` in the text form)
MAPPINGS = ("targets", "damage")


def read(text: str, cards: dict | None = None) -> Action:
    """An action in its text form, ``PLAYER KIND WORDS... [field=value ...]`` (``riftsim play`` and the tests):
    the kind's ``words`` in order, then its other parameters and its targets (or damage) as field=value.
    ``cards``: the game's cards, to list a play's targets in its card's order.

    >>> read("A move a1 a2 North").describe()
    'A move a1 a2 North'
    >>> read("B assign b1=2 b2=1").damage
    (('b1', 2), ('b2', 1))
    >>> read("A choose no").option, read("A target unit=b1").targets
    ('no', (('unit', 'b1'),))
    """
    try:
        words = shlex.split(text)
    except ValueError as e:
        raise ParseError(f"{text!r}: {e}") from None
    if len(words) < 2:
        raise ParseError(f"expected 'PLAYER ACTION ...', got '{text}' (type help)")
    player, kind, rest = words[0], words[1], words[2:]
    row = KINDS.get(kind)
    if row is None:
        raise ParseError(f"unknown action '{kind}': one of {', '.join(KINDS)}")
    plain = [w for w in rest if "=" not in w]
    named = _named(rest)
    given = dict(row.params)
    if any(f not in given or f in row.words for f in named) and not set(given) & set(MAPPINGS):
        takes = [k for k, r in KINDS.items() if {p for p, _ in r.params} & set(MAPPINGS)]
        raise ParseError(f"{kind} takes no field=value ({', '.join(named)}): only {', '.join(takes[:-1])} and "
                         f"{takes[-1]} name fields")
    params = row.fix(_positional(row, plain, bool(named)))
    for f, v in named.items():
        if f in given and f not in MAPPINGS and f not in row.words:
            params[f] = v == "true" if given[f] == "flag" else v
        elif "damage" in given:
            params.setdefault("damage", {})[f] = _whole(v)
        else:
            params.setdefault("targets", {})[f] = v
    return build(kind, player, params, cards)


def words_of(a: Action) -> list[str]:
    """The positional words of ``a``'s text form (its kind's ``words``; a list gives each item; choose's one
    word is its battlefield, or yes / no)."""
    out: list[str] = []
    for word, f in KINDS[a.kind].prefix:
        if getattr(a, f) is not None:
            return [word, getattr(a, f)]
    for w in KINDS[a.kind].words:
        v = getattr(a, FIELD_OF.get(w, w))
        out += list(v) if isinstance(v, tuple) else [str(v if v is not None else a.option)]
    return out


def _named(rest: list[str]) -> dict[str, str]:
    named: dict[str, str] = {}
    for w in rest:
        if "=" in w:
            f, v = w.split("=", 1)
            if not f or not v:
                raise ParseError(f"{w!r}: a target is field=value")
            if f in named:
                raise ParseError(f"{f} is given twice")
            named[f] = v
    return named


def _positional(row: ActionKind, plain: list[str], named: bool) -> dict:
    """The kind's ``words`` from the plain words (a list parameter takes all but the words after it)."""
    lead = dict(row.prefix)
    if len(plain) == 2 and plain[0] in lead:
        return {lead[plain[0]]: plain[1]}
    n = len(row.words)
    many = bool(row.words) and row.words[0] in LISTS
    if (len(plain) < n if many else len(plain) != n) or (many and not plain) or (row.named_needed and not named):
        raise ParseError(row.usage)
    if not many:
        return dict(zip(row.words, plain))
    cut = len(plain) - (n - 1)
    return {row.words[0]: plain[:cut], **dict(zip(row.words[1:], plain[cut:]))}


def _whole(v: str) -> int:
    try:
        return int(v)
    except ValueError:
        raise ParseError("assign gives whole numbers: B assign a1=2 a2=1") from None


#: the order of target fields when the card or ability is not known (then the others, as written)
TARGET_ORDER = ("unit", "to", "at")


def order_targets(targets: dict, fields: tuple[str, ...] | None = None) -> tuple:
    """Targets as (field, value) pairs: in the card's order when ``fields`` is known (as ``legal`` lists
    them), else :data:`TARGET_ORDER` first."""
    if fields is not None:
        return tuple((f, targets[f]) for f in fields if f in targets) + \
            tuple((f, v) for f, v in targets.items() if f not in fields)
    return tuple(sorted(targets.items(), key=lambda kv: TARGET_ORDER.index(kv[0]) if kv[0] in TARGET_ORDER else 9))


def build(kind: str, player: str, params: dict, cards: dict | None = None) -> Action:
    """An action from its parameters as a scenario step gives them (the file form; already checked by
    the schema and the loader, or read from the text form). The one constructor of the parsers."""
    fields: dict = {}
    for p, _ in KINDS[kind].params:
        v = params.get(p)
        if v is None:
            continue
        if p in LISTS:
            v = tuple(v)
        elif p == "targets":
            card = cards.get(params.get("card")) if cards and kind == "play" else None
            v = order_targets(v, card.target_fields() if card is not None else None)
        elif p == "damage":
            v = tuple(v.items())
        elif p == "option":
            v = {True: "yes", False: "no"}.get(v, v)
        elif p == "from":
            fields.update(from_fields(v))
            continue
        elif p == "accelerate":
            v = bool(v)
        fields[FIELD_OF.get(p, p)] = v
    return Action(kind, player, **fields)


def step_of(a: Action) -> dict:
    """An action as a scenario step (the file form and the JSON form of an action): the inverse of
    :func:`build` (``riftsim play``'s ``save``, ``verify``'s counterexamples, the conformance fixtures)."""
    d: dict = {"do": a.kind, "player": a.player}
    for p, _ in KINDS[a.kind].params:
        v: Any = from_value(a) if p == "from" else getattr(a, p)
        if v in (None, (), False):
            continue
        if p in LISTS:
            v = list(v)
        elif p in MAPPINGS:
            v = dict(v)
        d[p] = v
    return d


# -- the shape of an action --------------------------------------------------------------------------------------

#: every Action field but kind and player, and the check of its type
_TYPES: dict[str, Callable[[object], bool]] = {
    "units": lambda v: isinstance(v, tuple) and all(isinstance(x, str) for x in v),
    "triggers": lambda v: isinstance(v, tuple) and all(isinstance(x, str) for x in v),
    "targets": lambda v: isinstance(v, tuple),
    "damage": lambda v: isinstance(v, tuple) and all(isinstance(t, tuple) and len(t) == 2 and isinstance(t[0], str)
                                                     and isinstance(t[1], int) for t in v),
    "accelerate": lambda v: isinstance(v, bool), "hidden": lambda v: isinstance(v, bool),
}
_FIELDS = tuple(f.name for f in Action.__dataclass_fields__.values() if f.name not in ("kind", "player"))


def _type_problem(kind: str, f: str, v) -> str | None:
    """What is wrong with the type of field ``f`` (None if nothing)."""
    ok = _TYPES.get(f, lambda x: x is None or isinstance(x, str))
    if ok(v):
        return None
    if f in ("units", "triggers", "targets") and not isinstance(v, tuple):
        return f"{kind}'s {f} must be a tuple, not {type(v).__name__}"
    if f in ("units", "triggers"):
        return f"{kind}'s {f} must name ids as texts"
    if f == "damage":
        return "assign's damage must be (unit, amount) pairs"
    if f in ("accelerate", "hidden"):
        return f"{kind}'s {f} must be true or false"
    return f"{kind}'s {f} must be a text, not {type(v).__name__}"


def check_fields(g: State, a: Action) -> None:
    """The action's kind's fields only, of the right types, the needed ones given (:func:`check_shape`)."""
    row = KINDS[a.kind]
    takes, rule = row.takes, row.rule
    for f in _FIELDS:
        v = getattr(a, f)
        if f not in takes:
            if v not in (None, (), False):
                raise IllegalAction(f"{a.kind} takes no {f}" + (f" (it takes: {', '.join(takes)})" if takes else ""),
                                    rule)
            continue
        why = _type_problem(a.kind, f, v)
        if why:
            raise IllegalAction(why, rule)
        if f == "targets" and not all(isinstance(t, tuple) and len(t) == 2 and all(isinstance(x, str) for x in t)
                                      for t in v):
            raise IllegalAction("targets must be (field, value) pairs of texts", cite("actions.targets-must-field-value-pairs"))
    for f in row.needs:
        if getattr(a, FIELD_OF.get(f, f)) is None:
            raise IllegalAction(f"{a.kind} needs {f}", rule)
    row.shape(g, a)
