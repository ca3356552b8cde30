"""Export scenarios as conformance fixtures: one engine-neutral JSON file per scenario (docs/conformance.md).

A fixture holds the scenario's starting position, its commands in a neutral vocabulary, and after each
command the ordered events with their rule ids, each player's legal actions (or "wait") and the
observable position; a refused command holds the refusal's rule ids and that nothing changed. Any
engine can be checked against them with `riftsim conformance --engine CMD`.

exit status: 0 every fixture written; 2 a file is not a valid scenario, fails, or OUT cannot be written.

examples:
  riftsim export --fixtures fixtures/                 (every bundled scenario)
  riftsim export --fixtures fixtures/ my-case.yaml    (these scenario files)
  riftsim export --schema > fixture.schema.json       (the fixtures' JSON Schema)
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from simulator.core.errors import ScenarioError
from simulator.core.files import atomic_write
from simulator.core.text import shown
from simulator.scenario import bundled


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="scenario files (a directory means its *.yaml files; default: the bundled scenarios)")
    p.add_argument("--fixtures", metavar="OUT", help="write one fixture per scenario into the folder OUT (created)")
    p.add_argument("--schema", action="store_true", help="print the fixtures' JSON Schema")


def scenario_paths(files: list[str]) -> list[Path]:
    """The scenario files named (a directory: its *.yaml files), or the bundled ones."""
    if not files:
        return bundled.paths()
    out: list[Path] = []
    for f in files:
        p = Path(f)
        out += sorted(p.glob("*.yaml")) if p.is_dir() else [p]
    return out


def prepare(out: str) -> Path:
    """The output folder, created; a one-line error if it cannot be."""
    target = Path(out)
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ScenarioError(out, f"cannot create the fixtures folder: {e.strerror or e}") from None
    if not target.is_dir():
        raise ScenarioError(out, "is not a folder")
    return target


def run(args: argparse.Namespace) -> int:
    from simulator.scenario import fixtures
    if args.schema:
        sys.stdout.write(fixtures.shipped_schema())
        return 0
    if not args.fixtures:
        raise ScenarioError("riftsim export", "say where: --fixtures OUT (or --schema)")
    docs = _fixtures(args.files)                  # all valid before any is written
    target = prepare(args.fixtures)
    _unique_names(docs)
    for _p, doc in docs:
        atomic_write(target / f"{doc['name']}.json", fixtures.dumps(doc))
    commands = sum(len(d["commands"]) for _p, d in docs)
    refused = sum(1 for _p, d in docs for c in d["commands"] if "refused" in c)
    print(shown(f"wrote {len(docs)} fixture(s) to {target} ({commands} commands, {refused} refused)"))
    return 0


def _fixtures(files: list[str]) -> list[tuple[Path, dict]]:
    """Each scenario file and its fixture; refused: no file."""
    from simulator.scenario import fixtures
    paths = scenario_paths(files)
    if not paths:
        raise ScenarioError(" ".join(files) or "riftsim export",
                            "no scenario file (*.yaml) there" if files else
                            "the bundled scenarios are not installed (a source checkout has them in scenarios/): "
                            "name scenario files")
    return [(p, fixtures.from_scenario(str(p), _label(p))) for p in paths]


def _unique_names(docs: list[tuple[Path, dict]]) -> None:
    names: set[str] = set()
    for p, doc in docs:
        if doc["name"] in names:
            raise ScenarioError(str(p), f"two scenarios are named {doc['name']}.yaml: rename one")
        names.add(doc["name"])


def _label(p: Path) -> str:
    """How a fixture names its scenario: scenarios/NAME.yaml for a bundled one (a checkout's scenarios/ or the
    installed package's copy), else the path given."""
    for bundled_one in bundled.paths():
        if p.resolve() == bundled_one.resolve():
            return "scenarios/" + bundled_one.relative_to(bundled.FOLDER).as_posix()
    return str(p)
