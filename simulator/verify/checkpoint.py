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

FORMAT = 1
ROOT = Path(__file__).resolve().parents[2]
#: the exit status of a search stopped to be resumed (sysexits' EX_TEMPFAIL: try again later)
STOPPED = 75


class CheckpointError(RiftsimError):
    """A checkpoint that cannot be written or resumed: one line saying why."""


def model_digest() -> str:
    """blake2b of the model's source files (simulator/ and statecharts/ .py and .yaml, by path): what a
    checkpoint's states and fingerprints depend on."""
    h = hashlib.blake2b(digest_size=12)
    for top in ("simulator", "statecharts"):
        for p in sorted((ROOT / top).rglob("*")):
            if p.suffix in (".py", ".yaml") and p.is_file() and "__pycache__" not in p.parts:
                h.update(str(p.relative_to(ROOT)).encode())
                h.update(p.read_bytes())
    return h.hexdigest()


class Checkpoint:
    """Where a search writes its checkpoint and when (``stop_after`` seconds of this run), or resumes from."""

    def __init__(self, path: str | os.PathLike, stop_after: float | None = None, resume: bool = False) -> None:
        self.path = Path(path)
        self.stop_after = stop_after
        self.resume = resume
        self.t0 = time.perf_counter()
        self.meta: dict = {}
        if resume:
            self.meta = read_meta(self.path)

    def due(self) -> bool:
        return self.stop_after is not None and time.perf_counter() - self.t0 >= self.stop_after

    def tmp(self) -> Path:
        return self.path.with_name(self.path.name + ".writing")

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
        meta = {**meta, "format": FORMAT, "model": model_digest(), "python": list(sys.version_info[:2])}
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True))
        old = self.path.with_name(self.path.name + ".old")
        if old.exists():
            shutil.rmtree(old)
        if self.path.exists():
            self.path.rename(old)
        tmp.rename(self.path)
        if old.exists():
            shutil.rmtree(old)

    def coordinator(self) -> dict:
        with open(self.path / "search.pkl", "rb") as f:
            return pickle.load(f)


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
        raise CheckpointError(f"{path}: written by another version of the model (source digest {meta['model']}, "
                              f"now {model_digest()}): its states cannot be resumed")
    if tuple(meta["python"]) != tuple(sys.version_info[:2]):
        raise CheckpointError(f"{path}: written by Python {'.'.join(map(str, meta['python']))}, this is "
                              f"{sys.version_info[0]}.{sys.version_info[1]}: its states cannot be resumed")
