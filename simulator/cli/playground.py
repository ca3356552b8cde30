"""What the playground page (``riftsim site``) calls in the browser: riftsim's own entry points, nothing else.

The page's JavaScript draws; every answer about the rules comes from here, run by Pyodide on the same
code as the command line: the scenario is loaded with :func:`simulator.scenario.loader.load` (the JSON
Schema check and riftsim's ``FILE:LINE:`` messages), run and recorded as ``simulate --html`` does
(:func:`simulator.scenario.record.record`, the page of :mod:`simulator.cli.viewer`), and played on with
``riftsim play``'s :class:`simulator.cli.play.Session`. Each function takes and returns plain text (JSON),
so the page never holds a Python object. It runs as well under CPython: ``tests/test_site.py`` calls it
directly, then drives the built page.

>>> import json
>>> json.loads(check("name: x\\n"))["error"].startswith("scenario.yaml:")
True
>>> unpack(pack("name: x\\n"))
'name: x\\n'
"""
from __future__ import annotations

import base64
import io
import json
import zlib
from pathlib import Path

from simulator.cli.play import Session, parse_action, status
from simulator.cli.titles import titles
from simulator.cli.viewer import page, scenario_data
from simulator.core.errors import RiftsimError
from simulator.core.i18n import narrate, rule_title
from simulator.game.actions import Action, legal
from simulator.scenario import bundled
from simulator.scenario.loader import loads
from simulator.scenario.record import record
from simulator.scenario.view import view

#: the editor's text, as a file: riftsim's messages name it (scenario.yaml:12: ...)
FILE = "scenario.yaml"
#: a shared scenario is at most this long once unpacked (a link cannot make the page explode)
MAX_TEXT = 1_000_000

_site: dict = {}
_play: dict = {}


def start(folder: str = ".") -> str:
    """Read the build's data (riftsim-site.json: the diagrams per language) from ``folder``; the examples."""
    path = Path(folder) / "riftsim-site.json"
    if path.is_file():
        _site.update(json.loads(path.read_text(encoding="utf-8")))
    return json.dumps([{"name": p.stem, "text": p.read_text(encoding="utf-8")} for p in bundled.paths()])


def _load(text: str):
    return loads(text, FILE)


def check(text: str) -> str:
    """``{"error": ""}`` for a valid scenario, else riftsim's one line (``scenario.yaml:LINE: what``)."""
    try:
        _load(text)
    except RiftsimError as e:
        return json.dumps({"error": str(e)})
    return json.dumps({"error": ""})


def _rules(ids: str) -> list[str]:
    return [r.strip() for r in ids.split(",") if r.strip()]


def _rule_order(rule: str) -> tuple:
    """Rules in reading order: 466.2 before 466.10, the rulings (R1, R2, ..., R10) after them.

    >>> sorted(["R10", "466.10", "R2", "466.2.a", "144"], key=_rule_order)
    ['144', '466.2.a', '466.10', 'R2', 'R10']
    """
    parts = rule.lstrip("R").split(".")
    return (rule.startswith("R"), [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts])


def run(text: str, lang: str = "en") -> str:
    """Run the scenario as ``riftsim simulate --html`` does: the result, the trace (each line's rules), every
    expectation (held, failed, not reached), the rules' titles, and the viewer's page."""
    try:
        sc = _load(text)
        rec = record(sc, lang=lang)
    except RiftsimError as e:
        return json.dumps({"error": str(e)})
    res = rec.result
    lines = [{"step": e.step, "text": narrate(e, lang), "rules": _rules(e.rule)} for e in res.events]
    done = {s["n"]: s for s in rec.steps}
    expectations = []
    for st in sc.steps:
        if st.expect is None:
            continue
        s = done.get(st.number)
        verdict = "not_reached" if s is None else "failed" if s["failure"] else "held"
        said = s["expect"] if s else [[k, json.dumps(v)] for k, v in st.expect.items()]
        expectations.append({"step": st.number, "line": st.line, "text": ", ".join(f"{k} {v}" for k, v in said),
                             "verdict": verdict, "failure": s["failure"] if s else ""})
    cited = sorted({r for x in lines for r in x["rules"]} | set(rec.rulings) | set(sc.rulings), key=_rule_order)
    named = {r: rule_title(t, lang) for r, t in titles(cited).items()}
    data = {"name": sc.name, "file": sc.file, "readings": [scenario_data(rec)], "diverge": None}
    viewer = page([data], _site.get("diagrams", {}).get(lang, {}), lang=lang)
    steps = [{"index": i, "n": s["n"], "label": s["label"]} for i, s in enumerate(rec.steps)]
    return json.dumps({"error": "", "status": res.status, "message": res.message, "name": sc.name,
                       "lines": lines, "expectations": expectations, "titles": named, "steps": steps,
                       "viewer": viewer}, ensure_ascii=False)


def play(text: str, upto: int, lang: str = "en") -> str:
    """Start playing from after step ``upto`` of the scenario (its actions replayed, as ``riftsim play --replay``
    does up to there): the position, its trace and each player's legal actions."""
    try:
        sc = _load(text)
    except RiftsimError as e:
        return json.dumps({"error": str(e)})
    session = Session(sc, sc.game(), lang=lang, stdout=io.StringIO())
    session.source = text
    for st in sc.steps:
        if st.number > upto:
            break
        if st.action and not st.illegal:
            if not session.act(st.action):
                return json.dumps({"error": f"{sc.file}:{st.line}: step {st.number}: {st.describe()} is illegal"})
            session.history.clear()                  # replayed steps are the position: saved, never undone
    _play.clear()
    _play.update(session=session, lang=lang, legal=[])
    return _answer("")


def _answer(said: str) -> str:
    session: Session = _play["session"]
    g = session.game.state
    options: list[Action] = []
    buttons: dict[str, list[dict]] = {}
    for p in view(g, with_legal=False)["players"]:
        buttons[p] = []
        for a in legal(g, p):
            buttons[p].append({"index": len(options), "label": a.describe()})
            options.append(a)
    _play["legal"] = options
    return json.dumps({"error": "", "said": said, "status": status(g, _play["lang"]),
                       "trace": [narrate_line(e, _play["lang"]) for e in g.trace], "legal": buttons,
                       "undo": bool(session.history), "played": len(session.history)}, ensure_ascii=False)


def narrate_line(e, lang: str) -> dict:
    return {"step": e.step, "text": narrate(e, lang), "rules": _rules(e.rule)}


def _said(do) -> str:
    session: Session = _play["session"]
    session.stdout = io.StringIO()
    do(session)
    return session.stdout.getvalue().strip()


def act(index: int) -> str:
    """Carry out legal action number ``index`` of the last answer."""
    action = _play["legal"][index]
    return _answer(_said(lambda s: s.act(action)))


def typed(line: str) -> str:
    """Carry out an action typed as at ``riftsim play``'s prompt (``A move a1 North``)."""
    try:
        action = parse_action(line)
    except RiftsimError as e:
        return _answer(f"? {e}")
    return _answer(_said(lambda s: s.act(action)))


def undo() -> str:
    return _answer(_said(lambda s: s.do_undo("")))


def save() -> str:
    """The session as a scenario file (``riftsim play``'s save): its position, every action, the end."""
    return _play["session"].scenario_text()


def pack(text: str) -> str:
    """The scenario for a link: zlib-compressed, base64url without padding."""
    return base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode().rstrip("=")


def unpack(packed: str) -> str:
    """The scenario a link carries (at most :data:`MAX_TEXT` characters); '' for a broken link."""
    try:
        raw = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
        d = zlib.decompressobj()
        data = d.decompress(raw, MAX_TEXT)
        return data.decode("utf-8") if not d.unconsumed_tail else ""
    except (ValueError, zlib.error, UnicodeDecodeError):
        return ""
