"""Focus (313, 341-348): who may start a chain in Showdown Open."""
from __future__ import annotations

from statecharts.states import CombatStep
from simulator.core.rulings import ruling_is
from simulator.core.log import fire
from simulator.core.model import State
from simulator.core.registry import effect, guard


def next_focus(g: State, current: str) -> str:
    """R2: the next player in turn order; with R2=defender-last, in a combat, the defender comes last."""
    players = g.in_game()
    if ruling_is(g, "R2", "defender-last") and g.attacker and g.defender in players:
        order = g.cfg.order
        i = order.index(g.attacker)
        ring = [order[(i + k) % len(order)] for k in range(len(order))]
        ring = [p for p in ring if p in players and p != g.defender] + [g.defender]
        if current not in ring:
            return ring[0]
        return ring[(ring.index(current) + 1) % len(ring)]
    return g.next_player(current, players)


@guard("all_passed_focus")
def _all_passed_focus(g: State, inst, ctx) -> bool:
    return set(g.in_game()) <= set(g.focus_passed)


@guard("chain_by_trigger_or_add")
def _by_trigger(g: State, inst, ctx) -> bool:
    return g.chain_by in ("trigger", "add")


@guard("in_combat")
def _in_combat(g: State, inst, ctx) -> bool:
    return g.ms[("combat", None)] != CombatStep.Idle


@guard("ruling_R1_attacker")
def _r1(g: State, inst, ctx) -> bool:
    return ruling_is(g, "R1", "attacker")


@effect("focus_to_contester")
def _award(g: State, inst, ctx) -> None:
    """345 / 464.2.c.1.a: the player who applied Contested (the attacker) gains focus, and priority (313.2)."""
    due = g.focus_due
    assert due is not None, "focus is awarded only when it is due"
    holder = due if due in g.in_game() else g.next_player(due)
    g.focus, g.focus_due, g.focus_passed = holder, None, ()
    if not g.chain:
        g.priority = holder
    ctx["player"] = holder


@effect("reset_focus_passes")
def _reset(g: State, inst, ctx) -> None:
    """R3: any new chain restarts the run of consecutive focus passes."""
    g.focus_passed = ()
    ctx["player"] = g.focus


@effect("chain_over")
def _chain_over(g: State, inst, ctx) -> None:
    g.chain_by = None


@effect("focus_keeps")
def _keeps(g: State, inst, ctx) -> None:
    g.chain_by = None
    g.priority = g.focus
    ctx["player"] = g.focus


def _holder(g: State) -> str:
    """The focus holder (focus passes on only from a player holding it, 347.2)."""
    assert g.focus is not None, "nobody holds focus"
    return g.focus


@effect("focus_to_next")
def _to_next(g: State, inst, ctx) -> None:
    g.chain_by = None
    g.focus = next_focus(g, _holder(g))
    g.priority = g.focus
    ctx["player"] = g.focus


@effect("focus_to_next_silent")
def _to_next_silent(g: State, inst, ctx) -> None:
    """652.5: the next player gets focus; priority stays where the running chain put it (313.3)."""
    g.focus = next_focus(g, _holder(g))
    ctx["player"] = g.focus


@effect("focus_to_attacker")
def _to_attacker(g: State, inst, ctx) -> None:
    g.focus = g.attacker
    g.priority = g.attacker
    ctx["player"] = g.attacker


@effect("focus_off")
def _off(g: State, inst, ctx) -> None:
    """348.1: the combat's showdown step is over; nobody has focus through damage and resolution (313.5)."""
    g.focus = None
    g.priority = None
    g.focus_passed = ()


# -- the schedule's steps (statecharts/schedule.py) ------------------------------------------------

@guard("focus_due")
def _focus_due(g: State, inst, ctx) -> bool:
    """345, R4: a showdown opened in a cleanup awaits its focus"""
    return g.focus_due is not None


@effect("award_focus")
def _award_focus(g: State, inst, ctx) -> None:
    fire(g, "focus", "award", player=g.focus_due)
