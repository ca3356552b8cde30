"""Interchangeable battlefields (``simulator.verify.symmetry``): a search with ``symmetry`` on holds the states that
differ only by a renaming of battlefields with no abilities, no static might and no provider as one state.

Sound only if no rule tells such battlefields apart (their names are all they have; 323.12-13: where several
showdowns or combats are staged, the turn player chooses, the rules pick none by its name or place). Checked, not
assumed, as a bisimulation: every state of every default position with interchangeable battlefields, and of the
4-player bench position cut at a depth, is searched with the full identity; the states that the symmetric identity
makes one class have the same state findings (by invariant and rule: their messages name the battlefields) and the
same winner, and their successors fall, with the same transition findings, into the same classes the same number
of times. So the search with it on visits exactly these classes (its state count is their number) and finds what
the search without it finds. Shown able to fail: an invariant that reads a battlefield's place breaks it."""
from __future__ import annotations

import dataclasses
import functools
import subprocess
import sys

import pytest
from searching import bisimulation

from simulator.core.model import KEY_PARTS
from simulator.game.setup import build
from simulator.verify import explore as ex
from simulator.verify.command import DEFAULT_FILES, load_positions
from simulator.verify.cluster import InProcess, Processes
from simulator.verify.explore import Position, Shard, explore, search, state_findings
from simulator.verify.symmetry import identity, interchangeable, plan

POSITIONS = {p.name: p for f in DEFAULT_FILES for p in load_positions(str(f))[0]}
SYMMETRIC = sorted(name for name, p in POSITIONS.items() if plan(p.start()) is not None)
WAR4 = dataclasses.replace(load_positions("bench/positions/war-4p-3-cards-4-turns.yaml")[0][0], max_states=10 ** 9)


def classes(pos, depth: int | None = None) -> tuple[int, int, int]:
    """Every state of ``pos``'s search with the full identity; asserts the bisimulation on the way (findings by
    invariant and rule: their messages name the battlefields; successors as a multiset of classes, since a move's
    destination is renamed too). The number of states, of classes, of the largest class."""
    return bisimulation(pos, identity,
                        lambda g, acts: (tuple((n, r) for n, r, _m in state_findings(g, acts)), g.winner),
                        lambda a, s, f: (identity(s) if s is not None else None, f[:2] if f else None),
                        depth=depth, what="a renaming of battlefields", unordered=True)


def _symmetric(pos):
    return dataclasses.replace(pos, symmetry=True)


@pytest.mark.slow                 # exhaustive: every state of every such position (.ci/run's slow step)
@pytest.mark.parametrize("name", SYMMETRIC)
def test_interchangeable_battlefields_are_a_bisimulation(name):
    """323.12-13: on every state of a default position with interchangeable battlefields, the states one up to a
    renaming of them behave alike (findings, winner, every successor's class); the search with symmetry on has
    exactly one state per class, and the search with it off (the explorer's) is the one checked here."""
    pos = POSITIONS[name]
    states, n_classes, _largest = classes(pos)
    assert explore(pos, graph=False).states == states
    r = explore(_symmetric(pos), graph=False)
    assert r.states == n_classes and r.complete and not r.violations


@pytest.mark.slow
def test_the_4_player_cut_is_two_and_a_half_times_smaller():
    """The 4-player bench position cut at depth 7: classes of several states exist (up to 3! renamings), and the
    search with symmetry on finds one state per class and no violation."""
    states, n_classes, largest = classes(WAR4, depth=7)
    assert largest > 2 and n_classes * 2 < states
    r = explore(_symmetric(WAR4), graph=False, max_depth=7)
    assert r.states == n_classes and not r.violations


@pytest.mark.slow
def test_two_shards_and_a_stable_fingerprint_find_the_same_classes():
    """The canonical order is a function of the state alone (no hash, no address): two shards in two processes,
    and the stable fingerprint a checkpoint uses, find as many states as one core does."""
    pos = _symmetric(dataclasses.replace(WAR4, turns=1))
    one = explore(pos, graph=False, max_depth=8)
    assert one.states < explore(dataclasses.replace(pos, symmetry=False), graph=False, max_depth=8).states
    for transport, stable in ((Processes, False), (InProcess, True)):
        pool = transport(2, functools.partial(Shard, pos, 2, max_depth=8, stable=stable))
        try:
            r = search(pos, pool)
        finally:
            pool.close()
        assert (r.states, r.edges) == (one.states, one.edges)


def test_a_rule_reading_a_battlefields_place_breaks_it(monkeypatch):
    """The check can fail: an invariant that tells the first battlefield of the setup from the others (no rule
    does) tells apart states the symmetric identity makes one."""
    def first_taken(g, actors):
        first = next(iter(g.bfs))
        return "a unit is at the first battlefield" if any(u.at == first for u in g.units.values()) else None
    monkeypatch.setattr(ex, "INVARIANTS", (*ex.INVARIANTS, ("first battlefield read", "-", first_taken)))
    with pytest.raises(AssertionError, match="differ in findings"):
        classes(WAR4, depth=4)


def test_what_is_interchangeable():
    """A battlefield with an ability, a static might or a provider keeps its name (190.6: its abilities; 652.2: a
    conceder's battlefield leaves with them); so does one named like a player, unit or card, or named by a card's
    effect; one left alone is none."""
    g = build({"players": ["A", "B"], "battlefields": [
        "North", "South", "East", {"name": "West", "provider": "A"},
        {"name": "Keep", "abilities": [{"name": "bastion", "static": {"might": 1}}]}],
        "units": [{"id": "a1", "owner": "A", "at": "base"}]})
    assert interchangeable(g) == ("North", "South", "East")
    g = build({"players": ["A", "B"], "battlefields": ["North", "a1"], "units": [{"id": "a1", "owner": "A", "at": "base"}]})
    assert interchangeable(g) == () and plan(g) is None and identity(g) == g.key()
    g = Position("p", {"players": ["A", "B"], "battlefields": ["North", "South", "East"],
                       "cards": {"go": {"type": "spell", "timing": "action",
                                        "effect": [{"move": {"unit": "a1", "to": "North"}}]}},
                       "units": [{"id": "a1", "owner": "A", "at": "base"}]}).start()
    assert interchangeable(g) == ("South", "East")
    assert len(SYMMETRIC) >= 30          # most default positions have two bare battlefields: the check is not vacuous


def test_many_bare_battlefields_cost_a_bounded_time():
    """Hostile input: 16 bare battlefields (a scenario's most), all alike and all named by a pending choice, would be
    16! orders to try; at most ``ORDERS`` are, then the sorted order alone is kept (sound: a renaming of the state)."""
    names = [f"B{i:02}" for i in range(16)]
    g = build({"players": ["A", "B"], "battlefields": names, "units": [{"id": "a1", "owner": "A", "at": "base"}]})
    assert len(interchangeable(g)) == 16
    g.choosing = tuple(names)
    assert identity(g) == g.key()                    # the setup order is the sorted one here: nothing renamed


def test_the_key_has_the_parts_named():
    """``KEY_PARTS`` names every part of ``State.key()``, in order: what ``identity`` renames is found by name."""
    g = POSITIONS[SYMMETRIC[0]].start()
    k = g.key()
    assert len(k) == len(KEY_PARTS)
    assert k[KEY_PARTS.index("units")] is g.units_key() and k[KEY_PARTS.index("hands")] is g.hands_key()
    assert k[KEY_PARTS.index("bfs")] == tuple(b.key() for b in g.bfs.values())


def _verify(*args):
    return subprocess.run([sys.executable, "-m", "simulator.cli.main", "verify", "--no-graph", "--no-progress", *args],
                          capture_output=True, text=True, timeout=600)


WAR = """\
positions:
  - name: war-concede
    explore: {turns: 4, concede: true%s}
    mode: war
    players: [A, B, C, D]
    battlefields: [North, South, East]
    units: [{id: a1, owner: A, at: base, might: 1}, {id: b1, owner: B, at: base, might: 1}]
"""


def _line(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("  war-concede:"))


@pytest.mark.slow
def test_the_command_and_the_positions_file(tmp_path):
    """`riftsim verify --symmetry` and `explore: {symmetry: true}`: the same smaller search (the 4-player war position
    of two units: 479 states against 1,574), every invariant held; a checkpoint keeps it for its resume, which
    refuses the flag again; a value that is not a boolean is a one-line error naming the file and the key."""
    plain, flag = tmp_path / "plain.yaml", tmp_path / "flag.yaml"
    plain.write_text(WAR % "")
    flag.write_text(WAR % ", symmetry: true")
    full = _verify("--positions", str(plain), "--jobs", "1")
    by_flag = _verify("--positions", str(plain), "--jobs", "1", "--symmetry")
    by_file = _verify("--positions", str(flag), "--jobs", "2")
    assert _line(full.stdout).startswith("  war-concede: 1574 states")
    assert _line(by_flag.stdout).startswith("  war-concede: 479 states") and _line(by_file.stdout) == _line(by_flag.stdout)
    assert "invariants: all hold" in by_flag.stdout and by_flag.stderr == ""
    assert "(turns 4, concede explored, battlefields North South East interchangeable)" in _line(by_flag.stdout)
    assert "interchangeable" not in full.stdout
    d = tmp_path / "ck"
    done = _verify("--positions", str(plain), "--symmetry", "--checkpoint", str(d), "--stop-after", "0")
    while done.returncode == 75:
        done = _verify("--resume", str(d), "--stop-after", "0")
    assert _line(done.stdout) == _line(by_flag.stdout), done.stderr
    again = _verify("--resume", str(d), "--symmetry")
    assert again.returncode == 2 and "takes its position and options from DIR" in again.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text(WAR % ", symmetry: sometimes")
    done = _verify("--positions", str(bad))
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert str(bad) in done.stderr and "explore.symmetry" in done.stderr, done.stderr
