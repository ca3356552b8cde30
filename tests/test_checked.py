"""A state that will never be expanded (terminal, or at the turn or depth bound) is checked as soon as it is known
to be new and only its outcome is held (``explore.Checked``, issue 13's memory): the search's result is the one
of holding every state whole until its level is expanded (``CHECK_EARLY`` off): the same states (node ids),
transitions, graph, shortest-trace tree, coverage, and the same violations (invariants at the bound included,
313.2 broken on purpose) with the same shortest traces, on one shard and several."""
from __future__ import annotations

import dataclasses

import pytest

from fixtures import broken_rule
from simulator.core import registry
from simulator.rules import install
from simulator.verify import explore as ex
from simulator.verify.command import DEFAULT_FILES, load_positions
from simulator.verify.explore import Checked, Position, Shard, explore
from test_shard import DUEL, same, sharded

# exhaustive (whole searches compared with checking early and late): .ci/run's slow step
pytestmark = pytest.mark.slow

POSITIONS = {p.name: p for f in DEFAULT_FILES for p in load_positions(str(f))[0]}
WAR4 = dataclasses.replace(load_positions("bench/positions/war-4p-3-cards-4-turns.yaml")[0][0], max_states=10 ** 9)
install()


def both(monkeypatch, run):
    """``run()`` with states held whole, then checked early."""
    monkeypatch.setattr(ex, "CHECK_EARLY", False)
    off = run()
    monkeypatch.setattr(ex, "CHECK_EARLY", True)
    return off, run()


def search(pos, n, **kw):
    return explore(pos, graph=True, **kw) if n == 1 else sharded(pos, n, **kw)


@pytest.mark.parametrize("name", ["duel-two-fronts", "duel-triggers-and-victory", "skirmish-focus-holder-leaves",
                                  "war-combat-R2-defender-last-concede", "magma-chamber-concede"])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_checking_early_is_the_same_search(monkeypatch, name, n):
    """Terminal states (323.1, 651.1: a win ends the game) and states at the turn bound."""
    same(*both(monkeypatch, lambda: search(POSITIONS[name], n)))


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2])
def test_checking_early_at_a_depth_cut_of_the_four_player_position(monkeypatch, n):
    """The whole last level of a depth cut is never expanded: held as outcomes, the same search."""
    off, on = both(monkeypatch, lambda: search(WAR4, n, max_depth=6))
    same(off, on)
    assert on.states == 4_008        # 4,164 with everything removed from the game counted (FORGET_REMOVED)


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("keep_going", [False, True])
def test_a_violation_at_the_bound_is_reported_as_before(monkeypatch, n, keep_going):
    """313.2 broken: cut the search at the depth of its first violation, so the violating state is at the
    depth bound (never expanded, checked early): the same violations, counts and shortest traces."""
    monkeypatch.setitem(registry.EFFECTS, "focus_to_next", broken_rule.focus_moves_priority_stays)
    pos = Position("duel", DUEL, turns=2)
    first = explore(pos, max_depth=12).violations[0]
    off, on = both(monkeypatch, lambda: search(pos, n, keep_going=keep_going, max_depth=first.depth))
    assert on.violations[0].invariant == "Showdown Open: the focus holder has priority"
    assert on.violations[0].depth == first.depth
    same(off, on)


def test_a_state_bound_stop_is_reported_as_before(monkeypatch):
    """A search stopped by its state bound (one shard checks it at each state) marks the same states."""
    pos = dataclasses.replace(POSITIONS["war-combat-R2-defender-last-concede"], max_states=300)
    off, on = both(monkeypatch, lambda: explore(pos, graph=True))
    assert not on.complete
    same(off, on)


@pytest.mark.parametrize("n", [1, 2])
def test_the_frontier_holds_outcomes_not_states_at_the_bound(monkeypatch, n):
    """What the change is for: at a depth cut, the last level (never expanded) is held as Checked outcomes,
    not as states (1-4 KB each); with --export's labels (which read the state) they stay whole."""
    held: list = []
    real = Shard._expand

    def expand(self, seen_total):
        if self.frontier and self.frontier[0][2] == 5:       # the last level (depth 5), as its expand finds it
            held.extend(type(g) for g, *_ in self.frontier)
        return real(self, seen_total)

    monkeypatch.setattr(Shard, "_expand", expand)
    search(WAR4, n, max_depth=5)
    assert len(held) == 1_082 and set(held) == {Checked}     # (1,097 with everything removed counted)
    held.clear()
    explore(WAR4, graph=True, labels=True, max_depth=5)
    assert len(held) == 1_082 and Checked not in set(held)
