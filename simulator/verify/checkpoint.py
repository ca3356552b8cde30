"""A long search stopped between two levels and resumed later (``riftsim verify --checkpoint DIR``, ``--resume DIR``).

A position whose space takes longer to explore than a sitting (the 4-player position of issue 13: tens of
millions of states, hours of two cores) is explored in several runs. With ``--checkpoint DIR --stop-after S``
the search stops at the end of the first level it finishes after ``S`` seconds and writes, into ``DIR``:

* ``meta.json``: the position, the search's bounds and options, the number of shards, the Python version, a digest
  of the model's source (``simulator/`` and ``statecharts/``), the start state's fingerprint, the level, the
  states so far, the seconds and CPU seconds spent;
* ``search.pkl``: the coordinator's part (the shortest-trace tree, the violations found, the states a
  rebalance moved and not yet taken);
* ``shard-K.pkl``: each shard's part, written by the shard itself (its visited set, frontier, packed
  (:mod:`simulator.verify.packed`), counts, coverage and graph).

``riftsim verify --resume DIR`` goes on from there, as many times as needed, and the final result is the one
an uninterrupted search gives (tests/test_checkpoint.py). The directory is replaced atomically: a new
checkpoint is written beside it and renamed over it, so a stop or a crash while writing leaves the last whole one.
The parts are pickles, read back admitting only the classes a checkpoint holds and bounding how far a packed
chunk inflates (:mod:`simulator.verify.unpickle`): a damaged or hostile checkpoint is refused with one line.

A search that writes checkpoints fingerprints its states with
:func:`~simulator.verify.explore.stable_fingerprint` (blake2b of the identity marshalled: the same in every
process, where Python's hash of a tuple holding None is not, in Python 3.11), about 5 us more a state. A
checkpoint written by another version of the model (a digest of its source) or of Python is refused with
one line saying why.
"""
from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
import sys
import time
from pathlib import Path

from simulator.core.errors import RiftsimError
from simulator.verify import unpickle

FORMAT = 1
ROOT = Path(__file__).resolve().parents[2]
#: the exit status of a search stopped to be resumed (sysexits' EX_TEMPFAIL: try again later)
STOPPED = 75


class CheckpointError(RiftsimError):
    """A checkpoint that cannot be written or resumed: one line saying why."""


#: what a checkpoint's states, fingerprints and shard parts depend on: the declared machines, the game model and
#: its rules, and the search's own storage (not the commands, the scenarios' loader or the docs)
MODEL = ("statecharts", "simulator/core", "simulator/rules", "simulator/game", "simulator/verify/explore.py",
         "simulator/verify/packed.py", "simulator/verify/compact.py", "simulator/verify/visited.py",
         "simulator/verify/stategraph.py", "simulator/verify/symmetry.py")


def model_digest() -> str:
    """blake2b of the model's source files (:data:`MODEL`: their .py and .yaml files, by path)."""
    h = hashlib.blake2b(digest_size=12)
    for top in MODEL:
        root = ROOT / top
        for p in sorted(root.rglob("*")) if root.is_dir() else [root]:
            if p.suffix in (".py", ".yaml") and p.is_file() and "__pycache__" not in p.parts:
                h.update(str(p.relative_to(ROOT)).encode())
                h.update(p.read_bytes())
    return h.hexdigest()


def commit() -> str | None:
    """The git commit of this checkout, if it is one (where a checkpoint can be resumed from)."""
    import subprocess
    try:
        done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.strip() or None


class Checkpoint:
    """Where a search writes its checkpoint and when (``stop_after`` seconds of this run), or resumes from."""

    def __init__(self, path: str | os.PathLike, stop_after: float | None = None, resume: bool = False) -> None:
        self.path = Path(path)
        self.stop_after = stop_after
        self.resume = resume
        self.t0 = time.perf_counter()
        self.meta: dict = {}
        if resume:
            old = self.old()
            if not self.path.exists() and old.exists():       # stopped between the two renames of a commit
                old.rename(self.path)
            self.meta = read_meta(self.path)

    def due(self) -> bool:
        return self.stop_after is not None and time.perf_counter() - self.t0 >= self.stop_after

    def tmp(self) -> Path:
        return self.path.with_name(self.path.name + ".writing")

    def old(self) -> Path:
        return self.path.with_name(self.path.name + ".old")

    def write(self, save, meta: dict, coordinator: dict) -> None:
        """The new checkpoint: ``save(dir)`` writes the shards' parts, then this one's; nothing half-written stays
        (a failure or a signal while writing removes the new one and leaves the last whole one)."""
        tmp = self.begin()
        try:
            save(str(tmp))
            self.commit(tmp, meta, coordinator)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise

    def begin(self) -> Path:
        """A fresh directory beside the checkpoint to write the new one in."""
        tmp = self.tmp()
        if tmp.exists():
            shutil.rmtree(tmp)
        tmp.mkdir(parents=True)
        return tmp

    def commit(self, tmp: Path, meta: dict, coordinator: dict) -> None:
        with open(tmp / "search.pkl", "wb") as f:
            pickle.dump(coordinator, f, protocol=pickle.HIGHEST_PROTOCOL)
        meta = {**meta, "format": FORMAT, "model": model_digest(), "python": list(sys.version_info[:2]),
                "commit": commit()}
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True))
        old = self.old()
        if old.exists():
            shutil.rmtree(old)
        if self.path.exists():
            self.path.rename(old)
        tmp.rename(self.path)
        if old.exists():
            shutil.rmtree(old)

    def coordinator(self) -> dict:
        return load(self.path / "search.pkl")


def load(path: Path):
    """A part of a checkpoint, unpickled admitting only the classes a checkpoint holds (:mod:`.unpickle`: a
    file made to run code is refused) and checked to have the shape a search writes (:func:`check_shard`,
    :func:`check_search`); an unreadable, refused or misshapen one is a :class:`CheckpointError`."""
    try:
        with open(path, "rb") as f:
            part = unpickle.load(f)
    except FileNotFoundError:
        raise CheckpointError(f"{path.parent}: incomplete checkpoint ({path.name} is missing)") from None
    except Exception as e:  # noqa: BLE001 - a damaged file: unpickling can raise almost anything
        raise CheckpointError(f"{path}: unreadable checkpoint part ({type(e).__name__}: {e})") from None
    why = check_search(part) if path.name == "search.pkl" else check_shard(part) if path.name.startswith("shard-") \
        else None
    if why:
        raise CheckpointError(f"{path}: not a checkpoint part riftsim wrote ({why})")
    return part


def _count(x) -> bool:
    return type(x) is int and x >= 0


def _named(x, *names: str) -> bool:
    """``x``'s class is one of ``names`` (module.qualname): the search's classes, named, not imported (explore
    imports this module)."""
    t = type(x)
    return f"{t.__module__}.{t.__qualname__}" in names


#: the fields of a shard's part: ``explore.Shard.SAVED`` and its coverage (tests/test_checkpoint.py: the same)
SHARD_FIELDS = frozenset({"seen", "frontier", "sg", "edges", "terminal", "bounded", "limited", "deep", "cpu", "depth",
                          "base", "coverage"})
#: what a frontier entry's state may be: whole, packed, or only its outcome
FRONTIER_STATES = ("simulator.core.model.State", "simulator.verify.packed.Packed", "simulator.verify.explore.Checked")


def check_shard(part) -> str | None:
    """What is wrong with a shard's part (``Shard.save``), or None: its fields, their types, every frontier entry
    (a state, packed or checked, with its id, depth and end-turns)."""
    from simulator.verify.stategraph import StateGraph
    from simulator.verify.visited import FlatTable
    if type(part) is not dict:
        return f"a {type(part).__name__}, not the fields of a shard"
    want = SHARD_FIELDS
    if set(part) != want:
        return f"fields {sorted(map(str, part))}, not {sorted(want)}"
    if type(part["seen"]) not in (dict, FlatTable):
        return f"seen is a {type(part['seen']).__name__}"
    for name in ("edges", "terminal", "bounded", "depth", "base"):
        if not _count(part[name]):
            return f"{name} is {part[name]!r}, not a count"
    if type(part["limited"]) is not bool or type(part["deep"]) is not bool or \
            type(part["cpu"]) not in (int, float) or part["cpu"] < 0:
        return "limited or cpu is not what a search writes"
    if part["sg"] is not None and type(part["sg"]) is not StateGraph:
        return f"sg is a {type(part['sg']).__name__}"
    if type(part["coverage"]) is not set or not all(type(r) is tuple for r in part["coverage"]):
        return "coverage is not a set of transitions"
    if type(part["frontier"]) is not list:
        return f"frontier is a {type(part['frontier']).__name__}"
    for i, x in enumerate(part["frontier"]):
        if type(x) is not tuple or len(x) != 4 or not _named(x[0], *FRONTIER_STATES) or not all(map(_count, x[1:])):
            return f"frontier entry {i} is not (state, id, depth, end-turns)"
    return None


def check_search(part) -> str | None:
    """What is wrong with the coordinator's part (``explore._search``), or None."""
    from array import array
    if type(part) is not dict:
        return f"a {type(part).__name__}, not the fields of a search"
    want = {"parent", "via", "base", "kinds", "level", "gifts", "violations", "seconds", "cpu"}
    if set(part) != want:
        return f"fields {sorted(map(str, part))}, not {sorted(want)}"
    if type(part["parent"]) is not array or type(part["via"]) is not array:
        return "the shortest-trace tree is not two arrays"
    if not _count(part["base"]) or not _count(part["level"]) or not \
            len(part["parent"]) == len(part["via"]) == part["base"]:
        return "the shortest-trace tree does not hold one entry per state"
    if type(part["kinds"]) is not set or not all(type(k) is str for k in part["kinds"]):
        return "kinds is not a set of invariant names"
    if type(part["gifts"]) is not list or not all(type(g) is list and all(type(b) is bytes for b in g)
                                                   for g in part["gifts"]):
        return "gifts is not a list of lists of bytes"
    if type(part["violations"]) is not list or \
            not all(_named(v, "simulator.verify.explore.Violation") for v in part["violations"]):
        return "violations is not a list of violations"
    if any(type(part[k]) not in (int, float) or part[k] < 0 for k in ("seconds", "cpu")):
        return "seconds or cpu is not a duration"
    return None


def read_meta(path: Path) -> dict:
    try:
        meta = json.loads((path / "meta.json").read_text())
    except FileNotFoundError:
        raise CheckpointError(f"{path}: no checkpoint there (meta.json missing)") from None
    except (OSError, ValueError) as e:
        raise CheckpointError(f"{path}/meta.json: unreadable checkpoint ({e})") from None
    if meta.get("format") != FORMAT:
        raise CheckpointError(f"{path}: checkpoint format {meta.get('format')!r}, this riftsim reads {FORMAT}")
    return meta


def seconds(text: str) -> float:
    """``--stop-after``: seconds, or a number with ``s``, ``m`` or ``h`` (``90m``, ``2.5h``)."""
    scale = {"s": 1, "m": 60, "h": 3600}.get(text[-1:].lower())
    try:
        value = float(text[:-1] if scale else text) * (scale or 1)
    except ValueError:
        raise ValueError(f"not a duration: {text!r} (seconds, or 90m, 2h)") from None
    if value < 0:
        raise ValueError(f"a negative duration: {text!r}")
    return value


def check_resumable(meta: dict, path: Path) -> None:
    """Refuse a checkpoint of another model or Python version (one line)."""
    if meta["model"] != model_digest():
        at = f" at commit {meta['commit'][:12]}" if meta.get("commit") else ""
        raise CheckpointError(f"{path}: written by another version of the model{at} (source digest {meta['model']}, "
                              f"now {model_digest()}): resume it from a checkout of that version")
    missing = [p for p in ["search.pkl", *(f"shard-{k}.pkl" for k in range(int(meta.get("shards", 0))))]
               if not (path / p).is_file()]
    if missing:
        raise CheckpointError(f"{path}: incomplete checkpoint ({', '.join(missing)} missing)")
    if tuple(meta["python"]) != tuple(sys.version_info[:2]):
        raise CheckpointError(f"{path}: written by Python {'.'.join(map(str, meta['python']))}, this is "
                              f"{sys.version_info[0]}.{sys.version_info[1]}: its states cannot be resumed")
