"""A scenario recorded step by step (simulator/scenario/record.py) and its complete trace diagram.

What a rules judge checks: the recording is the same run as ``simulate`` (same trace, same result);
every declared transition that fired is kept, the silent ones too, in firing order (seed 001's chain
hands back Resolve --resolved--> Execute after the Reaction resolves, 340.4: no trace sentence, but
it is the point of that scenario); each step's snapshot is the engine's own state after that step.
"""
from __future__ import annotations

import glob
import html
import re

import pytest

from simulator.cli import diagrams as render
from simulator.scenario.loader import load, run
from simulator.scenario.record import record

SCENARIOS = sorted(glob.glob("scenarios/*.yaml"))
SEED001 = "scenarios/seed001-reaction-resolves-before-the-spell.yaml"
SEED002 = "scenarios/seed002-showdown-becomes-a-combat.yaml"


@pytest.mark.parametrize("path", SCENARIOS)
def test_recording_is_the_same_run_as_simulate(path):
    """The recording runtime fires through ``fire`` (not the compiled cleanup loop): same trace, result."""
    sc = load(path)
    plain, rec = run(sc), record(sc)
    assert [e.as_dict() for e in rec.result.events] == [e.as_dict() for e in plain.events]
    assert (rec.result.status, rec.result.message) == (plain.status, plain.message)
    # every trace sentence of a transition is one fired transition, in the same order
    said = [e for e in rec.result.events if e.machine]
    assert [f.event for f in rec.fired if f.event is not None] == said
    # the steps' events add up to the whole trace
    assert sum(len(s["events"]) for s in rec.steps) == len(plain.events)
    assert rec.steps[0]["kind"] == "start" and len(rec.steps) == plain.steps_run + 1 + (plain.status != "pass")


def test_seed001_names_the_hand_back_to_execute():
    """340.4, R17: after the Reaction resolves the chain goes back to Execute before the spell, and its line
    names who gets priority (issue 34: it was silent)."""
    rec = record(load(SEED001))
    loud_or_not = [(f.leaf, f.t.trigger, f.t.source, f.t.dest, f.silent) for f in rec.fired if f.leaf != "cleanup"]
    assert len(loud_or_not) == 15 and sum(1 for x in loud_or_not if not x[4]) == 10
    assert ("chain", "resolved", "Resolve", "Execute", False) in loud_or_not
    i = loud_or_not.index(("chain", "resolved", "Resolve", "Execute", False))
    ev = next(f.event for f in rec.fired if (f.leaf, f.t.trigger, f.t.dest) == ("chain", "resolved", "Execute"))
    assert ev is not None and (ev.event, ev.rule) == ("A gets priority", "340.4, R17")
    assert loud_or_not[i + 1][:2] == ("chain", "pass") and loud_or_not[-1][1:4] == ("chain_closed", "Off", "Off")


def test_snapshots_are_the_engine_state_after_each_step():
    """seed 002: the move opens a showdown at North (308, 344) with focus to A (345); the spell closes the
    state (309); its resolution brings b1 and the combat at North (323.13, 464); damage kills a1 (465)."""
    rec = record(load(SEED002))
    by_n = {s["n"]: s["state"] for s in rec.steps}
    assert by_n[0]["machines"]["turn.mode"] == "Neutral" and by_n[0]["priority"] == "A"
    s1 = by_n[1]
    assert s1["machines"]["turn.mode"] == "Showdown" and s1["focus"] == "A"
    north = next(b for b in s1["board"] if b["name"] == "North")
    assert north["status"] == "Showdown" and [u["id"] for u in north["units"]] == ["a1"] and north["contested"]
    s5 = by_n[5]
    assert [i["name"] for i in s5["chain"]] == ["move-spell"] and s5["chain_state"] == "Execute"
    assert s5["turn_state"] == "showdown-closed"
    s9 = by_n[9]
    assert s9["active"] == {"kind": "combat", "at": "North", "attacker": "A", "defender": "B"}
    assert s9["machines"]["combat"] == "ShowdownStep" and s9["machines"]["battlefield.status[North]"] == "Combat"
    last = rec.steps[-1]["state"]
    assert [u["id"] for u in last["gone"]] == ["a1"] and last["gone"][0]["zone"] == "trash"
    assert next(b for b in last["board"] if b["name"] == "North")["controller"] == "B"
    # each step's fired transitions explain how its machines moved: replaying them gives the snapshot
    machines = dict(rec.steps[0]["state"]["machines"])
    for s in rec.steps[1:]:
        for f in s["fired"]:
            assert machines[f["key"]] == f["source"], (s["n"], f)
            machines[f["key"]] = f["dest"]
        assert machines == s["state"]["machines"], s["n"]


def test_a_failed_expectation_is_recorded_at_its_step(tmp_path):
    p = tmp_path / "f.yaml"
    p.write_text("name: wrong focus\nplayers: [A, B]\nbattlefields: [North]\n"
                 "units: [{id: a1, owner: A, at: base, might: 2}]\n"
                 "steps:\n  - {do: move, player: A, units: [a1], to: North}\n  - expect: {focus: B}\n")
    rec = record(load(str(p)))
    assert rec.result.status == "fail"
    assert rec.steps[-1]["n"] == 2 and rec.steps[-1]["failure"] == "expected focus B, got A"
    assert rec.steps[-1]["expect"] == [["focus", "B"]]


def test_trace_diagram_draws_every_fired_transition_numbered_silent_ones_lighter():
    """seed 001: the 15 transitions of its machines are drawn (10 with a sentence, 5 silent, among them
    Execute --pass--> Execute), numbered in firing order; the cleanup passes are numbered entries."""
    rec = record(load(SEED001))
    src = render.trace_graph(rec.fired, "seed001").source
    entries = render.numbered([render._fields(f) for f in rec.fired])
    caption = re.findall(r"#(\d+)  step (\d+)  (\S+)  (\S+)", src)
    assert [int(c[0]) for c in caption] == list(range(1, len(entries) + 1))
    passes = [ln for ln in src.splitlines() if '"chain.Execute" -> "chain.Execute"' in ln and "pass" in ln]
    assert len(passes) == 1 and f'color="{render.SILENT}"' in passes[0] and "(silent)" in passes[0]
    resolved = [ln for ln in src.splitlines() if '"chain.Resolve" -> "chain.Execute"' in ln and "resolved" in ln]
    assert len(resolved) == 1 and f'color="{render.SILENT}"' not in resolved[0]
    for e in rec.result.events:
        if e.machine:
            assert f"({e.rule})  {e.event}" in src
    assert "cleanup  11 silent transitions (run, next): Idle -> WinCheck -> ... -> Idle" in src


def test_trace_diagram_svg_keeps_the_caption_inside_the_picture(tmp_path):
    """The caption's text lies inside the SVG's width (it is not cut off)."""
    rec = record(load(SEED002))
    try:
        svg = render.draw_trace(rec.fired, tmp_path / "t.svg", title="seed002").read_text()
    except Exception as e:  # pragma: no cover - no renderer
        pytest.skip(f"no SVG renderer: {e}")
    width = float(re.search(r'<svg width="([\d.]+)pt"', svg).group(1))
    pad = float(re.search(r'translate\(([\d.]+) ', svg).group(1))
    texts = re.findall(r'<text [^>]*text-anchor="start" x="([\d.]+)"[^>]*font-size="([\d.]+)">([^<]*)</text>', svg)
    lines = [(x, size, html.unescape(t)) for x, size, t in texts if t.startswith("#")]
    assert len(lines) >= 30
    for x, size, text in lines:
        # Helvetica averages well under 0.6 em per character
        assert pad + float(x) + 0.6 * float(size) * len(text) < width, text


def test_snapshots_are_bounded_and_list_moves_one_unit_at_a_time(monkeypatch, tmp_path, capsys):
    """A hostile file cannot make the recording explode: moves are listed per unit (not 2^units groups),
    and past MAX_ENTRIES the command stops with one line."""
    from simulator.cli.main import main
    from simulator.scenario import record as rec_mod
    rec = record(load(SEED002))
    assert rec.steps[0]["state"]["legal"]["A"] == ["concede", "end-turn", "move a1 North", "move a1 South"]
    monkeypatch.setattr(rec_mod, "MAX_ENTRIES", 20)
    code = main(["simulate", "-q", SEED002, "--html", str(tmp_path / "v.html")])
    err = capsys.readouterr().err
    assert code == 2 and "too large to record step by step (more than 20 units" in err
    assert not (tmp_path / "v.html").exists()


@pytest.mark.parametrize("path", [SEED001, SEED002, "scenarios/seed004-war-trigger-order-in-combat.yaml"])
def test_both_backends_fire_the_same_transitions_silent_ones_included(path):
    """The transitions backend (real `transitions` machines) and the compiled table fire the same declared
    transitions in the same order, the silent bookkeeping ones too; the snapshots agree."""
    a, b = record(load(path)), record(load(path), backend="transitions")
    def key(r):
        return [(f.step, f.leaf, f.inst, f.t.trigger, f.t.source, f.t.dest, f.silent) for f in r.fired]

    assert key(a) == key(b) and len(key(a)) > 20
    assert [s["state"] for s in a.steps] == [s["state"] for s in b.steps]


def _text_boxes(svg: str, cls: str) -> list[tuple]:
    """Approximate boxes (x0, y0, x1, y1, text) of the texts inside SVG groups of class ``cls``
    (Helvetica: about half an em per character)."""
    out = []
    for body in re.findall(rf'<g id="\w+" class="{cls}">(.*?)</g>', svg, re.S):
        for anchor, x, y, size, text in re.findall(
                r'<text [^>]*text-anchor="(\w+)" x="([-\d.]+)" y="([-\d.]+)"[^>]*font-size="([\d.]+)"[^>]*>([^<]*)</text>',
                body):
            x, y, size, text = float(x), float(y), float(size), html.unescape(text)
            w = 0.5 * size * len(text)
            x0 = {"middle": x - w / 2, "start": x}.get(anchor, x - w)
            out.append((x0, y - 0.8 * size, x0 + w, y + 0.2 * size, text))
    return out


@pytest.mark.parametrize("path", sorted(glob.glob("scenarios/*.yaml")))
def test_trace_diagram_labels_do_not_overlap(path):
    """Looking at the rendered SVG of every bundled scenario's trace: no edge label overlaps another edge
    label or a state's text (a new declared transition moves the layout: this caught a clash in the cleanup
    cluster when `phases: BeginningStep --game_over-->` was added)."""
    rec = record(load(path), snapshots=False)
    try:
        svg = render.to_svg(render.trace_graph(rec.fired, "t").source).decode()
    except Exception as e:  # pragma: no cover - no renderer
        pytest.skip(f"no SVG renderer: {e}")
    edges, nodes = _text_boxes(svg, "edge"), _text_boxes(svg, "node")
    assert len(edges) > 3
    hit = lambda a, b: a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
    clashes = [(a[4], b[4]) for i, a in enumerate(edges) for b in edges[i + 1:] + nodes if hit(a, b)]
    assert clashes == []
