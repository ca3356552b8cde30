"""Conceding and removal from the game (649-652, seed 003), so that nothing waits on a player who left."""
from __future__ import annotations

from statecharts.states import ChainState, FocusState, PlayerState, Status
from statecharts.citations import cite
from simulator.core.rulings import ruling_is
from simulator.core.log import fire, log
from simulator.core.model import State
from simulator.core.registry import effect
from simulator.rules.scoring import declare_winner
from simulator.rules.zones import leave_board, remove_zones


def concede(g: State, player: str, trigger: str = "concede") -> None:
    """651: the player leaves; in team modes the whole team loses (651.4); the procedure of 652 runs."""
    was_turn = g.turn == player
    held_focus = g.focus == player
    held_priority = g.priority == player
    # not a hand-off: 651's procedure starts: a player concedes (or loses with their team, 651.4)
    fire(g, "player", trigger, player, player=player)
    g.cfg.rt.steps(g, "player", "next", PlayerState.Lost, player,
                   {"player": player, "was_turn": was_turn, "held_focus": held_focus, "held_priority": held_priority})
    if g.cfg.mode == "magma-chamber":
        for mate in g.cfg.teams[g.team(player)]:
            if mate != player and g.ms[("player", mate)] == PlayerState.InGame:
                concede(g, mate, "lose")
    left = g.in_game()
    if g.winner is None and left and len({g.team(p) for p in left}) == 1:
        log(g, "only one side is left in the game", cite("concede.only-one-side-left-game"))
        declare_winner(g, g.team(left[0]), cite("concede.concede-declare-winner"))


@effect
def _banish_all(g: State, inst, ctx) -> None:
    """652.1: banish every permanent and facedown card the player owns or controls."""
    for u in g.units.values():
        if u.zone == "board" and (u.owner == inst or u.controller == inst):
            log(g, '{unit} is banished', cite("concede.banished"), inst, unit=u.id)
            leave_board(g, g.edit(u), "banished")
    if g.hidden:
        from simulator.rules.hidden import banish_player
        banish_player(g, inst)
    g.dirty = True


@effect
def _replace_battlefield(g: State, inst, ctx) -> None:
    """652.2 (R9): their battlefield becomes a token battlefield with no abilities; units stay."""
    for name, b in g.bfs.items():
        if b.provider == inst and not b.token:
            g.touch("battlefields")
            b.token = True
            b.abilities = ()
            b.static_might = 0
            log(g, "{bf} is replaced by a token battlefield with no abilities; units there stay", cite("concede.replaced-token-battlefield-with-no"), inst,
                bf=name)
            if ruling_is(g, "R9", "reset"):
                if b.controller:
                    b.controller = None
                    # not a hand-off: 652.2 acting on each battlefield the leaver provided (an instance no hand-off names)
                    fire(g, "battlefield.control", "lose", name)
                # a battlefield is never merely Contested when a player may concede (verify shows Contested
                # never rests: each cleanup stages or clears it), so only staged statuses can be reset
                if g.ms[("battlefield.status", name)] in (Status.Staged, Status.StagedCombat):
                    b.contested_by = None
                    # not a hand-off: 652.2 acting on each battlefield the leaver provided (an instance no hand-off names)
                    fire(g, "battlefield.status", "reset", name)


@effect
def _remove_cards(g: State, inst, ctx) -> None:
    """652.3: every card they own leaves the game."""
    for u in g.units.values():
        if u.owner == inst and u.zone != "removed":
            log(g, '{unit} is removed from the game', cite("concede.removed-from-game"), inst, unit=u.id)
            leave_board(g, g.edit(u), "removed")
    g.set_hand(inst, [])
    remove_zones(g, inst)


@effect
def _counter_items(g: State, inst, ctx) -> None:
    """652.4: counter every spell and ability they control on the chain."""
    if not g.chain:
        return
    keep = [it for it in g.chain if it.controller != inst]
    for it in g.chain:
        if it.controller == inst:
            log(g, "{item} is countered: its controller left", cite("concede.countered-controller-left"), inst, item=it.name)
    g.chain[:] = keep


@effect
def _continue_game(g: State, inst, ctx) -> None:
    """652.5 (R10, R15): the turn, focus and priority move on to players still in the game."""
    _forget_leaver(g, inst)
    left = g.in_game()
    if not left:
        return
    if ctx.get("was_turn"):
        g.turn = g.next_player(inst)
        g.handoff = True
        log(g, "the turn passes to {player} once nothing is ongoing", cite("concede.turn-passes-once-nothing-ongoing"), g.turn)
    if g.winner is not None or len({g.team(p) for p in left}) <= 1:
        return
    _chain_moves_on(g, inst, ctx)
    _focus_moves_on(g, inst, ctx)
    if g.priority == inst:
        g.priority = None


def _forget_leaver(g: State, inst: str) -> None:
    """652.5: the leaver is no longer among the players who passed, passed focus, were invited or take an
    extra turn."""
    if inst in g.passed:                    # (each filtered only if they are in it: the same value, cheaper)
        g.passed = tuple([p for p in g.passed if p != inst])
    if inst in g.focus_passed:
        g.focus_passed = tuple([p for p in g.focus_passed if p != inst])
    if g.invited == inst:
        g.invited = None
    if inst in g.extra:
        g.extra = [p for p in g.extra if p != inst]


def _chain_moves_on(g: State, inst: str, ctx: dict) -> None:
    """652.4, 652.5: nothing on the chain waits on the leaver: their order or decision (383.3.d, 383.3.a), their
    item waiting mid-resolution, or their priority."""
    st = g.ms[("chain", None)]
    if st in (ChainState.Order, ChainState.Decide):                       # 652.4, 383.3.d, 383.3.a: nobody waits on them
        # not a hand-off: 652.4-652.5 acting on the chain as its state requires (nothing waits on the leaver)
        fire(g, "chain", "withdraw", player=inst)
    if st == ChainState.ResolveChoice and g.resolving is not None and g.resolving.item.controller == inst:
        # not a hand-off: 652.4-652.5 acting on the chain as its state requires (nothing waits on the leaver)
        fire(g, "chain", "withdraw", player=inst)       # 652.4: their resolving item is countered
    if st == ChainState.Execute:
        if ctx.get("held_priority"):
            g.priority = inst
        if g.priority == inst or not g.chain or set(g.in_game()) <= set(g.passed):
            # not a hand-off: 652.4-652.5 acting on the chain as its state requires (nothing waits on the leaver)
            fire(g, "chain", "withdraw", player=inst)
        elif g.priority is not None:
            log(g, "{player} keeps priority", cite("concede.keeps-priority"), g.priority)


def _focus_moves_on(g: State, inst: str, ctx: dict) -> None:
    """652.5 (R10): focus moves on from the leaver, or the showdown ends if everyone left has passed focus."""
    fs = g.ms[("focus", None)]
    if ctx.get("held_focus"):
        g.focus = inst
    if (fs == FocusState.Holding and (g.focus == inst or set(g.in_game()) <= set(g.focus_passed))) or \
            (fs == FocusState.Waiting and g.focus == inst):
        # not a hand-off: 652.5 acting on focus as its state requires (nothing waits on the leaver)
        fire(g, "focus", "holder_left", player=inst)
