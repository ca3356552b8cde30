"""Check another Riftbound engine against riftsim's fixtures (docs/conformance.md).

Starts the engine (CMD, split like a shell line, run without a shell), speaks the conformance protocol
with it (one JSON line per request and per answer: setup, command, observe), and reports, per fixture,
the first divergence: the command, what riftsim expects, what the engine said, and the rule ids at
stake. An engine that hangs past --timeout, prints something that is not a JSON answer or exits is a
one-line divergence for that fixture (the engine is started again for the next one).

FIXTURE is a fixture file or a folder of them (`riftsim export --fixtures`, `riftsim verify
--export-fixtures`); without one, the bundled scenarios are exported on the fly.

exit status: 0 the engine agrees on every fixture; 1 a divergence; 2 bad input (a fixture, the command).

examples:
  riftsim conformance --engine "riftsim adapter"
  riftsim conformance fixtures/ --engine "node my-adapter.js" --json
  riftsim conformance fixtures/ --engine "./adapter" --skip events --skip passed
"""
from __future__ import annotations

import argparse
import json
import os
import select
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from simulator.core.errors import ScenarioError
from simulator.core.text import shown

#: the longest answer line read from an engine (a larger one is junk, not a reason to run out of memory)
MAX_LINE = 16 << 20
TIMEOUT = 10.0


def add_arguments(p: argparse.ArgumentParser) -> None:
    from simulator.scenario.conformance import SKIPPABLE
    p.add_argument("fixtures", nargs="*", metavar="FIXTURE",
                   help="fixture files or folders of *.json (default: the bundled scenarios, exported on the fly)")
    p.add_argument("--engine", required=True, metavar="CMD", help='the engine\'s adapter command, e.g. "node adapter.js"')
    p.add_argument("--timeout", type=float, default=TIMEOUT, metavar="SECONDS",
                   help=f"how long to wait for each answer (default: {TIMEOUT:g})")
    p.add_argument("--skip", action="append", default=[], choices=SKIPPABLE, metavar="KEY",
                   help=f"leave KEY out of the comparison (repeatable): {', '.join(SKIPPABLE)}")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")


class EngineFailed(Exception):
    """The engine broke the protocol: hung, printed junk, exited."""


class Engine:
    """One running engine process, asked one JSON line at a time with a timeout per answer."""

    def __init__(self, argv: list[str], timeout: float) -> None:
        self.argv, self.timeout = argv, timeout
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, bufsize=0)
        except OSError as e:
            raise ScenarioError("--engine", f"cannot start {shlex.join(argv)}: {e.strerror or e}") from None
        self.buf = b""
        self.broken = False

    def ask(self, request: dict) -> Any:
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write((json.dumps(request) + "\n").encode())
            stdin.flush()
        except OSError:
            raise EngineFailed(self._exited("before the request")) from None
        line = self._line(stdout.fileno())
        try:
            return json.loads(line)
        except (ValueError, RecursionError):
            raise EngineFailed(f"the engine answered something that is not JSON: {line[:80]!r}") from None

    def _line(self, fd: int) -> bytes:
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise EngineFailed(f"no answer within {self.timeout:g} s")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise EngineFailed(self._exited("without answering"))
            self.buf += chunk
            if len(self.buf) > MAX_LINE:
                raise EngineFailed(f"an answer longer than {MAX_LINE:,} bytes")
        line, _, self.buf = self.buf.partition(b"\n")
        return line

    def _exited(self, when: str) -> str:
        code = self.proc.poll()
        return f"the engine exited {when}" + (f" (status {code})" if code is not None else "")

    def close(self) -> None:
        if self.broken and self.proc.poll() is None:
            self.proc.kill()
        if self.proc.poll() is None:
            try:
                if self.proc.stdin:
                    self.proc.stdin.close()
                self.proc.wait(timeout=1)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            if f:
                f.close()


def check(engine: Engine, fx: dict, skip: frozenset):
    """The first divergence of ``engine`` on the fixture ``fx``, or None (EngineFailed for a broken protocol)."""
    from simulator.scenario.conformance import Divergence, answer_problem, compare_answer, compare_position
    name = fx["name"]
    steps = [(0, None, fx["initial"], {"type": "setup", "fixture": name, "position": fx["position"]})]
    steps += [(c["n"], c["command"], c, {"type": "command", "command": c["command"]}) for c in fx["commands"]]
    for n, cmd, entry, request in steps:
        for req, types, compare in ((request, ("ready",) if n == 0 else ("done", "refused"), compare_answer),
                                    ({"type": "observe"}, ("position",), compare_position)):
            try:
                ans = engine.ask(req)
            except EngineFailed as e:
                engine.broken = True
                return Divergence(name, n, cmd, "protocol", " or ".join(types), str(e), [])
            problem = answer_problem(ans, types)
            if problem:
                return Divergence(name, n, cmd, "protocol", " or ".join(types), problem, [])
            diff = compare(entry, ans, skip)
            if diff:
                return Divergence(name, n, cmd, *diff)
    return None


def load_fixtures(paths: list[str]) -> list[dict]:
    """Fixture files (a folder: its *.json), each checked to be a fixture; or the bundled scenarios'."""
    from simulator.scenario import fixtures
    from simulator.scenario.loader import read_text
    if not paths:
        from simulator.cli.export import scenario_paths, _label
        return [fixtures.from_scenario(str(p), _label(p)) for p in scenario_paths([])]
    files: list[Path] = []
    for f in paths:
        p = Path(f)
        files += sorted(p.glob("*.json")) if p.is_dir() else [p]
    if not files:
        raise ScenarioError(" ".join(paths), "no fixture (*.json) there")
    return [_fixture(p, read_text(str(p))) for p in files]


def _fixture(p: Path, text: str) -> dict:
    """The fixture file ``p`` (its ``text``), checked; not JSON, or not a fixture, is refused naming where."""
    from simulator.scenario import fixtures
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ScenarioError(f"{p}:{e.lineno}", f"not JSON: {e.msg}") from None
    except RecursionError:
        raise ScenarioError(f"{p}:1", "not JSON a fixture could be: nested too deeply") from None
    return fixtures.check_format(doc, str(p), text)


def run_all(argv: list[str], fxs: list[dict], timeout: float, skip: frozenset) -> list[dict]:
    """Every fixture's outcome: ``{"fixture", "commands", "status": pass|diverges, "divergence"}``."""
    out: list[dict] = []
    engine: Engine | None = None
    try:
        for fx in fxs:
            engine = engine or Engine(argv, timeout)
            d = check(engine, fx, skip)
            if engine.broken:                   # hung, junk or gone: a fresh process for the next fixture
                engine.close()
                engine = None
            row: dict = {"fixture": fx["name"], "commands": len(fx["commands"]),
                         "status": "diverges" if d else "pass"}
            if d:
                row["divergence"] = d.as_dict()
                row["line"] = d.line()
            out.append(row)
    finally:
        if engine is not None:
            engine.close()
    return out


def summary(rows: list[dict]) -> dict:
    by: dict[str, int] = {}
    for r in rows:
        if r["status"] != "pass":
            what = r["divergence"]["what"].split("[")[0]         # events[3] -> events; observe.focus stays
            by[what] = by.get(what, 0) + 1
    passed = sum(r["status"] == "pass" for r in rows)
    return {"fixtures": len(rows), "pass": passed, "diverge": len(rows) - passed,
            "commands": sum(r["commands"] for r in rows), "by_kind": dict(sorted(by.items()))}


def run(args: argparse.Namespace) -> int:
    argv = shlex.split(args.engine)
    if not argv:
        raise ScenarioError("--engine", "names no command")
    if not args.timeout > 0:
        raise ScenarioError("--timeout", "must be a positive number of seconds")
    fxs = load_fixtures(args.fixtures)
    rows = run_all(argv, fxs, args.timeout, frozenset(args.skip))
    total = summary(rows)
    if args.json:
        print(json.dumps({"engine": args.engine, "fixtures": rows, "summary": total}, indent=1))
    else:
        for r in rows:
            print(shown(f"PASS      {r['fixture']} ({r['commands']} commands)" if r["status"] == "pass"
                        else f"DIVERGES  {r['line']}"))
        print()
        print(f"{'fixtures':>9} {'pass':>6} {'diverge':>8} {'commands':>9}")
        print(f"{total['fixtures']:>9} {total['pass']:>6} {total['diverge']:>8} {total['commands']:>9}")
        for what, n in total["by_kind"].items():
            print(shown(f"  {n} diverge first on {what}"))
    return 0 if total["diverge"] == 0 else 1


if __name__ == "__main__":                                  # pragma: no cover
    from simulator.cli.main import main
    sys.exit(main(["conformance", *sys.argv[1:]]))
