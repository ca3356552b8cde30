"""Positions that start mid-timing (format version 3, M1-M2): a scenario's ``start:`` block.

A ``start:`` names whose turn and which phase it is, the battlefields already scored this turn (470), the
Contested ones (190.3), an active showdown or combat (in its Combat Showdown Step, 464), the chain (oldest
first, each item pending or finalized), who holds priority and focus and who has already passed. :func:`check`
refuses, when the file is loaded, a start the rules make impossible (each message names the rule it breaks);
:func:`place` sets the position on a freshly built :class:`~simulator.core.model.State` (the machine leaves,
focus, priority, the chain), and the caller then runs *step 0*: the schedule settles as after any action
(outstanding cleanups first, pending items finalized oldest first), its trace lines numbered 0.

The defaults: the turn is the first player's, the phase ``Main``; with pending items nobody holds priority
(312.2.c); with a chain of finalized items, the player after the last one who passed, else the newest item's
controller (340.4, R17); in a showdown with no chain, the focus holder (313.2); in Neutral Open of the Main
Phase, the turn player (312.2.a). Focus in a showdown or combat goes to the player who applied Contested (345;
the attacker, 464.2.d), or the player after the last focus pass.
"""
from __future__ import annotations

from typing import Any

from statecharts.citations import cite
from statecharts.states import ChainState, CombatStep, FocusState, Mode, Phase, Status, Window

from simulator.core.errors import IllegalAction, ScenarioError
from simulator.core.model import Item, State
from simulator.rules.targets import check_targets, target_fields
from simulator.game.setup import make_unit, to_ability

#: the phases a start may name (R12: showdowns and combats only in the Main Phase)
PHASES = (Phase.Main, Phase.BeginningStep, Phase.Ending)
#: the fields of a chain item
ITEM_FIELDS = ("card", "ability", "source", "controller", "owner", "pending", "targets", "at", "there", "here")


def _cycle(order: tuple, first: str, n: int) -> list:
    """``n`` players of ``order`` in turn order from ``first``."""
    i = order.index(first)
    return [order[(i + k) % len(order)] for k in range(n)]


def _after(order: tuple, p: str) -> str:
    return order[(order.index(p) + 1) % len(order)]


class Start:
    """The ``start:`` block of a position whose other keys the setup validator ``v`` has checked: what the
    position is (:meth:`resolved`), refused when the rules make it impossible."""

    def __init__(self, v: Any, doc: dict) -> None:
        self.v = v
        self.doc = doc
        self.s: dict = doc["start"] or {}
        self.units = {e["id"]: e for key in ("units", "gear") for e in (doc.get(key) or [])}

    def fail(self, path: tuple, what: str, rules: str = ""):
        """A refused start: ``FILE:LINE: start: what (rules)``, the rules cited by their row (``cite(NAME)``)."""
        self.v.fail(("start",) + path, f"start: {what}" + (f" ({rules})" if rules else ""))

    def player(self, p, path: tuple, what: str) -> str:
        if p not in self.v.players:
            self.fail(path, f"{what} {p}: no such player", cite("start.no-such-player"))
        return p

    def battlefield(self, b, path: tuple, what: str) -> str:
        if b not in self.v.bfs:
            self.fail(path, f"{what} {b}: no such battlefield (battlefields: {', '.join(self.v.bfs) or 'none'})",
                      cite("start.no-such-battlefield"))
        return b

    # -- the checks, in the order of the block ---------------------------------------------------------
    def resolved(self) -> dict:
        """The start with every default filled in (what :func:`place` takes); ScenarioError if impossible."""
        s = self.s
        order = self.v.players
        turn = self.player(s.get("turn", order[0]), ("turn",), "turn")
        phase = s.get("phase", Phase.Main)
        scored = self.scored()
        contested = {self.battlefield(b, ("contested", b), "contested"): self.player(p, ("contested", b), "contested")
                     for b, p in (s.get("contested") or {}).items()}
        active = self.active(phase)
        if active is not None and active["at"] in contested:
            self.fail(("contested", active["at"]), f"{active['at']} is the {active['kind']}'s battlefield: it is "
                                                   f"Contested by {active['by']}", cite("start.contested-active"))
        chain = [self.item(e, i) for i, e in enumerate(s.get("chain") or [])]
        self.chain_order(chain)
        out = {"turn": turn, "phase": phase, "scored": scored, "contested": contested, "active": active,
               "chain": chain, "designations": self.designations(active)}
        out["focus"] = self.focus(active, chain)
        out["priority"], out["passed"] = self.priority(out, chain, turn, phase)
        return out

    def scored(self) -> dict:
        out: dict = {}
        for p, bfs in (self.s.get("scored") or {}).items():
            self.player(p, ("scored", p), "scored")
            for j, b in enumerate(bfs):
                self.battlefield(b, ("scored", p, j), "scored")
                if b in out:
                    self.fail(("scored", p, j), f"{b} is scored twice this turn: at most one score per battlefield "
                                                f"per turn", cite("start.scored-twice"))
                out[b] = p
        return out

    def active(self, phase: str) -> dict | None:
        s = self.s
        if "combat" in s and "showdown" in s:
            self.fail(("showdown",), "a showdown and a combat at once: one of them is active at a time",
                      cite("start.one-active"))
        key = "combat" if "combat" in s else "showdown" if "showdown" in s else None
        if key is None:
            return None
        if phase != Phase.Main:
            self.fail((key,), "showdowns outside the Main Phase are not modelled", cite("start.main-phase-only"))
        a = s[key]
        at = self.battlefield(a["at"], (key, "at"), f"{key} at")
        if key == "showdown":
            return {"kind": "showdown", "at": at, "by": self.player(a["by"], (key, "by"), "showdown by")}
        return self.combat(a, at)

    def combat(self, a: dict, at: str) -> dict:
        """The combat at ``at``: between two opponents, nobody else's units there."""
        key = "combat"
        att = self.player(a["attacker"], (key, "attacker"), "attacker")
        dfn = self.player(a["defender"], (key, "defender"), "defender")
        if att == dfn:
            self.fail((key, "defender"), f"{att} cannot attack their own units: attacker and defender are "
                                         f"opponents", cite("start.two-sides"))
        teams = self.v_teams()
        if teams.get(att) == teams.get(dfn):
            self.fail((key, "defender"), f"{att} and {dfn} are teammates: a combat is between opponents",
                      cite("start.two-sides"))
        for e in self.doc.get("units") or []:
            c = e.get("controller", e["owner"])
            if e.get("at", "base") == at and c not in (att, dfn):
                self.fail((key, "at"), f"{c} has units at {at}, where {att} attacks {dfn}", cite("start.third-player"))
        return {"kind": "combat", "at": at, "attacker": att, "defender": dfn, "by": att}

    def v_teams(self) -> dict:
        teams = self.doc.get("teams") or [[p] for p in self.v.players]
        return {p: i for i, t in enumerate(teams) for p in t}

    def designations(self, active: dict | None) -> dict:
        """unit -> attacker | defender for every unit at the combat's battlefield (their controller's side)."""
        out = {}
        for key in ("units", "gear"):
            for i, e in enumerate(self.doc.get(key) or []):
                side = self._designation(key, i, e, active)
                if side is not None:
                    out[e["id"]] = side
        return out

    def _designation(self, key: str, i: int, e: dict, active: dict | None) -> str | None:
        """The side of one unit at the combat's battlefield (None elsewhere, and for gear); a designation the
        file gives must be that side."""
        c = e.get("controller", e["owner"])
        given = e.get("designation")
        if active is None or active["kind"] != "combat" or e.get("at", "base") != active["at"] or key == "gear":
            if given is not None:
                self.v.fail((key, i, "designation"), f"{e['id']} has a designation but is in no combat: "
                            f"designations are made as a combat begins ({cite('start.designation')})")
            return None
        side = "attacker" if c == active["attacker"] else "defender"
        if given is not None and given != side:
            self.v.fail((key, i, "designation"), f"start: {e['id']} is {c}'s unit: it cannot be "
                        f"{'an' if given == 'attacker' else 'a'} {given} in {active['attacker']}'s attack "
                        f"({cite('start.designation')})")
        return side

    def item(self, e: dict, i: int) -> dict:
        """One chain item, its fields checked: a card or an ability of a source of the file."""
        path = ("chain", i)
        it = {**e, **(self.card_item(e, path) if "card" in e else self.ability_item(e, path)), "path": path}
        name = it["name"]
        self.item_targets(e, it, path)
        if it["immediate"] and not e.get("pending"):
            what = "an Add ability" if it["kind"] in ("trigger", "ability") else f"a {it['kind']}"
            self.fail(path, f"{name} is finalized on the chain, but {what} resolves as it is finalized: give it "
                            f"pending: true", cite("start.finalized-resolves-at-once"))
        for k in ("there", "here"):
            if k in e:
                self.battlefield(e[k], path + (k,), k)
        if "at" in e:
            self.item_at(e, it, path)
        return it

    def item_at(self, e: dict, it: dict, path: tuple) -> None:
        """``at``: where a pending unit will enter (its base, or a battlefield)."""
        if it["kind"] != "unit" or not e.get("pending"):
            self.fail(path + ("at",), f"{it['name']}: at is where a pending unit will enter", cite("start.at-unit"))
        if e["at"] != "base":
            self.battlefield(e["at"], path + ("at",), "at")

    def card_item(self, e: dict, path: tuple) -> dict:
        card = self.v.cards.get(e["card"])
        if card is None:
            self.fail(path + ("card",), f"unknown card {e['card']} (not in the catalogue or cards:)",
                      cite("start.no-such-card"))
        self.player(e["controller"], path + ("controller",), "controller")
        if "owner" in e:
            self.player(e["owner"], path + ("owner",), "owner")
        return {"kind": card.type, "name": e["card"], "effect": card.effect, "immediate": card.type in ("unit", "gear")}

    def ability_item(self, e: dict, path: tuple) -> dict:
        src = e["source"]
        ab = self.ability_of(src, e["ability"], path)
        controller = self.player(e.get("controller", self.controller_of(src)), path + ("controller",), "controller")
        return {"kind": "trigger" if ab.trigger else "ability", "name": ab.name, "effect": ab.effect,
                "immediate": ab.adds, "controller": controller}

    def item_targets(self, e: dict, it: dict, path: tuple) -> None:
        """Its targets are fields its effect leaves to a player (356); a finalized item's name objects that exist;
        a pending card has them all (a card's are chosen as it is played, 355)."""
        name = it["name"]
        fields = target_fields(it["effect"])
        for f, x in (e.get("targets") or {}).items():
            if f not in fields:
                self.fail(path + ("targets", f), f"{name} takes no target {f}"
                          + (f" (it takes: {', '.join(fields)})" if fields else ""), cite("start.no-such-target"))
            if f == "unit" and not e.get("pending") and x not in self.units:
                self.fail(path + ("targets", f), f"{name} targets {x}: no such object", cite("start.no-such-object"))
        if e.get("pending") and it["kind"] in ("spell", "unit", "gear") and set(fields) - set(e.get("targets") or {}):
            self.fail(path, f"{name} is a pending card without its targets: a card's targets are chosen as it is "
                            f"played", cite("start.pending-card-targets"))

    def ability_of(self, src: str, name: str, path: tuple):
        """The ability ``name`` of the unit, gear or battlefield ``src``."""
        if src in self.units:
            abilities = self._unit_abilities(src)
        elif src in self.v.bfs:
            abilities = self._battlefield_abilities(src)
        else:
            return self.fail(path + ("source",), f"{src}: no such unit, gear or battlefield", cite("start.no-such-object"))
        ab = next((a for a in abilities if a.name == name and (a.trigger or a.activated)), None)
        if ab is None:
            self.fail(path + ("ability",), f"{src} has no ability {name}", cite("start.no-ability"))
        return ab

    def _unit_abilities(self, src: str) -> tuple:
        kind = "gear" if any(e["id"] == src for e in self.doc.get("gear") or []) else "unit"
        return make_unit(self.units[src], self.v.cards, kind).abilities

    def _battlefield_abilities(self, src: str) -> tuple:
        entry = next((b for b in self.doc.get("battlefields") or [] if isinstance(b, dict) and b["name"] == src), {})
        return tuple(to_ability(a) for a in entry.get("abilities") or [])

    def controller_of(self, src: str) -> str | None:
        if src in self.units:
            e = self.units[src]
            return e.get("controller", e["owner"])
        return (self.doc.get("control") or {}).get(src)

    def chain_order(self, chain: list) -> None:
        """Pending items are finalized oldest first before anything else is added (337.1, 337.3)."""
        for i, it in enumerate(chain):
            if it.get("pending"):
                continue
            below = next((o for o in chain[:i] if o.get("pending")), None)
            if below is not None:
                self.fail(it["path"], f"{it['name']} (finalized) lies above {below['name']} (pending): pending items "
                                      f"are finalized oldest first before anything else is added",
                          cite("start.pending-below"))

    def focus(self, active: dict | None, chain: list) -> str | None:
        s = self.s
        if "focus" in s and s["focus"] is not None:
            self.player(s["focus"], ("focus",), "focus")
            if active is None:
                self.fail(("focus",), "focus needs a showdown or a combat", cite("start.focus-needs-showdown"))
            return s["focus"]
        if active is None:
            return None
        passed = s.get("passed") or []
        if passed and not chain:
            return _after(self.v.players, passed[-1])
        return active["by"]

    def priority(self, out: dict, chain: list, turn: str, phase: str) -> tuple:
        """(who holds priority, who has passed): given, or the default; refused where the rules say otherwise."""
        s = self.s
        passed = [self.player(p, ("passed", j), "passed") for j, p in enumerate(s.get("passed") or [])]
        given = s.get("priority")
        if given is not None:
            self.player(given, ("priority",), "priority")
        if any(it.get("pending") for it in chain):
            self.nobody_while_pending(given, passed)
            return None, []
        if chain:
            return self.after_chain(chain[-1], passed, given), passed
        if out["active"] is not None:
            return self.in_showdown(out["focus"], passed, given), passed
        if passed:
            self.fail(("passed",), "nobody passes in Neutral Open", cite("start.passed-neutral"))
        return self.in_neutral(turn, phase, given), []

    def nobody_while_pending(self, given: str | None, passed: list) -> None:
        """While an item is pending nobody holds priority or passes (priority is given once every pending item is
        finalized)."""
        if given is not None:
            self.fail(("priority",), "nobody holds priority while an item is pending", cite("start.priority-pending"))
        if passed:
            self.fail(("passed",), "nobody passes while an item is pending: priority is given once every "
                                   "pending item is finalized", cite("start.priority-pending"))

    def after_chain(self, newest: dict, passed: list, given: str | None) -> str:
        """With finalized items: the passes run in turn order from the newest item's controller (338.1.b, 339,
        340.4, R17) to the player just before the priority holder, and not all the way round."""
        order = self.v.players
        first = newest["controller"]
        holder = given if given is not None else _after(order, passed[-1]) if passed else first
        if len(passed) >= len(order) or _cycle(order, first, len(passed) + 1) != [*passed, holder]:
            self.fail(("passed",) if passed else ("priority",),
                      f"passed {_fmt(passed)} does not fit priority {holder} after {newest['name']} ({first}'s): "
                      f"passes run in turn order from {first}", cite("start.passed-chain"))
        return holder

    def in_showdown(self, holder: str, passed: list, given: str | None) -> str:
        """Showdown Open: the focus holder holds priority (313.2); the focus passes run in turn order up to the
        player before the holder, and not all the way round (347.2.a)."""
        order = self.v.players
        if given is not None and given != holder:
            self.fail(("priority",), f"priority {given} with no chain: in a showdown the focus holder {holder} "
                                     f"holds it", cite("start.priority-no-chain"))
        if len(passed) >= len(order):
            self.fail(("passed",), f"passed {_fmt(passed)} would have ended the showdown", cite("start.passed-showdown"))
        if passed and _cycle(order, passed[0], len(passed) + 1) != [*passed, holder]:
            self.fail(("passed",), f"passed {_fmt(passed)} does not fit focus {holder}: focus passes run in turn "
                                   f"order and end just before the focus holder", cite("start.passed-showdown"))
        return holder

    def in_neutral(self, turn: str, phase: str, given: str | None) -> str | None:
        """Neutral Open: the turn player in the Main Phase (312.2.a); nobody in another phase's step, which goes
        on once its chain is empty."""
        if phase != Phase.Main:
            if given is not None:
                self.fail(("priority",), f"priority {given} with no chain outside the Main Phase: the step goes on "
                                         f"once its chain is empty", cite("start.priority-no-chain"))
            return None
        if given is not None and given != turn:
            self.fail(("priority",), f"priority {given} with no chain: in Neutral Open only the turn player holds it",
                      cite("start.priority-no-chain"))
        return turn


def _fmt(v) -> str:
    return "[" + ", ".join(v) + "]"


def check(v: Any, doc: dict) -> dict | None:
    """The ``start:`` of a position, resolved (every default filled in), or None without one; ScenarioError
    ``FILE:LINE: start: ...`` when the rules make it impossible. ``v`` is the setup validator that checked the
    rest of ``doc``."""
    if doc.get("start") is None:
        return None
    return Start(v, doc).resolved()


class _Known:
    """What :class:`Start` reads of a validator, from a built game (the file was checked when it was loaded)."""

    def __init__(self, g: State, where) -> None:
        self.players, self.bfs, self.cards, self.where = g.order, tuple(g.bfs), g.cfg.cards, where

    def fail(self, path: tuple, what: str):
        raise ScenarioError(self.where(*path), what)


def begin(g: State, setup: dict, where=lambda *path: "start") -> bool:
    """Set the ``start:`` of ``setup`` (if any) on the freshly built ``g`` (:func:`place`); True if it had one:
    the caller then runs step 0 (the schedule settles, its trace lines numbered 0)."""
    if setup.get("start") is None:
        return False
    place(g, Start(_Known(g, where), setup).resolved(), where)
    g.step = 0
    return True


# -- setting the position --------------------------------------------------------------------------------

def place(g: State, start: dict, where=lambda *path: "start") -> None:
    """Set the resolved ``start`` on the freshly built ``g``: the turn and phase, scores this turn, Contested
    battlefields, the active showdown or combat, the chain, focus and priority. A cleanup is then outstanding
    (319): the caller's step 0 runs it."""
    g.turn = g.normal = start["turn"]
    g.ms[("phases", None)] = start["phase"]
    g.scored = dict(start["scored"])
    for b, p in start["contested"].items():
        _contest(g, b, p, Status.Contested)
    a = start["active"]
    if a is not None:
        _place_active(g, a, start)
    g.focus = start["focus"]
    for e in start["chain"]:
        _put(g, e, where)
    if g.chain:
        _place_chain(g, start)
    elif a is not None:
        g.focus_passed = tuple(start["passed"])
    g.priority = start["priority"]
    g.dirty = True


def _place_active(g: State, a: dict, start: dict) -> None:
    """The active showdown or combat: its battlefield's status, the Showdown mode, focus, the combat's sides."""
    _contest(g, a["at"], a["by"], Status.Combat if a["kind"] == "combat" else Status.Showdown)
    g.touch("active")                   # State.active: the battlefield whose status is ongoing, in a Showdown
    g.ms[("turn.mode", None)] = Mode.Showdown
    g.ms[("focus", None)] = FocusState.Waiting if start["chain"] else FocusState.Holding
    if a["kind"] == "combat":
        g.touch("sides")
        g.attacker, g.defender = a["attacker"], a["defender"]
        g.ms[("combat", None)] = CombatStep.ShowdownStep
        for uid, side in start["designations"].items():
            u = g.edit(g.units[uid])
            u.designation, u.fought = side, True


def _place_chain(g: State, start: dict) -> None:
    """A non-empty chain: how it opened, the Closed window, Finalize while an item is pending, the passes."""
    g.chain_by = "card" if g.chain[0].card else "add" if g.chain[0].immediate else "trigger"
    g.ms[("turn.window", None)] = Window.Closed
    g.ms[("chain", None)] = ChainState.Finalize if any(not it.finalized for it in g.chain) else ChainState.Execute
    g.passed = tuple(start["passed"])


def _contest(g: State, b: str, p: str, status: str) -> None:
    g.touch("battlefields")
    g.bfs[b].contested_by = p
    g.ms[("battlefield.status", b)] = status


def _put(g: State, e: dict, where) -> None:
    """One chain item on the chain as the file gives it; a pending item's targets must be legal now (356)."""
    targets = e.get("targets") or {}
    fields = target_fields(e["effect"])
    given = tuple((f, targets[f]) for f in fields if f in targets)
    pending = bool(e.get("pending"))
    if pending and given:
        _check_pending_targets(g, e, given, where)
    g.chain.append(_card_item(g, e, given, pending) if "card" in e else
                   _ability_item(g, e, given, pending, bool(set(fields) - set(targets))))


def _check_pending_targets(g: State, e: dict, given: tuple, where) -> None:
    card = g.cfg.cards.get(e.get("card")) if e.get("card") else None
    try:
        check_targets(g, e["controller"], given, tuple(f for f, _ in given), e["name"],
                      friendly=bool(card and card.friendly))
    except IllegalAction as x:
        raise ScenarioError(where(*e["path"], "targets"), f"start: {e['name']}'s target is not a legal "
                            f"choice: {x.reason} ({cite('start.pending-target')})") from None


def _card_item(g: State, e: dict, given: tuple, pending: bool) -> Item:
    """A spell on the chain (its card's type, effect and Might)."""
    card = g.cfg.cards[e["card"]]
    return Item(g.next_uid(), e["name"], e["controller"], card.type, card.effect, targets=given, card=e["card"],
                finalized=not pending, immediate=e["immediate"], might=card.might, at=e.get("at", "base"))


def _ability_item(g: State, e: dict, given: tuple, pending: bool, untargeted: bool) -> Item:
    """An ability on the chain; a pending one still asks its optional "may" and its missing targets."""
    ask: tuple[str, ...] = ()
    if pending:
        src = g.units.get(e["source"])
        ab = next(x for x in (src.abilities if src else g.bfs[e["source"]].abilities) if x.name == e["name"])
        ask = (("may",) if ab.optional else ()) + (("target",) if untargeted else ())
    return Item(g.next_uid(), e["name"], e["controller"], e["kind"], e["effect"], targets=given,
                finalized=not pending, source=e["source"], immediate=e["immediate"] and not ask, ask=ask,
                there=e.get("there"), here=e.get("here"), ability=(e["source"], e["name"]))
