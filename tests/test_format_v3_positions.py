"""Format version 3, sections P (provenance), M (positions that start mid-timing) and X (richer expectations, but
X3): every example of those sections of the specification runs as written (or, where the example contradicts its
own refusals, is refused as those say), each refusal is one ``FILE:LINE: ...`` line naming its rule, and the
positions a ``start:`` sets are what a judge would check (state, focus, priority, chain, passes)."""
from __future__ import annotations

import json
import textwrap

import pytest

from simulator.cli.main import main
from simulator.core.errors import ScenarioError
from simulator.scenario.loader import compare, loads, run

#: a position the examples below are written against: jolt (2 damage), hex (stun, then kill a2, then a may),
#: a Deathknell on A's a2 and on B's b2
BASE = """\
name: t
players: [A, B]
battlefields: [North, South]
cards:
  jolt: {type: spell, timing: reaction, effect: [{damage: {unit: target, amount: 2}}]}
  hex: {type: spell, timing: reaction, effect: [{stun: {unit: target}}, {kill: {unit: a2}}, {draw: {count: 1}, may: true}]}
units:
  - {id: a1, owner: A, at: North, might: 3}
  - {id: a2, owner: A, at: base, might: 1, keywords: [{deathknell: [{draw: {count: 1}}]}]}
  - {id: b1, owner: B, at: North, might: 4}
  - {id: b2, owner: B, at: North, might: 1, keywords: [{deathknell: [{damage: {unit: target, amount: 1}}]}]}
"""


def scenario(extra: str, steps: str = "steps: []\n", base: str = BASE):
    return loads(base + textwrap.dedent(extra) + textwrap.dedent(steps), "t.yaml")


def refused(extra: str, base: str = BASE) -> str:
    with pytest.raises(ScenarioError) as e:
        scenario(extra, base=base)
    return str(e.value)


def final(sc) -> dict:
    res = run(sc)
    assert res.status == "pass", res.message
    return res


# -- P1: the provenance header -----------------------------------------------------------------------------------

P1 = """\
rules: ["340.1", "423.1.b", "R17"]   # rule ids as strings, or ruling ids
rules-version: "1.4"
source:
  kind: core-rules            # core-rules | faq | ruling | issue | user | peer | other
  ref: "359.3.e.8 example"    # free text locating the question (a rule id, an anchor, an issue number)
  repo: OWNER/NAME            # optional: where the source lives
  path: docs/x.md             # optional, relative to that repository
  commit: 0123abc             # optional
audit:
  status: reviewed            # draft | reviewed | disputed | superseded
  by: "reviewer name"
  date: 2026-09-30
  note: "expectations re-derived from the rules text"
"""


def test_p1_the_spec_example_loads_is_printed_and_copied_to_the_json_trace(tmp_path, capsys):
    sc = scenario(P1)
    assert sc.provenance["rules"] == ["340.1", "423.1.b", "R17"]
    assert sc.provenance["source"]["repo"] == "OWNER/NAME"
    f = tmp_path / "p1.yaml"
    f.write_text(BASE + P1 + "steps: []\n", encoding="utf-8")
    assert main(["simulate", str(f)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("== ") and lines[1] == "rules claimed: 340.1, 423.1.b, R17"
    assert main(["simulate", "--json", str(f)]) == 0
    doc = json.loads(capsys.readouterr().out.splitlines()[0])
    assert doc["rules"] == ["340.1", "423.1.b", "R17"] and doc["rules-version"] == "1.4"
    assert doc["audit"] == {"status": "reviewed", "by": "reviewer name", "date": "2026-09-30",
                            "note": "expectations re-derived from the rules text"}
    assert doc["source"]["kind"] == "core-rules"


def test_p1_a_plain_source_and_no_header_at_all(tmp_path, capsys):
    assert scenario('source: "a question from the FAQ"\n').provenance == {"source": "a question from the FAQ"}
    f = tmp_path / "v2.yaml"
    f.write_text(BASE + "steps: []\n", encoding="utf-8")
    assert main(["simulate", str(f)]) == 0
    assert "rules claimed" not in capsys.readouterr().out           # a version 2 file prints as before


@pytest.mark.parametrize("header, message", [
    ("rules: [340.1]\n", "t.yaml:12: rules must list rule ids as strings: 340.1 is a number"),
    ('rules: ["34x"]\n', "t.yaml:12: rules: 34x is not a rule id (NNN, NNN.N.a ..., or Rn)"),
    ('rules: ["R99"]\n', "t.yaml:12: rules: R99 is not a ruling: see riftsim rules"),
    ('rules-version: "1.3"\n', "t.yaml:12: rules-version 1.3: riftsim implements Core Rules 1.4"),
    ("source: {kind: rumour}\n", "t.yaml:12: kind must be one of core-rules, faq, ruling, issue, user, peer, other, "
                                 "not rumour"),
    ("audit: {status: done}\n", "t.yaml:12: status must be one of draft, reviewed, disputed, superseded, not done"),
    ("audit: {status: draft, date: yesterday}\n", "t.yaml:12: audit date 'yesterday' is not a date (YYYY-MM-DD)"),
])
def test_p1_refusals(header, message):
    assert refused(header) == message


def test_p1_a_well_formed_core_rules_id_is_accepted_without_a_title():
    assert scenario('rules: ["999.9.z"]\n').provenance["rules"] == ["999.9.z"]


# -- P2: riftsim rules ID lists the scenarios that claim it ---------------------------------------------------------

def test_p2_claims_are_listed_with_their_status_and_how_often_the_trace_cites_them(tmp_path, capsys):
    cited = BASE + 'rules: ["339"]\naudit: {status: reviewed}\nstart:\n  chain: [{card: jolt, controller: A, ' \
                   'targets: {unit: b1}}]\nsteps:\n  - {do: pass, player: A}\n  - {do: pass, player: B}\n'
    (tmp_path / "cited.yaml").write_text(cited, encoding="utf-8")
    (tmp_path / "my-question.yaml").write_text(BASE + 'rules: ["339.1"]\nsteps: []\n', encoding="utf-8")
    (tmp_path / "other.yaml").write_text(BASE + 'rules: ["340"]\nsteps: []\n', encoding="utf-8")
    assert main(["rules", "339", "--in", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    section = out[out.index("scenarios claiming it:"):].splitlines()
    assert "  cited  (reviewed; cited 1 time in its trace)" in section
    assert "  my-question  (draft; claimed but never cited in its trace)" in section
    assert not any("other" in line for line in section)                  # 340 is not under 339
    assert main(["rules", "339", "--in", str(tmp_path), "--no-scenarios"]) == 0
    out = capsys.readouterr().out
    assert "  cited  (reviewed)" in out and "trace event(s)" not in out


def test_p2_bundled_scenarios_claim_the_rules_they_pose(capsys):
    assert main(["rules", "347.2.a", "--no-scenarios"]) == 0
    assert "  position-347.2.a-focus-passes-already-made-end-the-showdown  (reviewed)" in capsys.readouterr().out


# -- M1: the start: block -------------------------------------------------------------------------------------

M1 = """\
start:
  turn: B                 # whose turn it is (default: the first player); turn order is unchanged
  phase: Main             # Main (default), BeginningStep, Ending (its Ending Step)
  scored: {A: [North]}    # battlefields each player has already scored this turn (470)
  contested: {South: A}   # Contested battlefields and the player who applied it (190.3)
  combat: {at: North, attacker: A, defender: B}      # a combat in its Combat Showdown Step (464)
  # or: showdown: {at: North, by: A}                  # a non-combat showdown; by = who applied Contested
  chain:                  # oldest first
    - {card: jolt, controller: A, targets: {unit: b1}}                    # a finalized spell
    - {ability: deathknell, source: b2, controller: B, here: North, targets: {unit: a1}}
    - {card: unit-3, controller: B, pending: true, at: base}              # a pending item
  priority: B             # who holds priority now (a player or null)
  focus: A                # who holds focus (a player or null)
  passed: [A]             # who has passed in succession in the current round (X1)
"""


def test_m1_the_spec_example_contradicts_m2_and_is_refused_as_m2_says():
    """The example gives priority (and a pass) while unit-3 is pending: M2 refuses exactly that (312.2.c, 337.4)."""
    assert refused(M1) == "t.yaml:23: start: nobody holds priority while an item is pending (312.2.c, 337.4)"


def test_m1_the_spec_example_without_priority_and_passes_runs_its_step_0():
    text = "\n".join(line for line in M1.splitlines() if not line.startswith(("  priority:", "  passed:"))) + "\n"
    res = final(scenario(text))
    g = res.state
    # step 0: unit-3 (the oldest pending item) is finalized and resolves at once (337.1, 337.2); then B, the
    # controller of the newest item, gets priority (337.4, R17); A keeps focus (the combat's attacker, 464.2.d)
    step0 = [e.event for e in res.events if e.step == 0]
    assert "unit-3 is finalized and resolves at once" in step0 and step0[-1] == "B gets priority"
    assert [it.name for it in g.chain] == ["jolt", "deathknell"] and all(it.finalized for it in g.chain)
    assert (g.turn, g.priority, g.focus, g.turn_state()) == ("B", "B", "A", "showdown-closed")
    assert (g.active, g.attacker, g.defender, g.scored) == ("North", "A", "B", {"North": "A"})
    assert g.units["a1"].designation == "attacker" and g.units["b1"].designation == "defender"
    # South was Contested by A, who has no units there: step 0's cleanup clears it (323.11)
    assert "South is no longer Contested" in " ".join(step0) and g.bfs["South"].contested_by is None


def test_m1_defaults_priority_after_the_last_pass_and_focus_to_the_contester():
    res = final(scenario("""\
        start:
          showdown: {at: North, by: A}
          chain: [{card: jolt, controller: B, targets: {unit: a1}}]
          passed: [B]
        """, """\
        steps:
          - expect: {state: showdown-closed, focus: A, priority: A, passed: [B], active: {kind: showdown, at: North}}
          - {do: pass, player: A}
          - expect: {state: showdown-open, chain: [], focus: B, priority: B, passed: []}
        """))
    assert res.state.units["a1"].damage == 2


def test_m1_a_pending_trigger_without_its_targets_waits_for_its_controller():
    res = final(scenario("""\
        start:
          chain: [{ability: deathknell, source: b2, pending: true}]
        """, """\
        steps:
          - expect: {priority: null, chain: [{name: deathknell, controller: B, pending: true, source: b2}],
                     legal: {A: [concede], B: [concede, target]}}
        """))
    assert res.state.chain[0].ask == ("target",)


def test_m1_a_file_without_start_starts_as_in_version_2():
    g = scenario("").game().state
    assert (g.turn_state(), g.priority, g.focus, g.chain, g.trace) == ("neutral-open", "A", None, [], [])


# -- M2: step 0 and impossible starts ---------------------------------------------------------------------------

@pytest.mark.parametrize("start, message", [
    ("priority: C", "start: priority C: no such player (103)"),
    ("chain: [{card: unit-3, controller: B}]",
     "start: unit-3 is finalized on the chain, but a unit resolves as it is finalized: give it pending: true (337.2)"),
    ("chain: [{card: unit-3, controller: B, pending: true}, {card: jolt, controller: A, targets: {unit: b1}}]",
     "start: jolt (finalized) lies above unit-3 (pending): pending items are finalized oldest first before anything "
     "else is added (337.1, 337.3)"),
    ("chain: [{card: unit-3, controller: B, pending: true}]\n  priority: B",
     "start: nobody holds priority while an item is pending (312.2.c, 337.4)"),
    ("priority: B", "start: priority B with no chain: in Neutral Open only the turn player holds it (312.2.a, 313.2)"),
    ("focus: A", "start: focus needs a showdown or a combat (313.5)"),
    ("showdown: {at: North, by: A}\n  combat: {at: North, attacker: A, defender: B}",
     "start: a showdown and a combat at once: one of them is active at a time (344, 460)"),
    ("combat: {at: West, attacker: A, defender: B}",
     "start: combat at West: no such battlefield (battlefields: North, South) (187)"),
    ("combat: {at: North, attacker: A, defender: A}",
     "start: A cannot attack their own units: attacker and defender are opponents (462)"),
    ("chain: [{card: jolt, controller: A, targets: {unit: b1}}]\n  passed: [B]\n  priority: B",
     "start: passed [B] does not fit priority B after jolt (A's): passes run in turn order from A (338.1.b, 339, 340.4)"),
    ("chain: [{card: jolt, controller: A, targets: {unit: b1}}]\n  passed: [A, B]",
     "start: passed [A, B] does not fit priority A after jolt (A's): passes run in turn order from A (338.1.b, 339, "
     "340.4)"),
    ("showdown: {at: North, by: A}\n  passed: [A, B]", "start: passed [A, B] would have ended the showdown (347.2.a)"),
    ("passed: [A]", "start: nobody passes in Neutral Open (316.9, R14)"),
    ("phase: Ending\n  showdown: {at: North, by: A}", "start: showdowns outside the Main Phase are not modelled (R12)"),
    ("chain: [{card: jolt, controller: A, targets: {unit: b9}}]", "start: jolt targets b9: no such object (356)"),
    ("chain: [{ability: muster, source: b2}]", "start: b2 has no ability muster (383)"),
    ("scored: {A: [North], B: [North]}",
     "start: North is scored twice this turn: at most one score per battlefield per turn (470)"),
    ("scored: {A: [West]}", "start: scored West: no such battlefield (battlefields: North, South) (187)"),
    ("contested: {North: B}\n  combat: {at: North, attacker: A, defender: B}",
     "start: North is the combat's battlefield: it is Contested by A (190.3.b)"),
    ("chain: [{card: jolt, controller: A, owner: C, targets: {unit: b1}}]", "start: owner C: no such player (103)"),
])
def test_m2_impossible_starts_are_refused_naming_the_rule(start, message):
    text = refused(f"start:\n  {start}\n")
    assert text.startswith("t.yaml:") and text.split(": ", 1)[1] == message


def test_m2_third_players_and_designations():
    three = BASE.replace("players: [A, B]", "mode: skirmish\nplayers: [A, B, C]") + \
        "  - {id: c1, owner: C, at: North, might: 1}\n"
    assert refused("start:\n  combat: {at: North, attacker: A, defender: B}\n", base=three).endswith(
        "start: C has units at North, where A attacks B (462)")
    wrong = BASE.replace("{id: a1, owner: A, at: North, might: 3}",
                         "{id: a1, owner: A, at: North, might: 3, designation: defender}")
    assert refused("start:\n  combat: {at: North, attacker: A, defender: B}\n", base=wrong) == \
        "t.yaml:8: start: a1 is A's unit: it cannot be a defender in A's attack (323.2)"


def test_m2_a_pending_items_illegal_target_is_refused_at_load():
    cards = BASE.replace("units:\n", "  lift: {type: unit, might: 1, abilities: [{name: up, trigger: on-play, "
                                     "effect: [{stun: {unit: target}}]}]}\nunits:\n")
    text = refused("start:\n  chain: [{card: jolt, controller: A, pending: true, targets: {unit: a9}}]\n", base=cards)
    assert text.startswith("t.yaml:") and "start: jolt's target" in text and "(356)" in text


def test_m2_lethal_damage_needs_a_start_whose_step_0_kills():
    lethal = BASE.replace("{id: b2, owner: B, at: North, might: 1,", "{id: b2, owner: B, at: North, might: 1, damage: 1,")
    assert refused("", base=lethal) == ("t.yaml:11: b2 starts with lethal damage: add a start: block, whose step 0 "
                                        "runs the cleanup [142.4]")
    res = final(scenario("start: {}\n", base=lethal))
    step0 = [e.event for e in res.events if e.step == 0]
    assert step0[0] == "b2 dies (lethal damage)" and res.state.units["b2"].zone == "trash"
    assert [it.name for it in res.state.chain] == ["deathknell"] and res.state.priority is None    # waits for a target


def test_m2_a_start_is_the_same_on_both_backends():
    text = "\n".join(line for line in M1.splitlines() if not line.startswith(("  priority:", "  passed:"))) + "\n"
    sc = scenario(text, "steps:\n  - {do: pass, player: B}\n  - {do: pass, player: A}\n")
    a, b = run(sc, backend="compiled"), run(sc, backend="transitions")
    assert a.status == b.status == "pass" and a.state.key() == b.state.key()
    assert [e.event for e in a.events] == [e.event for e in b.events]


# -- X1: passed -------------------------------------------------------------------------------------------------

def test_x1_passed_is_compared_in_order_and_empty_in_neutral_open():
    sc = scenario("start:\n  chain: [{card: jolt, controller: A, targets: {unit: b1}}]\n", """\
        steps:
          - expect: {passed: []}
          - {do: pass, player: A}
          - expect: {passed: [A], priority: B}
          - {do: pass, player: B}
          - expect: {passed: [], state: neutral-open}
        """)
    final(sc)
    v = {"passed": ["A", "B"]}
    assert compare("passed", ["A", "B"], v) == [] and compare("passed", ["B", "A"], v) != []


# -- X2: events and no-events -----------------------------------------------------------------------------------

X2 = """\
- expect:
    events: ["plays rune-prison", "a1 is stunned", {text: "the chain is empty", rule: "340.2"}]
    no-events: ["muster goes on the chain"]
"""


def x2(expect: str, first: str = "{do: play, player: A, card: rune-prison, targets: {unit: a1}}"):
    hands = BASE + "hands: {A: [rune-prison]}\n"
    steps = f"steps:\n  - {first}\n  - {{do: pass, player: A}}\n  - {{do: pass, player: B}}\n" + \
        textwrap.indent(expect, "  ")
    return run(loads(hands + steps, "t.yaml"))


def test_x2_the_spec_example_holds_as_an_ordered_subsequence():
    assert x2(X2).status == "pass"


def test_x2_out_of_order_or_absent_lines_fail_with_the_spec_message():
    res = x2('- expect: {events: ["a1 is stunned", "plays rune-prison"]}\n')
    assert res.status == "fail"
    assert res.message.endswith('step 4: expected events in order ["a1 is stunned", "plays rune-prison"]: '
                                '"plays rune-prison" not found after "a1 is stunned: it deals no combat damage '
                                'this turn" (line 9 of 12)')
    assert x2('- expect: {events: [{text: "the chain is empty", rule: "340.3"}]}\n').status == "fail"
    assert x2('- expect: {events: ["A PLAYS RUNE-PRISON"]}\n').status == "pass"          # case-insensitive
    res = x2('- expect: {no-events: ["is stunned"]}\n')
    assert res.status == "fail" and 'expected no event containing "is stunned"' in res.message


def test_x2_lines_are_those_since_the_previous_expectation():
    res = x2('- expect: {state: neutral-open}\n- expect: {events: ["plays rune-prison"]}\n')
    assert res.status == "fail" and "not found in the 0 lines since the previous expectation" in res.message


def test_x2_an_empty_entry_is_a_file_error():
    with pytest.raises(ScenarioError):
        loads(BASE + 'steps:\n  - expect: {events: [""]}\n', "t.yaml")


# -- X4: chain entries in detail --------------------------------------------------------------------------------

def test_x4_the_spec_example_a_pending_trigger_above_a_spell_waiting_mid_resolution():
    """Hex kills a2 as it resolves (a2's Deathknell becomes pending, 383.4.a.2) and then waits for A's may
    (383.3.a.3): the chain lists jolt, the pending deathknell, and hex, waiting, last."""
    res = final(scenario("start:\n  chain: [{card: jolt, controller: A, targets: {unit: b1}}, "
                         "{card: hex, controller: A, targets: {unit: b1}}]\n", """\
        steps:
          - {do: pass, player: A}
          - {do: pass, player: B}
          - expect:
              chain: [jolt, {name: deathknell, controller: A, pending: true}, {name: hex, controller: A, targets: {unit: b1}}]
        """))
    assert res.state.resolving is not None


def test_x4_mappings_compare_only_the_fields_given_and_the_whole_list():
    v = {"chain": ["jolt"], "chain-items": [{"name": "jolt", "controller": "A", "pending": False,
                                            "targets": {"unit": "b1"}, "source": None}]}
    assert compare("chain", [{"controller": "A"}], v) == []
    assert compare("chain", [{"name": "jolt", "targets": {"unit": "b2"}}], v) != []
    assert compare("chain", [{"name": "jolt"}, "hex"], v) != []
    assert compare("chain", ["jolt"], v) == [] and compare("chain", ["hex"], v) == ['expected chain [hex], got [jolt]']


# -- X5: new unit and gear fields -------------------------------------------------------------------------------

def test_x5_owner_of_a_unit_and_where_a_gear_is():
    text = BASE.replace("{id: a2, owner: A, at: base, might: 1,", "{id: a2, owner: A, controller: B, at: base, might: 1,")
    res = run(loads(text + "gear: [{id: g1, owner: A, controller: B, card: add-gear}]\nsteps:\n"
                    "  - expect: {units: {a2: {owner: A, controller: B}}, gear: {g1: {at: base, controller: B, "
                    "zone: board}}}\n  - expect: {units: {a2: {owner: B}}}\n", "t.yaml"))
    assert res.status == "fail" and "expected a2 owner B, got A" in res.message


@pytest.mark.parametrize("phase, next_turn", [("Ending", "B"), ("BeginningStep", "A")])
def test_m1_a_chain_outside_the_main_phase_is_played_out_and_the_turn_goes_on(phase, next_turn):
    """R12: a chain in the Beginning or Ending Step is played out with priority as in any Closed state; the step
    goes on once it is empty (335): the Ending Step's turn ends (B's turn starts), the Beginning Step's goes on to
    A's Main Phase."""
    res = final(scenario(f"start:\n  phase: {phase}\n  chain: [{{card: jolt, controller: A, targets: {{unit: b1}}}}]\n",
                         f"steps:\n  - expect: {{phase: {phase}, priority: A, state: neutral-closed}}\n"
                         "  - {do: pass, player: A}\n  - {do: pass, player: B}\n"
                         f"  - expect: {{phase: Main, turn: {next_turn}, priority: {next_turn}, chain: []}}\n"))
    # Jolt resolved; the damage wears off in the Ending Step's expiration (317.2), not before
    assert res.state.units["b1"].damage == (0 if phase == "Ending" else 2)


def test_m1_game_from_setup_runs_step_0_too():
    from simulator.game.engine import Game
    g = Game.from_setup({"players": ["A", "B"], "battlefields": ["North"],
                         "units": [{"id": "a1", "owner": "A", "at": "North", "might": 2}],
                         "start": {"showdown": {"at": "North", "by": "A"}, "passed": []}}).state
    assert (g.turn_state(), g.focus, g.priority, g.active) == ("showdown-open", "A", "A", "North")


def test_p2_a_claimed_core_rules_id_riftsim_has_no_title_for(tmp_path, capsys):
    (tmp_path / "q.yaml").write_text(BASE + 'rules: ["999.9.z"]\nsteps: []\n', encoding="utf-8")
    assert main(["rules", "999.9", "--in", str(tmp_path)]) == 0
    assert "  q  (draft; claimed but never cited in its trace)" in capsys.readouterr().out
    assert main(["rules", "999.9"]) == 1                     # claimed by no file it reads: unknown, as before
