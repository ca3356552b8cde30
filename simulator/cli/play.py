"""Play a position step by step: type actions, see the trace, the state and everyone's legal actions.

Starts from a scenario file's starting position (its steps are replayed first with --replay).
Reads one command per line from standard input, so it works at a terminal or from a pipe.

actions (the scenario vocabulary, player first):
  A pass | A end-turn | A concede | A choose North | A invite C
  A move a1 a2 North           a standard move (144)
  A play rune-prison unit=b1   play a card; targets as field=value
  A play unit-2 at=North       a unit and where it is played
  A activate g1 add            activate an ability
  A order a1:brace a2:guard    order your simultaneous triggers, first placed first (383.3.d)
other commands:
  legal       everyone's legal actions        state   the position (turn state, focus, chain...)
  trace       the whole trace so far           undo    take the last action back
  help        this text                        quit    leave (end of input does too)

example:
  printf 'A move a1 North\\nA pass\\nB pass\\nstate\\n' | riftsim play scenarios/seed000-showdown-on-an-empty-battlefield.yaml
"""
from __future__ import annotations

import argparse
import sys

from simulator.game.actions import KINDS, Action
from simulator.rules.triggers import orderer, unordered_labels
from simulator.core.errors import IllegalAction, RiftsimError
from simulator.core.model import Event, State
from simulator.scenario.view import view


class ParseError(RiftsimError):
    pass


def parse_action(text: str) -> Action:
    """``"A play rune-prison unit=b1"`` -> Action.

    >>> parse_action("A move a1 a2 North")
    Action(kind='move', player='A', units=('a1', 'a2'), to='North', card=None, targets=(), at=None, source=None, ability=None, battlefield=None, teammate=None, triggers=(), option=None)
    >>> parse_action("A order a1:brace a2:guard").triggers
    ('a1:brace', 'a2:guard')
    """
    words = text.split()
    if len(words) < 2:
        raise ParseError(f"expected 'PLAYER ACTION ...', got {text!r}")
    player, kind, rest = words[0], words[1], words[2:]
    if kind not in KINDS:
        raise ParseError(f"unknown action {kind!r}: one of {', '.join(KINDS)}")
    plain = [w for w in rest if "=" not in w]
    named = dict(w.split("=", 1) for w in rest if "=" in w)
    if kind in ("pass", "end-turn", "concede"):
        if rest:
            raise ParseError(f"{kind} takes nothing after it")
        return Action(kind, player)
    if kind == "move":
        if len(plain) < 2:
            raise ParseError("move needs units and a destination: A move a1 North")
        return Action("move", player, units=tuple(plain[:-1]), to=plain[-1])
    if kind == "choose":
        return Action("choose", player, battlefield=_one(plain, "choose needs a battlefield"))
    if kind == "invite":
        return Action("invite", player, teammate=_one(plain, "invite needs a teammate"))
    if kind == "order":
        if not plain or named:
            raise ParseError("order lists the player's pending triggers as SOURCE:ABILITY: A order a1:brace a2:guard")
        return Action("order", player, triggers=tuple(plain))
    if kind == "activate":
        if len(plain) != 2:
            raise ParseError("activate needs a source and an ability: A activate g1 add")
        return Action("activate", player, source=plain[0], ability=plain[1])
    card = _one(plain, "play needs one card id (targets as field=value)")
    at = named.pop("at", None)
    return Action("play", player, card=card, at=at, targets=tuple(sorted(named.items())))


def _one(words: list[str], msg: str) -> str:
    if len(words) != 1:
        raise ParseError(msg)
    return words[0]


def status(g: State) -> str:
    v = view(g, with_legal=False)
    act = v["active"]
    where = f" | {act['kind']} at {act['at']}" if act else ""
    if act and act["kind"] == "combat":
        where += f" ({act['attacker']} attacks {act['defender']})"
    staged = "".join(f" | staged {'+'.join(k)} at {b}" for b, k in v["staged"].items())
    score = " ".join(f"{p}:{n}" for p, n in v["score"].items())
    win = f" | winner {v['winner']}" if v["winner"] else ""
    who = orderer(g)
    order = f" | {who} orders {' '.join(unordered_labels(g, who))} (383.3.d)" if who else ""
    return (f"[{v['state']} | turn {v['turn']} | focus {v['focus']} | priority {v['priority']} | "
            f"chain {v['chain']}{order}{where}{staged} | score {score}{win}]")


def legal_lines(g: State) -> list[str]:
    v = view(g)
    return [f"  {p}: {', '.join(acts)}" for p, acts in v["legal"].items() if p in v["players"]]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a scenario file: its starting position (and, with --replay, its steps)")
    p.add_argument("--replay", action="store_true", help="replay the scenario's actions first")
    from simulator.cli.simulate import _ruling
    p.add_argument("--ruling", action="append", type=_ruling, default=[], metavar="ID=VALUE",
                   help="switch a ruling, e.g. R1=attacker")
    p.add_argument("--backend", choices=("compiled", "transitions"), default="compiled")


def run(args) -> int:
    from simulator.scenario.loader import load

    sc = load(args.file)
    game = sc.game(backend=args.backend, rulings=dict(args.ruling))
    history: list[State] = []
    number = 0
    if args.replay:
        for st in sc.steps:
            if st.action and not st.illegal:
                number = st.number
                game.apply(st.action, number)
    out = sys.stdout
    print(f"{sc.name}: type 'help' for commands", file=out)
    _show(game.state.trace, out)
    print(status(game.state), file=out)
    for line in sys.stdin:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if text in ("quit", "exit"):
            break
        if text == "help":
            print(__doc__, file=out)
        elif text == "legal":
            print("\n".join(legal_lines(game.state)), file=out)
        elif text == "state":
            print(status(game.state), file=out)
        elif text == "trace":
            _show(game.state.trace, out)
        elif text == "undo":
            if history:
                game.state = history.pop()
                number -= 1
                print("undone. " + status(game.state), file=out)
            else:
                print("nothing to undo", file=out)
        else:
            try:
                action = parse_action(text)
                before = len(game.state.trace)
                prev = game.state
                game.apply(action, number + 1)
            except IllegalAction as e:
                print(f"illegal: {e.reason} [{e.rule}]", file=out)
                continue
            except ParseError as e:
                print(f"? {e}", file=out)
                continue
            history.append(prev)
            number += 1
            _show(game.state.trace[before:], out)
            print(status(game.state), file=out)
    return 0


def _show(events: list[Event], out) -> None:
    from simulator.scenario.loader import trace_line
    for e in events:
        print(trace_line(e), file=out)
