"""Actions (the scenario vocabulary) and their legality, each refusal naming its rule."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product

from statecharts import timing

from simulator.rules.targets import check_targets, pool, target_fields, target_options, target_pool
from simulator.rules.triggers import deciding, orderer, unordered_labels
from simulator.core.errors import IllegalAction
from simulator.core.model import State
from simulator.rules.moves import combat_outsider, destination_problem

KINDS = ("move", "play", "activate", "pass", "choose", "concede", "end-turn", "invite", "order", "target")


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
            return f"choose {self.option}" if self.option is not None else f"choose {self.battlefield}"
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


def check(g: State, a: Action) -> None:
    """Raise :class:`IllegalAction` if the rules forbid ``a`` now; return None if it is legal."""
    _check_player(g, a.player)
    if a.kind != "concede":
        _check_choice(g, a, g.turn_state())


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
    if a.kind == "choose" and a.option is None:
        raise IllegalAction("there is no choice of battlefield to make", "323.12")
    who = orderer(g)
    if who is not None:
        return _check_order(g, a, who)
    if a.kind == "order":
        raise IllegalAction("there are no simultaneous triggers to order", "383.3.d")
    if g.ms[("chain", None)] == "Decide" and deciding(g) is not None:
        return _check_decision(g, a)
    if a.kind == "choose":
        raise IllegalAction("there is no optional ability to decide", "383.3.a")
    if a.kind == "target":
        raise IllegalAction("there is no triggered ability waiting for its targets", "383.3.a")
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
    if not a.triggers:
        raise IllegalAction("an order names at least the next trigger to place", "383.3.d")
    left = list(mine)
    for lab in a.triggers:
        if lab not in left:
            other = next((it.controller for it in g.chain if it.unordered and it.label == lab), None)
            if other is not None and other != who:
                raise IllegalAction(f"{lab} is {other}'s trigger: each player orders only their own", "383.3.d")
            if lab in mine:
                raise IllegalAction(f"{lab} is listed more times than {who} has it pending", "383.3.d")
            raise IllegalAction(f"{lab} is not one of {who}'s pending triggers ({', '.join(mine)})", "383.3.d")
        left.remove(lab)


def _check_decision(g: State, a: Action) -> None:
    """383.3.a, 402.1: the controller of the triggered ability being finalized decides its may, then its
    targets; nothing else happens meanwhile (nobody has priority)."""
    it = deciding(g)
    if it is None:
        raise IllegalAction("nobody is deciding a triggered ability now", "383.3.a")
    need = it.ask[0]
    if a.kind not in ("choose", "target") or (a.kind == "choose") != (need == "may"):
        what = "choose yes or no" if need == "may" else "choose its targets"
        raise IllegalAction(f"{it.controller} must first {what} for {it.source}'s {it.name}; nobody has priority",
                            "383.3.a")
    if a.player != it.controller:
        raise IllegalAction(f"only {it.controller}, who controls {it.source}'s {it.name}, decides", "383.3.a")
    if a.kind == "choose":
        if a.option not in ("yes", "no"):
            raise IllegalAction("a may is decided with option yes or no", "383.3.a")
        return
    check_targets(g, a.player, a.targets, target_fields(it.effect), f"{it.source}'s {it.name}")


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
    check_targets(g, a.player, a.targets, card.target_fields(), a.card, card.friendly)


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
    if ab.exhaust and src.exhausted:
        raise IllegalAction(f"{a.source} is exhausted: exhausting it is {a.ability}'s cost", "381, 377")
    if ab.once and (src.id, ab.name) in g.once:
        raise IllegalAction(f"{a.source}'s {a.ability} is used once per turn and was used this turn", "381")
    _timing(g, p, "reaction" if ab.adds else ab.speed, st, f"{a.source}'s {a.ability}")
    check_targets(g, p, a.targets, target_fields(ab.effect), f"{a.source}'s {a.ability}")


# -- enumeration ---------------------------------------------------------------------------------

#: ``Action(...)`` memoised on its arguments: an Action is an immutable value of exactly those arguments, so
#: an entry can never go stale; there are few distinct ones (players x units x destinations, cards x targets)
_action = lru_cache(maxsize=None)(Action)


def candidates(g: State, p: str, *, multi_move: bool = True) -> list[Action]:
    """Every action worth checking for ``p``: targets enumerated, legality not yet checked."""
    out: list[Action] = [_action("concede", p)]
    if g.choosing:
        return out + [_action("choose", p, battlefield=b) for b in g.choosing]
    if orderer(g) == p:                  # a sequence of picks: the next item to place (383.3.d), n choices not n!
        return out + [_action("order", p, triggers=(lab,)) for lab in dict.fromkeys(unordered_labels(g, p))]
    if g.ms[("chain", None)] == "Decide":
        it = deciding(g)
        if it is None or it.controller != p:
            return out
        if it.ask[0] == "may":
            return out + [_action("choose", p, option="yes"), _action("choose", p, option="no")]
        return out + [_action("target", p, targets=t) for t in target_options(g, it)]
    if g.priority != p:
        return out
    out += [_action("pass", p), _action("end-turn", p)]
    if g.cfg.mode == "magma-chamber":
        out += [_action("invite", p, teammate=m) for m in g.cfg.teams[g.team(p)] if m != p]
    mine = [u for u in g.units.values() if u.zone == "board" and u.kind == "unit" and u.controller == p
            and not u.exhausted]
    for dest in ("base", *g.bfs):
        movers = [u.id for u in mine if u.at != dest and (u.at == "base" or dest == "base")]
        sizes = range(1, len(movers) + 1) if multi_move else (1,)
        for k in sizes:
            for group in combinations(movers, k):
                out.append(_action("move", p, units=group, to=dest))
    board = [u.id for u in g.units.values() if u.zone == "board" and u.kind == "unit"]
    for cid in dict.fromkeys(g.hands.get(p, [])):
        card = g.cfg.cards.get(cid)
        if card is None:
            continue
        fields = card.target_fields()
        pools = [target_pool(g, f, board) for f in fields]
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
                    fields = target_fields(ab.effect)
                    for combo in product(*[pool(g, f) for f in fields]):
                        out.append(_action("activate", p, source=u.id, ability=ab.name,
                                           targets=tuple(zip(fields, combo))))
    return out





def legal(g: State, p: str, *, multi_move: bool = True) -> list[Action]:
    """The candidates :func:`check` accepts; its player part, the same for every candidate, is checked once."""
    cands = candidates(g, p, multi_move=multi_move)
    try:
        _check_player(g, p)
    except IllegalAction:
        return []
    st = g.turn_state()
    res = []
    for a in cands:
        if a.kind != "concede":
            try:
                _check_choice(g, a, st)
            except IllegalAction:
                continue
        res.append(a)
    return res
