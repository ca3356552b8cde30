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
>>> build(TURN).model.state
['turn_mode_Neutral', 'turn_window_Open']
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .spec import Machine, T


class Model:
    """The machine's model: ``guard(name) -> bool`` decides every named guard; ``fired`` is the last
    declared transition that fired."""

    def __init__(self) -> None:
        self.guard: Callable[[str], bool] = lambda name: False
        self.fired: T | None = None


@dataclass
class Built:
    machine: object
    model: Model
    decls: list[T]
    #: leaf machine name -> set that leaf's state (the other regions go to their initial states)
    setters: dict[str, Callable[[str], None]] = field(default_factory=dict)


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
        return Built(machine, model, decls, {m.name: lambda src: machine.set_state(src, model)})
    root = m.name
    short = {r.name: r.name.split(".")[-1] for r in m.regions}
    states = [{"name": root, "parallel": [
        {"name": short[r.name], "children": list(r.states), "initial": r.initial} for r in m.regions]}]
    trans = [cfg(t, f"{root}_{short[r.name]}_") for r in m.regions for t in r.transitions]
    machine = HierarchicalMachine(model=model, states=states, transitions=trans, initial=root,
                                  auto_transitions=False)
    initials = [f"{root}_{short[r.name]}_{r.initial}" for r in m.regions]
    built = Built(machine, model, decls)
    for k, r in enumerate(m.regions):
        def setter(src: str, k=k, prefix=f"{root}_{short[r.name]}_") -> None:
            full = list(initials)
            full[k] = prefix + src
            machine.set_state(full, model)
        built.setters[r.name] = setter
    return built
