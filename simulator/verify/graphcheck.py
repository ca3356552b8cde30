"""Checks on the declared statecharts themselves, with networkx (part 1 of ``riftsim verify``).

For every leaf machine (a flat machine or a region), as a directed graph of its declared transitions:

* **unreachable**: every state is reachable from the initial state;
* **trap**: every state can reach the initial (idle) state or a final state;
* **overlap**: transitions sharing a source state and a trigger are tried in declaration order
  (both backends do so). Their order counts as *declared* for a pair (earlier ``i``, later ``j``) when

  - ``j`` is a fallback of ``i``: ``j``'s guards and unless-guards are a strict subset of ``i``'s
    (the exception is declared before the rule, e.g. ``[all_passed_focus & in_combat]`` before
    ``[all_passed_focus]`` before the unguarded default); or
  - they exclude each other: one's guard is the other's ``unless`` guard (written in the data,
    e.g. ``finalize [pending_remain & !item_immediate]``), or the two guards are listed in
    :data:`EXCLUSIVE`, pairs that cannot hold together by the model's construction.

  Anything else is a finding: ``j`` is *shadowed* when ``i``'s conditions are implied by ``j``'s
  (``j`` can never fire), and the two *overlap* when both can hold and neither generalises the other;
* **hand-offs** (``sends``) name a declared machine and one of its triggers; every named guard and
  effect exists in the simulator's registry.

Each finding names the machine, the state, the trigger and the rule ids, and (when the state is
reachable) the shortest trigger path from the initial state to it.
"""
from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

import statecharts
from statecharts.spec import Machine, T

#: guard pairs that can never hold together, with the reason (the only hand-written facts here)
EXCLUSIVE: dict[frozenset, str] = {
    frozenset(("chain_empty", "pending_remain")): "a pending item is an item on the chain",
    frozenset(("chain_empty", "chain_exists")): "one is the negation of the other",
    frozenset(("combat_cleanup_due", "ending_cleanup_due")): "a cleanup has one special kind (state.special)",
}


@dataclass(frozen=True)
class Finding:
    kind: str            # unreachable, trap, overlap, shadowed, handoff, registry
    machine: str
    state: str
    trigger: str
    rules: tuple[str, ...]
    message: str
    path: tuple[str, ...] = ()    # shortest trigger path from the initial state

    def line(self) -> str:
        path = (" -- shortest path: " + " -> ".join(self.path)) if self.path else ""
        return (f"{self.kind}: {self.machine} state {self.state} trigger {self.trigger or '-'} "
                f"[{', '.join(self.rules)}]: {self.message}{path}")


def graph(leaf: Machine) -> nx.MultiDiGraph:
    """The leaf's declared transitions as a multigraph (edge key = declaration index)."""
    gr = nx.MultiDiGraph(name=leaf.name)
    gr.add_nodes_from(leaf.states)
    for k, t in enumerate(leaf.transitions):
        gr.add_edge(t.source, t.dest, key=k, t=t)
    return gr


def shortest_path(gr: nx.MultiDiGraph, start: str, state: str) -> tuple[str, ...]:
    """The triggers along a shortest path from ``start`` to ``state`` (state names in between)."""
    try:
        nodes = nx.shortest_path(gr, start, state)
    except nx.NetworkXNoPath:
        return ()
    out = [start]
    for a, b in zip(nodes, nodes[1:]):
        t = min(gr.get_edge_data(a, b).items())[1]["t"]
        out.append(f"{t.trigger}->{b}")
    return tuple(out)


def _rules_into(leaf: Machine, state: str) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for t in leaf.transitions:
        if t.dest == state or t.source == state:
            seen.update(dict.fromkeys(t.rules))
    return tuple(seen) or leaf.rules or ("-",)


def _order(i: T, j: T) -> str | None:
    """None if the declared order of ``i`` (earlier) and ``j`` (later) is declared; else the problem."""
    gi, gj = set(i.guards), set(j.guards)
    ui, uj = set(i.unless), set(j.unless)
    if gi & uj or ui & gj:
        return None                                          # written as mutually exclusive
    if any(frozenset((a, b)) in EXCLUSIVE for a in gi for b in gj):
        return None                                          # exclusive by construction
    if gj <= gi and uj <= ui and (gj, uj) != (gi, ui):
        return None                                          # j is the fallback of i
    if gi <= gj and ui <= uj:
        return "shadowed"                                    # whenever j could fire, i fires first
    return "overlap"


def check_leaf(leaf: Machine, parent: Machine | None = None) -> list[Finding]:
    gr = graph(leaf)
    reach = nx.descendants(gr, leaf.initial) | {leaf.initial}
    return _unreachable(leaf, reach) + _traps(leaf, gr, reach) + _orders(leaf, gr, reach)


def _unreachable(leaf: Machine, reach: set[str]) -> list[Finding]:
    return [Finding("unreachable", leaf.name, s, "", _rules_into(leaf, s),
                    f"not reachable from the initial state {leaf.initial}") for s in leaf.states if s not in reach]


def _traps(leaf: Machine, gr, reach: set[str]) -> list[Finding]:
    """The reachable states from which neither the initial state nor a final state can be reached."""
    goals = {leaf.initial, *leaf.final}
    back = set(goals)
    for gs in goals:
        back |= nx.ancestors(gr, gs)
    return [Finding("trap", leaf.name, s, "", _rules_into(leaf, s),
                    f"can reach neither the initial state {leaf.initial} nor a final state",
                    shortest_path(gr, leaf.initial, s)) for s in leaf.states if s in reach and s not in back]


def _orders(leaf: Machine, gr, reach: set[str]) -> list[Finding]:
    """Transitions of one (source, trigger) whose order is wrong (one shadows a later one) or not declared."""
    groups: dict[tuple[str, str], list[T]] = {}
    for t in leaf.transitions:
        groups.setdefault((t.source, t.trigger), []).append(t)
    out = []
    for (src, trig), ts in groups.items():
        for a in range(len(ts)):
            for b in range(a + 1, len(ts)):
                problem = _order(ts[a], ts[b])
                if problem:
                    out.append(_order_finding(leaf, gr, reach, src, trig, problem, ts[a], ts[b]))
    return out


def _order_finding(leaf: Machine, gr, reach: set[str], src: str, trig: str, problem: str, i: T, j: T) -> Finding:
    what = (f"{j.label()} -> {j.dest} can never fire: {i.label()} -> {i.dest} is tried first "
            f"whenever it could" if problem == "shadowed" else
            f"{i.label()} -> {i.dest} and {j.label()} -> {j.dest} can both hold and neither "
            f"is a fallback of the other: their order is not declared")
    return Finding(problem, leaf.name, src, trig, tuple(dict.fromkeys(i.rules + j.rules)), what,
                   shortest_path(gr, leaf.initial, src) if src in reach else ())


def check_handoffs(machines: tuple[Machine, ...]) -> list[Finding]:
    leaves = {leaf.name: leaf for m in machines for leaf in m.leaves()}
    out = []
    for m in machines:
        for t, target, trig in m.sends():
            leaf = leaves.get(target)
            if leaf is None or trig not in {x.trigger for x in leaf.transitions}:
                out.append(Finding("handoff", m.name, t.source, t.trigger, t.rules,
                                   f"sends {target}:{trig}, which is not a declared "
                                   f"{'machine' if leaf is None else 'trigger of ' + target}"))
    return out


def check_registry(machines: tuple[Machine, ...]) -> list[Finding]:
    """Every guard and effect the declarations name is implemented by the simulator."""
    from simulator.core import registry
    from simulator.rules import install
    install()
    out = []
    for m in machines:
        for leaf in m.leaves():
            for t in leaf.transitions:
                out += _unimplemented(leaf, t, registry)
            out += [Finding("registry", leaf.name, s, "", leaf.rules or ("-",), f"enter effect {e!r} is not implemented")
                    for s, e in leaf.enter.items() if e not in registry.EFFECTS]
    return out


def _unimplemented(leaf: Machine, t: T, registry) -> list[Finding]:
    """The guards and effects ``t`` names that the registry lacks."""
    missing = [f"guard {g!r}" for g in (*t.guards, *t.unless) if g not in registry.GUARDS]
    missing += [f"effect {e!r}" for e in t.effects if e not in registry.EFFECTS]
    return [Finding("registry", leaf.name, t.source, t.trigger, t.rules, f"{what} is not implemented")
            for what in missing]


def check(machines: tuple[Machine, ...] = statecharts.MACHINES, *, registry: bool = True) -> list[Finding]:
    """Every finding on the declared machines (empty when they are well-formed)."""
    out: list[Finding] = []
    for m in machines:
        for leaf in m.leaves():
            out += check_leaf(leaf, m)
    out += check_handoffs(machines)
    if registry:
        out += check_registry(machines)
    return out


def declared_transitions(machines: tuple[Machine, ...] = statecharts.MACHINES) -> list[tuple]:
    """Every declared transition as the coverage record the engine writes: (leaf, source, trigger, dest, guards)."""
    return [(leaf.name, t.source, t.trigger, t.dest, t.guards) for m in machines for leaf in m.leaves()
            for t in leaf.transitions]


def rules_of(rec: tuple) -> tuple[str, ...]:
    leaf = statecharts.LEAVES[rec[0]]
    for t in leaf.transitions:
        if (t.source, t.trigger, t.dest, t.guards) == rec[1:]:
            return t.rules
    return ()
