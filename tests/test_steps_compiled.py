"""652's procedure as one generated function (``core.machines.compile_steps``, issue 13): conceding steps the player
machine Banishing -> Replacing -> Removing -> Countering -> Lost (652.1-652.5) through code generated from the
declarations. It must fire exactly the declared transitions, in the same order, with the same effects, as firing
the machine state by state: checked on every concede of the first states of every default verify position that
explores concede (magma-chamber's team loss, 651.4, included), and on a procedure an effect interrupts."""
from __future__ import annotations

from collections import deque

import pytest

from simulator.core import machines, registry
from simulator.game import engine
from simulator.verify.command import DEFAULT_FILES, load_positions
from simulator.verify.explore import actions_of, fast_fingerprint
from searching import everything

POSITIONS = [p for f in DEFAULT_FILES for p in load_positions(str(f))[0] if p.concede]
STATES = 40


class Log(list):
    """A coverage recorder keeping every fired transition in firing order."""

    def add(self, rec) -> None:
        self.append(rec)


def _fired(g, a, fused: bool, monkeypatch) -> tuple[tuple, list]:
    """(key of the successor, the transitions fired computing it) with or without the generated procedure."""
    with monkeypatch.context() as m:
        m.setattr(machines, "_STEPS", {} if fused else _NoSteps())
        n = g.clone()
        n.coverage = log = Log()
        engine.perform(n, a)
        engine.settle(n)
    return n.key(), list(log)


class _NoSteps(dict):
    """A ``_STEPS`` table that never has a generated procedure: ``steps`` fires state by state."""

    def get(self, k, default=None):
        return None


def test_positions_explore_concede():
    assert POSITIONS and any(p.setup.get("mode") == "magma-chamber" for p in POSITIONS)


@pytest.mark.parametrize("pos", POSITIONS, ids=[p.name for p in POSITIONS])
def test_generated_procedure_fires_what_the_machine_fires_state_by_state(pos, monkeypatch):
    """652.1-652.5: the same successor and the same declared transitions, in order, for every concede."""
    start = pos.start()
    queue, seen, done, concedes = deque([start]), {fast_fingerprint(start)}, 0, 0
    while queue and done < STATES:
        g = queue.popleft()
        done += 1
        for a in actions_of(g, True):
            key, fired = _fired(g, a, True, monkeypatch)
            if a.kind == "concede":
                concedes += 1
                ref_key, ref = _fired(g, a, False, monkeypatch)
                assert key == ref_key, f"{pos.name}: {a.describe()}: another successor"
                assert fired == ref, f"{pos.name}: {a.describe()}: other transitions fired"
                steps = [r for r in fired if r[0] == "player" and r[2] == "next"]
                assert [(r[1], r[3]) for r in steps][:4] == [("Banishing", "Replacing"), ("Replacing", "Removing"),
                                                               ("Removing", "Countering"), ("Countering", "Lost")]
            n = engine.step(g, a)
            f = fast_fingerprint(n)
            if f not in seen and n.winner is None:
                seen.add(f)
                queue.append(n)
    assert concedes > 0


def test_generated_procedure_is_derived_from_the_declarations():
    """One function for Banishing..Lost (every step unguarded); none from a state whose transition is guarded."""
    from simulator import rules
    rules.install()
    f = machines.compile_steps("player", "Banishing", "next", "Lost")
    assert f is not None
    for eff in ("replace_battlefield", "remove_cards", "counter_items", "continue_game"):
        assert f"EFFECTS['{eff}']" in f.source
    assert machines.compile_steps("chain", "Execute", "withdraw", "Empty") is None     # guarded: chosen at run time


def test_an_effect_that_moves_the_machine_ends_the_generated_run_where_it_is(monkeypatch):
    """If an effect fires the machine elsewhere, the procedure goes on from there, as state by state: here 652.3's
    effect moves the player to Countering itself, so 652.4's step is skipped by both ways of firing."""
    pos = POSITIONS[0]
    g = pos.start()
    a = next(a for a in actions_of(g, True) if a.kind == "concede")
    plain = registry.EFFECTS["remove_cards"]

    def jump(g, inst, ctx):
        plain(g, inst, ctx)
        g.ms[("player", inst)] = "Countering"

    monkeypatch.setitem(registry.EFFECTS, "remove_cards", jump)
    key, fired = _fired(g, a, True, monkeypatch)
    ref_key, ref = _fired(g, a, False, monkeypatch)
    assert (key, fired) == (ref_key, ref)
    steps = [(r[1], r[3]) for r in fired if r[0] == "player" and r[2] == "next"]
    assert ("Removing", "Countering") not in steps and steps[-1] == ("Countering", "Lost")


# -- the whole search, with and without the generated procedure ------------------------------------------------

BIG = load_positions(str(__import__("pathlib").Path(__file__).resolve().parent.parent / "bench" / "positions" /
                         "war-4p-3-cards-4-turns.yaml"))[0][0]
SEARCHES = {p.name: (p, None) for p in POSITIONS if p.name in ("war-combat-R2-defender-last-concede",
                                                                 "magma-chamber-teams-invite-concede")}
SEARCHES["war-4p-3-cards-4-turns cut at depth 6"] = (BIG, 6)




@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("name", list(SEARCHES))
def test_the_search_is_the_same_with_and_without_the_generated_procedure(name, n, monkeypatch):
    """652: the same states, transitions, graph, shortest-trace tree, coverage and findings, on one and two shards."""
    pos, depth = SEARCHES[name]
    with monkeypatch.context() as m:
        m.setattr(machines, "_STEPS", _NoSteps())
        plain = everything(pos, depth, n)
    with monkeypatch.context() as m:
        m.setattr(machines, "_STEPS", {})
        fused = everything(pos, depth, n)
    assert plain[0] > 1000 and plain[1] > plain[0]
    assert fused == plain
