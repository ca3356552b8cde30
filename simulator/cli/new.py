"""A commented starting scenario for a mode, printed to stdout: a position, a move, the showdown it opens
and its end, each checked by an expectation. `riftsim simulate` runs it as it is (PASS); edit from there.

examples:
  riftsim new > my.yaml                        a duel (2 players, 2 battlefields)
  riftsim new --mode skirmish > my.yaml        3 players, 3 battlefields
  riftsim new --mode magma-chamber > team.yaml 2 teams of 2 (turns alternate teams, points are shared)
  riftsim simulate my.yaml                     then run it
"""
from __future__ import annotations

import argparse
import sys

from simulator.game.setup import MODES

#: players and battlefields of each mode (Core Rules 485-489: two battlefields in a duel, three otherwise)
BATTLEFIELDS = {2: ["North", "South"], 3: ["North", "South", "East"], 4: ["North", "South", "East"]}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mode", choices=tuple(MODES), default="duel", help="the game mode (default: duel)")


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(starting_file(args.mode))
    return 0


def _c(code: str, comment: str) -> str:
    """A line of YAML with its comment, the comments of a file in one column."""
    return f"{code:<36} # {comment}"


def _flow(items: list[str]) -> str:
    return "[" + ", ".join(items) + "]"


def starting_file(mode: str) -> str:
    """The commented YAML of a starting scenario in ``mode``; it passes as it is (tests/test_standalone.py)."""
    size, victory = MODES[mode]
    players = list("ABCD"[:size])
    teams = [[players[0], players[2]], [players[1], players[3]]] if mode == "magma-chamber" else None
    scorers = teams[0] if teams else ["A"]
    other = players[1].lower() + "1"
    lines = [
        "# A riftsim scenario: a starting position, then steps that act (do:) and check the position (expect:).",
        "# Run it with `riftsim simulate FILE` (exit 0: every expectation held). Every key and value: `riftsim schema`",
        "# (JSON Schema, for editors) and docs/scenario-format.md; worked examples: `riftsim examples`.",
        f'name: "A {mode} scenario: A moves a unit to an empty battlefield and conquers it"',
        _c(f"mode: {mode}", "duel (2 players), skirmish (3), war (4), magma-chamber (2 teams of 2)"),
        _c(f"players: {_flow(players)}", "in turn order: A starts, in the Main Phase, with priority"),
    ]
    if teams:
        lines.append(_c(f"teams: {_flow([_flow(t) for t in teams])}",
                        "turns alternate teams; a team scores and wins together (489)"))
    lines += [
        _c(f"battlefields: {_flow(BATTLEFIELDS[size])}", "names of your choice"),
        _c(f"# control: {{South: {players[-1]}}}", "who controls a battlefield at the start (default: nobody)"),
        _c("# score: {A: 0}", f"points at the start; {victory} points win a {mode} game"),
        _c("units:", "id, owner, at (base or a battlefield), might; keywords: [tank, ...]"),
        "  - {id: a1, owner: A, at: base, might: 2}",
        f"  - {{id: {other}, owner: {players[1]}, at: base, might: 3}}",
        _c("hands:", "card ids: built-in cards (rune-prison, en-garde, unit-3...), real"),
        _c("  A: [rune-prison]", "cards by name (`riftsim cards`), or your own under cards:"),
        "# cards: {my-spell: {type: spell, timing: action, effect: [{stun: {unit: target}}]}}",
        _c("# rulings: {R1: default}", "pin a ruling's alternative (`riftsim rules R1` lists them)"),
        "steps:",
        "  # the starting position",
        f"  - expect: {{state: neutral-open, turn: A, priority: A, score: {{{', '.join(f'{p}: 0' for p in players)}}}}}",
        "  # a standard move (144) to an empty battlefield: it becomes Contested, a showdown opens (344.2), A has focus",
        "  - {do: move, player: A, units: [a1], to: North}",
        "  - expect: {state: showdown-open, contested: [North], controller: {North: null}, focus: A, priority: A}",
        "  # every player passes focus in succession (347.2.a): the showdown ends, A takes control and conquers (469.1)",
        *(f"  - {{do: pass, player: {p}}}" for p in players),
        f"  - expect: {{state: neutral-open, controller: {{North: A}}, score: {{{', '.join(f'{p}: 1' for p in scorers)}}}, "
        "focus: null, priority: A}",
        f"  # next, e.g.: - {{do: play, player: A, card: rune-prison, targets: {{unit: {other}}}}}",
        "  #             - {do: end-turn, player: A}",
    ]
    return "\n".join(lines) + "\n"
