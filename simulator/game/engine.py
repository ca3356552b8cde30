"""The engine: applies actions and runs the declared schedule (HOT FEPR, 334) until someone must decide.

:class:`Game` is the OpenSpiel-style facade: ``legal_actions()``, ``apply()``,
``clone()``, ``is_terminal()``, ``key()``; a rejected action leaves the state
exactly as it was (the action runs on a clone that replaces the state only on
success).
"""
from __future__ import annotations

from statecharts import timing
from statecharts.states import ChainState
from statecharts.citations import cite

from simulator.rules import concede, zones
from simulator.game.actions import Action, check, choice, legal, play_cost
from simulator.game.setup import build
from simulator.game import shape
from simulator.game.validate import SetupValidator
from simulator.game import loops
from simulator.rules.chain import pass_priority, put_on_chain
from simulator.rules.triggers import deciding, drop_item, order_triggers, replace_item, unordered_labels
from simulator.rules.targets import target_fields
from simulator.rules.cleanup import open_at
from simulator.core.log import N_, fire, log
from simulator.core.errors import IllegalAction, Loop, RulesBug, need
from simulator.core.machines import schedule
from simulator.core.model import Item, State
from simulator.rules.moves import standard_move
from simulator.rules.combat import record_assignment
from simulator.rules import hidden as facedown
from simulator.rules.resources import pay
from simulator.core.cards import keyword

LIMIT = 10_000

#: "P plays CARD": (a unit, with targets) -> the trace template
PLAYS = {(False, False): N_("{player} plays {card}"), (True, False): N_("{player} plays {card} at {at}"),
         (False, True): N_("{player} plays {card} ({targets})"),
         (True, True): N_("{player} plays {card} at {at} ({targets})")}


#: schedule steps one settle runs before it looks for a repeated position (a real settle takes a few dozen)
LOOP_FROM = 100


def settle(g: State) -> None:
    """HOT FEPR (334-340) and the turn cycle, until a player must act (or the game is over): the declared
    schedule (``statecharts/schedule.py``), one step at a time. Past :data:`LOOP_FROM` steps each position is
    remembered by its identity modulo fresh ids (``simulator.game.loops``): one that comes back is a loop no
    player decision can end, raised as :class:`~simulator.core.errors.Loop` with one round of its trace."""
    once = schedule()
    for _ in range(LOOP_FROM):
        if not once(g):
            return
    seen: dict[tuple, tuple[int, int]] = {}
    for n in range(LOOP_FROM, LIMIT):
        k = loops.identity(g)
        if k in seen:
            first, at = seen[k]
            raise Loop(f"the position of schedule step {first} repeats at step {n} with no decision between (up to "
                       f"the numbering of new objects): a loop no player decision can end, the game is a draw",
                       cite("engine.loop"), tuple(e.event for e in g.trace[at:at + 12]))
        seen[k] = (n, len(g.trace))
        if not once(g):
            return
    raise RulesBug("HOT FEPR did not settle (a loop in the rules model)")


def perform(g: State, a: Action) -> None:
    """Carry out a legal action."""
    p = a.player
    k = a.kind
    if k == "concede":
        concede.concede(g, p)
    elif k == "choose" and a.card is not None:
        r = need(g.resolving, "the resolving item")
        log(g, "{player} chooses {card} to discard ({item})", cite("engine.chooses-discard"), p, card=a.card,
            item=r.item.name)
        fire(g, "chain", "decide", item=r.item.name, player=p, option=a.card)
    elif k == "choose" and a.option is not None and g.ms[("chain", None)] == ChainState.ResolveChoice:
        r = need(g.resolving, "the resolving item")
        verb = r.item.effect[r.at][0]
        if a.option == "yes":
            log(g, "{player} chooses to {verb} ({item}'s optional part)", cite("engine.chooses-optional-part"), p, verb=verb, item=r.item.name)
        fire(g, "chain", "decide", item=r.item.name, player=p, option=a.option)
    elif k == "choose" and a.option is not None:
        it = need(deciding(g), "the item being decided")
        if a.option == "yes":
            log(g, "{player} chooses to use {source}'s {name}", cite("engine.chooses-use"), p, source=it.source, name=it.name)
            replace_item(g, it, it.but(ask=it.ask[1:]))
            fire(g, "chain", "decide", item=it.name, player=p)
        else:
            drop_item(g, it, N_("{player} declines {source}'s {item}: it is removed as if it never triggered"),
                      cite("engine.declined"), "decide")
    elif k == "target":
        it = need(deciding(g), "the item being decided")
        log(g, "{player} chooses targets for {source}'s {item}: {targets}", cite("engine.chooses-targets"), p, source=it.source,
            item=it.name, targets=", ".join(f"{f}: {v}" for f, v in a.targets))
        given = dict(a.targets)
        replace_item(g, it, it.but(ask=it.ask[1:], targets=tuple((f, given[f]) for f in target_fields(it.effect))))
        fire(g, "chain", "decide", item=it.name, player=p)
    elif k == "choose":
        log(g, "{player} chooses {bf}", cite("engine.chooses"), p, bf=a.battlefield)
        open_at(g, need(a.battlefield, "choose's battlefield"))
    elif k == "order":
        rest = unordered_labels(g, p)
        for lab in a.triggers:
            rest.remove(lab)
        if len(rest) <= 1:                                   # the order is complete (a last one has no choice)
            log(g, '{player} orders their simultaneous triggers: {rest} (the last resolves first)', cite("engine.orders-their-simultaneous-triggers-last"), p, rest=', '.join([*a.triggers, *rest]))
        else:
            log(g, '{player} places {triggers} next among their simultaneous triggers; {rest} remain to be ordered', cite("engine.places-next-among-their-simultaneous"), p, triggers=', '.join(a.triggers), rest=len(rest))
        order_triggers(g, p, a.triggers)
    elif k == "pass":
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
    elif k == "end-turn":
        g.priority = None
        fire(g, "phases", "end_turn", player=p)
        g.dirty = True                                       # 319: moving between phases
    elif k == "invite":
        g.invited = a.teammate
        g.priority = a.teammate
        log(g, "{player} invites {teammate} to act with {player}'s priority", cite("engine.invites-act-with-priority"), p,
            teammate=a.teammate)
    elif k == "move":
        standard_move(g, p, [g.units[u] for u in a.units], need(a.to, "move's destination"))
    elif k == "play":
        name = need(a.card, "play's card")
        card = g.cfg.cards[zones.card_of(g, name)]
        at = a.at or "base"
        at = _take_played(g, a, name, card.type == "unit", at)
        g.invited = None
        pay(g, p, play_cost(g, a, card), name + (" and its Accelerate" if a.accelerate else ""))
        ready = keyword(card.keywords, "accelerate") is not None and (a.accelerate or g.cfg.resources is None)
        item = Item(g.next_uid(), card.id, p, card.type, card.effect, targets=a.targets, card=card.id,
                    immediate=card.type in ("unit", "gear"), might=card.might, at=at, ready=ready,
                    hidden_at=at if a.hidden and card.type != "spell" else None,   # its play effect (811.1.d.2)
                    entry=name if name != card.id else None)
        put_on_chain(g, item, "card")
    elif k == "hide":
        facedown.hide(g, p, need(a.card, "hide's card"), need(a.at, "hide's battlefield"))
    elif k == "assign":
        log(g, "{player} assigns combat damage: {damage}", cite("engine.assigns-combat-damage"), p,
            damage=", ".join(f"{u} {n}" for u, n in a.damage))
        record_assignment(g, p, a.damage)
    elif k == "activate":
        src = g.units[need(a.source, "activate's source")]
        ab = next(x for x in src.abilities if x.name == a.ability and x.activated)
        if ab.exhaust:
            g.edit(src).exhausted = True                            # its cost (377)
        if ab.once:
            g.once = g.once + ((src.id, ab.name),)
        g.invited = None
        log(g, "{player} activates {source}'s {ability} ({targets})" if a.targets else
            "{player} activates {source}'s {ability}", cite("engine.activates"), p, source=a.source, ability=a.ability,
            targets=", ".join(f"{f}: {v}" for f, v in a.targets))
        pay(g, p, ab.cost, f"{a.source}'s {a.ability}")     # its energy cost (377, 354), with resources: only
        given = dict(a.targets)
        item = Item(g.next_uid(), ab.name, p, "ability", ab.effect, source=src.id, immediate=ab.adds,
                    targets=tuple((f, given[f]) for f in target_fields(ab.effect)), ability=(src.id, ab.name), there=src.at if src.at in g.bfs else None)
        put_on_chain(g, item, "add" if ab.adds else "card")
    else:  # pragma: no cover - check() refuses unknown kinds
        raise IllegalAction(f"unknown action {k!r}", cite("engine.unknown-action"))


def _take_played(g: State, a: Action, name: str, unit: bool, at: str) -> str:
    """The played card leaves where it was for the chain (354.1): a facedown card (its battlefield is where a unit
    enters, 811.1.d), the trash (Z4) or the hand; its trace line. Returns where a unit is played."""
    p = a.player
    if a.hidden:
        e = facedown.entry(g, p, name, a.at)
        facedown.take(g, e)
        at = e[0]
        log(g, "{player} plays {card} from facedown at {at} ({targets})" if a.targets else
            "{player} plays {card} from facedown at {at}", cite("engine.plays-from-facedown"), p, card=name, at=at,
            targets=", ".join(f"{f}: {v}" for f, v in a.targets))
    elif a.origin == "trash":
        zones.to_chain(g, p, "trash", name)
        log(g, "{player} plays {card} from the trash ({targets})" if a.targets else
            "{player} plays {card} from the trash", cite("engine.plays-from-trash"), p, card=name,
            targets=", ".join(f"{f}: {v}" for f, v in a.targets))
    else:
        zones.to_chain(g, p, "hand", name)
        log(g, PLAYS[unit, bool(a.targets)], cite("engine.plays"), p, card=name, at=at,
            targets=", ".join(f"{f}: {v}" for f, v in a.targets))
    return at


def step(g: State, a: Action, number: int | None = None) -> State:
    """The successor of ``g`` under ``a`` (a new state); raises IllegalAction and leaves ``g`` untouched."""
    check(g, a)
    n = g.clone()
    if number is not None:
        n.step = number
    perform(n, a)
    settle(n)
    return n


class Game:
    """A game you can play, copy, hash and explore."""

    def __init__(self, state: State) -> None:
        self.state = state

    @classmethod
    def from_setup(cls, setup: dict, *, backend: str = "compiled", rulings: dict | None = None) -> "Game":
        """A game from a scenario-format starting position (a dict), validated like a scenario file:
        bad input raises ScenarioError with a one-line message (``setup: what is wrong``)."""
        shape.check(setup, "setup", "setup")
        pos = SetupValidator("setup").position(setup)
        return cls(build(pos.setup, backend=backend, rulings={**pos.rulings, **(rulings or {})}, cards=pos.cards))

    # OpenSpiel-style API
    def legal_actions(self, player: str | None = None, *, moves: str = "compact") -> list[Action]:
        """Every legal action (of ``player``, or of everyone still in the game). A standard move is listed
        once per destination with every unit that may go there: any non-empty subset of them is legal too
        (``moves="all"`` lists each group, exponential in the units; ``moves="single"`` one per unit)."""
        players = [player] if player else list(self.state.in_game())
        return [a for p in players for a in legal(self.state, p, moves=moves)]

    def legal_summary(self, player: str) -> list[str]:
        return sorted(dict.fromkeys(choice(a) for a in legal(self.state, player)))

    def apply(self, action: Action, step_number: int | None = None) -> None:
        """Apply a legal action; an illegal one raises IllegalAction and changes nothing."""
        self.state = step(self.state, action, step_number)

    def clone(self) -> "Game":
        return Game(self.state.clone())

    def is_terminal(self) -> bool:
        return self.state.winner is not None

    def key(self) -> tuple:
        return self.state.key()

    @property
    def trace(self):
        return self.state.trace
