"""Benchmark (not a test): the cost of one simulated action, cleanups included, as a ratio to one bare
``transitions`` trigger measured in the same run.

    python bench/bench_step.py               # ratio (target: <= 4x, issue 2), cost per declared transition
    python bench/bench_step.py --profile     # plus a cProfile of the simulated actions (top functions)

The simulated actions replay a scripted game through ``simulator.game.engine.step`` (check, clone, perform and HOT
FEPR with every cleanup): seed 000's showdown with Rune Prison and an En Garde response, seed 001's chain in
Neutral, seed 002's conversion into a combat with a defend trigger, a combat won with a Conquer, and an end of
turn through the whole turn cycle. The baseline is a flat ``transitions.Machine`` with two states toggled by
one trigger. The cost is also given per declared transition fired (every transition of a ``statecharts/``
machine the script fires, counted in a separate untimed replay: issue 13). Timings are the best of several rounds (``time.perf_counter``), the rounds of the two measurements
alternating so that a change of load on the shared machine hits both; the ratio is what to compare.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from transitions import Machine  # noqa: E402

from simulator.game.actions import Action  # noqa: E402
from simulator.game.engine import step  # noqa: E402
from simulator.game.setup import build  # noqa: E402

SETUP = {
    "players": ["A", "B"],
    "battlefields": ["North", "South"],
    "control": {"South": "B"},
    "units": [
        {"id": "a1", "owner": "A", "at": "base", "might": 2},
        {"id": "a2", "owner": "A", "at": "base", "might": 4},
        {"id": "b1", "owner": "B", "at": "base", "might": 3,
         "abilities": [{"name": "guard", "trigger": "on-defend", "effect": []}]},
        {"id": "b2", "owner": "B", "at": "South", "might": 1},
    ],
    "hands": {"A": ["rune-prison", "normal-spell"], "B": ["en-garde", "reaction-spell", "move-spell"]},
}


def script() -> list[Action]:
    A = lambda kind, **kw: Action(kind, "A", **kw)  # noqa: E731
    B = lambda kind, **kw: Action(kind, "B", **kw)  # noqa: E731
    return [
        # seed 001: a spell, a Reaction, two full rounds of passes (Neutral Closed)
        A("play", card="normal-spell"), A("pass"), B("play", card="reaction-spell"), B("pass"), A("pass"),
        A("pass"), B("pass"),
        # seed 000: showdown at an empty battlefield, Rune Prison answered by En Garde
        A("move", units=("a1",), to="North"), A("play", card="rune-prison", targets=(("unit", "a1"),)),
        A("pass"), B("play", card="en-garde", targets=(("unit", "b1"),)), B("pass"), A("pass"), A("pass"),
        B("pass"),
        # seed 002: B moves in by a spell; the showdown converts into a combat with a defend trigger
        B("play", card="move-spell", targets=(("unit", "b1"), ("to", "North"))), B("pass"), A("pass"),
        B("pass"), A("pass"), A("pass"), B("pass"),
        # a second combat won by A (Conquer), then the turn cycle
        A("move", units=("a2",), to="South"), A("pass"), B("pass"),
        A("end-turn"), B("end-turn"),
    ]


def run_script(start, actions) -> int:
    g = start
    for i, a in enumerate(actions, 1):
        g = step(g, a, i)
    return len(actions)


def time_actions(rounds: int, reps: int) -> float:
    start = build(SETUP)
    actions = script()
    run_script(start, actions)                       # warm up (and prove the script is legal)
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        n = 0
        for _ in range(reps):
            n += run_script(start, actions)
        best = min(best, (time.perf_counter() - t0) / n)
    return best


class _Count:
    """A coverage recorder that counts the declared transitions fired (the generated cleanup loop asks for
    its recorder per leaf)."""

    def __init__(self) -> None:
        self.n = 0

    def add(self, rec: tuple) -> None:
        self.n += 1

    def recorder(self, leaf: str):
        return self.add


def fired_per_script() -> int:
    """Declared transitions the script fires (actions and every cleanup, settle included)."""
    start = build(SETUP)
    start.coverage = count = _Count()
    run_script(start, script())
    return count.n


class _Door:
    pass


def time_trigger(rounds: int, reps: int) -> float:
    model = _Door()
    Machine(model=model, states=["shut", "open"], initial="shut", auto_transitions=False,
            transitions=[{"trigger": "toggle", "source": "shut", "dest": "open"},
                         {"trigger": "toggle", "source": "open", "dest": "shut"}])
    toggle = model.toggle
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(reps):
            toggle()
        best = min(best, (time.perf_counter() - t0) / reps)
    return best


def profile(reps: int, top: int) -> str:
    start = build(SETUP)
    actions = script()
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(reps):
        run_script(start, actions)
    pr.disable()
    out = io.StringIO()
    pstats.Stats(pr, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="timing rounds; the best is kept (default 5)")
    ap.add_argument("--reps", type=int, default=40, help="script replays per round (default 40)")
    ap.add_argument("--profile", action="store_true", help="print a cProfile of the simulated actions")
    ap.add_argument("--top", type=int, default=25, help="functions shown by --profile (default 25)")
    args = ap.parse_args(argv)
    n_actions = len(script())
    # rounds of the two measurements alternate, so a change of load on the shared machine hits both
    action = trigger = float("inf")
    for _ in range(args.rounds):
        action = min(action, time_actions(1, args.reps))
        trigger = min(trigger, time_trigger(1, args.reps * n_actions * 10))
    ratio = action / trigger
    fired = fired_per_script()
    per_fired = action * n_actions / fired
    print(f"one simulated action (engine.step, cleanups included): {action * 1e6:9.2f} us  "
          f"(mean over a {n_actions}-action script)")
    print(f"one bare transitions trigger (2-state toggle):          {trigger * 1e6:9.2f} us")
    print(f"declared transitions fired: {fired} over the script ({fired / n_actions:.1f} per action): "
          f"{per_fired * 1e6:.2f} us per declared transition = {per_fired / trigger:.2f}x the bare trigger")
    print(f"ratio: {ratio:.2f}x   (issue 2 target: <= 4x: {'met' if ratio <= 4 else 'NOT met'})")
    if args.profile:
        print(profile(args.reps, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
