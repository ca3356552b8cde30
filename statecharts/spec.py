"""The declaration vocabulary: a machine is data.

A :class:`Machine` lists its states, its initial state and its transitions.
A :class:`T` (transition) names its trigger, source and destination, the
guards that must hold (by name), the guards that must not hold (``unless``),
the named effects the engine runs after it fires, and the rule ids it
implements (Core Rules v1.4 numbers, seed files, ruling ids).

Nothing here knows how a guard is computed or what an effect does: the
simulator supplies those by name (``simulator/core/registry.py``), the diagrams draw
the data, and verification reads it.

>>> m = Machine("door", "A door", ("Shut", "Ajar"), "Shut",
...             (T("open", "Shut", "Ajar", rules=("000",)),))
>>> m.triggers()
('open',)
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Send:
    """One hand-off of a transition, parsed: fire ``trigger`` on ``machine`` if every guard of ``guards`` holds
    and none of ``unless`` does, asked with the sending transition's instance and context."""

    machine: str
    trigger: str
    guards: tuple[str, ...] = ()
    unless: tuple[str, ...] = ()


def send(text: str) -> Send:
    """A hand-off as declared in ``T.sends``: ``"machine:trigger"``, or with guards as a transition's label
    writes them, ``"machine:trigger [guard & !other]"``.

    >>> send("focus:chain_closed")
    Send(machine='focus', trigger='chain_closed', guards=(), unless=())
    >>> send("battlefield.status:settle [!both_sides_remain]")
    Send(machine='battlefield.status', trigger='settle', guards=(), unless=('both_sides_remain',))
    """
    head, _, cond = text.partition(" [")
    machine, trigger = head.split(":")
    names = [n.strip() for n in cond.rstrip("]").split("&") if n.strip()]
    return Send(machine, trigger, tuple(n for n in names if not n.startswith("!")),
                tuple(n[1:] for n in names if n.startswith("!")))


@dataclass(frozen=True)
class T:
    """One declared transition."""

    trigger: str
    source: str
    dest: str
    rules: tuple[str, ...] = ()
    guards: tuple[str, ...] = ()
    unless: tuple[str, ...] = ()
    effects: tuple[str, ...] = ()
    #: hand-offs: "machine:trigger" fired after this one (after its effects, trace line and enter effect), in
    #: order; "machine:trigger [guard & !other]" only when its guards hold then (:func:`send`)
    sends: tuple[str, ...] = ()
    say: str = ""                    # trace text; empty = a silent bookkeeping step

    def label(self) -> str:
        """A short label: trigger, guards and rule ids."""
        g = [*self.guards, *("!" + u for u in self.unless)]
        guard = f" [{' & '.join(g)}]" if g else ""
        return f"{self.trigger}{guard} ({', '.join(self.rules)})"


@dataclass(frozen=True)
class Machine:
    """A flat machine, or (with ``regions``) a machine of orthogonal regions."""

    name: str
    title: str
    states: tuple[str, ...]
    initial: str
    transitions: tuple[T, ...] = ()
    regions: tuple["Machine", ...] = ()
    final: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    doc: str = ""
    per: str = "game"          # one instance per: game | battlefield | player
    enter: dict = field(default_factory=dict, hash=False, compare=False)  # state -> effect name
    #: state -> the parts of the game whose values decide whether its ``enter`` effect does anything (names:
    #: machine leaves, or the model parts of ``simulator.core.model.PARTS``); an effect that did nothing and none
    #: of whose inputs has been written since would do nothing again, so the engine may skip it (a state not
    #: listed always runs its effect). The cleanup's tasks (323) declare theirs: ``statecharts/cleanup.py``.
    inputs: dict = field(default_factory=dict, hash=False, compare=False)
    state_docs: dict = field(default_factory=dict, hash=False, compare=False)

    def __post_init__(self) -> None:
        if self.regions:
            return
        known = set(self.states)
        if self.initial not in known:
            raise ValueError(f"{self.name}: initial state {self.initial!r} is not declared")
        for t in self.transitions:
            for s in (t.source, t.dest):
                if s not in known:
                    raise ValueError(f"{self.name}: transition {t.trigger} names unknown state {s!r}")
            if not t.rules:
                raise ValueError(f"{self.name}: transition {t.trigger} {t.source}->{t.dest} cites no rule")

    # -- views used by the engine, the diagrams and the verifier ------------
    def leaves(self) -> tuple["Machine", ...]:
        """The flat machines that carry state: the regions, or the machine itself."""
        return self.regions if self.regions else (self,)

    def triggers(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for leaf in self.leaves():
            for t in leaf.transitions:
                seen.setdefault(t.trigger, None)
        return tuple(seen)

    def guards(self) -> tuple[str, ...]:
        """Every guard its transitions and their hand-offs name."""
        seen: dict[str, None] = {}
        for leaf in self.leaves():
            for t in leaf.transitions:
                for g in (*t.guards, *t.unless, *(n for s in t.sends for n in (*send(s).guards, *send(s).unless))):
                    seen.setdefault(g, None)
        return tuple(seen)

    def effects(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for leaf in self.leaves():
            for t in leaf.transitions:
                for e in t.effects:
                    seen.setdefault(e, None)
            for e in leaf.enter.values():
                seen.setdefault(e, None)
        return tuple(seen)

    def sends(self) -> tuple[tuple[T, str, str], ...]:
        """Every hand-off: (transition, target machine, target trigger)."""
        out = []
        for leaf in self.leaves():
            for t in leaf.transitions:
                for s in t.sends:
                    h = send(s)
                    out.append((t, h.machine, h.trigger))
        return tuple(out)

    def all_rules(self) -> tuple[str, ...]:
        seen: dict[str, None] = {r: None for r in self.rules}
        for leaf in self.leaves():
            for t in leaf.transitions:
                for r in t.rules:
                    seen.setdefault(r, None)
        return tuple(seen)
