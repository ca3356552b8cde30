"""Run scenario files and print their traces: one line per event, with the rule (and ruling) it applies.

Each file is a YAML scenario (docs/scenarios.md, docs/scenario-format.md): a starting
position, then steps that act (do:), check the position (expect:) or print it (show:).

exit status: 0 every expectation held; 1 an expectation failed or an action was illegal
where none was expected; 2 a file is not a valid scenario (FILE:LINE: what is wrong).

examples:
  riftsim simulate scenarios/*.yaml             (`riftsim examples --copy scenarios` copies the bundled ones here)
  riftsim simulate scenarios/seed000-showdown-on-an-empty-battlefield.yaml --json
  riftsim simulate scenarios/ruling-R1-default-focus-holder-keeps-focus-on-conversion.yaml --ruling R1=attacker
                                                (exit 1: under the other reading its expectations fail)
  riftsim simulate scenarios/seed001-reaction-resolves-before-the-spell.yaml --show     (who acts after each step)
  riftsim simulate scenarios/seed001-reaction-resolves-before-the-spell.yaml --diagram trace.svg
  riftsim simulate scenarios/*.yaml --html viewer.html     (open it in a browser: step with the arrow keys)
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys

from simulator.core.errors import ScenarioError, TooCostly, need
from simulator.core.text import shown
from simulator.core.i18n import event_json, gettext_for, languages
from simulator.game.validate import check_ruling
from simulator.scenario.loader import SHOW_KEYS, Result, load, trace_line
from simulator.scenario.loader import run as run_scenario
from simulator.game.setup import RULINGS
from simulator.scenario.record import record
from simulator.scenario.view import SHOW_DEFAULT, passed_now, position, position_line
from simulator.scenario import provenance

#: the version of the --json trace format (docs/trace-format.md; schema simulator/scenario/schemas/trace.schema.json)
FORMAT = 1
#: at most this many unit, chain and battlefield entries over all the positions of one --json trace
MAX_ENTRIES = 1_000_000


def _ruling(text: str) -> tuple[str, str]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"{text!r}: expected ID=VALUE, e.g. R1=attacker")
    rid, value = (x.strip() for x in text.split("=", 1))
    try:
        check_ruling(rid, value, "--ruling")
    except ScenarioError as e:
        raise argparse.ArgumentTypeError(e.what) from None
    return rid, value


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="scenario files (YAML); a directory means its *.yaml files")
    p.add_argument("--json", action="store_true",
                   help=f"print one JSON object per scenario and line, trace format {FORMAT}: "
                        '{"format", "scenario", "file", "status", "message", "rulings", "start", "steps": [{"step", '
                        '"line", "kind", "label", "failure", "events", "position"}], "events", "final"}; see '
                        "docs/trace-format.md (its JSON Schema: riftsim schema --trace); the summary goes to stderr")
    p.add_argument("--show", action="store_true",
                   help="after every step, print the position: state, focus, priority, who passed in succession, "
                        "chain, and who must decide what (a show: step prints the keys it names)")
    alternatives = "; ".join(f"{r}={'|'.join(v)}" for r, v in RULINGS.items())
    p.add_argument("--ruling", action="append", type=_ruling, default=[], metavar="ID=VALUE",
                   help=f"pin a ruling alternative for every file, over the file's own rulings: ({alternatives}); "
                        "repeatable. see docs/scenarios.md")
    p.add_argument("--backend", choices=("compiled", "transitions"), default="compiled",
                   help="how declared transitions are picked: the compiled table (default) or real "
                        "`transitions` machines; both give the same traces")
    p.add_argument("--diagram", metavar="OUT.svg",
                   help="also draw the trace of the (single) scenario as a diagram with simulator.cli.diagrams")
    p.add_argument("--html", metavar="OUT.html",
                   help="also write a self-contained page that steps through every scenario run (board, chain, "
                        "focus, priority, scores, trace, statecharts with the current states); see docs/viewer.md")
    p.add_argument("--checks", action="store_true",
                   help="also print each expectation that held, as a line `STEP  expect: key value, ...  [held]`")
    p.add_argument("--quiet", "-q", action="store_true", help="no traces: only result lines and the summary")
    p.add_argument("--lang", choices=languages(), default="en",
                   help="narrate the trace (text, --json event texts, --html page) in this language; rules are "
                        "cited the same (default: en)")


def run(args: argparse.Namespace) -> int:
    rulings = dict(args.ruling)
    if not _expand_files(args):
        return 2
    counts = {"pass": 0, "fail": 0, "pending": 0, "invalid": 0}
    results: list[Result] = []
    recorded: list = []
    for i, path in enumerate(args.files):
        try:
            sc, res, steps = _run_one(args, path, rulings, recorded)
        except ScenarioError as e:
            counts["invalid"] += 1
            _print_invalid(args, path, e, rulings)
            continue
        counts[res.status] += 1
        results.append(res)
        if args.json:
            _print_json(args, path, sc, res, need(steps, "the steps' positions"), rulings)
        else:
            _print_text(args, i, sc, res, steps, rulings)
    _print_summary(args, counts)
    return _written(args, 2 if counts["invalid"] else 1 if counts["fail"] else 0, results, recorded, rulings)


def _written(args: argparse.Namespace, worst: int, results: list[Result], recorded: list, rulings: dict) -> int:
    """The exit status once the ``--html`` page and the ``--diagram`` (unless a file was invalid) are written."""
    if args.html:
        worst = max(worst, _html(recorded, args.html, args.lang))
    if args.diagram and results and worst < 2:
        worst = max(worst, _diagram(results[0], args.diagram, args.backend, rulings))
    return worst


def _expand_files(args: argparse.Namespace) -> bool:
    """``args.files`` with every folder replaced by its scenario files; False (said on stderr) when they are
    not what the options need."""
    files = _files(args.files)
    if files is None:
        return False
    args.files = files
    if args.diagram and len(args.files) != 1:
        print(f"riftsim simulate: --diagram draws one scenario's trace; got {len(args.files)} files", file=sys.stderr)
        return False
    return True


def _files(paths: list[str]) -> list[str] | None:
    """The scenario files: a folder gives its ``*.yaml``; None (said on stderr) for a folder with none."""
    files = []
    for path in paths:
        if not pathlib.Path(path).is_dir():
            files.append(path)
            continue
        found = sorted(str(f) for f in pathlib.Path(path).glob("*.yaml"))
        if not found:
            print(shown(f"{path}:0: no scenario files (*.yaml) in this directory"), file=sys.stderr)
            return None
        files += found
    return files


def _run_one(args: argparse.Namespace, path: str, rulings: dict, recorded: list):
    """(scenario, result, its steps' positions or None) of one file; a recorded run (--html) joins ``recorded``."""
    sc = load(path)
    steps = Steps(sc.file, SHOW_KEYS if args.json else SHOW_DEFAULT, args.lang) if args.json or args.show else None
    if args.html:
        rec = record(sc, backend=args.backend, rulings=rulings, lang=args.lang, also=steps)   # the same run
        recorded.append(rec)
        res = rec.result
    else:
        res = run_scenario(sc, backend=args.backend, rulings=rulings, observe=steps)
    if args.json:
        _ = res.final                       # the final legal actions, under the run's bound
    return sc, res, steps


def _print_invalid(args: argparse.Namespace, path: str, e: ScenarioError, rulings: dict) -> None:
    print(shown(e), file=sys.stderr)
    if args.json:
        print(json.dumps({"format": FORMAT, "scenario": None, "file": path, "status": "invalid",
                          "message": str(e), "rulings": rulings, "start": None, "steps": [], "events": [],
                          "final": None}), file=sys.stdout)


def _print_json(args: argparse.Namespace, path: str, sc, res: Result, steps: "Steps", rulings: dict) -> None:
    print(json.dumps({"format": FORMAT, "scenario": sc.name, "file": path, "status": res.status,
                      "message": res.message, "rulings": {**sc.rulings, **rulings}, "start": steps.start,
                      "steps": steps.steps, "events": [event_json(e, args.lang) for e in res.events],
                      "final": {**res.final, "passed": passed_now(res.state)},
                      **provenance.as_json(sc.provenance)}), file=sys.stdout)
    if res.message and res.status == "fail":
        print(shown(res.message), file=sys.stderr)


def _print_text(args: argparse.Namespace, i: int, sc, res: Result, steps: "Steps | None", rulings: dict) -> None:
    """The scenario's header, its trace (with what --checks and --show add, in step order) and its result."""
    out = sys.stdout
    if i:
        print(file=out)
    print(shown(_header(sc, rulings)), file=out)
    if sc.provenance.get("rules"):                  # P1: under the header line
        print(shown(f"rules claimed: {', '.join(sc.provenance['rules'])}"), file=out)
    if not args.quiet:
        for _, line in sorted(_trace_lines(args, res, steps), key=lambda x: x[0]):
            print(shown(line), file=out)
    print(shown(_result_line(res, args.lang)), file=out)


def _trace_lines(args: argparse.Namespace, res: Result, steps: "Steps | None") -> list[tuple[int, str]]:
    lines = [(e.step, trace_line(e, args.lang)) for e in res.events]
    if args.checks:
        lines += [(n, f"{n}  expect: {text}  [held]") for n, text in res.checked]
    if steps is not None:
        lines += [(x["step"], f"{x['step']}  {position_line(x['position'], args.lang)}") for x in steps.steps
                  if x["kind"] != "show"]
    return lines + [(n, f"{n}  {position_line(values, args.lang)}") for n, values in res.shown]


def _print_summary(args: argparse.Namespace, counts: dict[str, int]) -> None:
    _ = gettext_for(args.lang)
    summary = _("{count} scenarios: {passed} passed, {failed} failed, {invalid} invalid, {pending} pending"
                if len(args.files) != 1 else
                "{count} scenario: {passed} passed, {failed} failed, {invalid} invalid, {pending} pending").format(
        count=len(args.files), passed=counts["pass"], failed=counts["fail"], invalid=counts["invalid"],
        pending=counts["pending"])
    print(summary, file=sys.stderr if args.json else sys.stdout)


class Steps:
    """Each step's position and events while the scenario runs (``--show``, ``--json``): an observer of
    :func:`simulator.scenario.loader.run`. The legal actions it lists count against the run's bound."""

    def __init__(self, file: str, keys: tuple, lang: str = "en") -> None:
        self.file, self.keys, self.lang = file, keys, lang
        self.start: dict | None = None
        self.steps: list[dict] = []
        self.seen = self.entries = 0

    def __call__(self, st, game, failure: str) -> None:
        g = game.state
        self.entries += len(g.units) + len(g.chain) + len(g.bfs) + 1
        where = f"{self.file}:{st.line if st else 0}"
        if self.entries > MAX_ENTRIES:
            raise ScenarioError(where, f"the positions of every step hold more than {MAX_ENTRIES:,} units, chain "
                                       f"items and battlefields in all: refused")
        try:
            pos = position(g, self.keys)
        except TooCostly:
            raise ScenarioError(where, "the positions' legal actions need more than the run's bound of candidate "
                                       "checks: refused") from None
        if st is None:
            self.start, self.seen = pos, len(g.trace)
            return
        events, self.seen = g.trace[self.seen:], len(g.trace)
        kind = "do" if st.action else "show" if st.show is not None else "expect"
        entry = {"step": st.number, "line": st.line, "kind": kind, "label": st.describe(), "failure": failure,
                 "events": [event_json(e, self.lang) for e in events], "position": pos}
        if st.show is not None:
            entry["shown"] = list(st.show)
        self.steps.append(entry)


def _header(sc, rulings: dict) -> str:
    pinned = {**sc.rulings, **rulings}
    extra = f"; rulings {', '.join(f'{k}={v}' for k, v in sorted(pinned.items()))}" if pinned else ""
    mode = sc.setup.get("mode", "duel")
    return f"== {sc.file}: {sc.name} ({mode}: {', '.join(sc.setup['players'])}{extra})"


def _result_line(res: Result, lang: str = "en") -> str:
    _ = gettext_for(lang)
    if res.status == "pass":
        return _("-- PASS: {steps} steps, {checks} expectations held").format(steps=res.steps_run, checks=res.checks)
    if res.status == "pending":
        return _("-- PENDING ({why}): {message}").format(why=res.scenario.pending, message=res.message)
    return _("-- FAIL: {message}").format(message=res.message)


def _html(recorded: list, out_path: str, lang: str = "en") -> int:
    from simulator.cli.diagrams import inline_svgs
    from simulator.cli.viewer import scenario_data, write_page
    scenarios = [{"name": r.scenario.name, "file": r.scenario.file, "readings": [scenario_data(r)], "diverge": None}
                 for r in recorded]
    if not scenarios:
        print(shown(f"riftsim simulate: no valid scenario to show, {out_path} not written"), file=sys.stderr)
        return 2
    try:
        write_page(out_path, scenarios, inline_svgs(lang=lang), lang=lang)
    except OSError as e:
        print(shown(f"riftsim simulate: cannot write {out_path}: {e.strerror or e}"), file=sys.stderr)
        return 2
    print(shown(f"viewer written to {out_path} ({len(scenarios)} scenario{'s' if len(scenarios) != 1 else ''})"),
          file=sys.stderr)
    return 0


def _diagram(res: Result, out_path: str, backend: str, rulings: dict) -> int:
    from simulator.cli.diagrams import draw_trace
    from simulator.scenario.record import record
    fired = record(res.scenario, backend=backend, rulings=rulings, snapshots=False).fired    # every transition, silent ones too
    try:
        draw_trace(fired, out_path, title=f"{res.scenario.name}  ({res.scenario.file})")
    except OSError as e:
        print(shown(f"riftsim simulate: cannot write {out_path}: {e.strerror or e}"), file=sys.stderr)
        return 2
    print(shown(f"diagram written to {out_path}"), file=sys.stderr)
    return 0
