"""The chain and priority (328-340): putting items on it, finalizing, passing, priority.

Resolving an item (340) carries out its instructions: that is :mod:`simulator.rules.effects`
(``resolve_item``); triggered abilities and their order are :mod:`simulator.rules.triggers`."""
from __future__ import annotations

from statecharts.states import ChainState

from statecharts.citations import cite
from simulator.core.log import fire, log
from simulator.core.model import Item, State
from simulator.core.registry import effect, guard


def put_on_chain(g: State, item: Item, by: str) -> None:
    """Add a pending item (329); ``by`` is what started the chain if it is new: card, trigger or add."""
    if g.ms[("chain", None)] == ChainState.Empty:  # a new chain (not one whose last item is resolving, R5)
        g.chain_by = by
    g.chain.append(item)
    g.passed = ()
    g.dirty = True                      # 319: a pending item was added
    # not a hand-off: 329's procedure starts: a card is played, an ability triggers or is activated
    fire(g, "chain", "add", item=item.name, player=item.controller)


def finalize_oldest(g: State) -> None:
    """Step 1 (337): the oldest pending item is finalized; units, gear and Add abilities resolve at once."""
    i = next(k for k, it in enumerate(g.chain) if not it.finalized)
    g.chain[i] = g.chain[i].but(finalized=True)
    g.dirty = True                      # 319: a pending item became finalized
    # not a hand-off: the schedule's Finalize step acting (337)
    fire(g, "chain", "finalize", idx=i, item=g.chain[i].name, player=g.chain[i].controller)


def pass_priority(g: State, player: str) -> None:
    g.passed = g.passed + (player,)
    # not a hand-off: a player's action: passing priority (338.2)
    fire(g, "chain", "pass", player=player)


@guard
def _item_immediate(g: State, inst, ctx) -> bool:
    return g.chain[ctx["idx"]].immediate


@guard
def _pending_remain(g: State, inst, ctx) -> bool:
    return any(not it.finalized for it in g.chain)


@guard
def _all_passed(g: State, inst, ctx) -> bool:
    return set(g.in_game()) <= set(g.passed)


@guard
def _chain_empty(g: State, inst, ctx) -> bool:
    return not g.chain


@guard
def _chain_exists(g: State, inst, ctx) -> bool:
    return bool(g.chain)


@guard
def _priority_kept(g: State, inst, ctx) -> bool:
    return g.priority is not None


@effect
def _new_round(g: State, inst, ctx) -> None:
    """The holder keeps priority; a new full round of passes is needed (339)."""
    g.passed = ()
    ctx["player"] = g.priority


@effect
def _cleanup_due(g: State, inst, ctx) -> None:
    """319: moving into or out of an Open or Closed state makes a cleanup outstanding."""
    g.dirty = True


@effect
def _priority_to_newest(g: State, inst, ctx) -> None:
    """312.2.c, 340.4, R17: the controller of the newest item gets priority; a new round of passes."""
    holder = g.chain[-1].controller
    if holder not in g.in_game():
        holder = g.next_player(holder)
    g.priority = holder
    g.passed = ()
    ctx["player"] = holder


@effect
def _priority_to_next(g: State, inst, ctx) -> None:
    """312.2.d: the next player in turn order gets priority."""
    assert g.priority is not None, "priority passes on only from a player holding it"
    g.priority = g.next_player(g.priority)
    ctx["player"] = g.priority


# -- the schedule's steps (statecharts/schedule.py) ------------------------------------------------

@effect
def _after_resolution(g: State, inst, ctx) -> None:
    """340.2-340.4: after an item resolved, the chain is empty, has pending items, or gives priority."""
    # not a hand-off: the schedule's step after a resolution acting (340.2-340.4)
    fire(g, "chain", "resolved")


@effect
def _finalize_oldest(g: State, inst, ctx) -> None:
    finalize_oldest(g)


@effect
def _priority_to_nobody(g: State, inst, ctx) -> None:
    """Nobody holds priority: the game is over, or a choice or an order is awaited (323.12, 383.3.d)."""
    g.priority = None


@effect
def _priority_to_turn_player(g: State, inst, ctx) -> None:
    """335.1, 312.2.a: in the Main Phase with nothing to do, the turn player (or the invited teammate, R13);
    the trace names them when they receive it (after a resolution, a showdown, a concession, a new turn)."""
    holder = g.invited or g.turn
    if g.priority != holder:
        log(g, "{player} gets priority", cite("chain.turn-player-gets-priority"), holder)
    g.priority = holder
