"""The game model: a value that can be cloned, compared and hashed.

Everything the rules need to decide the next step lives in :class:`State`:
players in turn order, teams, battlefields, units, the chain, focus and
priority, and the current state of every declared machine (``ms``). The trace
is kept beside the state (it is history, not position) and is not hashed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import statecharts
from simulator.core.compiled.slots import COPIERS
from statecharts.battlefield import ONGOING
from statecharts.turn import NEUTRAL_CLOSED, NEUTRAL_OPEN, SHOWDOWN_CLOSED, SHOWDOWN_OPEN
from statecharts.states import Mode, Phase, PlayerState, Window


#: The parts of the game model that a declared ``inputs`` (statecharts/spec.py) may name besides a machine leaf,
#: each written only behind a barrier that forgets which tasks are known to do nothing (``State.fresh``):
#: units (``State.edit``, ``State.add_unit``), score (``State.add_score``), and ``State.touch(part)`` where
#: the others are written: battlefields (a battlefield's controller, Contested applier, token or static might),
#: winner, active (the showdown's or combat's battlefield), sides (attacker and defender), choosing, hidden.
#: A machine leaf's state is written only by fired transitions (``core.machines``), which do the same.
PARTS = ("units", "battlefields", "score", "winner", "active", "sides", "choosing", "hidden")


def fresh_tables(machines) -> tuple[dict[tuple[str, str], int], dict[str, int]]:
    """From the declared ``inputs`` of ``machines``: the bit of each (leaf, state) whose enter effect declares
    its inputs, and for every part (machine leaf or :data:`PARTS`) the mask that a write to it keeps (the
    bits of the effects that do not read it; -1 keeps all). An unknown part is an error.

    >>> bits, keep = fresh_tables(statecharts.MACHINES)
    >>> keep["chain"], keep["units"] & bits[("cleanup", "BoardState")], keep["units"] & bits[("cleanup", "OpenCombat")] > 0
    (-1, 0, True)
    """
    leaves = {leaf.name for m in machines for leaf in m.leaves()}
    bits: dict[tuple[str, str], int] = {}
    readers = dict.fromkeys((*PARTS, *sorted(leaves)), 0)
    for m in machines:
        for leaf in m.leaves():
            for state, parts in leaf.inputs.items():
                bit = bits[(leaf.name, state)] = 1 << len(bits)
                for part in parts:
                    if part not in readers:
                        raise ValueError(f"{leaf.name}: the inputs of {state} name {part!r}, neither a machine leaf "
                                         f"nor a part of the model ({', '.join(PARTS)})")
                    readers[part] |= bit
    return bits, {part: ~mask for part, mask in readers.items()}


#: (leaf, state) -> its bit in ``State.fresh``; part -> the mask a write to it keeps (``fresh &= KEEP[part]``)
FRESH_BITS, KEEP = fresh_tables(statecharts.MACHINES)

#: What was removed from the game is forgotten by a state's identity: a removed card is its id and zone only (652.3;
#: :meth:`Unit.key`), a removed player's points are left out (651.1, 323.1; :meth:`State.score_key`). States that
#: differ only in what was removed are one state. It merges a third of the states of the concede positions and
#: changes nothing a rule can see: ``tests/test_removed_identity.py`` checks, on every state of the concede
#: positions searched without it, that the states it merges have the same findings and the same successors,
#: action by action (a bisimulation). Off (``False``): every field counts, as before.
FORGET_REMOVED = True
#: What the identity forgets, and the rules that say no rule reads it again (``riftsim rules 652.3`` lists it):
#: decided here only, by :meth:`Unit.key` and :meth:`State.score_key`
FORGOTTEN = {
    "a removed card's place, damage, might and marks (Unit.key keeps its id and zone)": ("652.3", "186.1"),
    "a removed player's points (State.score_key leaves them out)": ("651.1", "323.1"),
}
_KEEP_UNITS = KEEP["units"]
_KEEP_SCORE = KEEP["score"]


def _copier(names: tuple[str, ...]):
    """``copy(o, cls)``: a new ``cls`` sharing the attributes ``names`` of ``o``: the straight-line function
    ``riftsim generate`` wrote for that list (``simulator/core/compiled/slots.py``), else (a list changed since:
    ``riftsim generate --check`` fails) a loop over the names."""
    fn = COPIERS.get(tuple(names))
    if fn is not None:
        return fn

    def copy(o, cls):
        s = cls.__new__(cls)
        for n in names:
            setattr(s, n, getattr(o, n))
        return s
    return copy


@dataclass(frozen=True)
class Ability:
    """A unit's, gear's or battlefield's ability (scenario vocabulary)."""

    name: str
    trigger: str | None = None      # a trigger kind (simulator.core.cards.TRIGGERS)
    activated: bool = False
    effect: tuple = ()              # tuple of (verb, ((field, value), ...)); an entry's own `if`/`may` are fields
    static_might: int = 0
    condition: tuple = ()           # `if:` of a triggered ability: ((name, arg), ...), all must hold (383.2.a.1)
    once: bool = False              # once-per-turn
    speed: str = "normal"           # activated: normal | action | reaction
    exhaust: bool = False           # activated: exhausting the source is its cost
    by: str = "any"                 # on-chosen: chosen by an enemy | friendly | any item
    cost: int = 0                   # energy (paid only where resources are modelled)
    play_from: str = ""             # a static permission: its controller may play their cards from there (Z4)

    @property
    def optional(self) -> bool:
        """Its first effect is a `may`: decided at finalization (383.3.a)."""
        return bool(self.effect) and ("may", True) in self.effect[0][1]

    @property
    def adds(self) -> bool:
        """An Add ability resolves at once when finalized (337.2, 429)."""
        return bool(self.effect) and all(verb == "add" for verb, _ in self.effect)


#: numbered keywords whose instances add up: a unit given Assault 3 that has Assault 2 has Assault 5 (807.2, 814.2)
ADD_UP = ("assault", "shield")


class Unit:
    __slots__ = ("id", "owner", "controller", "at", "might", "buff", "stunned", "damage",
                 "exhausted", "abilities", "zone", "designation", "card", "kind", "fought", "keywords", "given",
                 "hurt", "ward", "token", "k")

    def __init__(self, id: str, owner: str, at: str, might: int = 0, controller: str | None = None,
                 abilities: tuple = (), card: str | None = None, kind: str = "unit", keywords: tuple = (),
                 token: bool = False) -> None:
        self.id = id
        self.owner = owner
        self.controller = controller or owner
        self.at = at                  # "base" (the controller's base) or a battlefield name
        self.might = might
        self.buff = 0                 # +might until end of turn
        self.stunned = False
        self.damage = 0
        self.exhausted = False
        self.abilities = abilities
        self.zone = "board"           # board, hand, deck, trash, banished, removed (from the game, or a token that ceased to exist)
        self.designation: str | None = None   # attacker / defender during combat
        self.card = card
        self.kind = kind              # unit or gear
        self.fought = False           # gained a designation in the current combat (383.4.e-f: triggers once)
        self.keywords = keywords      # ((name, value), ...): tank, backline, ganking, assault, shield, ... (8xx)
        self.given: tuple = ()        # keywords given this turn (give-keyword): ((name, value), ...)
        self.hurt = False             # was dealt damage this turn (condition not-damaged-this-turn)
        self.ward = False             # the next time it would die, instead it is healed, exhausted, recalled (R21)
        self.token = token            # a token (play-unit's token#N), not a card: off the board it ceases to exist (186.1)
        self.k: tuple | None = None   # its key, cached: every write goes through State.edit, which clears it

    def clone(self) -> "Unit":
        return _copy_unit(self, Unit)

    def kw(self, name: str):
        """Its keyword ``name``: the value (True for one without a number), printed or given this turn
        (give-keyword, ``given``: ``((name, value), ...)``); the values of several instances of Assault, or of
        Shield, add up (807.2, 814.2); None if it has none."""
        found = None
        for k, v in (self.keywords + self.given) if self.given else self.keywords:
            if k == name:
                if name not in ADD_UP:
                    return True if v is None else v
                found = (found or 0) + v
        return found

    def key(self) -> tuple:
        """What of the unit decides the future. A card removed from the game (652.3: a conceder's cards) is
        only its id and zone: no rule reads a removed card again, so two states that differ only in what a
        removed card was (where, its damage, its might...) have the same future (:data:`FORGET_REMOVED`)."""
        k = self.k
        if k is None:
            if self.zone == "removed" and FORGET_REMOVED:
                k = self.k = (self.id, "removed")
            else:
                k = self.k = (self.id, self.controller, self.at, self.might, self.buff, self.stunned, self.damage,
                              self.exhausted, self.zone, self.designation, self.fought, self.given, self.hurt,
                              self.ward)
        return k


class Battlefield:
    __slots__ = ("name", "provider", "abilities", "static_might", "controller", "contested_by", "token")

    def __init__(self, name: str, provider: str | None = None, abilities: tuple = (),
                 static_might: int = 0) -> None:
        self.name = name
        self.provider = provider
        self.abilities = abilities
        self.static_might = static_might
        self.controller: str | None = None
        self.contested_by: str | None = None
        self.token = False

    def clone(self) -> "Battlefield":
        return _copy_bf(self, Battlefield)

    def key(self) -> tuple:
        return (self.name, self.controller, self.contested_by, self.token)


_copy_unit = _copier(Unit.__slots__)            # every field is immutable or shared (abilities)
_copy_bf = _copier(Battlefield.__slots__)


@dataclass(frozen=True)
class Item:
    """A chain item: a card being played, or an ability (329)."""

    uid: int
    name: str
    controller: str
    kind: str                 # spell, unit, gear, trigger, ability
    effect: tuple = ()
    targets: tuple = ()       # ((field, value), ...)
    finalized: bool = False
    source: str | None = None  # the unit, gear or battlefield it comes from
    card: str | None = None
    immediate: bool = False   # units, gear and Add abilities resolve when finalized (337.2)
    might: int = 0            # for units being played
    at: str | None = None     # for units being played
    unordered: bool = False   # a simultaneous trigger its controller has not ordered yet (383.3.d)
    ask: tuple = ()           # decisions due at finalization: "may", "target" (383.3.a, 402)
    there: str | None = None  # the battlefield named by the triggering event (359.3.f.3)
    here: str | None = None   # the source's location recorded when it triggered from leaving the board (808.1.d.3)
    ability: tuple = ()       # (source, ability name) of a triggered or activated ability (once-per-turn)
    ready: bool = False       # a unit being played enters ready (Accelerate paid, 805)
    hidden_at: str | None = None  # played from facedown there, or the play trigger of such a card: its choices
                                  # are limited to that battlefield (811.1.d.2)
    entry: str | None = None  # the zone entry it was played from when that is not its card name (an id, Z1)

    def but(self, **changes) -> "Item":
        """A copy with ``changes`` (``dataclasses.replace`` without its per-call field inspection)."""
        new = object.__new__(Item)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    @property
    def label(self) -> str:
        """How an ``order`` action names a trigger: ``SOURCE:ABILITY``."""
        return f"{self.source}:{self.name}"

    def key(self) -> tuple:
        k = (self.name, self.controller, self.kind, self.targets, self.finalized, self.source, self.unordered,
             self.ask, self.there, self.ready, self.hidden_at)
        return k if self.entry is None else k + (self.entry,)


@dataclass(frozen=True)
class Resolving:
    """An item whose resolution waits, at its effect entry ``at``, for its controller's decision on that entry's
    ``may`` (383.3.a.3). Nothing else is finalized or resolved meanwhile (158.3, 321). What the resolution has
    done so far is kept: the units and gear it plays (entering once it has finished, 354.3; cloned on resuming),
    its arrivals (settled together, R7) and a ``here`` changed by a play into a combat (462)."""

    item: Item
    at: int
    entering: tuple = ()
    arrivals: tuple = ()
    here: str | None = None

    def key(self) -> tuple:
        return (self.item.key(), self.item.targets, self.at, tuple([u.key() for u in self.entering]),
                self.arrivals, self.here)


@dataclass(slots=True)
class Event:
    """One line of the trace."""

    step: int
    event: str
    player: str | None = None
    detail: str = ""
    rule: str = ""
    machine: str | None = None     # set when a declared transition fired
    source: str | None = None
    dest: str | None = None
    trigger: str | None = None
    instance: str | None = None
    template: str = ""             # the text before its fields were filled in: the catalogue's msgid
    values: tuple = ()             # ((field, value), ...) that filled it (simulator.core.i18n narrates)

    def as_dict(self) -> dict[str, Any]:
        d = {"step": self.step, "event": self.event, "player": self.player, "detail": self.detail,
             "rule": self.rule}
        if self.machine:
            d["transition"] = {"machine": self.machine, "instance": self.instance, "trigger": self.trigger,
                               "source": self.source, "dest": self.dest}
        return d


@dataclass
class Config:
    """What does not change during a game: cards, mode, teams, rulings."""

    mode: str
    order: tuple[str, ...]                 # turn order, every player who started
    teams: tuple[tuple[str, ...], ...]     # magma-chamber only; else one team per player
    victory: int
    cards: dict
    rulings: dict
    team_of: dict = field(default_factory=dict)
    rt: Any = field(default=None, compare=False, repr=False)   # the Runtime (core.machines), set by setup.build
    resources: dict | None = None          # player -> runes they own, when the file has resources: (354)
    manual: bool = False                   # assign: manual (465.2.c): players assign their combat damage
    zones: bool = False                    # the file models its zones (decks:, trash: or banished:; Z1)
    ids: dict = field(default_factory=dict)   # zone entry id -> its card (``{id: h4, card: unit-2}``, Z1)
    start_cards: int = 0                   # the cards of the starting position (zones.census), with zones only

    def __post_init__(self) -> None:
        self.team_of = {p: i for i, t in enumerate(self.teams) for p in t}


class Recorder(Protocol):
    """What records the transitions a game fires: ``add(record)`` (a ``set`` is one)."""

    def add(self, rec: Any, /) -> None: ...


class State:
    """A game position. Clone before changing it; ``key()`` is its hashable identity."""

    __slots__ = ("cfg", "ms", "turn", "priority", "focus", "passed", "focus_passed", "chain", "chain_by",
                 "attacker", "defender", "choosing", "units", "bfs", "hands", "score", "scored",
                 "drawn", "energy", "counters", "extra", "invited", "dirty", "focus_due", "special",
                 "handoff", "trace", "step", "uid", "coverage", "events_on", "changed", "recalled",
                 "arrivals", "normal", "left", "batch", "blocked", "runes", "hidden", "assigned", "once", "resolving", "own",
                 "piles", "made", "hk", "uk", "sk", "fresh")

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.ms: dict[tuple[str, str | None], str] = {}   # (leaf machine, instance) -> state
        self.turn = cfg.order[0]
        self.priority: str | None = None
        self.focus: str | None = None
        self.passed: tuple[str, ...] = ()        # consecutive priority passes (339)
        self.focus_passed: tuple[str, ...] = ()  # consecutive focus passes (347.2)
        self.chain: list[Item] = []
        self.chain_by: str | None = None          # card | trigger | add: what started the chain (346.1)
        self.attacker: str | None = None
        self.defender: str | None = None
        self.choosing: tuple[str, ...] = ()       # candidates the turn player must choose among (323.12-13)
        self.units: dict[str, Unit] = {}          # shared with clones until written: see edit()
        self.own: set[str] = set()                # ids of the units only this state holds (edit() copied them)
        self.bfs: dict[str, Battlefield] = {}
        self.hands: dict[str, list[str]] = {}     # shared with clones: written only through set_hand()
        self.hk: tuple | None = None              # the hands' part of key(), cached: set_hand() clears it
        self.piles: dict[tuple[str, str], tuple[str, ...]] = {}   # (deck|trash|banished, player) -> entries (Z1)
        self.made = 0                             # cards rules created less those they removed (zones.census)
        self.uk: tuple | None = None              # the units' part of key(), cached: edit() and add_unit() clear it
        self.sk: tuple | None = None              # (in_game(), the score's part of key()), cached: add_score() clears it
        self.score: dict[str, int] = {}           # per player (shared by a team in magma-chamber)
        self.scored: dict[str, str] = {}          # battlefield -> who scored it this turn (470)
        self.blocked: tuple[str, ...] = ()        # closed to the turn player's team this turn (469.1.a, 489.8.b)
        self.drawn: dict[str, int] = {}
        self.energy: dict[str, int] = {}
        self.counters: dict[str, int] = {}        # CARD -> N for CARD#N ids; "token" for token#N
        self.extra: list[str] = []                # queued extra turns (734-738)
        self.invited: str | None = None           # R13
        self.dirty = False                        # a cleanup is outstanding (319)
        self.focus_due: str | None = None         # focus awarded once cleanups settle (R4)
        self.special: str | None = None           # combat / ending: a special cleanup (324)
        self.handoff = False                      # R10: the turn passes once nothing is ongoing
        self.trace: list[Event] = []
        self.step = 0
        self.uid = 0
        self.coverage: Recorder | None = None     # records every fired transition (a set, the verifier's monitor)
        self.events_on = True
        self.changed = False                      # the running cleanup changed something (322)
        self.recalled = False                     # 466.1 3d recalled attackers: No Result (466.3.d), once the chain is empty
        self.arrivals: list | None = None         # R7: arrivals of one effect, contested together
        self.left: tuple[str, ...] | None = None  # cache of in_game(), reset when a player machine moves
        self.batch: list | None = None            # uids of triggers becoming pending together (383.3.d)
        self.normal = cfg.order[0]                # whose normal turn was last: extra turns don't move it (735)
        self.runes: dict[str, int] = {}           # ready runes per player (resources: only)
        self.hidden: tuple = ()                   # facedown cards (811): ((battlefield, player, card, fresh), ...)
        self.assigned: tuple = ()                 # manual combat damage so far: ((player, ((unit, n), ...)), ...)
        self.once: tuple = ()                     # (source, ability) used this turn (once-per-turn)
        self.resolving: Resolving | None = None   # an item waiting mid-resolution for a may (383.3.a.3)
        self.fresh = 0                            # the bits (FRESH_BITS) of the cleanup tasks known to do nothing now

    # -- copying and identity ------------------------------------------------
    def clone(self) -> "State":
        s = _copy_shared(self, State)
        s.ms = dict(self.ms)
        s.chain = list(self.chain)
        s.units = dict(self.units)          # copy-on-write: the units are shared until edit() copies one
        s.own = set()
        self.own = set()                    # ... in both states: neither may write a shared unit in place
        s.bfs = {k: _copy_bf(b, Battlefield) for k, b in self.bfs.items()}     # = b.clone()
        s.hands = dict(self.hands)          # copy-on-write: a hand is replaced (set_hand), never changed in place
        s.piles = dict(self.piles)          # each pile is a tuple, replaced (set_pile)
        s.score = dict(self.score)
        s.scored = dict(self.scored)
        s.drawn = dict(self.drawn)
        s.energy = dict(self.energy)
        s.counters = dict(self.counters)
        s.extra = list(self.extra)
        s.runes = dict(self.runes)
        s.trace = list(self.trace)
        return s

    def key(self) -> tuple:
        """Everything that decides the future; not the trace, not id counters. Its parts, in order, are named by
        :data:`KEY_PARTS`."""
        return (
            tuple(self.ms.values()),        # the machines' keys are fixed, in setup order, for a whole game
            self.turn, self.priority, self.focus, self.passed, self.focus_passed,
            tuple([i.key() for i in self.chain]), self.chain_by, self.active, self.attacker, self.defender,
            self.choosing, self.units_key(),
            tuple([b.key() for b in self.bfs.values()]),
            self.hands_key(),
            self.score_key(), tuple(sorted(self.scored.items())) if self.scored else (), self.blocked,
            tuple(self.extra), self.invited, self.winner, self.handoff, self.normal, self.once,
            self.hidden, self.assigned, self.resolving.key() if self.resolving is not None else None,
            (tuple(self.energy.values()), tuple(self.runes.values())) if self.cfg.resources is not None else (),
            self.recalled,
        )

    def units_key(self) -> tuple:
        """The units as :meth:`key` holds them, cached until :meth:`edit` or :meth:`add_unit` may change one."""
        uk = self.uk
        if uk is None:
            uk = self.uk = tuple([u.key() for u in self.units.values()])
        return uk

    def score_key(self) -> tuple:
        """The score as :meth:`key` holds it (sorted), cached until :meth:`add_score` changes it or a player
        leaves. A removed player's points are left out (:data:`FORGET_REMOVED`): removed from the game (651.1),
        they count for nothing again (323.1 compares the players still in the game)."""
        sk = self.sk
        left = self.in_game()
        if sk is None or sk[0] is not left:
            items = [(h, n) for h, n in self.score.items() if h in left] if FORGET_REMOVED else self.score.items()
            sk = self.sk = (left, tuple(sorted(items)))         # (a holder: a player, or a team's first)
        return sk[1]

    def add_score(self, holder: str, n: int) -> None:
        """``holder``'s score grows by ``n``: every change to the score goes through here."""
        self.score[holder] = self.score.get(holder, 0) + n
        self.sk = None
        self.fresh &= _KEEP_SCORE

    def touch(self, part: str) -> None:
        """The model part ``part`` (:data:`PARTS`) is being written: the tasks that read it are no longer known
        to do nothing (323; ``statecharts/cleanup.py``'s ``INPUTS``). Every write of a battlefield, the winner,
        the active battlefield, the sides, the choice pending and the facedown cards goes through here."""
        self.fresh &= KEEP[part]

    def hands_key(self) -> tuple:
        """The hands as :meth:`key` holds them (each sorted), cached until :meth:`set_hand` changes one; in a
        game that models its zones (Z1), the decks (top first), trash (in order) and banishment (sorted) follow,
        each under its zone's name (a version 2 game's key is unchanged)."""
        hk = self.hk
        if hk is None:
            hk = tuple([(p, tuple(sorted(h))) for p, h in self.hands.items()])
            if self.cfg.zones:
                hk += tuple([(z, p, tuple(sorted(c)) if z == "banished" else c)
                             for (z, p), c in sorted(self.piles.items())])
            self.hk = hk
        return hk

    def pile(self, zone: str, p: str) -> tuple[str, ...]:
        """``p``'s ``zone`` (deck: top first; trash: in the order the cards arrived; banished)."""
        return self.piles.get((zone, p), ())

    def set_pile(self, zone: str, p: str, cards: tuple[str, ...]) -> None:
        """``p``'s ``zone`` becomes ``cards``: every change to a deck, trash or banishment goes through here."""
        self.piles[(zone, p)] = tuple(cards)
        self.hk = None

    def set_hand(self, p: str, cards: list[str]) -> None:
        """``p``'s hand becomes ``cards`` (a new list): hands are shared between a state and its clones
        (copy-on-write), so every change to a hand goes through here, never in place."""
        self.hands[p] = cards
        self.hk = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def edit(self, u: Unit) -> Unit:
        """The unit ``u`` (by its id) as this state may write it: units are shared between a state and its
        clones (copy-on-write), so every change to a unit on the board goes through ``u = g.edit(u)`` first,
        which copies it the first time, and clears its cached key. A unit not on the board (one entering
        later, held by the resolving item) belongs to its holder and is returned as is."""
        uid = u.id
        cur = self.units.get(uid)
        if cur is None:
            u.k = None
            return u
        self.uk = None
        self.fresh &= _KEEP_UNITS
        if uid in self.own:
            cur.k = None
            return cur
        c = _copy_unit(cur, Unit)
        c.k = None
        self.units[uid] = c
        self.own.add(uid)
        return c

    def add_unit(self, u: Unit) -> None:
        """A new unit enters the board: only this state holds it."""
        self.units[u.id] = u
        self.own.add(u.id)
        self.uk = None
        self.fresh &= _KEEP_UNITS

    # -- machine states ---------------------------------------------------------
    def m(self, leaf: str, inst: str | None = None) -> str:
        return self.ms[(leaf, inst)]

    @property
    def winner(self) -> tuple[str, ...] | None:
        """The players who have won (323.1, 651.1), in turn order, or None: the player machines in ``Won``, the one
        place the fact is kept (the phases machine's ``GameOver`` follows from the win)."""
        ms = self.ms
        if ms[("phases", None)] != Phase.GameOver:        # (the game ends as its winners win: quicker to ask first)
            return None
        won = tuple([p for p in self.cfg.order if ms[("player", p)] == PlayerState.Won])
        return won or None

    @property
    def over(self) -> bool:
        """The game is over (the phases machine in ``GameOver``: 323.1, 651.1, R22)."""
        return self.ms[("phases", None)] == Phase.GameOver

    @property
    def active(self) -> str | None:
        """The battlefield of the active showdown or combat, or None: the one whose ``battlefield.status`` is
        ongoing (344, 460; ``statecharts.battlefield.ONGOING``), the one place the fact is kept."""
        ms = self.ms
        if ms[("turn.mode", None)] != Mode.Showdown:       # (a showdown or combat makes the turn a Showdown, 308)
            return None
        for b in self.bfs:
            if ms[("battlefield.status", b)] in ONGOING:
                return b
        return None

    # -- players ---------------------------------------------------------------
    @property
    def order(self) -> tuple[str, ...]:
        return self.cfg.order

    def in_game(self) -> tuple[str, ...]:
        """Players still in the game, in turn order."""
        left = self.left
        if left is None:
            ms = self.ms
            left = self.left = tuple(p for p in self.cfg.order if ms[("player", p)] in (PlayerState.InGame, PlayerState.Won))
        return left

    def next_player(self, after: str, among: tuple[str, ...] | None = None) -> str:
        """The next player in turn order after ``after`` who is in ``among`` (default: still in the game)."""
        among = self.in_game() if among is None else among
        order = self.cfg.order
        i = order.index(after)
        for k in range(1, len(order) + 1):
            p = order[(i + k) % len(order)]
            if p in among:
                return p
        return after

    def from_turn_player(self, players) -> list[str]:
        """``players`` (distinct players of this game) in turn order starting with the turn player (303.2.a)."""
        order = self.cfg.order
        rot = _ROTATIONS.get((order, self.turn))
        if rot is None:
            i = order.index(self.turn)
            rot = _ROTATIONS[(order, self.turn)] = order[i:] + order[:i]
        return [p for p in rot if p in players]

    def team(self, p: str) -> int:
        return self.cfg.team_of[p]

    def teammates(self, a: str, b: str) -> bool:
        return a != b and self.cfg.team_of[a] == self.cfg.team_of[b]

    def opponents(self, a: str, b: str) -> bool:
        return self.cfg.team_of[a] != self.cfg.team_of[b]

    # -- the board -------------------------------------------------------------
    def units_at(self, where: str, controller: str | None = None) -> list[Unit]:
        return [u for u in self.units.values() if u.zone == "board" and u.kind == "unit" and u.at == where
                and (controller is None or u.controller == controller)]

    def has_units(self, where: str, controller: str) -> bool:
        """``bool(units_at(where, controller))`` without building the list."""
        for u in self.units.values():
            if u.at == where and u.controller == controller and u.zone == "board" and u.kind == "unit":
                return True
        return False

    def players_at(self, bf: str) -> list[str]:
        return self.from_turn_player({u.controller for u in self.units_at(bf)})

    def might(self, u: Unit) -> int:
        bonus = self.bfs[u.at].static_might if u.at in self.bfs else 0
        if u.designation is not None and (u.keywords or u.given):   # 807 Assault: attackers; 814 Shield: defenders
            n = u.kw("assault" if u.designation == "attacker" else "shield")
            if n:
                bonus += n
        return u.might + u.buff + bonus

    def turn_state(self) -> str:
        ms = self.ms
        return _TURN_STATES[ms[("turn.mode", None)] == Mode.Showdown][ms[("turn.window", None)] == Window.Closed]

    def spell_watchers(self) -> bool:
        """Whether any unit, gear or battlefield has an ability that a spell finishing resolving triggers."""
        kinds = ("on-spell", "on-spell-mine")
        if any(ab.trigger in kinds for u in self.units.values() if u.zone == "board" for ab in u.abilities):
            return True
        return any(ab.trigger in kinds for b in self.bfs.values() for ab in b.abilities)

    def next_uid(self) -> int:
        self.uid += 1
        return self.uid


#: (turn order, turn player) -> the turn order starting with the turn player (from_turn_player)
_ROTATIONS: dict[tuple[tuple[str, ...], str], tuple[str, ...]] = {}

#: turn_state() by (mode is Showdown, window is Closed)
_TURN_STATES = ((NEUTRAL_OPEN, NEUTRAL_CLOSED), (SHOWDOWN_OPEN, SHOWDOWN_CLOSED))

#: The parts of ``State.key()`` in order, by name (what reads a key part by part finds them here:
#: ``simulator.verify.symmetry``). ``tests/test_symmetry.py`` checks that a key has exactly these parts.
KEY_PARTS = ("ms", "turn", "priority", "focus", "passed", "focus_passed", "chain", "chain_by", "active", "attacker",
             "defender", "choosing", "units", "bfs", "hands", "score", "scored", "blocked", "extra", "invited",
             "winner", "handoff", "normal", "once", "hidden", "assigned", "resolving", "resources", "recalled")

#: State attributes a clone shares with its original (immutable values, the config, the coverage recorder)
_SHARED = ("cfg", "turn", "priority", "focus", "passed", "focus_passed", "chain_by", "attacker",
           "defender", "choosing", "invited", "dirty", "focus_due", "special", "handoff",
           "step", "uid", "coverage", "events_on", "changed", "recalled", "arrivals", "normal", "left", "batch",
           "blocked", "hidden", "assigned", "once", "resolving", "made", "hk", "uk", "sk", "fresh")
_COPIED = ("ms", "chain", "units", "bfs", "hands", "piles", "score", "scored", "drawn", "energy", "counters", "extra",
           "trace", "runes", "own")            # containers: State.clone copies each one
assert set(_SHARED) | set(_COPIED) == set(State.__slots__), "State.clone must share or copy every slot"
_copy_shared = _copier(_SHARED)
