"""Scoring (467-472): Conquer and Hold, one score per battlefield per turn, the final point; winning (323.1, 194);
Burn Out's point and its win at once (431.2.c, 431.3.c.1)."""
from __future__ import annotations

from statecharts.citations import cite
from simulator.core.errors import RulesBug
from simulator.core.log import fire, log
from simulator.core.model import State
from simulator.rules.draw import draw
from simulator.rules.zones import put
from simulator.rules.triggers import battlefield_triggers, simultaneous, trigger_abilities


def holder(g: State, player: str) -> str:
    """Whose score a point goes to: the player, or the team's first player (489.8.d: shared points)."""
    team = g.cfg.teams[g.team(player)]
    return team[0]


def team_score(g: State, team: int) -> int:
    return g.score.get(g.cfg.teams[team][0], 0)


def points(g: State, player: str) -> int:
    return g.score.get(holder(g, player), 0)


def add_points(g: State, player: str, n: int = 1) -> None:
    h = holder(g, player)
    g.add_score(h, n)
    g.dirty = True


def establish_control(g: State, bf: str, player: str) -> None:
    """190.4.a: ``player`` establishes control; a Conquer if not scored this turn (469.1)."""
    b = g.bfs[bf]
    if b.controller == player:
        return
    g.touch("battlefields")
    b.controller = player
    g.dirty = True
    # not a hand-off: 190.4.a's procedure: control is gained before the Conquer it scores (469.1)
    fire(g, "battlefield.control", "gain", bf, player=player)
    conquer(g, bf, player)


def conquer(g: State, bf: str, player: str) -> None:
    """469.1, 470, 471.1.b (R16): the final point needs every battlefield scored this turn."""
    if bf in g.scored:
        log(g, "{bf} was already scored this turn: no Conquer point", cite("scoring.was-already-scored-turn-no"), player, bf=bf)
        return
    if bf in g.blocked and not g.opponents(player, g.turn):
        log(g, "{bf} was controlled by an ally at the scoring step: {player}'s team can't score it this turn",
            cite("scoring.was-controlled-ally-scoring-step"), player, bf=bf)
        return
    short = g.cfg.victory - points(g, player)
    point = True
    if short <= 1:
        # 489.8.g.1: battlefields blocked for the team at the scoring step (an ally's) are not counted
        others = [n for n in g.bfs if n != bf and not (n in g.scored and g.teammates(player, g.scored[n]))
                  and not (n in g.blocked and not g.opponents(player, g.turn))]
        point = all(g.scored.get(n) == player for n in others)
    g.scored[bf] = player                           # 470, R18: scored this turn, with a point or a card
    if point:
        add_points(g, player)
        log(g, "{player} conquers {bf} and scores 1 (now {points})", cite("scoring.conquers-scores-1-now"), player, bf=bf,
            points=points(g, player))
    else:
        draw(g, player, 1, burn_out, say=False)
        g.dirty = True
        log(g, "{player} conquers {bf} one point short of victory without having scored every battlefield this "
               "turn: draws a card instead of the point; {bf} counts as scored this turn",
            cite("scoring.conquers-one-point-short-victory"), player, bf=bf)
    with simultaneous(g):                           # one event: its controller orders them (383.3.d)
        for u in g.units_at(bf, player):
            trigger_abilities(g, u, "on-conquer", there=bf)
        battlefield_triggers(g, bf, "on-conquer")


def hold_all(g: State) -> None:
    """315.2.b, 469.2: the turn player holds every battlefield they control, together (R12)."""
    p = g.turn
    if g.cfg.mode == "magma-chamber":                # 469.1.a, 489.8.b: closed to p's team only, not scored
        g.blocked = tuple(n for n, b in g.bfs.items() if b.controller and b.controller != p
                          and g.teammates(p, b.controller))
    held = [n for n, b in g.bfs.items() if b.controller == p and n not in g.scored]
    for name in held:
        g.scored[name] = p
        add_points(g, p)
        log(g, "{player} holds {bf} and scores 1 (now {points})", cite("scoring.holds-scores-1-now"), p, bf=name, points=points(g, p))
    with simultaneous(g):                           # held together (R12): the turn player orders them (383.3.d)
        for name in held:
            for u in g.units_at(name, p):
                trigger_abilities(g, u, "on-hold", there=name)
            battlefield_triggers(g, name, "on-hold")


def declare_winner(g: State, team: int, rule: str) -> None:
    winners = tuple(p for p in g.in_game() if g.team(p) == team)
    g.touch("winner")                   # the winners are the players whose machine is Won (State.winner)
    g.priority = None
    g.focus = None
    for p in winners:
        # not a hand-off: 323.1's win check, 431.3.c.1's burn out or 651's last side names the winners
        fire(g, "player", "win", p, player=p)
    # not a hand-off: the game ends once its winners are declared (323.1), whoever declared them
    fire(g, "phases", "game_over", player=winners[0])


def burn_out(g: State, p: str, nth: int) -> None:
    """431: ``p`` must draw from an empty Main Deck: their trash becomes their deck (431.2.b, in the order the cards
    entered the trash: the rules randomize it, 416.5), and an opponent gains 1 point (431.2.c); ``nth`` > 0: a later
    burn out of the same draw, whose point may win at once (431.3.c.1)."""
    log(g, "{player} must draw from an empty Main Deck: {player} burns out", cite("scoring.burns-out"), p)
    trash = g.pile("trash", p)
    if trash:
        g.set_pile("trash", p, ())
        for entry in trash:
            put(g, "deck", p, entry)
        log(g, "{player} recycles {n} card(s) from the trash into the Main Deck", cite("scoring.recycles-trash"), p,
            n=len(trash))
    sides = {holder(g, q) for q in g.in_game() if g.opponents(p, q)}
    if len(sides) != 1:
        raise RulesBug(f"{p} burns out with {len(sides)} opponents' scores to choose from: the choice of the "
                       f"opponent who gains the point (431.2.c) is not modelled yet")
    opp = next(q for q in g.in_game() if g.opponents(p, q))
    add_points(g, opp)
    log(g, "{opponent} gains 1 point from {player}'s burn out (now {points})", cite("scoring.burn-out-point"), p,
        opponent=opp, points=points(g, opp))
    mine = team_score(g, g.team(opp))
    if nth and mine >= g.cfg.victory and all(mine > team_score(g, t) for t in {g.team(q) for q in g.in_game()}
                                              if t != g.team(opp)):
        log(g, "{player} wins at once: a point from a repeated burn out", cite("scoring.wins-at-once"), opp)
        declare_winner(g, g.team(opp), cite("scoring.wins-at-once"))
