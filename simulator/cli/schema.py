"""Print the JSON Schema of scenario files (or of verify positions files) for editors.

The schema ships inside the package; point the VS Code YAML extension at it with a first line
``# yaml-language-server: $schema=./scenario.schema.json`` (docs/scenario-format.md). It is the one
structural check of the format: `riftsim simulate` and `riftsim verify` validate every file against it
(simulator/game/shape.py), so the editor never disagrees with them about which keys exist; riftsim then
checks what a schema can't say (ids, the rules' refusals).

examples:
  riftsim schema > scenario.schema.json
  riftsim schema --positions > positions.schema.json
  riftsim schema --trace > trace.schema.json          # the output of `riftsim simulate --json` (docs/trace-format.md)
  riftsim schema --check          # fail when the shipped copies are stale (a developer's check)
  riftsim schema --write          # regenerate the shipped copies in a source checkout
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from simulator.core.files import atomic_write


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--positions", action="store_true", help="the schema of verify positions files instead")
    p.add_argument("--trace", action="store_true",
                   help="the schema of `riftsim simulate --json` output instead (docs/trace-format.md)")
    p.add_argument("--check", action="store_true", help="exit 1 when a shipped schema differs from the vocabulary")
    p.add_argument("--write", action="store_true", help="rewrite the shipped schemas (in a source checkout)")


def generated() -> dict[str, str]:
    from simulator.scenario.schema import dumps, scenario_schema
    from simulator.scenario.fixtures import schema_text
    from simulator.verify.schema import positions_schema
    return {"scenario": dumps(scenario_schema()), "positions": dumps(positions_schema()), "fixture": schema_text()}


def run(args: argparse.Namespace) -> int:
    texts = generated()
    if args.check or args.write:
        return _check_or_write(texts, args.write)
    if args.trace:
        from importlib import resources
        sys.stdout.write(resources.files("simulator.scenario").joinpath("schemas", "trace.schema.json")
                         .read_text(encoding="utf-8"))
        return 0
    sys.stdout.write(texts["positions" if args.positions else "scenario"])
    return 0


def _check_or_write(texts: dict[str, str], write: bool) -> int:
    """``--write``: write the shipped schemas that differ from the generated ones; ``--check``: name them."""
    from simulator.scenario import schema
    folder = Path(schema.__file__).resolve().parent / "schemas"
    stale = [k for k, text in texts.items() if schema.shipped(k) != text]
    if write:
        for k in stale:
            target = folder / schema.FILES[k]
            atomic_write(target, texts[k])
            print(f"wrote {target}")
        return 0
    for k in stale:
        print(f"stale: {folder / schema.FILES[k]} (run `riftsim schema --write`)", file=sys.stderr)
    return 1 if stale else 0
