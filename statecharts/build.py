"""The declarations as real ``transitions`` machines.

A flat :class:`~statecharts.spec.Machine` becomes a ``transitions.Machine``; one with orthogonal
regions becomes a ``HierarchicalMachine`` whose root state is parallel, one child per region (the
turn state: ``turn_mode_Neutral`` and ``turn_window_Open`` at once). Guards become conditions named
``g_<guard>`` that ask ``model.guard(name)``; each transition's ``after`` callback records which
declaration fired in ``model.fired``.

>>> from statecharts import CHAIN, TURN
>>> chain = build(CHAIN)
>>> chain.model.state
'Empty'
>>> chain.model.add()
True
>>> chain.model.state, chain.model.fired.rules
('Finalize', ('329.1', '354.1'))
>>> turn = build(TURN)
>>> turn.model.state
['turn_mode_Neutral', 'turn_window_Open']
>>> turn.set_states(("Showdown", "Open")); turn.model.close_state(); turn.states()
True
('Showdown', 'Closed')
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .spec import Machine, T


class Model:
    """The machine's model: ``guard(name) -> bool`` decides every named guard; ``fired`` is the last
    declared transition that fired."""

    def __init__(self) -> None:
        self.guard: Callable[[str], bool] = lambda name: False
        self.fired: T | None = None
        self.state: Any = None          # set by the machine (a name, or one per region)


@dataclass
class Built:
    machine: Any
    model: Model
    decls: list[T]
    #: the leaf machines that carry state, in order: the regions (parallel states), or the machine itself
    regions: tuple[str, ...] = ()
    #: set the whole state, one state per region (all regions at once: a parallel state is never reset)
    set_states: Callable[[tuple[str, ...]], None] = field(default=lambda states: None)
    #: the current state, one per region
    states: Callable[[], tuple[str, ...]] = field(default=lambda: ())


def build(m: Machine) -> Built:
    from transitions import Machine as FlatMachine
    from transitions.extensions import HierarchicalMachine

    model = Model()
    for g in m.guards():
        setattr(model, "g_" + g, lambda name=g: model.guard(name))
    decls: list[T] = []

    def cfg(t: T, prefix: str) -> dict:
        decls.append(t)
        idx = len(decls) - 1
        setattr(model, f"fired_{idx}", lambda i=idx: setattr(model, "fired", decls[i]))
        return {"trigger": t.trigger, "source": prefix + t.source, "dest": prefix + t.dest,
                "conditions": ["g_" + g for g in t.guards], "unless": ["g_" + u for u in t.unless],
                "after": [f"fired_{idx}"]}

    if not m.regions:
        machine = FlatMachine(model=model, states=list(m.states), initial=m.initial, auto_transitions=False,
                              transitions=[cfg(t, "") for t in m.transitions])
        return Built(machine, model, decls, (m.name,), lambda states: machine.set_state(states[0], model),
                     lambda: (model.state,))
    root = m.name
    short = {r.name: r.name.split(".")[-1] for r in m.regions}
    states = [{"name": root, "parallel": [
        {"name": short[r.name], "children": list(r.states), "initial": r.initial} for r in m.regions]}]
    trans = [cfg(t, f"{root}_{short[r.name]}_") for r in m.regions for t in r.transitions]
    machine = HierarchicalMachine(model=model, states=states, transitions=trans, initial=root,
                                  auto_transitions=False)
    prefixes = [f"{root}_{short[r.name]}_" for r in m.regions]

    def set_states(states: tuple[str, ...]) -> None:
        machine.set_state([p + s for p, s in zip(prefixes, states)], model)

    def current() -> tuple[str, ...]:
        return tuple(s[len(p):] for p, s in zip(prefixes, model.state))

    return Built(machine, model, decls, tuple(r.name for r in m.regions), set_states, current)
