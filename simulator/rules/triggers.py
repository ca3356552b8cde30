"""Triggered abilities (383): what triggers, who controls the pending item, simultaneous triggers ordered
by their controllers (383.3.d).

The chain (:mod:`simulator.rules.chain`) holds the items; this module decides which abilities trigger
and how they are placed. :mod:`simulator.rules.effects` (what items do) and :mod:`simulator.rules.moves`
(arrivals) both use it, so neither has to import the other.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from simulator.core.log import fire
from simulator.core.model import Ability, Item, State, Unit
from simulator.core.registry import effect, guard
from simulator.rules.chain import put_on_chain


def triggered(g: State, ab: Ability, controller: str, source: str) -> Item:
    """The pending item of ``ab`` triggered on ``source`` (383.1), controlled by ``controller`` (383.2)."""
    return Item(g.next_uid(), ab.name, controller, "trigger", ab.effect, source=source, immediate=ab.adds)


def put_trigger(g: State, item: Item) -> None:
    """A triggered ability becomes pending (383); inside :func:`simultaneous` it joins that batch."""
    put_on_chain(g, item, "trigger")
    if g.batch is not None:
        g.batch.append(item.uid)


@contextmanager
def simultaneous(g: State) -> Iterator[None]:
    """Triggers put on the chain inside this block become pending together (one event or batch). Placement
    across players stays as the caller makes it; each player with two or more of them orders their own
    before they are finalized (383.3.d). Nested blocks join the outermost one."""
    if g.batch is not None:
        yield
        return
    g.batch = []
    try:
        yield
    finally:
        uids, g.batch = g.batch, None
    mine: dict[str, int] = {}
    for it in g.chain:
        if it.uid in uids:
            mine[it.controller] = mine.get(it.controller, 0) + 1
    for i, it in enumerate(g.chain):
        if it.uid in uids and mine[it.controller] > 1:
            g.chain[i] = it.but(unordered=True)


def trigger_abilities(g: State, source: Unit, trigger: str) -> None:
    """383: each ability of ``source`` with that trigger becomes a pending item, controlled by its controller;
    together, so their controller orders them (383.3.d)."""
    abilities = [ab for ab in source.abilities if ab.trigger == trigger]
    if not abilities:
        return
    with simultaneous(g):
        for ab in abilities:
            put_trigger(g, triggered(g, ab, source.controller, source.id))


def battlefield_triggers(g: State, bf: str, trigger: str) -> None:
    """190.6: the controller controls a battlefield's abilities; uncontrolled -> the turn player."""
    b = g.bfs[bf]
    abilities = [ab for ab in b.abilities if ab.trigger == trigger]
    if not abilities:
        return
    with simultaneous(g):
        for ab in abilities:
            put_trigger(g, triggered(g, ab, b.controller or g.turn, bf))


def orderer(g: State) -> str | None:
    """Who must order their simultaneous triggers now: the controller of the first unordered item, so
    players order in placement order (turn player first; the 464.2.e order for the combat chain)."""
    for it in g.chain:
        if it.unordered:
            return it.controller
    return None


def unordered_labels(g: State, player: str) -> list[str]:
    """``player``'s triggers awaiting their order, as placed (``SOURCE:ABILITY``)."""
    return [it.label for it in g.chain if it.unordered and it.controller == player]


def order_triggers(g: State, player: str, labels: tuple[str, ...]) -> None:
    """383.3.d: ``player``'s pending triggers take the chain positions they occupy in the chosen order
    (the first listed goes on the chain first, so it resolves last)."""
    slots = [i for i, it in enumerate(g.chain) if it.unordered and it.controller == player]
    by_label: dict[str, list[Item]] = {}
    for i in slots:                     # a list per label: two identical labels keep both items
        by_label.setdefault(g.chain[i].label, []).append(g.chain[i])
    chosen = [by_label[lab].pop(0) for lab in labels]
    for i, it in zip(slots, chosen):
        g.chain[i] = it.but(unordered=False)
    fire(g, "chain", "order", player=player)


@guard("unordered_triggers")
def _unordered_triggers(g: State, inst, ctx) -> bool:
    return any(it.unordered for it in g.chain)


@effect("await_order")
def _await_order(g: State, inst, ctx) -> None:
    """383.3.d: simultaneous triggers are ordered by their controllers before they are finalized."""
    fire(g, "chain", "await_order", player=orderer(g))
