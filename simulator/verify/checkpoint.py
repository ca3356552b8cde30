"""A long search stopped between two levels and resumed later (``riftsim verify --checkpoint DIR``, ``--resume DIR``).

A position whose space takes longer to explore than a sitting (the 4-player position of issue 13: tens of
millions of states, hours of two cores) is explored in several runs. With ``--checkpoint DIR --stop-after S``
the search stops at the end of the first level it finishes after ``S`` seconds and writes, into ``DIR``:

* ``RIFTSIM-CHECKPOINT``: the marker that says riftsim made this folder (the only folder a checkpoint replaces);
* ``meta.json``: the position, the search's bounds and options, the number of shards, the Python version, a digest
  of the model's source (``simulator/`` and ``statecharts/``), the start state's fingerprint, the level, the
  states so far, the seconds and CPU seconds spent (checked field by field when read: :func:`check_meta`);
* ``search.pkl``: the coordinator's part (the shortest-trace tree, the violations found, the states a
  rebalance moved and not yet taken);
* ``shard-K.pkl``: each shard's part, written by the shard itself (its visited set, frontier, packed
  (:mod:`simulator.verify.packed`), counts, coverage and graph).

``riftsim verify --resume DIR`` goes on from there, as many times as needed, and the final result is the one
an uninterrupted search gives (tests/test_checkpoint.py). The directory is replaced atomically: a new
checkpoint is written beside it (``DIR.writing``) and renamed over it (the last one moved to ``DIR.old`` in
between), so a stop or a crash while writing leaves the last whole one. ``DIR``, ``DIR.writing`` and
``DIR.old`` must each be absent or a folder carrying riftsim's marker: anything else (a user's folder or file,
a link, ``.``) is refused before the search starts and left as it is (:meth:`Checkpoint.claim`).
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
import stat
import sys
import time
from pathlib import Path

from simulator.core.errors import RiftsimError
from simulator.verify import unpickle

#: the layout a checkpoint is written in: 2 adds the marker and the start state's fingerprint
FORMAT = 2
ROOT = Path(__file__).resolve().parents[2]
#: the exit status of a search stopped to be resumed (sysexits' EX_TEMPFAIL: try again later)
STOPPED = 75
#: the file that marks a folder as a checkpoint riftsim wrote, and its content
MARKER, MARK = "RIFTSIM-CHECKPOINT", b"riftsim checkpoint: this folder is replaced by the next one written here\n"
#: the most shards a checkpoint may name (one process each), and the largest meta.json read
MAX_SHARDS, MAX_META = 1024, 1 << 20


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
            if not _exists(self.path) and ours(old):      # stopped between the two renames of a commit
                old.rename(self.path)
            self.meta = read_meta(self.path)
            if not ours(self.path):
                raise CheckpointError(f"{self.path}: not a checkpoint riftsim wrote (no {MARKER} marker in it)")
        self.claim()

    def claim(self) -> None:
        """Refuse (before any search) a checkpoint path that names anything riftsim did not make: ``DIR``,
        ``DIR.writing`` and ``DIR.old`` must each be absent or a folder carrying the marker."""
        if self.path.name in ("", ".", ".."):
            raise CheckpointError(f"{self.path}: names no folder a checkpoint may replace: give a new folder's path")
        for p in (self.path, self.tmp(), self.old()):
            if _exists(p) and not ours(p):
                raise CheckpointError(f"{p}: exists and is not a checkpoint riftsim wrote (no {MARKER} marker "
                                      f"in it): refused, left as it is; give --checkpoint a new path")

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
        """A fresh directory beside the checkpoint to write the new one in, marked first."""
        self.claim()                                     # (again: hours may have passed since the start)
        tmp = self.tmp()
        _remove(tmp)
        tmp.mkdir(parents=True)
        (tmp / MARKER).write_bytes(MARK)
        return tmp

    def commit(self, tmp: Path, meta: dict, coordinator: dict) -> None:
        with open(tmp / "search.pkl", "wb") as f:
            pickle.dump(coordinator, f, protocol=pickle.HIGHEST_PROTOCOL)
        meta = {**meta, "format": FORMAT, "model": model_digest(), "python": list(sys.version_info[:2]),
                "commit": commit()}
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True))
        self.claim()
        old = self.old()
        _remove(old)
        if _exists(self.path):
            self.path.rename(old)
        tmp.rename(self.path)
        _remove(old)

    def coordinator(self) -> dict:
        return load(self.path / "search.pkl")


def _exists(p: Path) -> bool:
    """Whether anything is at ``p`` (a broken link too)."""
    return os.path.lexists(p)


def ours(p: Path) -> bool:
    """Whether ``p`` is a folder (not a link to one) carrying riftsim's checkpoint marker."""
    m = p / MARKER
    if p.is_symlink() or not p.is_dir() or m.is_symlink() or not m.is_file():
        return False
    try:
        with open(m, "rb") as f:
            return f.read(len(MARK) + 1) == MARK
    except OSError:
        return False


def _remove(p: Path) -> None:
    """Delete ``p`` if it is a folder riftsim marked as a checkpoint (:meth:`Checkpoint.claim` refused the rest)."""
    if _exists(p):
        if not ours(p):
            raise CheckpointError(f"{p}: exists and is not a checkpoint riftsim wrote: refused, left as it is")
        shutil.rmtree(p)


def load(path: Path):
    """A part of a checkpoint, read as a file given by anyone (a regular file), unpickled admitting only the
    classes a checkpoint holds (:mod:`.unpickle`: a file made to run code is refused) and checked to have the
    shape a search writes (:func:`check_shard`, :func:`check_search`); an unreadable, refused or misshapen one
    is a :class:`CheckpointError`."""
    try:
        part = unpickle.loads(_read(path))
    except FileNotFoundError:
        raise CheckpointError(f"{path.parent}: incomplete checkpoint ({path.name} is missing)") from None
    except CheckpointError:
        raise
    except Exception as e:  # noqa: BLE001 - a damaged file: unpickling can raise almost anything
        raise CheckpointError(f"{path}: unreadable checkpoint part ({type(e).__name__}: {e})") from None
    why = check_search(part) if path.name == "search.pkl" else check_shard(part) if path.name.startswith("shard-") \
        else None
    if why:
        raise CheckpointError(f"{path}: not a checkpoint part riftsim wrote ({why})")
    return part


def _read(path: Path) -> bytes:
    """The bytes of ``path``, refused unless it is a regular file (opened without blocking: a FIFO is refused,
    not waited on; a device is not read until memory runs out)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise CheckpointError(f"{path}: not a regular file, not a checkpoint part riftsim wrote")
        with os.fdopen(os.dup(fd), "rb") as f:
            return f.read()
    finally:
        os.close(fd)


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
    why = _counters_problem(part)
    if why:
        return why
    if part["sg"] is not None and type(part["sg"]) is not StateGraph:
        return f"sg is a {type(part['sg']).__name__}"
    if type(part["coverage"]) is not set or not all(type(r) is tuple for r in part["coverage"]):
        return "coverage is not a set of transitions"
    return _frontier_problem(part["frontier"])


def _counters_problem(part: dict) -> str | None:
    """What is wrong with a shard's counts and flags, or None."""
    for name in ("edges", "terminal", "bounded", "depth", "base"):
        if not _count(part[name]):
            return f"{name} is {part[name]!r}, not a count"
    if type(part["limited"]) is not bool or type(part["deep"]) is not bool or \
            type(part["cpu"]) not in (int, float) or part["cpu"] < 0:
        return "limited or cpu is not what a search writes"
    return None


def _frontier_problem(frontier) -> str | None:
    """What is wrong with a shard's frontier (a list of (state, id, depth, end-turns)), or None."""
    if type(frontier) is not list:
        return f"frontier is a {type(frontier).__name__}"
    for i, x in enumerate(frontier):
        if type(x) is not tuple or len(x) != 4 or not _named(x[0], *FRONTIER_STATES) or not all(map(_count, x[1:])):
            return f"frontier entry {i} is not (state, id, depth, end-turns)"
    return None


def check_search(part) -> str | None:
    """What is wrong with the coordinator's part (``explore._search``), or None."""
    if type(part) is not dict:
        return f"a {type(part).__name__}, not the fields of a search"
    want = {"parent", "via", "base", "kinds", "level", "gifts", "violations", "seconds", "cpu"}
    if set(part) != want:
        return f"fields {sorted(map(str, part))}, not {sorted(want)}"
    return next((why for ok, why in _SEARCH_CHECKS if not ok(part)), None)


def _two_arrays(part: dict) -> bool:
    from array import array
    return type(part["parent"]) is array and type(part["via"]) is array


def _one_entry_per_state(part: dict) -> bool:
    return bool(_count(part["base"]) and _count(part["level"])) and \
        len(part["parent"]) == len(part["via"]) == part["base"]


def _names(part: dict) -> bool:
    return type(part["kinds"]) is set and all(type(k) is str for k in part["kinds"])


def _gifts(part: dict) -> bool:
    return type(part["gifts"]) is list and all(type(g) is list and all(type(b) is bytes for b in g)
                                               for g in part["gifts"])


def _violations(part: dict) -> bool:
    return type(part["violations"]) is list and \
        all(_named(v, "simulator.verify.explore.Violation") for v in part["violations"])


def _durations(part: dict) -> bool:
    return all(type(part[k]) in (int, float) and not part[k] < 0 for k in ("seconds", "cpu"))


#: the coordinator's fields checked in turn: (the check, what is wrong when it fails)
_SEARCH_CHECKS = ((_two_arrays, "the shortest-trace tree is not two arrays"),
                  (_one_entry_per_state, "the shortest-trace tree does not hold one entry per state"),
                  (_names, "kinds is not a set of invariant names"),
                  (_gifts, "gifts is not a list of lists of bytes"),
                  (_violations, "violations is not a list of violations"),
                  (_durations, "seconds or cpu is not a duration"))


def read_meta(path: Path) -> dict:
    """``meta.json`` of the checkpoint ``path``, read as a file given by anyone (a regular file, bounded) and
    checked field by field (:func:`check_meta`); anything else is a :class:`CheckpointError` naming the field."""
    from simulator.scenario.loader import read_text
    file = path / "meta.json"
    if not _exists(file):
        raise CheckpointError(f"{path}: no checkpoint there (meta.json missing)")
    try:
        meta = json.loads(read_text(str(file)))
    except (ValueError, RecursionError) as e:
        raise CheckpointError(f"{file}: unreadable checkpoint ({type(e).__name__}: {e})") from None
    if type(meta) is not dict:
        raise CheckpointError(f"{file}: a {type(meta).__name__}, not a checkpoint's fields")
    if meta.get("format") != FORMAT:
        raise CheckpointError(f"{file}: checkpoint format {meta.get('format')!r}, this riftsim reads {FORMAT} "
                              f"(resume it with the riftsim that wrote it{_at(meta)})")
    check_meta(meta, file)
    return meta


def _at(meta: dict) -> str:
    c = meta.get("commit")
    return f" at commit {c[:12]}" if type(c) is str else ""


def _is_count(x, low: int = 0, high: float = float("inf")) -> bool:
    return type(x) is int and low <= x <= high


def _is_seconds(x) -> bool:
    return type(x) in (int, float) and 0 <= x < float("inf")


def _is_text(x, size: int = 200) -> bool:
    return type(x) is str and 0 < len(x) <= size


#: meta.json's fields: what each holds (a check, and the words of the refusal)
META = {
    "format": (lambda x: x == FORMAT, f"format {FORMAT}"),
    "model": (lambda x: _is_text(x, 64), "a source digest"),
    "python": (lambda x: type(x) is list and len(x) == 2 and all(_is_count(v, 0, 99) for v in x), "[major, minor]"),
    "commit": (lambda x: x is None or _is_text(x, 64), "a git commit or null"),
    "level": (_is_count, "a count"),
    "states": (_is_count, "a count"),
    "shards": (lambda x: _is_count(x, 1, MAX_SHARDS), f"a number of shards from 1 to {MAX_SHARDS}"),
    "seconds": (_is_seconds, "seconds"),
    "cpu": (_is_seconds, "seconds"),
    "start": (lambda x: _is_count(x, 0, 2 ** 64), "the start state's fingerprint"),
    "position": (lambda x: type(x) is dict, "a position"),
    "options": (lambda x: type(x) is dict, "the search's options"),
}
POSITION = {
    "name": (_is_text, "a position's name"),
    "setup": (lambda x: type(x) is dict, "a starting position"),
    "turns": (lambda x: _is_count(x, 0, 10 ** 6), "a number of turns"),
    "concede": (lambda x: type(x) is bool, "true or false"),
    "max_states": (lambda x: _is_count(x, 1), "a count from 1"),
    "rulings": (lambda x: type(x) is dict, "rulings"),
    "symmetry": (lambda x: type(x) is bool, "true or false"),
}
OPTIONS = {
    "max_states": (lambda x: x is None or _is_count(x, 1), "null or a count from 1"),
    "depth": (lambda x: x is None or _is_count(x), "null or a count"),
    "graph": (lambda x: type(x) is bool, "true or false"),
    "backend": (lambda x: x in ("compiled", "transitions"), "compiled or transitions"),
    "jobs": (lambda x: _is_count(x, 1), "a count from 1"),
    "full_identity": (lambda x: type(x) is bool, "true or false"),
}


def _fields(doc: dict, spec: dict, file: Path, where: str) -> None:
    if set(doc) != set(spec):
        extra, missing = sorted(map(str, set(doc) - set(spec))), sorted(set(spec) - set(doc))
        raise CheckpointError(f"{file}: {where or 'the top level'}: " + "; ".join(
            ([f"unknown field(s) {', '.join(extra)}"] if extra else []) +
            ([f"missing field(s) {', '.join(missing)}"] if missing else [])))
    for k, (ok, what) in spec.items():
        if not ok(doc[k]):
            raise CheckpointError(f"{file}: {where}{k} is {_short(doc[k])}, not {what}")


def _short(x) -> str:
    text = json.dumps(x)
    return text if len(text) <= 40 else text[:37] + "..."


def check_meta(meta: dict, file: Path) -> None:
    """Refuse (one line naming ``file`` and the field) a ``meta.json`` that is not what :meth:`Checkpoint.commit`
    writes: every field, its type and bounds; the position's setup and rulings as a positions file's are checked."""
    from simulator.core.errors import ScenarioError
    from simulator.game.validate import SetupValidator, check_ruling
    _fields(meta, META, file, "")
    _fields(meta["position"], POSITION, file, "position.")
    _fields(meta["options"], OPTIONS, file, "options.")
    try:
        SetupValidator(f"{file}: position.setup", {(): 0}).position(meta["position"]["setup"])
        for rid, value in meta["position"]["rulings"].items():
            check_ruling(rid, value, f"{file}: position.rulings")
    except ScenarioError as e:
        raise CheckpointError(f"{e.where.removesuffix(':0')}: {e.what}") from None


def describe(p, *, turns: int | None = None, max_states: int | None = None, depth: int | None = None,
             graph: bool = True, backend: str = "compiled", jobs: int = 1, full_identity: bool = False,
             symmetry: bool = False) -> dict:
    """meta.json's position and options for the search of the position ``p`` (``explore.Position``) with these
    options (its ``start``: ``explore.start_fingerprint`` of them, what a resume compares, is the caller's)."""
    position = {"name": p.name, "setup": p.setup, "turns": p.turns if turns is None else turns,
                "concede": p.concede, "max_states": p.max_states, "rulings": p.rulings,
                "symmetry": p.symmetry or symmetry}
    return {"position": position,
            "options": {"max_states": max_states, "depth": depth, "graph": graph, "backend": backend,
                        "jobs": max(1, jobs), "full_identity": full_identity}}


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


def _check_parts(path: Path, parts: list[str]) -> None:
    """Every part of the checkpoint is there, a regular file."""
    missing = [p for p in parts if not _exists(path / p)]
    odd = [p for p in parts if _exists(path / p) and not (path / p).is_file()]
    if odd:
        raise CheckpointError(f"{path / odd[0]}: not a regular file, not a checkpoint part riftsim wrote")
    if missing:
        raise CheckpointError(f"{path}: incomplete checkpoint ({', '.join(missing[:3])}"
                              f"{' ...' if len(missing) > 3 else ''} missing)")


def check_resumable(meta: dict, path: Path, start: int) -> None:
    """Refuse a checkpoint of another model or Python version, or whose start is not its position's (``start``:
    the fingerprint of its position's start state, computed again; one line)."""
    if meta["model"] != model_digest():
        raise CheckpointError(f"{path}: written by another version of the model{_at(meta)} (source digest "
                              f"{meta['model']}, now {model_digest()}): resume it from a checkout of that version")
    _check_parts(path, ["search.pkl", *(f"shard-{k}.pkl" for k in range(meta["shards"]))])
    if tuple(meta["python"]) != tuple(sys.version_info[:2]):
        raise CheckpointError(f"{path}: written by Python {'.'.join(map(str, meta['python']))}, this is "
                              f"{sys.version_info[0]}.{sys.version_info[1]}: its states cannot be resumed")
    if start != meta["start"]:
        raise CheckpointError(f"{path / 'meta.json'}: position is not the one this search started from (its start "
                              f"state's fingerprint differs from start): refused")
