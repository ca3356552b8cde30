"""The chain and priority (328-340): putting items on it, finalizing, passing, resolving."""
from __future__ import annotations

from contextlib import contextmanager

from simulator.core.log import fire
from simulator.core.model import Item, State
from simulator.core.registry import effect, guard


def put_on_chain(g: State, item: Item, by: str) -> None:
    """Add a pending item (329); ``by`` is what started the chain if it is new: card, trigger or add."""
    if g.ms[("chain", None)] == "Empty":  # a new chain (not one whose last item is resolving, R5)
        g.chain_by = by
    g.chain.append(item)
    g.passed = ()
    g.dirty = True                      # 319: a pending item was added
    fire(g, "chain", "add", item=item.name, player=item.controller)


def put_trigger(g: State, item: Item) -> None:
    """A triggered ability becomes pending (383); inside :func:`simultaneous` it joins that batch."""
    put_on_chain(g, item, "trigger")
    if g.batch is not None:
        g.batch.append(item.uid)


@contextmanager
def simultaneous(g: State):
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
    """383.3.d: ``player`` places the next of their pending triggers: the ones named take the first chain
    positions their triggers occupy, in that order (the first listed goes on the chain first, so it resolves
    last); the others wait for the next pick, and a last one left is placed without a choice."""
    slots = [i for i, it in enumerate(g.chain) if it.unordered and it.controller == player]
    items = [g.chain[i] for i in slots]
    chosen: list[Item] = []
    for lab in labels:                  # a label shared by two items picks the first of them
        k = next(j for j, it in enumerate(items) if it.label == lab)
        chosen.append(items.pop(k).but(unordered=False))
    if len(items) == 1:
        items = [items[0].but(unordered=False)]
    for i, it in zip(slots, chosen + items):
        g.chain[i] = it
    fire(g, "chain", "order", player=player)


def finalize_oldest(g: State) -> None:
    """Step 1 (337): the oldest pending item is finalized; units, gear and Add abilities resolve at once."""
    i = next(k for k, it in enumerate(g.chain) if not it.finalized)
    g.chain[i] = g.chain[i].but(finalized=True)
    g.dirty = True                      # 319: a pending item became finalized
    fire(g, "chain", "finalize", idx=i, item=g.chain[i].name, player=g.chain[i].controller)


def pass_priority(g: State, player: str) -> None:
    g.passed = g.passed + (player,)
    fire(g, "chain", "pass", player=player)


@guard("unordered_triggers")
def _unordered_triggers(g: State, inst, ctx) -> bool:
    return any(it.unordered for it in g.chain)


@guard("item_immediate")
def _item_immediate(g: State, inst, ctx) -> bool:
    return g.chain[ctx["idx"]].immediate


@guard("pending_remain")
def _pending_remain(g: State, inst, ctx) -> bool:
    return any(not it.finalized for it in g.chain)


@guard("all_passed")
def _all_passed(g: State, inst, ctx) -> bool:
    return set(g.in_game()) <= set(g.passed)


@guard("chain_empty")
def _chain_empty(g: State, inst, ctx) -> bool:
    return not g.chain


@guard("chain_exists")
def _chain_exists(g: State, inst, ctx) -> bool:
    return bool(g.chain)


@guard("priority_kept")
def _priority_kept(g: State, inst, ctx) -> bool:
    return g.priority is not None


@effect("new_round")
def _new_round(g: State, inst, ctx) -> None:
    """The holder keeps priority; a new full round of passes is needed (339)."""
    g.passed = ()
    ctx["player"] = g.priority


@effect("cleanup_due")
def _cleanup_due(g: State, inst, ctx) -> None:
    """319: moving into or out of an Open or Closed state makes a cleanup outstanding."""
    g.dirty = True


@effect("priority_to_newest")
def _priority_to_newest(g: State, inst, ctx) -> None:
    """312.2.c, 340.4, R17: the controller of the newest item gets priority; a new round of passes."""
    holder = g.chain[-1].controller
    if holder not in g.in_game():
        holder = g.next_player(holder)
    g.priority = holder
    g.passed = ()
    ctx["player"] = holder


@effect("priority_to_next")
def _priority_to_next(g: State, inst, ctx) -> None:
    """312.2.d: the next player in turn order gets priority."""
    g.priority = g.next_player(g.priority)
    ctx["player"] = g.priority
