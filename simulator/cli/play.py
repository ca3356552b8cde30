"""Play a position step by step: type actions, see the trace, the state and everyone's legal actions.

Starts from a scenario file's starting position (its steps are replayed first with --replay).
Reads one command per line from standard input, so it works at a terminal or from a pipe.

actions (the scenario vocabulary, player first):
  A pass | A end-turn | A concede | A choose North | A invite C
  A move a1 a2 North           a standard move (144); `legal` shows one move per destination with
                               every unit that may go there: move any of them, alone or together
  A play rune-prison unit=b1   play a card; targets as field=value
  A play unit-2 at=North       a unit and where it is played
  A activate g1 add            activate an ability
  A order a1:brace             place your next simultaneous trigger (or several), first placed first (383.3.d)
  A choose yes | A choose no   decide an optional triggered ability as it is finalized (383.3.a)
  A target unit=b1             choose a triggered ability's targets as it is finalized (383.3.a)
  A activate b1 snare unit=a1  activate an ability, with its targets
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
from simulator.rules.damage import assigner
from simulator.scenario.view import view


class ParseError(RiftsimError):
    pass


def parse_action(text: str) -> Action:
    """``"A play rune-prison unit=b1"`` -> Action.

    >>> parse_action("A move a1 a2 North").describe()
    'A move a1 a2 North'
    >>> parse_action("B assign b1=2 b2=1").damage
    (('b1', 2), ('b2', 1))
    >>> parse_action("A order a1:brace a2:guard").triggers
    ('a1:brace', 'a2:guard')
    >>> parse_action("A choose no").option, parse_action("A target unit=b1").targets
    ('no', (('unit', 'b1'),))
    """
    words = text.split()
    if len(words) < 2:
        raise ParseError(f"expected 'PLAYER ACTION ...', got {text!r}")
    player, kind, rest = words[0], words[1], words[2:]
    if kind not in KINDS:
        raise ParseError(f"unknown action {kind!r}: one of {', '.join(KINDS)}")
    plain = [w for w in rest if "=" not in w]
    named: dict[str, str] = {}
    for w in rest:
        if "=" in w:
            f, v = w.split("=", 1)
            if not f or not v:
                raise ParseError(f"{w!r}: a target is field=value")
            if f in named:
                raise ParseError(f"{f} is given twice")
            named[f] = v
    if named and kind not in ("play", "target", "assign", "activate"):
        raise ParseError(f"{kind} takes no field=value ({', '.join(named)}): only play, activate, target and "
                         f"assign name fields")
    if kind in ("pass", "end-turn", "concede"):
        if rest:
            raise ParseError(f"{kind} takes nothing after it")
        return Action(kind, player)
    if kind == "move":
        if len(plain) < 2:
            raise ParseError("move needs units and a destination: A move a1 North")
        return Action("move", player, units=tuple(plain[:-1]), to=plain[-1])
    if kind == "choose":
        where = _one(plain, "choose needs a battlefield, or yes / no")
        if where in ("yes", "no"):
            return Action("choose", player, option=where)
        return Action("choose", player, battlefield=where)
    if kind == "target":
        if plain or not named:
            raise ParseError("target names the ability's targets as field=value: A target unit=b1")
        return Action("target", player, targets=tuple(sorted(named.items())))
    if kind == "invite":
        return Action("invite", player, teammate=_one(plain, "invite needs a teammate"))
    if kind == "order":
        if not plain or named:
            raise ParseError("order lists the player's pending triggers as SOURCE:ABILITY: A order a1:brace a2:guard")
        return Action("order", player, triggers=tuple(plain))
    if kind == "assign":
        try:
            dmg = tuple((u, int(n)) for u, n in named.items())
        except ValueError:
            raise ParseError("assign gives whole numbers: B assign a1=2 a2=1") from None
        if plain or not dmg:
            raise ParseError("assign names units and amounts: B assign a1=2 a2=1")
        return Action("assign", player, damage=dmg)
    if kind == "hide":
        if len(plain) != 2:
            raise ParseError("hide needs a card and a battlefield: A hide 'Back Off' North")
        return Action("hide", player, card=plain[0], at=plain[1])
    if kind == "activate":
        if len(plain) != 2:
            raise ParseError("activate needs a source and an ability: A activate g1 add")
        return Action("activate", player, source=plain[0], ability=plain[1], targets=tuple(sorted(named.items())))
    card = _one(plain, "play needs one card id (targets as field=value)")
    at = named.pop("at", None)
    acc = named.pop("accelerate", "false") == "true"
    src = named.pop("from", "hand")
    return Action("play", player, card=card, at=at, targets=tuple(sorted(named.items())), accelerate=acc,
                  hidden=src == "hidden")


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
    assigns = assigner(g)
    if assigns:
        order += f" | {assigns} assigns combat damage: {assigns} assign UNIT=N ... (465.2.c)"
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
                try:
                    game.apply(st.action, number)
                except IllegalAction as e:
                    print(f"riftsim play: {sc.file}:{st.line}: step {st.number}: {st.describe()} is illegal: "
                          f"{e.reason} [{e.rule}]", file=sys.stderr)
                    return 1
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
