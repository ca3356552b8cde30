"""Scenario files: bad input gives exit 2 and one line ``FILE:LINE: what is wrong``; never a traceback.

Each bad-input class of the contract has a test with its exact message; illegal actions
and failed expectations give exit 1 naming the step, the action, the reason and the rule;
a hypothesis test feeds random and malformed documents to the loader and the runner.
"""
from __future__ import annotations

import json
import re

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.cli.main import main
from simulator.core.errors import ScenarioError
from simulator.scenario.loader import loads, run

BASE = """\
name: t
players: [A, B]
battlefields: [North, South]
units:
  - {id: a1, owner: A, at: base, might: 2}
hands:
  A: [rune-prison]
steps:
  - {do: move, player: A, units: [a1], to: North}
  - expect: {focus: A, state: showdown-open}
"""


def write(tmp_path, text: str, name: str = "s.yaml") -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def simulate(capsys, *argv) -> tuple[int, str, str]:
    code = main(["simulate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


BAD = {
    "yaml-syntax": (BASE.replace("players: [A, B]", "players: [A, B"),
                    "3: YAML syntax error: while parsing a flow sequence (from line 2) did not find expected ',' or ']'"),
    "yaml-tab": (BASE.replace("steps:", "steps:\n\t- x"),
                 "9: YAML syntax error: while scanning for the next token found character that cannot start any token"),
    "unknown-top-key": (BASE + "colour: red\n",
                        "11: unknown key colour in a scenario (expected one of: name, mode, players, teams, "
                        "battlefields, control, score, units, gear, hands, cards, rulings, resources, assign, "
                        "start, decks, trash, banished, steps, pending, description, seed, rules, rules-version, "
                        "source, audit)"),
    "unknown-step-key": (BASE.replace("to: North}", "to: North, speed: 3}"),
                         "9: unknown key speed in a move step (expected one of: do, player, illegal, units, to)"),
    "unknown-expect-key": (BASE.replace("expect: {focus: A,", "expect: {mood: A,"),
                           "10: unknown key mood in step 2's expect (expected one of: state, turn, focus, priority, "
                           "chain, active, staged, contested, controller, score, units, legal, players, winner, phase, energy, runes, hidden, gear, "
                           "hand, deck, trash, banished, passed, events, no-events, decision)"),
    "wrong-type": (BASE.replace("might: 2", "might: two"), "5: a1's might must be a whole number, not the text two"),
    "wrong-type-list": (BASE.replace("players: [A, B]", "players: A"), "2: players must be a list, not the text A"),
    "unknown-card-in-hand": (BASE.replace("[rune-prison]", "[rune-prisn]"),
                             "7: unknown card rune-prisn in A's hand (not in the catalogue or cards:)"),
    "unknown-card-played": (BASE + "  - {do: play, player: A, card: nope}\n",
                            "11: unknown card nope in step 3 (not in the catalogue or cards:)"),
    "unknown-unit": (BASE.replace("units: [a1]", "units: [a9]"), "9: unknown unit a9 in step 1's units"),
    "unknown-unit-target": (BASE + "  - {do: play, player: A, card: rune-prison, targets: {unit: zz}}\n",
                            "11: unknown unit zz in step 3's targets"),
    "unknown-player": (BASE.replace("player: A, units", "player: Z, units"), "9: unknown player Z in step 1 (players: A, B)"),
    "unknown-owner": (BASE.replace("owner: A", "owner: Q"), "5: unknown player Q in a1's owner (players: A, B)"),
    "unknown-battlefield": (BASE.replace("to: North}", "to: Nowhere}"),
                            "9: unknown place Nowhere in step 1's to (base or a battlefield: North, South)"),
    "unknown-control": (BASE + "control: {East: A}\n", "11: unknown battlefield East in control (battlefields: North, South)"),
    "unknown-score-player": (BASE + "score: {C: 1}\n", "11: unknown player C in score (players: A, B)"),
    "duplicate-unit-id": (BASE.replace("    might: 2}\n", "    might: 2}\n").replace(
        "  - {id: a1, owner: A, at: base, might: 2}\n",
        "  - {id: a1, owner: A, at: base, might: 2}\n  - {id: a1, owner: B, at: base, might: 3}\n"), "6: duplicate id a1"),
    "duplicate-key": (BASE.replace("name: t\n", "name: t\nname: u\n"), "2: duplicate key name"),
    "duplicate-battlefield": (BASE.replace("[North, South]", "[North, North]"), "3: duplicate battlefield North"),
    "duplicate-player": (BASE.replace("[A, B]", "[A, A]"), "2: duplicate player A"),
    "mode-player-count": (BASE.replace("players: [A, B]", "mode: war\nplayers: [A, B]"), "3: mode war needs 4 players, got 2"),
    "unknown-mode": (BASE.replace("players: [A, B]", "mode: melee\nplayers: [A, B]"),
                     "2: mode must be one of duel, skirmish, war, magma-chamber, not melee"),
    "teams-outside-magma": (BASE.replace("players: [A, B]", "players: [A, B]\nteams: [[A], [B]]"),
                            "3: teams are only for magma-chamber"),
    "missing-name": (BASE.replace("name: t\n", ""), "1: a scenario needs 'name'"),
    "empty-file": ("", "1: a scenario must be a mapping, not nothing (null)"),
    "ruling-value": (BASE + "rulings: {R1: sideways}\n", "11: ruling R1 must be one of default, attacker, not sideways"),
    "ruling-id": (BASE + "rulings: {R3: x}\n", "11: unknown ruling R3: rulings with alternatives are R1, R2, R9, R11"),
    "custom-card-verb": (BASE + "cards:\n  x: {effect: [{teleport: {unit: target}}]}\n",
                         "12: unknown effect verb teleport (verbs: move, recall, stun, buff, en-garde, damage, kill, "
                         "play-unit, add, counter, draw, extra-turn, play, banish, return, discard, recycle, replay, ready, exhaust, give-keyword, ward)"),
    "custom-card-field": (BASE + "cards:\n  x: {effect: [{stun: {unit: target, for: 2}}]}\n",
                          "12: unknown key for in stun's fields (expected one of: unit)"),
    "target-field": (BASE + "  - {do: play, player: A, card: rune-prison, targets: {to: North}}\n",
                     "11: rune-prison takes no target to (it takes: unit)"),
    "step-without-do": (BASE + "  - {player: A}\n", "11: a step has one of do:, expect: or show:"),
    "expect-value": (BASE + "  - expect: {state: showdown}\n",
                     "11: state must be one of neutral-open, neutral-closed, showdown-open, showdown-closed, not showdown"),
    "illegal-type": (BASE.replace("to: North}", "to: North, illegal: 3}"),
                     "9: illegal must be true, false or a reason text, not a number (3)"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_exit_2_with_one_line(tmp_path, capsys, name):
    """Every class of invalid scenario: exit 2, stderr is exactly one line FILE:LINE: what is wrong."""
    text, msg = BAD[name]
    path = write(tmp_path, text)
    code, out, err = simulate(capsys, path)
    assert code == 2
    assert err == f"{path}:{msg}\n"
    assert "Traceback" not in out + err


def test_missing_file(capsys):
    code, out, err = simulate(capsys, "no/such.yaml")
    assert code == 2
    assert err == "no/such.yaml:0: cannot read the file: No such file or directory\n"


def test_not_utf8(tmp_path, capsys):
    p = tmp_path / "bin.yaml"
    p.write_bytes(b"name: t\n\xff\xfe\n")
    code, out, err = simulate(capsys, str(p))
    assert (code, err) == (2, f"{p}:2: the file is not UTF-8 text\n")


def test_teams_in_magma_chamber_are_checked(tmp_path, capsys):
    text = BASE.replace("players: [A, B]", "mode: magma-chamber\nplayers: [A, B, C, D]\nteams: [[A, B, C], [D]]")
    code, out, err = simulate(capsys, write(tmp_path, text))
    assert code == 2 and err.endswith(":4: a magma-chamber team has 2 players, got 3\n")


def test_bad_ruling_on_the_command_line(tmp_path, capsys):
    """--ruling is checked like the file's rulings: argparse's exit 2 with the reason."""
    with pytest.raises(SystemExit) as e:
        main(["simulate", write(tmp_path, BASE), "--ruling", "R1=sideways"])
    assert e.value.code == 2
    assert "ruling R1 is default or attacker, not sideways" in capsys.readouterr().err


def test_illegal_action_exit_1_names_step_action_reason_rule(tmp_path, capsys):
    """144: no standard move during a showdown; the message names file, line, step, action, reason and rule."""
    text = BASE + "  - {do: move, player: A, units: [a1], to: South}\n  - expect: {focus: A}\n"
    path = write(tmp_path, text)
    code, out, err = simulate(capsys, path)
    assert code == 1
    assert (f"-- FAIL: {path}:11: step 3: A move a1 South is illegal: "
            "no standard move during a showdown or combat [144]") in out


def test_expected_illegal_action_passes_and_leaves_state_unchanged(tmp_path, capsys):
    """A step marked illegal passes when rejected; the state (focus, priority, unit) is as before."""
    text = BASE + ("  - {do: move, player: A, units: [a1], to: South, illegal: showdown}\n"
                   "  - expect: {focus: A, priority: A, state: showdown-open, units: {a1: {at: North}}}\n")
    code, out, err = simulate(capsys, write(tmp_path, text))
    assert code == 0, out
    assert "3  A may not move a1 South: no standard move during a showdown or combat (rejected as expected)  [144]" in out


def test_illegal_reason_text_must_match(tmp_path, capsys):
    text = BASE + "  - {do: move, player: A, units: [a1], to: South, illegal: priority}\n  - expect: {focus: A}\n"
    code, out, err = simulate(capsys, write(tmp_path, text))
    assert code == 1
    assert "was rejected as expected, but the reason 'no standard move during a showdown or combat' does not contain 'priority'" in out


def test_expected_illegal_but_legal_fails(tmp_path, capsys):
    text = BASE + "  - {do: pass, player: A, illegal: true}\n  - expect: {focus: B}\n"
    code, out, err = simulate(capsys, write(tmp_path, text))
    assert code == 1
    assert ":11: step 3: expected A pass to be rejected, but it was legal" in out


def test_failed_expectation_names_expected_and_got(tmp_path, capsys):
    """345: A applied Contested, so A gains focus: expecting B fails with both values."""
    path = write(tmp_path, BASE.replace("expect: {focus: A,", "expect: {focus: B,"))
    code, out, err = simulate(capsys, path)
    assert code == 1
    assert f"-- FAIL: {path}:10: step 2: expected focus B, got A" in out


def test_legal_expectation_compares_exactly(tmp_path, capsys):
    """The legal list is the exact set of summaries (order-insensitive): a missing entry fails."""
    ok = BASE + "  - expect: {legal: {A: [play rune-prison, pass, concede], B: [concede]}}\n"
    assert simulate(capsys, write(tmp_path, ok))[0] == 0
    bad = BASE + "  - expect: {legal: {A: [pass, concede]}}\n"
    code, out, err = simulate(capsys, write(tmp_path, bad))
    assert code == 1
    assert "expected legal for A [concede, pass], got [concede, pass, play rune-prison]" in out


def test_several_files_summary_and_worst_exit(tmp_path, capsys):
    good = write(tmp_path, BASE, "good.yaml")
    failing = write(tmp_path, BASE.replace("focus: A,", "focus: B,"), "fail.yaml")
    broken = write(tmp_path, "name: [", "broken.yaml")
    code, out, err = simulate(capsys, good, failing, broken)
    assert code == 2
    assert out.rstrip().splitlines()[-1] == "3 scenarios: 1 passed, 1 failed, 1 invalid, 0 pending"
    code, out, err = simulate(capsys, good, failing)
    assert code == 1


def test_pending_scenario_is_reported_and_flips_when_it_passes(tmp_path, capsys):
    pending_failing = BASE.replace("focus: A,", "focus: B,") + "pending: multiplayer gap\n"
    code, out, err = simulate(capsys, write(tmp_path, pending_failing))
    assert code == 0
    assert "-- PENDING (multiplayer gap):" in out and "0 failed, 0 invalid, 1 pending" in out
    code, out, err = simulate(capsys, write(tmp_path, BASE + "pending: multiplayer gap\n"))
    assert code == 1
    assert "marked pending (multiplayer gap) but every step holds now: remove 'pending'" in out


def test_json_trace_shape(tmp_path, capsys):
    """--json: one object per scenario: scenario, events (step, event, player, detail, rule), final."""
    code, out, err = simulate(capsys, write(tmp_path, BASE), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["scenario"] == "t" and doc["status"] == "pass"
    first = doc["events"][0]
    assert {k: first[k] for k in ("step", "event", "player", "rule")} == {
        "step": 1, "event": "A moves a1 to North", "player": "A", "rule": "144"}
    assert {"step", "event", "player", "detail", "rule"} <= set(first)
    assert doc["final"]["focus"] == "A" and doc["final"]["active"] == {"kind": "showdown", "at": "North"}
    assert doc["final"]["legal"]["A"] == ["concede", "pass", "play rune-prison"]
    assert err.strip() == "1 scenario: 1 passed, 0 failed, 0 invalid, 0 pending"


def test_text_trace_lines(tmp_path, capsys):
    """STEP  text  [rule], as in the contract: 190.3.a.1 Contested, 323.8 staged."""
    code, out, err = simulate(capsys, write(tmp_path, BASE))
    lines = out.splitlines()
    assert lines[0].startswith("== ") and lines[0].endswith(": t (duel: A, B)")
    assert "1  A moves a1 to North  [144]" in lines
    assert "1  North becomes Contested (A applied it)  [190.3.a.1, 450]" in lines
    assert "1  showdown staged at North  [323.8]" in lines
    assert lines[-2] == "-- PASS: 2 steps, 1 expectations held"


def test_cli_ruling_overrides_the_file(capsys):
    """R1: the scenario pins R1=attacker; --ruling R1=default makes its focus expectation fail."""
    path = "scenarios/ruling-R1-attacker-gains-focus-on-conversion.yaml"
    assert simulate(capsys, path)[0] == 0
    code, out, err = simulate(capsys, path, "--ruling", "R1=default")
    assert code == 1 and "expected focus A, got B" in out
    assert "B keeps focus through the conversion (R1)  [464.2.c.1.b, R1]" in out


def test_diagram_draws_the_trace(tmp_path, capsys):
    """--diagram hands the scenario's events to simulator.cli.diagrams.draw_trace (DOT output for speed)."""
    out_path = tmp_path / "t.dot"
    code, out, err = simulate(capsys, write(tmp_path, BASE), "--diagram", str(out_path))
    assert code == 0, err
    assert out_path.read_text().startswith(("digraph", "strict digraph"))


def test_diagram_takes_one_file(tmp_path, capsys):
    p = write(tmp_path, BASE)
    code, out, err = simulate(capsys, p, p, "--diagram", str(tmp_path / "t.svg"))
    assert code == 2 and err == "riftsim simulate: --diagram draws one scenario's trace; got 2 files\n"


# -- hypothesis: random and malformed documents never crash -------------------------------------------

MESSAGE = re.compile(r"^f\.yaml:\d+: \S.*$")

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.sampled_from(
    ["A", "B", "C", "a1", "North", "South", "base", "rune-prison", "unit-2", "target", "here", "move", "pass",
     "play", "showdown", "combat", "neutral-open", "attacker", "R1", "x", ""]))
keys = st.sampled_from(["name", "players", "mode", "teams", "battlefields", "units", "gear", "hands", "cards",
                        "steps", "do", "expect", "player", "units", "to", "card", "targets", "unit", "id",
                        "owner", "at", "might", "state", "focus", "legal", "control", "score", "effect",
                        "rulings", "pending", "illegal", "abilities", "trigger", "zz"])
documents = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                           st.dictionaries(keys, inner, max_size=5)), max_leaves=30)


def _check_never_crashes(text: str) -> None:
    try:
        sc = loads(text, "f.yaml")
    except ScenarioError as e:
        msg = str(e)
        assert "\n" not in msg and MESSAGE.match(msg), msg
        return
    res = run(sc)                     # a valid document runs to pass / fail, never raises
    assert res.status in ("pass", "fail", "pending")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_random_documents_give_a_message_not_a_crash(doc):
    _check_never_crashes(yaml.safe_dump(doc))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_random_text_gives_a_message_not_a_crash(text):
    _check_never_crashes(text)


VALID = yaml.safe_load(BASE + "  - {do: play, player: A, card: rune-prison, targets: {unit: a1}}\n"
                              "  - expect: {chain: [rune-prison]}\n")


def _paths(v, path=()):
    yield path
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, path + (i,))


PATHS = [p for p in _paths(VALID) if p]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(PATHS), documents, st.booleans())
def test_mutated_valid_scenario_gives_a_message_not_a_crash(path, junk, delete):
    """Replace or delete one node of a valid scenario: a one-line error or a run, never a crash."""
    import copy
    doc = copy.deepcopy(VALID)
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = junk
    _check_never_crashes(yaml.safe_dump(doc, sort_keys=False))


ACTIONS = st.one_of(
    st.builds(lambda p, u, to: {"do": "move", "player": p, "units": [u], "to": to},
              st.sampled_from("AB"), st.sampled_from(["a1", "a2", "b1"]), st.sampled_from(["North", "South", "base"])),
    st.builds(lambda p: {"do": "pass", "player": p}, st.sampled_from("AB")),
    st.builds(lambda p: {"do": "end-turn", "player": p}, st.sampled_from("AB")),
    st.builds(lambda p, b: {"do": "choose", "player": p, "battlefield": b}, st.sampled_from("AB"),
              st.sampled_from(["North", "South"])),
    st.builds(lambda p, c, u, to: {"do": "play", "player": p, "card": c, "targets": {"unit": u, "to": to}},
              st.sampled_from("AB"), st.just("move-spell"), st.sampled_from(["a1", "a2", "b1"]),
              st.sampled_from(["North", "South"])),
    st.builds(lambda p, c, u: {"do": "play", "player": p, "card": c, "targets": {"unit": u}},
              st.sampled_from("AB"), st.sampled_from(["rune-prison", "en-garde"]), st.sampled_from(["a1", "a2", "b1"])),
    st.builds(lambda p, c: {"do": "play", "player": p, "card": c}, st.sampled_from("AB"),
              st.sampled_from(["action-spell", "reaction-spell", "normal-spell", "unit-3"])),
    st.builds(lambda p, g: {"do": "activate", "player": p, "source": g, "ability": "add"}, st.sampled_from("AB"),
              st.sampled_from(["ga", "gb"])),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(ACTIONS, st.booleans()), max_size=25))
def test_random_action_sequences_run_to_a_result(steps):
    """Any sequence of well-formed actions runs to pass or fail (illegal ones named), never an exception."""
    hand = ["move-spell", "rune-prison", "en-garde", "action-spell", "reaction-spell", "normal-spell", "unit-3"]
    doc = {"name": "random", "players": ["A", "B"], "battlefields": ["North", "South"], "control": {"South": "B"},
           "units": [{"id": "a1", "owner": "A", "at": "base", "might": 2},
                     {"id": "a2", "owner": "A", "at": "base", "might": 1},
                     {"id": "b1", "owner": "B", "at": "South", "might": 2}],
           "gear": [{"id": "ga", "owner": "A", "card": "add-gear"}, {"id": "gb", "owner": "B", "card": "add-gear"}],
           "hands": {"A": hand, "B": hand},
           "steps": [dict(a, illegal=True) if flag else a for a, flag in steps] + [{"expect": {"players": ["A", "B"]}}]}
    res = run(loads(yaml.safe_dump(doc), "f.yaml"))
    assert res.status in ("pass", "fail")
    if res.status == "fail":
        assert MESSAGE.match(res.message) and "\n" not in res.message, res.message


def test_a_directory_runs_its_yaml_files(tmp_path, capsys):
    write(tmp_path, BASE, "one.yaml")
    write(tmp_path, BASE, "two.yaml")
    code, out, err = simulate(capsys, str(tmp_path))
    assert code == 0
    assert out.rstrip().splitlines()[-1] == "2 scenarios: 2 passed, 0 failed, 0 invalid, 0 pending"
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = simulate(capsys, str(empty))
    assert (code, err) == (2, f"{empty}:0: no scenario files (*.yaml) in this directory\n")


@pytest.mark.parametrize("ruling", ["R1=attacker", "R2=defender-last", "R9=reset", "R11=fifo", "R1=default"])
def test_every_ruling_alternative_is_accepted(tmp_path, capsys, ruling):
    """--ruling takes every alternative of rulings.md (R1, R2, R9, R11) and the header names it."""
    code, out, err = simulate(capsys, write(tmp_path, BASE), "--ruling", ruling)
    assert code == 0, out + err
    assert out.splitlines()[0].endswith(f"; rulings {ruling})")
