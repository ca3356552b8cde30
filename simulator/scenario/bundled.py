"""The bundled scenarios: the worked examples riftsim ships, one rule situation each.

In a checkout they are the top-level ``scenarios/`` folder, and ``simulator/examples`` is a link to it; an
installed riftsim carries the files themselves in ``simulator/examples/`` (package data). Either way
:data:`FOLDER` holds them, so ``riftsim examples``, ``riftsim rules ID`` and ``riftsim diagrams`` work from any
folder.

>>> "seed000-showdown-on-an-empty-battlefield" in names()
True
>>> find("seed000-showdown-on-an-empty-battlefield.yaml").name
'seed000-showdown-on-an-empty-battlefield.yaml'
"""
from __future__ import annotations

import difflib
from pathlib import Path

from simulator.core.errors import RiftsimError

#: where the bundled scenarios are (a link to scenarios/ in a checkout, package data once installed)
FOLDER = Path(__file__).resolve().parents[1] / "examples"


def under(folder: Path) -> list[Path]:
    """The scenario files of ``folder`` and of its subfolders (one level: ``scenarios/cards/``), each sorted
    by name; a scenario's name is its file name without ``.yaml``, unique across the subfolders."""
    return sorted(folder.glob("*.yaml")) + sorted(folder.glob("*/*.yaml"))


def paths() -> list[Path]:
    """Every bundled scenario file: the folder's, then its subfolders' (``cards/``), each sorted by name."""
    return under(FOLDER)


def names() -> list[str]:
    """Every bundled scenario's name: its file name without ``.yaml``."""
    return [p.stem for p in paths()]


def find(name: str) -> Path:
    """The bundled scenario called ``name`` (``NAME`` or ``NAME.yaml``); a one-line error naming the closest
    names otherwise. Only a name of the bundle is accepted, never a path."""
    stem = name[:-len(".yaml")] if name.endswith(".yaml") else name
    known = names()
    if stem not in known:
        close = difflib.get_close_matches(stem, known, n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else "; `riftsim examples` lists them"
        raise RiftsimError(f"{name!r} is not a bundled scenario{hint}")
    return next(p for p in paths() if p.stem == stem)
