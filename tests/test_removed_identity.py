"""What was removed from the game is forgotten by a state's identity (``simulator.core.model.FORGET_REMOVED``): a
removed card (652.3: every card a conceder owns) is only its id and zone (``Unit.key``), and a removed player's
points are left out (651.1, 323.1: ``State.score_key``). No rule reads them again, so two states that differ only
in what was removed have the same future, and the search holds them as one state.

Checked as a bisimulation, on every state of every default position that explores concede and of the 4-player
bench position cut at a depth, searched with every field counted (``FORGET_REMOVED`` off): the states that the
shorter identity makes one have the same state findings, the same winner, and action by action the same actions
with successors that are again one state and the same transition findings. So the search with it on visits
exactly these classes (its state count is their number) and finds what the search without it finds. Shown able
to fail: an invariant that reads where a removed card was breaks it."""
from __future__ import annotations

import dataclasses

import pytest
from searching import bisimulation

from simulator.core import model
from simulator.verify import explore as ex
from simulator.verify.command import DEFAULT_FILES, load_positions
from simulator.verify.explore import explore, state_findings

POSITIONS = {p.name: p for f in DEFAULT_FILES for p in load_positions(str(f))[0]}
CONCEDE = sorted(name for name, p in POSITIONS.items() if p.concede)
WAR4 = dataclasses.replace(load_positions("bench/positions/war-4p-3-cards-4-turns.yaml")[0][0], max_states=10 ** 9)


def _short(u: model.Unit) -> tuple:
    return (u.id, "removed") if u.zone == "removed" else u.key()


def shorter(g: model.State) -> tuple:
    """``g``'s identity with removed cards as their id and zone and without removed players' points (what
    ``FORGET_REMOVED`` makes ``key()``), computed from the full identity (``FORGET_REMOVED`` off)."""
    k = list(g.key())
    units, score = g.units_key(), g.score_key()
    i = next(i for i, part in enumerate(k) if part is units)
    k[i] = tuple([_short(u) for u in g.units.values()])
    j = next(j for j, part in enumerate(k) if part is score)
    left = g.in_game()
    k[j] = tuple(sorted((h, n) for h, n in g.score.items() if h in left))
    return tuple(k)


def classes(pos, depth: int | None = None) -> tuple[int, int, int]:
    """Every state of ``pos``'s search with every field counted (breadth first, the explorer's turn and depth
    bounds); asserts the bisimulation on the way (action by action). The number of states, of classes, of the
    largest class."""
    return bisimulation(pos, shorter, lambda g, acts: (tuple(state_findings(g, acts)), g.winner),
                        lambda a, s, f: (a.describe(), shorter(s) if s is not None else None, f),
                        depth=depth, what="652.3")


@pytest.fixture
def full_identity(monkeypatch):
    monkeypatch.setattr(model, "FORGET_REMOVED", False)


def _searched(pos, depth=None):
    return explore(pos, graph=False, max_depth=depth)


@pytest.mark.slow                 # exhaustive: every state of every concede position (.ci/run's slow step)
@pytest.mark.parametrize("name", CONCEDE)
def test_removed_cards_forgotten_is_a_bisimulation(monkeypatch, name):
    """652.3: on every state of a concede position, the states one by a removed card's short identity behave
    alike (findings, winner, every successor); the search with it on has exactly one state per class."""
    pos = POSITIONS[name]
    monkeypatch.setattr(model, "FORGET_REMOVED", False)
    states, n_classes, _largest = classes(pos)
    if states < 10_000:                           # this BFS is the explorer's (checked where it is quick)
        assert _searched(pos).states == states    # the search without it: every field counted
    monkeypatch.setattr(model, "FORGET_REMOVED", True)
    r = _searched(pos)
    assert r.states == n_classes and r.complete


@pytest.mark.slow
def test_the_4_player_cut_merges_a_fifth_of_its_states(monkeypatch):
    """652.3 on the 4-player bench position cut at depth 8: classes of several states exist (the test is not
    vacuous), and the search with it on finds one state per class and no violation."""
    monkeypatch.setattr(model, "FORGET_REMOVED", False)
    states, n_classes, largest = classes(WAR4, depth=8)
    assert largest > 1 and n_classes < 0.9 * states
    monkeypatch.setattr(model, "FORGET_REMOVED", True)
    r = _searched(WAR4, depth=8)
    assert r.states == n_classes and not r.violations


def test_a_rule_reading_a_removed_card_breaks_it(monkeypatch, full_identity):
    """The check can fail: an invariant that reads where a removed card was (no rule does) tells apart states
    the short identity makes one."""
    def where_removed(g, actors):
        at = sorted(u.at for u in g.units.values() if u.zone == "removed" and u.at != "base")
        return f"removed cards were at {at}" if at else None
    monkeypatch.setattr(ex, "INVARIANTS", (*ex.INVARIANTS, ("removed cards read", "652.3", where_removed)))
    with pytest.raises(AssertionError, match="differ in findings"):
        classes(WAR4, depth=8)


def test_a_rule_reading_a_removed_players_points_breaks_it(monkeypatch, full_identity):
    """The same for the points: an invariant that reads a removed player's score tells apart states that the
    identity without removed players' points makes one."""
    def removed_points(g, actors):
        left = g.in_game()
        gone = sorted((h, n) for h, n in g.score.items() if h not in left and n)
        return f"removed players' points {gone}" if gone else None
    monkeypatch.setattr(ex, "INVARIANTS", (*ex.INVARIANTS, ("removed points read", "651.1", removed_points)))
    with pytest.raises(AssertionError, match="differ in findings"):
        classes(POSITIONS["skirmish-concede"])


def _verify(*args):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "simulator.cli.main", "verify", "--no-graph", "--no-progress", *args],
                          capture_output=True, text=True, timeout=600)
    return done.returncode, done.stdout, done.stderr


def _states(out: str) -> list[str]:
    return [line.split(",")[0] for line in out.splitlines() if line.startswith("  war-concede:")]


WAR_CONCEDE = """\
positions:
  - name: war-concede
    explore: {turns: 4, concede: true}
    mode: war
    players: [A, B, C, D]
    battlefields: [North, South, East]
    units: [{id: a1, owner: A, at: base, might: 1}, {id: b1, owner: B, at: base, might: 1}]
"""


@pytest.mark.slow
def test_the_command_counts_everything_when_asked(tmp_path):
    """`riftsim verify --full-identity`: the larger search, every field of what was removed counted (the count
    the default search's classes come from); a checkpoint keeps the choice, and its resume searches the same way;
    with --cluster it is refused before any work, one line."""
    f = tmp_path / "war.yaml"
    f.write_text(WAR_CONCEDE)
    rc, short, err = _verify("--positions", str(f), "--jobs", "1")
    assert rc in (0, 1) and err == "", err              # (1: one position leaves declared transitions unexercised)
    rc, full, err = _verify("--positions", str(f), "--jobs", "1", "--full-identity")
    assert rc in (0, 1) and err == "", err
    n_short, n_full = (int(_states(o)[0].split()[1]) for o in (short, full))
    assert n_full > n_short
    with pytest.MonkeyPatch.context() as m:                  # what the bisimulation test counts, in this process
        m.setattr(model, "FORGET_REMOVED", False)
        pos = load_positions(str(f))[0][0]
        assert explore(pos, graph=False).states == n_full
    d = tmp_path / "ck"
    rc, out, err = _verify("--positions", str(f), "--jobs", "2", "--full-identity", "--checkpoint", str(d),
                           "--stop-after", "0")
    while rc == 75:
        rc, out, err = _verify("--resume", str(d), "--stop-after", "0")
    assert rc in (0, 1) and _states(out) == _states(full), err
    rc, out, err = _verify("--resume", str(d), "--full-identity")     # the checkpoint decides, not the command line
    assert rc == 2 and out == "" and "takes its position and options from DIR" in err and err.count("\n") == 1, err
    rc, out, err = _verify("--positions", str(f), "--full-identity", "--cluster", "tcp://127.0.0.1:1")
    assert rc == 2 and out == "" and err.strip() == ("riftsim: --full-identity: runs on this machine's processes, "
                                                     "not with --cluster")
