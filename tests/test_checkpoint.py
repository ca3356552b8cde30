"""A search stopped between two levels and resumed (simulator/verify/checkpoint.py, issue 13's large position):
stopped after every level and resumed each time, on one shard and on two, it gives exactly the uninterrupted
search's result (states, transitions, terminal and bounded counts, graph, shortest-trace tree, coverage,
violations); a checkpoint of another model or Python is refused with one line; through the command, each
run in a new process."""
from __future__ import annotations

import json
import sys

import pytest

from simulator.verify import checkpoint as cp
from simulator.verify import explore as ex
from simulator.verify.command import DEFAULT_FILES, load_positions
from searching import searched as run, summary

POSITIONS = {p.name: p for f in DEFAULT_FILES for p in load_positions(str(f))[0]}


def fresh(path, pos, n: int, graph: bool = True) -> cp.Checkpoint:
    """A checkpoint to write at the end of the first level (its meta.json: the position and options, as the
    command describes them)."""
    ck = cp.Checkpoint(path, stop_after=0)
    ck.meta = cp.describe(pos, graph=graph, jobs=n)
    ck.meta["start"] = ex.start_fingerprint(ck.meta["position"], "compiled", False)
    return ck


@pytest.mark.parametrize("graph", [True, False])
@pytest.mark.parametrize("n", [1, 2])
def test_stopped_after_every_level_and_resumed_it_is_the_same_search(tmp_path, monkeypatch, n, graph):
    monkeypatch.setattr(ex, "PACK_FROM", 30)            # the larger levels packed, as a big search holds them
    pos = POSITIONS["war-combat-R2-defender-last-concede"]
    whole = run(pos, n, graph=graph)
    path = tmp_path / "ck"
    r = run(pos, n, fresh(path, pos, n, graph), graph=graph)
    stops = 0
    while r.stopped is not None:
        assert r.stopped == str(path) and not r.complete
        meta = json.loads((path / "meta.json").read_text())
        assert meta["level"] == r.depth and meta["states"] == r.states and meta["shards"] == n
        assert not list(tmp_path.glob("*.writing")) and not list(tmp_path.glob("*.old"))
        stops += 1
        r = run(pos, n, cp.Checkpoint(path, stop_after=0, resume=True), graph=graph)
    assert stops == whole.depth                          # one stop after each level but the last
    assert summary(r, graph) == summary(whole, graph)
    assert r.cpu >= whole.cpu * 0.5 and r.seconds >= r.cpu * 0.0


def test_a_violation_found_after_a_resume_has_its_shortest_trace(tmp_path, monkeypatch):
    """313.2 broken (focus moves, priority stays): the violation found after the resumes, with its shortest
    trace, as the uninterrupted search finds it."""
    from fixtures import broken_rule
    from simulator.core import registry
    from simulator.rules import install
    install()
    monkeypatch.setitem(registry.EFFECTS, "focus_to_next", broken_rule.focus_moves_priority_stays)
    pos = ex.Position("duel", {"players": ["A", "B"], "battlefields": ["North", "South"],
                               "units": [{"id": "a1", "owner": "A", "at": "base", "might": 2},
                                         {"id": "b1", "owner": "B", "at": "base", "might": 1}]}, turns=2)
    whole = run(pos, 2, graph=False)
    assert whole.violations
    path = tmp_path / "ck"
    r = run(pos, 2, fresh(path, pos, 2, False), graph=False)
    stops = 0
    while r.stopped:
        stops += 1
        r = run(pos, 2, cp.Checkpoint(path, stop_after=0, resume=True), graph=False)
    assert stops >= 2 and summary(r, False) == summary(whole, False)


def test_a_checkpoint_of_another_model_or_python_is_refused(tmp_path):
    path = tmp_path / "ck"
    path.mkdir()
    described = cp.describe(ex.Position("duel", {"players": ["A", "B"], "battlefields": ["North"]}))
    start = ex.start_fingerprint(described["position"], "compiled", False)
    meta = {**described, "start": start,
            "format": cp.FORMAT, "model": cp.model_digest(), "python": list(sys.version_info[:2]), "shards": 1,
            "commit": "0123456789abcdef", "level": 1, "states": 3, "seconds": 0.5, "cpu": 0.25}
    (path / "meta.json").write_text(json.dumps(meta))
    (path / "search.pkl").write_bytes(b"")
    (path / "shard-0.pkl").write_bytes(b"")
    cp.check_resumable(cp.read_meta(path), path, start)
    (path / "meta.json").write_text(json.dumps({**meta, "python": [2, 7]}))
    with pytest.raises(cp.CheckpointError, match="written by Python 2.7"):
        cp.check_resumable(cp.read_meta(path), path, start)
    (path / "meta.json").write_text(json.dumps({**meta, "model": "0" * 24}))
    with pytest.raises(cp.CheckpointError, match="another version of the model at commit 0123456789ab .*: resume "
                                                 "it from a checkout of that version"):
        cp.check_resumable(cp.read_meta(path), path, start)
    with pytest.raises(cp.CheckpointError, match="no checkpoint there"):
        cp.read_meta(tmp_path / "nothing")


POSITION = """\
positions:
  - name: duel-small
    explore: {turns: 2, concede: true}
    players: [A, B]
    battlefields: [North, South]
    units: [{id: a1, owner: A, at: base, might: 2}, {id: b1, owner: B, at: base, might: 1}]
    hands: {A: [action-spell], B: [reaction-spell]}
"""


def verify(*args):
    import subprocess
    done = subprocess.run([sys.executable, "-m", "simulator.cli.main", "verify", "--no-progress", *args], capture_output=True,
                          text=True, timeout=600)
    return done.returncode, done.stdout, done.stderr


def outcome(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith(("  duel-small:", "coverage:", "invariants:"))]


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_command_stops_and_resumes_in_new_processes(tmp_path, jobs):
    """`--checkpoint DIR --stop-after 0` stops after each level (exit 75, one line saying how to go on);
    `--resume DIR` goes on, each run a new process; the last run prints what one uninterrupted run prints."""
    f = tmp_path / "one.yaml"
    f.write_text(POSITION)
    rc, whole, _ = verify("--positions", str(f), "--jobs", jobs, "--no-graph")
    assert rc in (0, 1) and len(outcome(whole)) == 3
    d = tmp_path / "ck"
    rc, out, err = verify("--positions", str(f), "--jobs", jobs, "--no-graph", "--checkpoint", str(d), "--stop-after", "0")
    runs = 1
    while rc == cp.STOPPED:
        assert f"go on with: riftsim verify --resume {d}" in out and err == ""
        rc, out, err = verify("--resume", str(d), "--stop-after", "0")
        runs += 1
    assert runs > 5 and outcome(out) == outcome(whole) and rc in (0, 1), err


def test_checkpoint_misuse_is_one_line(tmp_path):
    f = tmp_path / "two.yaml"
    f.write_text(POSITION + POSITION.split("positions:\n")[1].replace("duel-small", "duel-other"))
    rc, out, err = verify("--positions", str(f), "--checkpoint", str(tmp_path / "ck"), "--stop-after", "1h")
    assert rc == 2 and err.strip() == "riftsim: --checkpoint needs exactly one position (there are 2): give --positions a file with one"
    rc, out, err = verify("--resume", str(tmp_path / "nothing"))
    assert rc == 2 and err.count("\n") == 1 and "no checkpoint there" in err
    rc, out, err = verify("--positions", str(f), "--checkpoint", "x", "--stop-after", "soon")
    assert rc == 2 and "not a duration: 'soon'" in err
    rc, out, err = verify("--positions", str(f), "--stop-after", "1h")
    assert rc == 2 and err.strip() == ("riftsim: --stop-after needs --checkpoint DIR (or --resume DIR): "
                                       "a search stopped unwritten is lost") and out == ""
    rc, out, err = verify("--resume", str(tmp_path / "ck"), "--positions", str(f))
    assert rc == 2 and "--resume DIR takes its position and options from DIR" in err and out == ""


def stopped_once(tmp_path, jobs="2"):
    f = tmp_path / "one.yaml"
    f.write_text(POSITION)
    d = tmp_path / "ck"
    rc, _out, _err = verify("--positions", str(f), "--jobs", jobs, "--no-graph", "--checkpoint", str(d), "--stop-after", "0")
    assert rc == cp.STOPPED
    return d


@pytest.mark.parametrize("damage", ["missing shard", "damaged shard", "damaged search"])
def test_a_damaged_checkpoint_is_one_line(tmp_path, damage):
    """A part missing or damaged (the worker that reads it included): exit 2, one line naming the file."""
    d = stopped_once(tmp_path)
    if damage == "missing shard":
        (d / "shard-1.pkl").unlink()
    else:
        (d / ("shard-1.pkl" if damage == "damaged shard" else "search.pkl")).write_bytes(b"\x80\x05garbage")
    rc, _out, err = verify("--resume", str(d))
    assert rc == 2 and err.count("\n") == 1 and err.startswith("riftsim: "), err
    assert ("shard-1.pkl missing" in err) if damage == "missing shard" else ("unreadable checkpoint part" in err), err



def _misshapen(part: dict, damage: str) -> None:
    from array import array
    if damage == "frontier of numbers":
        part["frontier"] = [1, 2, 3]
    elif damage == "a field missing":
        del part["seen"]
    elif damage == "a count negative":
        part["edges"] = -5
    elif damage == "tree too short":
        part["parent"] = array("l", [-1])
    elif damage == "violations not violations":
        part["violations"] = ["no deadlock"]


@pytest.mark.parametrize("damage,part", [("frontier of numbers", "shard-1.pkl"), ("a field missing", "shard-0.pkl"),
                                         ("a count negative", "shard-1.pkl"), ("tree too short", "search.pkl"),
                                         ("violations not violations", "search.pkl")])
def test_a_misshapen_checkpoint_part_is_one_line(tmp_path, damage, part):
    """A part made only of riftsim's own classes but not in the shape a search writes (a frontier of numbers, a
    field missing, a negative count, a shortest-trace tree shorter than the states, violations that are strings):
    exit 2, one line naming the file and what is wrong, never a worker's traceback."""
    import pickle
    from simulator.verify import unpickle
    d = stopped_once(tmp_path)
    with open(d / part, "rb") as f:
        data = unpickle.load(f)
    _misshapen(data, damage)
    (d / part).write_bytes(pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL))
    rc, out, err = verify("--resume", str(d))
    assert rc == 2 and err.count("\n") == 1 and err.startswith(f"riftsim: {d / part}: not a checkpoint part riftsim "
                                                                "wrote ("), err
    assert "Traceback" not in err and "internal error" not in err


def test_the_shape_check_knows_the_search_classes():
    """checkpoint.py names the search's classes (explore imports it): the names are the classes'."""
    from simulator.core.model import State
    from simulator.verify.packed import Packed
    assert cp.SHARD_FIELDS == {*ex.Shard.SAVED, "coverage"}
    assert [f"{c.__module__}.{c.__qualname__}" for c in (State, Packed, ex.Checked)] == list(cp.FRONTIER_STATES)
    v = ex.Violation("no deadlock", "334", "deadlock", "duel", [], 3)
    assert cp._named(v, "simulator.verify.explore.Violation")

def test_a_failed_write_leaves_the_last_checkpoint(tmp_path, monkeypatch):
    """A shard failing to write its part (a full disk...): the error is raised, the new checkpoint removed,
    the last whole one left; a stop between the two renames of a commit is resumed from the old one."""
    pos = POSITIONS["war-combat-R2-defender-last-concede"]
    path = tmp_path / "ck"
    r = run(pos, 2, fresh(path, pos, 2, False), graph=False)
    before = sorted(p.name for p in path.iterdir()), json.loads((path / "meta.json").read_text())["level"]
    real = ex.Shard.save

    def full_disk(self, where):
        if self.me == 1:
            raise OSError(28, "No space left on device")
        real(self, where)

    monkeypatch.setattr(ex.Shard, "save", full_disk)
    with pytest.raises(OSError, match="No space left"):
        run(pos, 2, cp.Checkpoint(path, stop_after=0, resume=True), graph=False)
    assert (sorted(p.name for p in path.iterdir()), json.loads((path / "meta.json").read_text())["level"]) == before
    assert not (tmp_path / "ck.writing").exists()
    monkeypatch.setattr(ex.Shard, "save", real)
    path.rename(tmp_path / "ck.old")                     # as if stopped between the renames
    whole = run(pos, 2, graph=False)
    while r.stopped:
        r = run(pos, 2, cp.Checkpoint(path, stop_after=0, resume=True), graph=False)
    assert summary(r, False) == summary(whole, False)


class _Runs:
    """What a hostile checkpoint part would hold: a pickle that runs a shell command when loaded."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __reduce__(self):
        import os
        return (os.system, (self.command,))


@pytest.mark.parametrize("part", ["search.pkl", "shard-1.pkl"])
def test_a_checkpoint_made_to_run_code_is_refused(tmp_path, part):
    """A part whose pickle names a callable no checkpoint holds (os.system here): exit 2, one line naming the
    file and the name, and the command never runs (the parts are unpickled admitting only riftsim's classes)."""
    import pickle
    d = stopped_once(tmp_path)
    ran = tmp_path / "ran"
    (d / part).write_bytes(pickle.dumps({"parent": _Runs(f"touch {ran}")}))
    rc, out, err = verify("--resume", str(d))
    assert rc == 2 and err.count("\n") == 1 and err.startswith("riftsim: "), err
    assert f"{part}: unreadable checkpoint part" in err and "system, which no riftsim checkpoint holds" in err, err
    assert not ran.exists()


def test_a_packed_chunk_that_inflates_without_bound_is_refused(tmp_path):
    """A shard part whose packed frontier chunks inflate a thousandfold (a zlib bomb, 64 MB of zeros in 64 KB):
    exit 2, one line naming the shard's file, without inflating it."""
    import pickle
    import zlib
    from simulator.verify import unpickle
    d = stopped_once(tmp_path)
    with open(d / "shard-1.pkl", "rb") as f:
        part = unpickle.load(f)
    bomb = zlib.compress(bytes(64 << 20), 9)
    chunks = {id(g.chunk): g.chunk for g, *_ in part["frontier"] if hasattr(g, "chunk")}
    assert chunks and len(bomb) < (64 << 20) // unpickle.RATIO
    for c in chunks.values():
        c.data = bomb
    (d / "shard-1.pkl").write_bytes(pickle.dumps(part, protocol=pickle.HIGHEST_PROTOCOL))
    rc, out, err = verify("--resume", str(d))
    assert rc == 2 and err.count("\n") == 1 and err.startswith("riftsim: "), err
    assert "shard-1.pkl: unreadable packed chunk" in err and "inflates past" in err, err


def test_what_a_search_writes_is_read_back_by_the_restricted_loader():
    """Every class a checkpoint holds is admitted (the resume tests above read whole searches back): a
    violation found with keep_going, its actions, a flat visited set, a graph."""
    import pickle
    from simulator.game.actions import Action
    from simulator.verify import unpickle
    from simulator.verify.stategraph import StateGraph
    from simulator.verify.visited import FlatTable
    t = FlatTable()
    t[5] = 7
    v = ex.Violation("no deadlock", "334", "deadlock", "duel", [Action("pass", "A"), Action("concede", "B")], 3)
    back = unpickle.loads(pickle.dumps({"v": [v], "seen": t, "sg": StateGraph(False)}, protocol=pickle.HIGHEST_PROTOCOL))
    assert back["v"] == [v] and back["seen"].get(5) == 7 and len(back["sg"]) == 0
