"""Actions (the scenario vocabulary) and their legality, each refusal naming its rule."""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations, product

from statecharts import timing

from simulator.rules.triggers import orderer, unordered_labels
from simulator.core.errors import IllegalAction, TooCostly
from simulator.core.model import State
from simulator.rules.moves import combat_outsider, destination_problem

KINDS = ("move", "play", "activate", "pass", "choose", "concede", "end-turn", "invite", "order")


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

    def summary(self) -> str:
        """The action as the scenario format's ``legal`` lists it (one entry per card or unit set)."""
        k = self.kind
        if k == "move":
            return f"move {' '.join(self.units)} {self.to}"
        if k == "play":
            return f"play {self.card}"
        if k == "activate":
            return f"activate {self.source} {self.ability}"
        if k == "choose":
            return f"choose {self.battlefield}"
        if k == "invite":
            return f"invite {self.teammate}"
        if k == "order":
            return f"order {' '.join(self.triggers)}"
        return k

    def describe(self) -> str:
        s = f"{self.player} {self.summary()}"
        if self.targets:
            s += " (" + ", ".join(f"{k}: {v}" for k, v in self.targets) + ")"
        if self.at:
            s += f" at {self.at}"
        return s


def _refuse(action: str, st: str, **fmt: str) -> IllegalAction:
    """The refusal the timing table declares for ``action`` in the turn state ``st``."""
    reason, rules = timing.REFUSED[(action, st)]
    return IllegalAction(reason.format(state=st, **fmt), rules)


#: the fields each kind of action takes (every other field keeps its default), and the rule it cites
SHAPES = {
    "move": (("units", "to"), "144"),
    "play": (("card", "targets", "at"), "353"),
    "activate": (("source", "ability"), "381"),
    "pass": ((), "312, 313"),
    "choose": (("battlefield",), "323.12"),
    "concede": ((), "651"),
    "end-turn": ((), "R14"),
    "invite": (("teammate",), "R13"),
    "order": (("triggers",), "383.3.d"),
}
_FIELDS = ("units", "to", "card", "targets", "at", "source", "ability", "battlefield", "teammate", "triggers")


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
        raise IllegalAction(f"not an action: {type(a).__name__}", "410")
    if a.kind not in SHAPES:
        raise IllegalAction(f"unknown action {a.kind!r}", "410")
    takes, rule = SHAPES[a.kind]
    if not isinstance(a.player, str):
        raise IllegalAction(f"the player must be a player name, not {type(a.player).__name__}", "103")
    for f in _FIELDS:
        v = getattr(a, f)
        if f not in takes:
            if v not in (None, ()):
                raise IllegalAction(f"{a.kind} takes no {f}" + (f" (it takes: {', '.join(takes)})" if takes else ""),
                                    rule)
            continue
        if f in ("units", "triggers", "targets"):
            if not isinstance(v, tuple):
                raise IllegalAction(f"{a.kind}'s {f} must be a tuple, not {type(v).__name__}", rule)
            if f == "targets":
                if not all(isinstance(t, tuple) and len(t) == 2 and all(isinstance(x, str) for x in t) for t in v):
                    raise IllegalAction("targets must be (field, value) pairs of texts", "356")
            elif not all(isinstance(x, str) for x in v):
                raise IllegalAction(f"{a.kind}'s {f} must name ids as texts", rule)
        elif v is not None and not isinstance(v, str):
            raise IllegalAction(f"{a.kind}'s {f} must be a text, not {type(v).__name__}", rule)
    required = {"move": ("to",), "play": ("card",), "activate": ("source", "ability"), "choose": ("battlefield",),
                "invite": ("teammate",)}.get(a.kind, ())
    for f in required:
        if getattr(a, f) is None:
            raise IllegalAction(f"{a.kind} needs {f}", rule)
    if a.kind == "play":
        card = g.cfg.cards.get(a.card)
        if card is None:
            raise IllegalAction(f"{a.card} is not a card of this game", "353")
        if a.at is not None and card.type != "unit":
            raise IllegalAction(f"{a.card} is a {card.type}: at is only for playing a unit", "353")
        names = [f for f, _ in a.targets]
        if len(set(names)) != len(names):
            raise IllegalAction(f"a target field is named twice: {', '.join(names)}", "356")
        fields = card.target_fields()
        extra = [f for f in names if f not in fields]
        if extra:
            raise IllegalAction(f"{a.card} takes no target {extra[0]!r}"
                                + (f" (it takes: {', '.join(fields)})" if fields else ""), "356")


def _check_player(g: State, p: str) -> None:
    """What every action of ``p`` needs: a player of this game, still in it, the game not over."""
    if p not in g.order:
        raise IllegalAction(f"{p} is not a player in this game", "103")
    if g.winner is not None:
        raise IllegalAction("the game is over", "323.1")
    if p not in g.in_game():
        raise IllegalAction(f"{p} has left the game and makes no more choices", "651")


def _check_choice(g: State, a: Action, st: str) -> None:
    """The rest of :func:`check`, for any action but concede, in the turn state ``st``."""
    p = a.player
    if g.choosing:
        if a.kind != "choose":
            raise IllegalAction(f"{g.turn} must first choose which staged showdown or combat opens", "323.12, 323.13")
        if p != g.turn:
            raise IllegalAction(f"only the turn player {g.turn} chooses", "323.12")
        if a.battlefield not in g.choosing:
            raise IllegalAction(f"{a.battlefield} is not among the candidates ({', '.join(g.choosing)})", "323.12")
        return
    if a.kind == "choose":
        raise IllegalAction("there is no choice of battlefield to make", "323.12")
    who = orderer(g)
    if who is not None:
        return _check_order(g, a, who)
    if a.kind == "order":
        raise IllegalAction("there are no simultaneous triggers to order", "383.3.d")
    if a.kind == "pass":
        if g.priority != p:
            raise IllegalAction(f"{p} holds neither priority nor focus", "312, 313")
        if st in timing.NO_PASS and g.invited != p:
            raise IllegalAction("in Neutral Open the turn player ends the turn instead of passing",
                                ", ".join(timing.NO_PASS[st]))
        return
    if a.kind == "end-turn":
        if p != g.turn:
            raise IllegalAction(f"only the turn player {g.turn} may end the turn", "316.9, R14")
        if st not in timing.ALLOWED["end-turn"]:
            raise _refuse("end-turn", st)
        if g.priority != p:
            raise IllegalAction(f"{p} does not hold priority", "R14")
        return
    if a.kind == "invite":
        if g.cfg.mode != "magma-chamber":
            raise IllegalAction("invitations exist only in magma-chamber", "R13")
        if st not in timing.ALLOWED["invite"]:
            raise _refuse("invite", st)
        if p != g.turn or g.priority != p:
            raise IllegalAction("only the turn player holding priority in Neutral Open may invite",
                                ", ".join(timing.ALLOWED["invite"][st]))
        if a.teammate not in g.in_game() or not g.teammates(p, a.teammate):
            raise IllegalAction(f"{a.teammate} is not {p}'s teammate in the game", "489.8.a, R13")
        return
    if a.kind == "move":
        return _check_move(g, a, st)
    if a.kind == "play":
        return _check_play(g, a, st)
    if a.kind == "activate":
        return _check_activate(g, a, st)
    raise IllegalAction(f"unknown action {a.kind!r}", "410")


def _check_order(g: State, a: Action, who: str) -> None:
    """383.3.d: while ``who`` orders their simultaneous triggers, that is the only decision (no priority)."""
    if a.kind != "order":
        raise IllegalAction(f"{who} must first order their simultaneous triggers; nobody has priority", "383.3.d")
    if a.player != who:
        raise IllegalAction(f"only {who} orders now: players order their triggers in placement order",
                            "383.3.d, 464.2.e")
    mine = unordered_labels(g, who)
    for lab in a.triggers:
        if lab not in mine:
            other = next((it.controller for it in g.chain if it.unordered and it.label == lab), None)
            if other is not None:
                raise IllegalAction(f"{lab} is {other}'s trigger: each player orders only their own", "383.3.d")
            raise IllegalAction(f"{lab} is not one of {who}'s pending triggers ({', '.join(mine)})", "383.3.d")
    if sorted(a.triggers) != sorted(mine):
        raise IllegalAction(f"the order must list each of {who}'s pending triggers exactly once "
                            f"({', '.join(mine)})", "383.3.d")


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
    if g.ms[("phases", None)] != "Main":
        raise IllegalAction("standard moves happen in the Main Phase", "144")
    if not a.units:
        raise IllegalAction("a move names at least one unit", "144")
    twice = next((u for i, u in enumerate(a.units) if u in a.units[:i]), None)
    if twice is not None:
        raise IllegalAction(f"{twice} is named twice: a move moves each of its units once", "144")
    if a.to != "base" and a.to not in g.bfs:
        raise IllegalAction(f"{a.to} is not a battlefield or base", "144")
    for uid in a.units:
        u = g.units.get(uid)
        if u is None or u.zone != "board" or u.kind != "unit":
            raise IllegalAction(f"{uid} is not a unit on the board", "144")
        if u.controller != p:
            if g.teammates(p, u.controller):
                raise IllegalAction(f"{uid} is a teammate's unit: no standard move of it", "489, 144")
            raise IllegalAction(f"{uid} is not {p}'s unit", "144")
        if u.exhausted:
            raise IllegalAction(f"{uid} is exhausted", "144")
        if u.at == a.to:
            raise IllegalAction(f"{uid} is already at {a.to}", "144")
        if u.at != "base" and a.to != "base":
            raise IllegalAction(f"{uid} can't move from one battlefield to another without Ganking", "144")
        problem = destination_problem(g, u, a.to)
        if problem:
            raise IllegalAction(problem[0], problem[1])


def _card(g: State, a: Action):
    return g.cfg.cards.get(a.card)


def _check_play(g: State, a: Action, st: str) -> None:
    p = a.player
    card = _card(g, a)
    if card is None or a.card not in g.hands.get(p, []):
        raise IllegalAction(f"{a.card} is not in {p}'s hand", "353")
    _timing(g, p, card.timing, st, a.card)
    if card.type == "unit":
        where = a.at or "base"
        if where != "base":
            if where not in g.bfs:
                raise IllegalAction(f"{where} is not a battlefield", "359.2")
            if g.bfs[where].controller != p:
                raise IllegalAction(f"a unit is played to its base or a battlefield its controller controls; "
                                    f"{p} does not control {where}", "359.2, 806")
            if combat_outsider(g, p, where):
                raise IllegalAction(f"{where} has a staged or ongoing combat between two other players: "
                                    f"{p} may not play a unit there", "462, 447.2.a")
    _check_targets(g, a, card)


def _check_targets(g: State, a: Action, card) -> None:
    given = dict(a.targets)
    for f in card.target_fields():
        if f not in given:
            raise IllegalAction(f"{a.card} needs a target for {f!r}", "356")
    if "unit" in given and "unit" in card.target_fields():
        u = g.units.get(given["unit"])
        if u is None or u.zone != "board" or u.kind != "unit":
            raise IllegalAction(f"{given['unit']} is not a unit on the board", "356")
        if card.friendly and u.controller != a.player and not g.teammates(a.player, u.controller):
            raise IllegalAction(f"{a.card} targets a friendly unit; {u.id} is not", "356")
    if "to" in given and "to" in card.target_fields():
        dest = given["to"]
        if dest != "base" and dest not in g.bfs:
            raise IllegalAction(f"{dest} is not a battlefield or base", "356")
        u = g.units.get(given.get("unit"))
        if u is not None:
            if u.at == dest:
                raise IllegalAction(f"{u.id} is already at {dest}", "356")
            problem = destination_problem(g, u, dest)
            if problem:
                raise IllegalAction(f"{dest} is not a valid destination: {problem[0]}", problem[1])
    if "at" in given and "at" in card.target_fields():
        if given["at"] != "base" and given["at"] not in g.bfs:
            raise IllegalAction(f"{given['at']} is not a battlefield or base", "356")
    if "item" in given and "item" in card.target_fields():
        if not any(it.name == given["item"] for it in g.chain):
            raise IllegalAction(f"{a.card} targets a chain item; {given['item']} is not on the chain", "356")
    if "player" in given and "player" in card.target_fields():
        if given["player"] not in g.in_game():
            raise IllegalAction(f"{given['player']} is not a player in the game", "356")


def _check_activate(g: State, a: Action, st: str) -> None:
    p = a.player
    src = g.units.get(a.source)
    if src is None or src.zone != "board":
        raise IllegalAction(f"{a.source} is not on the board", "381")
    if src.controller != p:
        raise IllegalAction(f"{p} does not control {a.source}", "381")
    ab = next((x for x in src.abilities if x.name == a.ability and x.activated), None)
    if ab is None:
        raise IllegalAction(f"{a.source} has no activated ability {a.ability!r}", "381")
    if src.exhausted:
        raise IllegalAction(f"{a.source} is exhausted", "381")
    _timing(g, p, "reaction" if ab.adds else "normal", st, f"{a.source}'s {a.ability}")


# -- enumeration ---------------------------------------------------------------------------------

#: ``Action(...)`` memoised on its arguments: an Action is an immutable value of exactly those arguments, so
#: an entry can never go stale; there are few distinct ones (players x units x destinations, cards x targets)
_action = lru_cache(maxsize=None)(Action)


def candidates(g: State, p: str, *, orders: str = "all") -> list[Action]:
    """Every action worth checking for ``p``: targets enumerated, legality not yet checked; a standard
    move once per unit and destination (a group move is legal exactly when each of its units' moves is);
    an order of simultaneous triggers (383.3.d) as every distinct permutation, or with ``orders="compact"``
    one per trigger that may be placed first (the others after it as placed)."""
    out: list[Action] = [_action("concede", p)]
    if g.choosing:
        return out + [_action("choose", p, battlefield=b) for b in g.choosing]
    if orderer(g) == p:
        labels = unordered_labels(g, p)
        if orders == "all":
            seqs = list(dict.fromkeys(permutations(labels)))               # distinct orders only
        else:
            firsts: dict[str, tuple] = {}
            for i, lab in enumerate(labels):
                firsts.setdefault(lab, (lab, *labels[:i], *labels[i + 1:]))
            seqs = list(firsts.values())
        return out + [_action("order", p, triggers=t) for t in seqs]
    if g.priority != p:
        return out
    out += [_action("pass", p), _action("end-turn", p)]
    if g.cfg.mode == "magma-chamber":
        out += [_action("invite", p, teammate=m) for m in g.cfg.teams[g.team(p)] if m != p]
    mine = [u for u in g.units.values() if u.zone == "board" and u.kind == "unit" and u.controller == p
            and not u.exhausted]
    for dest in ("base", *g.bfs):
        for u in mine:
            if u.at != dest and (u.at == "base" or dest == "base"):
                out.append(_action("move", p, units=(u.id,), to=dest))
    board = [u.id for u in g.units.values() if u.zone == "board" and u.kind == "unit"]
    for cid in dict.fromkeys(g.hands.get(p, [])):
        card = g.cfg.cards.get(cid)
        if card is None:
            continue
        fields = card.target_fields()
        pools = [_target_pool(g, f, board) for f in fields]
        if card.type == "unit":
            for where in ("base", *g.bfs):
                out.append(_action("play", p, card=cid, at=where))
        else:
            for combo in product(*pools):
                out.append(_action("play", p, card=cid, targets=tuple(zip(fields, combo))))
    for u in g.units.values():
        if u.zone == "board" and u.controller == p:
            for ab in u.abilities:
                if ab.activated:
                    out.append(_action("activate", p, source=u.id, ability=ab.name))
    return out


def _target_pool(g: State, field: str, board: list[str]) -> list:
    """What a player may name for a ``target`` field (356): a unit on the board, a place, a chain item (by its
    name: the newest of that name), a player in the game. Every kind the effect vocabulary lets a card
    target has a pool, so ``legal`` lists a card whenever some choice of targets is legal."""
    if field == "unit":
        return board
    if field in ("to", "at"):
        return ["base", *g.bfs]
    if field == "item":
        return list(dict.fromkeys(it.name for it in g.chain))
    if field == "player":
        return list(g.in_game())
    raise ValueError(f"{field!r} is not a target field")   # the validator refuses it (TARGET_FIELDS)


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


def legal(g: State, p: str, *, moves: str = "compact") -> list[Action]:
    """The candidates :func:`check` accepts; its player part, the same for every candidate, is checked once.

    Choices that multiply are described compactly by default. Standard moves (144): ONE move action per
    destination, naming every unit that may move there; any non-empty subset of those units is a legal
    move too (each unit's move is checked on its own), so the action stands for all of them without
    listing 2^n - 1 groups. Orders of simultaneous triggers (383.3.d): one order per trigger that may be
    placed first (the others after it as placed), not n! permutations. ``moves="single"`` gives one move
    per unit and destination and every order (what the explorer expands), ``moves="all"`` every group and
    every order (:func:`expand`: exponential, for small positions).
    """
    if moves not in MOVES:
        raise ValueError(f"moves is one of {', '.join(MOVES)}, not {moves!r}")
    cands = candidates(g, p, orders="compact" if moves == "compact" else "all")
    if _BUDGET:
        _BUDGET[-1] -= len(cands)
        if _BUDGET[-1] < 0:
            raise TooCostly("the legal actions would take too many candidate checks")
    try:
        _check_player(g, p)
    except IllegalAction:
        return []
    st = g.turn_state()
    res = []
    movers: dict[str, list[str]] = {}
    for a in cands:
        if a.kind != "concede":
            try:
                _check_choice(g, a, st)
            except IllegalAction:
                continue
        if a.kind == "move" and moves != "single":
            if a.to not in movers:
                movers[a.to] = []
                res.append(a.to)                 # the destination's place in the list, filled in below
            movers[a.to].append(a.units[0])
            continue
        res.append(a)
    if not movers:
        return res
    out: list[Action] = []
    for a in res:
        if isinstance(a, str):
            group = _action("move", p, units=tuple(movers[a]), to=a)
            out += expand(group) if moves == "all" else [group]
        else:
            out.append(a)
    return out


def expand(a: Action) -> list[Action]:
    """A compact move or order (:func:`legal`) as every action it stands for: each non-empty subset of a
    move's units (singles first, units in the order given); each order with the same first trigger.

    >>> [x.summary() for x in expand(Action("move", "A", units=("a1", "a2"), to="North"))]
    ['move a1 North', 'move a2 North', 'move a1 a2 North']
    >>> [x.summary() for x in expand(Action("order", "A", triggers=("a1:x", "a1:y", "a1:z")))]
    ['order a1:x a1:y a1:z', 'order a1:x a1:z a1:y']
    """
    if a.kind == "order":
        return [_action("order", a.player, triggers=(a.triggers[0], *rest))
                for rest in dict.fromkeys(permutations(a.triggers[1:]))]
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
