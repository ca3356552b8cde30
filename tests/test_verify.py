"""riftsim verify (issue 6, and the exploration part of issue 7).

Part 1 checks the declared statecharts with networkx; part 2 explores the simulator breadth-first with
invariants that each cite a rule. The deliberately broken machines and rules in tests/fixtures must be
caught, each with its shortest trace; the real rules must pass.
"""
from __future__ import annotations

import networkx as nx
import re

import pytest
import yaml

import statecharts
from fixtures import broken_machines as bm
from fixtures import broken_rule
from simulator.core import registry
from simulator.verify import command as verify, graphcheck
from simulator.cli.main import main
from simulator.verify.explore import Position, explore, fingerprint
from simulator.verify.stategraph import BOUNDED, TERMINAL, StateGraph, analyse
from simulator import rules

rules.install()     # the real guards first, so a test's patched entry is not overwritten by the first game built

DUEL = {"players": ["A", "B"], "battlefields": ["North", "South"],
        "units": [{"id": "a1", "owner": "A", "at": "base", "might": 2},
                  {"id": "b1", "owner": "B", "at": "base", "might": 1}]}


def findings(machine):
    return graphcheck.check((machine,), registry=False)


# -- part 1: the declared machines ---------------------------------------------------------------

def test_real_statecharts_have_no_findings():
    """Every declared state is reachable, none is a trap, overlapping guards are ordered (verify part 1)."""
    assert graphcheck.check(statecharts.MACHINES) == []


def test_unreachable_state_is_found_with_its_rule():
    (f,) = findings(bm.UNREACHABLE)
    assert (f.kind, f.machine, f.state) == ("unreachable", "fx.unreachable", "Orphan")
    assert "900.3" in f.rules and "initial state Idle" in f.message


def test_trap_state_is_found_with_its_shortest_path():
    (f,) = findings(bm.TRAP)
    assert (f.kind, f.machine, f.state) == ("trap", "fx.trap", "Stuck")
    assert f.path == ("Idle", "go->Busy", "jam->Stuck")
    assert {"900.4", "900.5"} <= set(f.rules)


def test_overlapping_and_shadowed_guards_are_found():
    fs = {(f.kind, f.state, f.trigger): f for f in findings(bm.OVERLAP)}
    assert set(fs) == {("overlap", "Idle", "go"), ("shadowed", "Busy", "stop")}
    over = fs[("overlap", "Idle", "go")]
    assert {"900.6", "900.7"} <= set(over.rules) and "ready" in over.message and "eager" in over.message
    assert fs[("shadowed", "Busy", "stop")].path == ("Idle", "go->Busy")
    # the unguarded fallback after each guarded one is a declared order, not a finding
    assert not any("900.8" in f.rules for f in fs.values())


def test_order_declared_with_unless_is_accepted():
    assert findings(bm.ORDERED) == []


def test_handoff_to_an_undeclared_trigger_is_found():
    fs = graphcheck.check((bm.BAD_SEND, bm.TRAP), registry=False)
    assert [(f.kind, f.machine, f.trigger) for f in fs if f.kind == "handoff"] == [("handoff", "fx.send", "go")]


def test_verify_part1_fails_on_a_broken_machine(monkeypatch, capsys):
    monkeypatch.setattr(statecharts, "MACHINES", statecharts.MACHINES + (bm.TRAP,))
    assert main(["verify", "--statecharts-only"]) == 1
    out = capsys.readouterr().out
    assert "FINDING trap: fx.trap state Stuck" in out and "Idle -> go->Busy -> jam->Stuck" in out


# -- part 2: exploration of the real rules ---------------------------------------------------------

def test_real_rules_small_duel_holds_every_invariant():
    """A duel explored for a full turn each: no violation, the showdown and its focus round are exercised."""
    r = explore(Position("duel", DUEL, turns=2))
    assert r.violations == [] and r.complete
    assert r.states > 20 and r.bounded > 0
    assert ("focus", "Holding", "pass_focus", "Off", ("all_passed_focus",)) in r.coverage   # 347.2.a
    assert ("phases", "Main", "end_turn", "Ending", ()) in r.coverage                       # 316.9


def test_exploration_is_deterministic():
    a = explore(Position("duel", DUEL, turns=2), graph=True, labels=True)
    b = explore(Position("duel", DUEL, turns=2), graph=True, labels=True)
    assert (a.states, a.edges, a.depth, a.bounded) == (b.states, b.edges, b.depth, b.bounded)
    assert list(a.graph.name) == list(b.graph.name) and list(a.graph.edges()) == list(b.graph.edges())


def test_concede_in_war_leaves_no_stale_holder_or_deadlock():
    """Issue 7: 4 players, concede explored; after any concede nobody who left holds focus/priority (652.5)."""
    war = {"mode": "war", "players": ["A", "B", "C", "D"], "battlefields": ["North", "South", "East"],
           "units": [{"id": "a1", "owner": "A", "at": "base", "might": 1}]}
    r = explore(Position("war", war, turns=1, concede=True))
    assert r.violations == []
    assert r.terminal > 0                                       # three concessions end the game
    assert ("player", "Countering", "next", "Lost", ()) in r.coverage


def test_fingerprint_identifies_positions_not_history():
    g = Position("duel", DUEL).start()
    h = g.clone()
    h.trace.append("history is not position")
    assert fingerprint(g) == fingerprint(h)
    h.edit(h.units["a1"]).at = "North"          # every write to a unit goes through edit (copy-on-write)
    assert fingerprint(g) != fingerprint(h)


# -- part 2: deliberately broken rules -----------------------------------------------------------

def test_broken_focus_rule_is_caught_with_shortest_trace(monkeypatch, tmp_path):
    """313.2 broken (focus moves, priority stays): caught at the first focus pass, trace of 2 actions."""
    monkeypatch.setitem(registry.EFFECTS, "focus_to_next", broken_rule.focus_moves_priority_stays)
    r = explore(Position("duel", DUEL, turns=1))
    v = next(v for v in r.violations if v.invariant == "Showdown Open: the focus holder has priority")
    assert v.rule == "313.2"
    assert [a.describe() for a in v.actions] == ["A move a1 North", "A pass"]
    assert "focus is B but priority is A" in v.message
    # written as a scenario that the scenario runner replays up to the violating position
    path = verify.write_counterexample(tmp_path, Position("duel", DUEL, turns=1), v, 1)
    doc = yaml.safe_load(path.read_text())
    assert doc["steps"][:2] == [{"do": "move", "player": "A", "units": ["a1"], "to": "North"},
                                {"do": "pass", "player": "A"}]
    assert doc["steps"][2]["expect"]["focus"] == "B" and doc["steps"][2]["expect"]["priority"] == "A"
    from simulator.scenario import loader as scenario
    res = scenario.run(scenario.load(str(path)))
    assert res.status == "pass", res.message


def test_broken_focus_round_is_caught_by_the_transition_monitor(monkeypatch):
    """347.2.a broken (one pass ends the showdown): the monitor sees the showdown end mid-round."""
    monkeypatch.setitem(registry.GUARDS, "all_passed_focus", broken_rule.one_pass_ends_showdown)
    r = explore(Position("duel", DUEL, turns=1))
    v = next(v for v in r.violations if v.invariant == "a showdown ends after a full round of focus passes")
    assert v.rule.startswith("347.2.a")
    assert [a.describe() for a in v.actions] == ["A move a1 North", "A pass"]
    assert "B did not pass focus" in v.message


def test_verify_command_fails_and_writes_replayable_trace(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(registry.EFFECTS, "focus_to_next", broken_rule.focus_moves_priority_stays)
    pos = tmp_path / "p.yaml"
    pos.write_text(yaml.safe_dump({"positions": [{"name": "duel", "explore": {"turns": 1}, **DUEL}]}))
    out_dir = tmp_path / "cx"
    assert main(["verify", "--positions", str(pos), "--jobs", "1", "--out", str(out_dir)]) == 1
    out = capsys.readouterr().out
    assert "VIOLATION Showdown Open: the focus holder has priority [313.2]" in out
    assert "1. A move a1 North" in out and "2. A pass" in out
    assert len(list(out_dir.glob("*.yaml"))) >= 1


# -- the command ------------------------------------------------------------------------------

def test_unexercised_transition_is_a_finding_unless_explained(tmp_path, capsys):
    pos = tmp_path / "p.yaml"
    pos.write_text(yaml.safe_dump({"positions": [{"name": "duel", "explore": {"turns": 1}, **DUEL}]}))
    assert main(["verify", "--positions", str(pos), "--jobs", "1", "--out", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "FINDING never exercised: player: InGame --concede--> Banishing (651, 652.1)" in out


def test_bad_positions_file_is_one_line_error(tmp_path, capsys):
    pos = tmp_path / "p.yaml"
    pos.write_text(yaml.safe_dump({"positions": [{"name": "odd", "mode": "war", "players": ["A", "B"]}]}))
    assert main(["verify", "--positions", str(pos)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and re.search(r"p\.yaml:\d+: ", err) and "needs 4 players" in err


def test_export_graphml_and_state_graph(tmp_path, capsys):
    pos = tmp_path / "p.yaml"
    pos.write_text(yaml.safe_dump({"positions": [{"name": "duel", "explore": {"turns": 1}, **DUEL}]}))
    target = tmp_path / "space.graphml"
    main(["verify", "--positions", str(pos), "--jobs", "1", "--export", str(target), "--out", str(tmp_path)])
    out = capsys.readouterr().out
    gr = nx.read_graphml(target)
    r = explore(Position("duel", DUEL, turns=1))
    assert gr.number_of_nodes() == r.states
    assert "strongly connected components" in out
    assert any(d.get("action") == "A move a1 North" for _, _, d in gr.edges(data=True))


@pytest.mark.parametrize("jobs", [1, 2])
def test_jobs_do_not_change_results(jobs):
    ps = [Position("duel", DUEL, turns=1), Position("duel2", DUEL, turns=2)]
    rs = verify.run_positions(ps, jobs=jobs)
    assert [(r.position, r.states, r.edges) for r in rs] == \
        [(r.position, r.states, r.edges) for r in verify.run_positions(ps, jobs=1)]


def _graph(nodes: dict, edges: list) -> StateGraph:
    """A StateGraph from {node: flags} (ids 0..n-1) and [(v, w, action)]."""
    g = StateGraph()
    for v, fl in sorted(nodes.items()):
        g.node(v, fl)
        for a, b, label in edges:
            if a == v:
                g.edge(b, label.endswith("end-turn"))
    return g


def test_livelock_is_an_attracting_component_without_terminal_or_bounded_state():
    """A loop the game can never leave, where nobody can ever win or reach the bound, is a finding."""
    s0, end, x, y = range(4)
    nodes = {s0: 0, end: TERMINAL, x: 0, y: 0}
    edges = [(s0, end, "A pass"), (s0, x, "A pass"), (x, y, "A pass"), (y, x, "B pass")]
    assert analyse(_graph(nodes, edges)).livelocks == [(2, x)]
    assert analyse(_graph(nodes, edges + [(y, end, "B pass")])).livelocks == []


def test_a_loop_of_end_turns_is_not_a_livelock():
    """Turns passing forever on an empty board (decks not modelled) is reported apart, not as a finding."""
    s0, x, y = range(3)
    a = analyse(_graph({s0: 0, x: 0, y: 0}, [(s0, x, "A move a1 North"), (x, y, "A end-turn"),
                                             (y, x, "B end-turn")]))
    assert a.livelocks == [] and a.idle == [(2, x)]


def test_max_states_stop_marks_the_frontier_as_bounded():
    r = explore(Position("duel", DUEL, turns=2), max_states=10, graph=True)
    assert not r.complete
    assert list(r.graph.ids) == list(range(r.states))                       # every visited state is a node
    assert {w for _, w, _ in r.graph.edges()} <= set(r.graph.ids)
    assert any(fl & BOUNDED for fl in r.graph.flags)


def test_both_backends_explore_the_same_space():
    """The compiled table and the real transitions machines pick the same declared transitions everywhere."""
    a = explore(Position("duel", DUEL, turns=1), backend="compiled", graph=True, labels=True)
    b = explore(Position("duel", DUEL, turns=1), backend="transitions", graph=True, labels=True)
    assert (a.states, a.edges, a.coverage) == (b.states, b.edges, b.coverage)
    assert list(a.graph.name) == list(b.graph.name)


@pytest.mark.parametrize("entry, why", [
    ({"explore": {"turns": "many"}}, "explore.turns must be a whole number"),
    ({"explore": {"concede": "yes"}}, "explore.concede must be true or false"),
    ({"explore": {"speed": 3}}, "unknown key speed in explore"),
    ({"hands": {"A": ["no-such-card"]}}, "unknown card no-such-card in A's hand"),
    ({"units": [{"id": "u1", "at": "base", "might": 1}]}, "needs 'owner'"),
    # issue 11 item 3: what used to be explored silently
    ({"units": [{"id": "u1", "owner": "C", "might": 1}]}, "unknown player C in u1's owner"),
    ({"units": [{"id": "u1", "owner": "A", "at": "Nowhere", "might": 1}]}, "unknown place Nowhere"),
    ({"units": [{"id": "u1", "owner": "A", "might": "two"}]}, "u1's might must be a whole number"),
    ({"units": [{"id": "u1", "owner": "A", "might": -1}]}, "u1's might must be at least 0"),
    ({"units": [{"id": "u1", "owner": "A", "might": 1}, {"id": "u1", "owner": "B", "might": 1}]}, "duplicate id u1"),
    ({"junk": 1}, "unknown key junk in a position"),
])
def test_bad_position_entries_are_one_line_errors(tmp_path, capsys, entry, why):
    pos = tmp_path / "p.yaml"
    pos.write_text(yaml.safe_dump({"positions": [{"name": "p", **DUEL, **entry}]}))
    assert main(["verify", "--positions", str(pos)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""                            # nothing checked before the input is valid
    err = captured.err.strip()
    assert "\n" not in err and re.search(r"p\.yaml:\d+: ", err) and why in err, err
