"""The bundled scenarios: list them, print one, or copy them into a folder to run and edit.

riftsim ships its scenarios (one rule situation each, every one checked by the test suite), so an
installed riftsim has them too. Each is listed with its name line; `riftsim rules ID` lists the ones
whose trace cites rule ID.

examples:
  riftsim examples                                   list every bundled scenario with its name
  riftsim examples seed000-showdown-on-an-empty-battlefield > showdown.yaml
  riftsim examples --copy scenarios                  copy all of them into ./scenarios (made if missing)
  riftsim examples keyword-ambush keyword-tank-first-backline-last --copy mine
  riftsim simulate scenarios/*.yaml                  then run them

--copy never replaces a file that differs from the bundled one (exit 2, nothing written); a file that
is already the same is left as it is.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from simulator.core.errors import RiftsimError
from simulator.core.files import atomic_write, signals_deferred
from simulator.scenario import bundled

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("names", nargs="*", metavar="NAME",
                   help="bundled scenarios (a name from the list, with or without .yaml); without --copy, "
                        "one NAME prints that file")
    p.add_argument("--copy", metavar="DIR", help="copy the named scenarios (default: all of them) into DIR")


def run(args: argparse.Namespace) -> int:
    chosen = [bundled.find(n) for n in args.names] if args.names else bundled.paths()
    if args.copy:
        return copy(chosen, Path(args.copy))
    if len(args.names) > 1:
        raise RiftsimError("riftsim examples prints one scenario; give --copy DIR to copy several")
    if args.names:
        sys.stdout.write(chosen[0].read_text(encoding="utf-8"))
        return 0
    width = max(len(p.stem) for p in chosen)
    for path in chosen:
        print(f"{path.stem:<{width}}  {describe(path)}")
    print(f"{len(chosen)} bundled scenarios; `riftsim examples NAME > FILE` prints one, "
          f"`riftsim examples --copy DIR` copies them")
    return 0


def describe(path: Path) -> str:
    """A scenario's one-line description: its ``name:`` (the bundled files are read as plain YAML, by libyaml;
    tests/test_scenarios.py loads each of them fully)."""
    doc = yaml.load(path.read_text(encoding="utf-8"), Loader=LOADER)
    name = doc.get("name") if isinstance(doc, dict) else None
    return str(name) if name else "(no name)"


def _already_there(target: Path, data: bytes) -> bool:
    """``target`` holds ``data`` already (False: it does not exist); refused when it is something else."""
    if target.exists() and not target.is_file():
        raise RiftsimError(f"{target}: exists and is not a regular file; nothing copied")
    if not target.exists():
        return False
    if target.stat().st_size != len(data) or target.read_bytes() != data:     # (a large file: never read)
        raise RiftsimError(f"{target}: exists and differs from the bundled scenario; nothing copied "
                           f"(move it away, or copy into another folder)")
    return True


def _relative(path: Path) -> Path:
    """Where a bundled scenario goes in the folder copied into: its place in the bundle (``cards/NAME.yaml`` for a
    subfolder's), so that ``riftsim simulate FOLDER/*.yaml FOLDER/*/*.yaml`` runs them all, as in a checkout."""
    try:
        return path.relative_to(bundled.FOLDER)
    except ValueError:
        return Path(path.name)


def copy(paths: list[Path], folder: Path) -> int:
    """Copy ``paths`` into ``folder``: every file checked first (nothing is written when one would replace a
    different file), then written atomically, a signal landing before or after the whole group."""
    if folder.exists() and not folder.is_dir():
        raise RiftsimError(f"{folder}: not a folder")
    todo, same = [], 0
    for path in paths:
        target, data = folder / _relative(path), path.read_bytes()
        if _already_there(target, data):
            same += 1
        else:
            todo.append((target, data))
    for target, _ in todo:
        target.parent.mkdir(parents=True, exist_ok=True)       # the folder, and a subfolder such as cards/
    with signals_deferred():
        for target, data in todo:
            atomic_write(target, data)
    kept = f" ({same} already there, unchanged)" if same else ""
    print(f"copied {len(todo)} scenario{'s' if len(todo) != 1 else ''} into {folder}/{kept}; "
          f"run them: riftsim simulate {folder}/*.yaml {folder}/*/*.yaml")
    return 0
