"""Asking, not asserting (issue 34 item 1): ``show:`` steps, ``simulate --show``, the versioned ``--json``
trace (format 1, checked against its shipped JSON Schema), and trace lines that name who gets priority and
focus after every finalization, counter and resolution (337.4, 340.4, R17, 652.4, 652.5, 335.1).

The command line runs for real, in a subprocess (``python -m simulator.cli.main``)."""
from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from simulator.cli.main import main
from simulator.scenario.loader import SHOW_KEYS, load, run

ROOT = Path(__file__).resolve().parents[1]
DEATHKNELL = str(ROOT / "scenarios" / "abilities-deathknell-pending-before-the-trash-heal-first.yaml")
COUNTERED = str(ROOT / "scenarios" / "concede-countered-spells-priority-kept-or-passed-on.yaml")
FOCUS_LEFT = str(ROOT / "scenarios" / "concede-focus-holder-during-a-chain-focus-passes-priority-stays.yaml")

#: the Deathknell scenario's first five steps, then questions instead of expectations
ASKING = """\
name: who gets priority once the Deathknell is finalized?
players: [A, B]
battlefields: [North, South]
control: {North: B}
units:
  - {id: a1, owner: A, at: base, might: 3}
  - {id: b1, owner: B, at: North, might: 2, keywords: [{deathknell: [{damage: {unit: a1, amount: 1}}]}]}
steps:
  - {do: move, player: A, units: [a1], to: North}
  - {do: pass, player: A}
  - {do: pass, player: B}
  - show: [priority, chain, decision]
  - {do: pass, player: B}
  - show: [passed, focus]
"""


def cli(*argv: str, cwd: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simulator.cli.main", *argv], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def write(tmp_path, text: str, name: str = "ask.yaml") -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def trace_schema() -> jsonschema.Draft202012Validator:
    s = json.loads(resources.files("simulator.scenario").joinpath("schemas", "trace.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(s)
    return jsonschema.Draft202012Validator(s)


def json_lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


# -- show: steps --------------------------------------------------------------------------------------

def test_a_show_step_prints_priority_chain_and_decision_instead_of_checking(tmp_path):
    """After the Deathknell is finalized (808.1.d, 337.4, R17) its controller B holds priority and must
    pass or respond; A waits. A show: step prints it; the scenario passes with no expectation."""
    done = cli("simulate", write(tmp_path, ASKING))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert "4  position: priority B | chain [deathknell] | decision priority B" in lines
    assert "6  position: passed priority [B], focus [] | focus nobody" in lines
    assert "-- PASS: 6 steps, 0 expectations held" in lines


def test_a_show_step_in_french(tmp_path):
    done = cli("simulate", write(tmp_path, ASKING), "--lang", "fr")
    assert done.returncode == 0, done.stderr
    assert "4  position : priorité B | chaîne [deathknell] | décision priority B" in done.stdout.splitlines()
    assert "6  position : ont passé priorité [B], focalisation [] | focalisation personne" in done.stdout.splitlines()


def test_show_all_prints_every_key_and_never_fails(tmp_path):
    text = ASKING.replace("  - show: [passed, focus]\n", "  - show: all\n")
    res = run(load(write(tmp_path, text)))
    assert res.status == "pass" and res.checks == 0
    step, values = res.shown[-1]
    assert step == 6 and tuple(values) == SHOW_KEYS
    assert values["priority"] == "A" and values["chain"] == ["deathknell"]      # B passed: 338.2, 312.2.d
    assert values["decision"] == {"kind": "priority", "player": "A", "item": None}
    assert values["legal"] == {"A": ["concede", "pass"], "B": ["concede"]}


@pytest.mark.parametrize("show, message", [
    ("[priority, who]", "show: unknown key who (known: state, turn, focus, priority, chain, active, staged, "
                        "contested, controller, score, units, legal, players, winner, phase, energy, runes, "
                        "hidden, gear, hand, deck, trash, banished, passed, decision, or all)"),
    ("[]", "show: names at least one key, or all"),
    ("priority", "show: takes a list of keys or all, not the text priority (e.g. show: [priority])"),
])
def test_a_bad_show_step_is_one_line_naming_file_and_line(tmp_path, show, message):
    path = write(tmp_path, f"name: x\nplayers: [A, B]\nsteps:\n  - {{do: pass, player: A, illegal: true}}\n"
                           f"  - show: {show}\n")
    done = cli("simulate", path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == f"{path}:5: {message}"
    assert "Traceback" not in done.stderr


def test_a_show_step_with_another_key_is_refused(tmp_path):
    path = write(tmp_path, "name: x\nplayers: [A, B]\nsteps:\n  - {show: [priority], player: A}\n")
    done = cli("simulate", path)
    assert done.returncode == 2 and done.stderr.startswith(f"{path}:4: ") and "player" in done.stderr


def test_the_scenario_schema_accepts_show_steps_and_only_known_keys():
    from simulator.scenario.schema import shipped
    v = jsonschema.Draft202012Validator(json.loads(shipped("scenario")))
    doc = {"name": "x", "players": ["A", "B"], "steps": [{"show": ["priority", "decision"]}, {"show": "all"}]}
    assert not list(v.iter_errors(doc))
    assert list(v.iter_errors({**doc, "steps": [{"show": ["who"]}]}))
    assert list(v.iter_errors({**doc, "steps": [{"show": []}]}))


# -- simulate --show ----------------------------------------------------------------------------------

def test_simulate_show_prints_the_position_after_every_step():
    """The Deathknell scenario: after step 5 the Deathknell is on the chain, finalized, and its controller B
    holds priority (337.4, R17); after step 9 it resolved and the turn player A has priority again (335.1)."""
    done = cli("simulate", DEATHKNELL, "--show")
    assert done.returncode == 0, done.stderr
    shown = {int(line.split()[0]): line.split("  ", 1)[1] for line in done.stdout.splitlines()
             if "  position: " in line}
    assert sorted(shown) == list(range(1, 11))
    assert shown[5] == ("position: state showdown-closed | focus nobody | priority B | passed priority [], focus [] "
                        "| chain [deathknell] | decision priority B")
    assert shown[7] == ("position: state showdown-closed | focus nobody | priority A | passed priority [B], focus [] "
                        "| chain [deathknell] | decision priority A")
    assert shown[9].startswith("position: state neutral-open | focus nobody | priority A | passed priority [], "
                               "focus [] | chain [] | decision main A")


def test_simulate_show_with_the_viewer_page(tmp_path):
    out = tmp_path / "v.html"
    done = cli("simulate", DEATHKNELL, "--show", "--html", str(out))
    assert done.returncode == 0 and out.exists(), done.stderr
    assert "5  position: state showdown-closed | focus nobody | priority B" in done.stdout


# -- --json: the trace format -------------------------------------------------------------------------

def test_json_trace_has_a_format_and_every_steps_position_and_events(tmp_path):
    done = cli("simulate", "--json", DEATHKNELL, write(tmp_path, ASKING))
    assert done.returncode == 0, done.stderr
    one, two = json_lines(done.stdout)
    assert one["format"] == 1 and one["status"] == "pass"
    assert one["start"]["priority"] == "A" and one["start"]["decision"] == {"kind": "main", "player": "A",
                                                                             "item": None}
    assert [s["step"] for s in one["steps"]] == list(range(1, 11))
    five = one["steps"][4]
    assert five["kind"] == "do" and five["label"] == "B pass" and five["failure"] == ""
    assert five["position"]["priority"] == "B" and five["position"]["chain"] == ["deathknell"]
    assert five["position"]["decision"] == {"kind": "priority", "player": "B", "item": None}
    assert {"event": "deathknell is finalized; B gets priority", "rule": "337.4, 312.2.c, R17"}.items() \
        <= five["events"][-1].items()
    assert [e for s in one["steps"] for e in s["events"]] == one["events"]       # every event, in its step
    assert two["steps"][3]["kind"] == "show" and two["steps"][3]["shown"] == ["priority", "chain", "decision"]


def test_json_trace_validates_against_its_shipped_schema(tmp_path):
    v = trace_schema()
    files = sorted(str(p) for p in (ROOT / "scenarios").glob("*.yaml"))[::6] + [DEATHKNELL, COUNTERED]
    bad = write(tmp_path, "name: x\nplayers: [A]\nsteps: []\n", "bad.yaml")
    done = cli("simulate", "--json", *files, bad)
    docs = json_lines(done.stdout)
    assert len(docs) == len(files) + 1 and docs[-1]["status"] == "invalid" and docs[-1]["format"] == 1
    for d in docs:
        errors = [f"{d['file']}: {e.json_path}: {e.message}" for e in v.iter_errors(d)]
        assert not errors, errors[:3]


def test_schema_trace_prints_the_shipped_schema():
    done = cli("schema", "--trace")
    assert done.returncode == 0 and json.loads(done.stdout)["properties"]["format"] == {"const": 1}


def test_json_trace_is_the_same_on_both_backends():
    one = cli("simulate", "--json", COUNTERED, FOCUS_LEFT)
    two = cli("simulate", "--json", "--backend", "transitions", COUNTERED, FOCUS_LEFT)
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert json_lines(one.stdout) == json_lines(two.stdout)


def test_json_positions_are_bounded(tmp_path, monkeypatch, capsys):
    """A file with many steps cannot make the per-step positions grow without bound: one line, exit 2."""
    from simulator.cli import simulate
    monkeypatch.setattr(simulate, "MAX_ENTRIES", 20)
    path = write(tmp_path, ASKING)
    assert main(["simulate", "--json", path]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"{path}:") and "more than 20 units, chain items and battlefields" in err
    assert err.splitlines()[1:] == ["1 scenario: 0 passed, 0 failed, 1 invalid, 0 pending"]      # --json: summary


def test_show_steps_are_bounded(tmp_path, monkeypatch):
    """Many show: steps cannot make memory explode: past the bound the file is refused in one line."""
    from simulator.scenario import loader
    monkeypatch.setattr(loader, "MAX_SHOWN", 20)
    path = write(tmp_path, ASKING.replace("  - show: [passed, focus]\n", "  - show: all\n" * 5))
    with pytest.raises(loader.ScenarioError) as e:
        run(load(path))
    assert str(e.value) == (f"{path}:16: step 8: the show: steps would print more than 20 units, chain items and "
                            f"battlefields in all: refused")


# -- the trace names who gets priority and focus ------------------------------------------------------

def lines(path: str, backend: str = "compiled") -> list[tuple[int, str, str]]:
    res = run(load(path), backend=backend)
    assert res.status == "pass", res.message
    return [(e.step, e.event, e.rule) for e in res.events]


@pytest.mark.parametrize("backend", ["compiled", "transitions"])
def test_a_finalized_deathknell_names_who_gets_priority(backend):
    """337.4, 312.2.c, R17: the Deathknell (808.1.d) is finalized in the Combat Cleanup; its controller B gets
    priority, and the trace says so; when it has resolved and the chain is empty, the turn player A gets
    priority back (340.2, 335.1, 312.2.a)."""
    got = lines(DEATHKNELL, backend)
    assert (5, "deathknell is finalized; B gets priority", "337.4, 312.2.c, R17") in got
    assert got[-1] == (9, "A gets priority", "335.1, 312.2.a")


@pytest.mark.parametrize("backend", ["compiled", "transitions"])
def test_a_conceding_players_countered_spell_names_who_has_priority(backend):
    """652.4 counters the conceder's spells; 652.5: C, who held priority, keeps it when B concedes; when C
    concedes holding priority, the next player D gets it (R10)."""
    got = lines(COUNTERED, backend)
    at9 = [x for x in got if x[0] == 9]
    assert at9[1] == (9, "reaction-spell is countered: its controller left", "652.4")
    assert at9[-1] == (9, "C keeps priority", "652.4, 652.5")
    at13 = [x for x in got if x[0] == 13]
    assert at13[1] == (13, "reaction-spell is countered: its controller left", "652.4")
    assert at13[-1] == (13, "priority passes to D", "652.5, R10")


@pytest.mark.parametrize("backend", ["compiled", "transitions"])
def test_a_focus_holder_who_concedes_during_a_chain_names_the_new_focus_holder(backend):
    """652.5: focus goes to the next player; priority stays where the chain put it (313.3)."""
    got = lines(FOCUS_LEFT, backend)
    assert got[-2:] == [(11, "C keeps priority", "652.4, 652.5"),
                        (11, "focus passes to B; priority stays with the chain", "652.5")]


GIVES = {"priority_to_newest", "priority_to_next", "new_round", "focus_to_contester", "focus_keeps",
         "focus_to_next", "focus_to_next_silent", "focus_to_attacker"}


def test_every_declared_hand_over_of_priority_or_focus_has_a_line_naming_the_player():
    """337.4, 340.4, 402.4, 383.3.a, 652.4, 652.5 (R17, R10), 345, 347, 464.2: each declared transition that
    gives priority or focus to a player says who (a priority pass, 338.2, has its action's line)."""
    import statecharts
    silent = [f"{m}: {t.source} --{t.trigger}--> {t.dest}" for m in ("chain", "focus")
              for t in statecharts.LEAVES[m].transitions
              if GIVES & set(t.effects) and t.trigger != "pass" and "{player}" not in t.say]
    assert not silent, silent


def test_every_transition_into_execute_names_the_priority_holder_in_the_bundled_scenarios():
    """Run for real: every time the chain reaches Execute (someone gets priority) other than by a pass, the
    transition's own trace line names the holder."""
    from simulator.scenario.record import record
    seen = 0
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        for f in record(load(str(path)), snapshots=False).fired:
            if f.leaf == "chain" and f.t.dest == "Execute" and f.t.trigger != "pass":
                seen += 1
                assert f.event is not None and "priority" in f.event.event, (path.name, f.t)
                assert f.event.player is not None and f.event.event.startswith(f.event.player) \
                    or f.event.event.endswith(f"{f.event.player} gets priority") \
                    or f.event.event.endswith(f"passes to {f.event.player}"), (path.name, f.event.event)
    assert seen >= 100
