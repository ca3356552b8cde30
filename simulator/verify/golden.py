"""Golden traces: every bundled scenario's full trace, final position and legal actions, approved as files.

A scenario's *golden output* is what a rules judge reads, as structured data: every trace event (step,
player, text, rules, and for a declared transition its machine, instance, trigger, source and
destination), the scenario's result, the final position (the expectation keys of
:func:`simulator.scenario.view.view`), each player's rune pool and each player's legal actions at the end. It is written as JSON
laid out one event (one final key, one legal action) per line, so a changed rule shows as a small,
readable diff.

``tests/golden/<scenario>.json`` holds the approved output of ``scenarios/<scenario>.yaml``;
``tests/test_golden.py`` compares every bundled scenario exactly, on both backends, against it.
``riftsim approve`` (``simulator/cli/approve.py``) writes it after you have read the diff.

>>> text = render_doc({"scenario": "x", "status": "pass", "message": "", "events": [{"step": 1}],
...                    "final": {"turn": 1}, "legal": {"A": ["pass"]}})
>>> print(text, end="")
{
"scenario": "x",
"status": "pass",
"message": "",
"events": [
{"step": 1}
],
"final": {
"turn": 1
},
"legal": {
"A": [
"pass"
]
}
}
"""
from __future__ import annotations

import difflib
import json
from pathlib import Path

from simulator.core.files import atomic_write
from simulator.scenario.loader import Result, load, run

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
GOLDEN = ROOT / "tests" / "golden"
APPROVE = "riftsim approve"


def scenario_files() -> list[Path]:
    """The bundled scenarios (scenarios/ and its subfolders, simulator.scenario.bundled.under)."""
    from simulator.scenario.bundled import under
    return under(SCENARIOS)


def golden_path(scenario: Path) -> Path:
    return GOLDEN / f"{scenario.stem}.json"


def event_dict(e) -> dict:
    """One trace event as golden data: the transition's fields only when a declared transition fired."""
    d = {"step": e.step, "player": e.player, "text": e.event, "rules": e.rule}
    if e.detail:
        d["detail"] = e.detail
    if e.machine:
        d.update(machine=e.machine, instance=e.instance, trigger=e.trigger, source=e.source, dest=e.dest)
    return d


def document(path: Path, res: Result, state=None) -> dict:
    """The golden data of one scenario run (``state``: the final game state, for what the view does not show)."""
    final = dict(res.final)
    legal = final.pop("legal", {})
    message = res.message.replace(str(path), f"scenarios/{path.name}")
    doc = {"scenario": path.stem, "status": res.status, "message": message,
           "events": [event_dict(e) for e in res.events], "final": final}
    if state is not None:
        doc["pool"] = {p: state.energy.get(p, 0) for p in state.order}     # rune pools (316.1, 317.2)
    doc["legal"] = legal
    return doc


def run_doc(path: Path, backend: str = "compiled") -> dict:
    """Run one scenario file and return its golden data."""
    sc = load(str(path))
    last: list = []
    res = run(sc, backend=backend, observe=lambda step, game, failure: last.append(game) if not last else None)
    return document(path, res, last[0].state if last else None)


def _j(v) -> str:
    return json.dumps(v, ensure_ascii=False, sort_keys=False)


def render_doc(doc: dict) -> str:
    """JSON with one event, one final key, one unit and one legal action per line."""
    return "\n".join(_block("{", [_entry(k, v) for k, v in doc.items()], "}")) + "\n"


def _entry(k: str, v) -> list[str]:
    """The lines of one key of the document."""
    if k == "events":
        return _block('"events": [', [[_j(e)] for e in v], "]")
    if k == "final":
        return _block('"final": {', [_final(f, x) for f, x in v.items()], "}")
    if k == "legal":
        return _block('"legal": {', [_block(f"{_j(p)}: [", [[_j(a)] for a in acts], "]") if acts else [f"{_j(p)}: []"]
                                     for p, acts in v.items()], "}")
    return [f"{_j(k)}: {_j(v)}"]


def _final(f: str, x) -> list[str]:
    if f == "units" and x:
        return _block('"units": {', [[f"{_j(u)}: {_j(x[u])}"] for u in x], "}")
    return [f"{_j(f)}: {_j(x)}"]


def _block(opening: str, entries: list[list[str]], closing: str) -> list[str]:
    """``opening``, the entries' lines (a comma after each entry but the last), ``closing``."""
    out = [opening]
    for i, lines in enumerate(entries):
        out += lines[:-1] + [lines[-1] + ("," if i < len(entries) - 1 else "")]
    return out + [closing]


def render(path: Path, backend: str = "compiled") -> str:
    """The golden text of one scenario file, run on ``backend``."""
    return render_doc(run_doc(path, backend))


def diff(path: Path, text: str, limit: int = 60) -> str:
    """A unified diff from the approved file to ``text`` (at most ``limit`` lines), '' if equal."""
    gp = golden_path(path)
    old = gp.read_text(encoding="utf-8") if gp.exists() else ""
    if old == text:
        return ""
    lines = list(difflib.unified_diff(old.splitlines(), text.splitlines(), f"approved {rel(gp)}",
                                      "now", n=2, lineterm=""))
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more diff lines)"]
    return "\n".join(lines)


def rel(p: Path) -> str:
    try:
        return str(p.relative_to(ROOT))
    except ValueError:
        return str(p)


def problem(path: Path, backend: str = "compiled") -> str:
    """Why ``path``'s output does not match its golden file (with the diff and how to approve), or ''."""
    gp = golden_path(path)
    text = render(path, backend)
    if not gp.exists():
        return (f"{rel(path)} has no approved golden output ({rel(gp)}): read its trace with "
                f"`riftsim simulate {rel(path)}`, then approve it with `{APPROVE} {path.stem}`")
    d = diff(path, text)
    if not d:
        return ""
    return (f"{rel(path)}: the trace, final position or legal actions changed on the {backend} backend "
            f"(golden file {rel(gp)}). If the change is intended and you can explain it, approve it with "
            f"`{APPROVE} {path.stem}` and say why in the commit message.\n{d}")


def orphans() -> list[Path]:
    """Golden files whose scenario no longer exists."""
    names = {p.stem for p in scenario_files()}
    return sorted(p for p in GOLDEN.glob("*.json") if p.stem not in names)


def write(path: Path, text: str) -> None:
    """Write atomically (:func:`simulator.core.files.atomic_write`), making the folder if needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, text)
