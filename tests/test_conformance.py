"""Conformance fixtures (issue 33): every bundled scenario exports to a schema-valid fixture, riftsim's own
adapter passes them and sampled explored paths, and the driver catches an engine that breaks a rule, citing
that rule, and an engine that hangs or prints junk, in one line.
"""
from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import jsonschema
import pytest

from simulator.cli.main import main
from simulator.scenario.bundled import under
from simulator.scenario import fixtures
from simulator.scenario.conformance import Reference

ROOT = Path(__file__).resolve().parents[1]
SEED000 = ROOT / "scenarios" / "seed000-showdown-on-an-empty-battlefield.yaml"
REFUSALS = ROOT / "scenarios" / "illegal-standard-move-during-a-showdown.yaml"
REFERENCE = f"{sys.executable} -m simulator.cli.adapter"


def _validator():
    schema = json.loads(fixtures.shipped_schema())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _report(capsys, *argv) -> tuple[int, dict]:
    code = main(["conformance", *map(str, argv), "--json"])
    return code, json.loads(capsys.readouterr().out)


def _adapter(tmp_path: Path, name: str, body: str) -> str:
    """A deliberately wrong engine: riftsim's reference, with ``body`` changing each answer ``ans``."""
    script = tmp_path / f"{name}.py"
    script.write_text(textwrap.dedent("""\
        import json, sys
        from simulator.scenario.conformance import Reference
        ref = Reference()
        for line in sys.stdin:
            req = json.loads(line)
            ans = ref.handle(req)
        """) + textwrap.indent(textwrap.dedent(body), "    ") + "    print(json.dumps(ans), flush=True)\n")
    return f"{sys.executable} {script}"


def test_the_shipped_schema_is_the_generated_one():
    assert fixtures.shipped_schema() == fixtures.schema_text(), \
        "the shipped fixture schema is stale: run `riftsim schema --write`"


@pytest.fixture(scope="module")
def bundled(tmp_path_factory) -> Path:
    """Every bundled scenario exported once, with `riftsim export --fixtures` (the module's one full export)."""
    out = tmp_path_factory.mktemp("bundled")
    assert main(["export", "--fixtures", str(out)]) == 0
    return out


@pytest.mark.slow
def test_every_bundled_scenario_exports_to_a_schema_valid_fixture_and_the_reference_adapter_passes_them(bundled, capsys):
    out = bundled
    written = sorted(out.glob("*.json"))
    assert sorted(p.stem for p in written) == sorted(p.stem for p in under(ROOT / "scenarios"))
    v = _validator()
    for p in written:
        errors = [f"{list(e.path)}: {e.message}" for e in v.iter_errors(json.loads(p.read_text()))]
        assert not errors, (p.name, errors[:3])
    capsys.readouterr()
    code, rep = _report(capsys, out, "--engine", REFERENCE)
    assert code == 0 and rep["summary"]["diverge"] == 0 and rep["summary"]["fixtures"] == len(written), rep["summary"]


@pytest.mark.parametrize("name", ["seed000-showdown-on-an-empty-battlefield", "seed002-showdown-becomes-a-combat",
                                  "keyword-manual-damage-assignment", "seed004-war-staged-combat-barred-to-outsiders"])
def test_the_reference_adapter_passes_on_the_transitions_backend_too(bundled, capsys, name):
    """Fixtures are recorded on the compiled backend; the real `transitions` machines give the same answers."""
    code, rep = _report(capsys, bundled / f"{name}.json", "--engine", f"{REFERENCE} --backend transitions")
    assert code == 0 and rep["summary"]["pass"] == 1


def test_a_fixture_records_what_a_judge_checks_after_each_command():
    """seed000: the move makes North Contested (190.3.a.1) and gives A focus and priority (345, R4); a refused
    command records its rule and nothing changed."""
    fx = fixtures.from_scenario(str(SEED000))
    assert fixtures.dumps(fx) == fixtures.dumps(fixtures.from_scenario(str(SEED000))), "same scenario, same bytes"
    assert fx["format"] == fixtures.FORMAT and fx["rules_version"] == "1.4"
    assert fx["initial"]["decide"]["B"] == ["concede"] and fx["initial"]["observe"]["priority"] == "A"
    move = fx["commands"][0]
    assert move["command"] == {"player": "A", "action": "move", "params": {"units": ["a1"], "to": "North"}}
    assert [e["rules"] for e in move["events"]][:2] == [["144"], ["190.3.a.1", "450"]]
    assert move["observe"]["focus"] == "A" and move["observe"]["contested"] == ["North"]
    assert move["decide"] == {"A": ["concede", "pass", "play rune-prison"], "B": ["concede"]}
    last = fx["commands"][-1]
    assert last["observe"]["score"] == {"A": 1, "B": 0} and last["observe"]["control"]["North"] == "A"
    assert "470" in fx["provenance"]["rules"]
    refused = [c for c in fixtures.from_scenario(str(REFUSALS))["commands"] if "refused" in c]
    assert refused, "the scenario has refused steps"
    before = {c["n"]: c["observe"] for c in fixtures.from_scenario(str(REFUSALS))["commands"]}
    for c in refused:
        assert c["changed"] is False and c["events"] == [] and c["refused"]["rules"]
        assert c["observe"] == before.get(c["n"] - 1, c["observe"])


def test_a_scenario_and_its_fixture_agree_on_every_command_through_the_reference_engine():
    fx = fixtures.from_scenario(str(REFUSALS))
    ref = Reference()
    assert ref.handle({"type": "setup", "position": fx["position"]})["type"] == "ready"
    for c in fx["commands"]:
        ans = ref.handle({"type": "command", "command": c["command"]})
        if "refused" in c:
            assert ans == {"type": "refused", "rules": c["refused"]["rules"], "reason": c["refused"]["reason"]}
        else:
            assert [e["rules"] for e in ans["events"]] == [e["rules"] for e in c["events"]]
        pos = ref.handle({"type": "observe"})
        assert pos["observe"] == c["observe"] and pos["decide"] == c["decide"]


def test_an_engine_that_gives_the_opponent_focus_first_is_caught_with_rule_345(tmp_path, capsys):
    out = tmp_path / "fx"
    assert main(["export", "--fixtures", str(out), str(SEED000)]) == 0
    wrong = _adapter(tmp_path, "opponent_first", """\
        if ans["type"] == "position" and ans["observe"]["focus"] is not None:
            obs = ans["observe"]
            other = obs["players"][(obs["players"].index(obs["focus"]) + 1) % len(obs["players"])]
            obs["focus"] = obs["priority"] = other
        """)
    capsys.readouterr()
    code, rep = _report(capsys, out, "--engine", wrong)
    assert code == 1
    d = rep["fixtures"][0]["divergence"]
    assert (d["n"], d["what"], d["expected"], d["got"]) == (1, "observe.focus", "A", "B")
    assert d["rules"] == ["345", "313.2", "R4"]
    assert d["command"] == {"player": "A", "action": "move", "params": {"units": ["a1"], "to": "North"}}


def test_an_engine_that_skips_the_conquest_is_caught_with_rules_469_and_470(tmp_path, capsys):
    wrong = _adapter(tmp_path, "no_conquest", """\
        if ans["type"] == "done":
            ans["events"] = [e for e in ans["events"] if "470" not in e["rules"]]
        """)
    out = tmp_path / "fx"
    assert main(["export", "--fixtures", str(out), str(SEED000)]) == 0
    capsys.readouterr()
    code, rep = _report(capsys, out, "--engine", wrong)
    d = rep["fixtures"][0]["divergence"]
    assert code == 1 and d["what"].startswith("events[") and d["rules"] == ["469.1", "470"]
    assert d["n"] == 3 and d["command"]["action"] == "pass"


def test_an_engine_that_accepts_a_refused_command_is_caught_with_the_refusal_rule(tmp_path, capsys):
    wrong = _adapter(tmp_path, "accepts", """\
        if ans["type"] == "refused":
            ans = {"type": "done", "events": []}
        """)
    fx = fixtures.from_scenario(str(REFUSALS))
    first = next(c for c in fx["commands"] if "refused" in c)
    out = tmp_path / "fx"
    assert main(["export", "--fixtures", str(out), str(REFUSALS)]) == 0
    capsys.readouterr()
    code, rep = _report(capsys, out, "--engine", wrong)
    d = rep["fixtures"][0]["divergence"]
    assert code == 1 and (d["n"], d["what"], d["got"]) == (first["n"], "refused", "accepted")
    assert d["rules"] == first["refused"]["rules"]


@pytest.mark.parametrize("body, says", [
    ("import time; time.sleep(30)", "no answer within 1 s"),
    ("print('hello, I am not JSON', flush=True)", "not JSON"),
    ("sys.exit(3)", "exited"),
    ("print(json.dumps({'type': 'position'}), flush=True)", "expected an answer of type ready"),
])
def test_a_hanging_junk_or_dead_engine_is_a_one_line_divergence_per_fixture(tmp_path, capsys, body, says):
    script = tmp_path / "bad.py"
    script.write_text(f"import json, sys\nfor line in sys.stdin:\n    {body}\n")
    out = tmp_path / "fx"
    assert main(["export", "--fixtures", str(out), str(SEED000), str(REFUSALS)]) == 0
    capsys.readouterr()
    assert main(["conformance", str(out), "--engine", f"{sys.executable} {script}", "--timeout", "1"]) == 1
    lines = [x for x in capsys.readouterr().out.splitlines() if x.startswith("DIVERGES")]
    assert len(lines) == 2 and all(says in x and "at the start" in x for x in lines), lines


def test_bad_input_is_one_line_naming_where(tmp_path, capsys):
    junk = tmp_path / "junk.json"
    junk.write_text('{"format": "riftsim-fixture/1",\n  oops')
    assert main(["conformance", str(junk), "--engine", REFERENCE]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{junk}:2: not JSON" in err[0]
    other = tmp_path / "other.json"
    other.write_text('{"format": "something-else/9"}')
    assert main(["conformance", str(other), "--engine", REFERENCE]) == 2
    assert "not a fixture of format riftsim-fixture/1" in capsys.readouterr().err
    broken = fixtures.from_scenario(str(SEED000))
    del broken["commands"][1]["observe"]
    cut = tmp_path / "cut.json"
    cut.write_text(fixtures.dumps(broken))
    line = next(i for i, x in enumerate(cut.read_text().splitlines(), 1) if '"n": 2' in x) - 1
    assert main(["conformance", str(cut), "--engine", REFERENCE]) == 2
    assert capsys.readouterr().err.strip() == f"riftsim: {cut}:{line}: entry 2 of commands needs 'observe'"
    assert main(["conformance", str(SEED000.parent.parent / "tests"), "--engine", "/nonexistent/engine"]) == 2
    assert main(["export", "--fixtures", str(tmp_path / "x"), str(tmp_path / "missing.yaml")]) == 2
    assert not (tmp_path / "x").exists(), "nothing is written when a scenario is refused"


def test_the_reference_adapter_answers_junk_with_one_error_line_and_goes_on():
    import io
    from simulator.cli.adapter import serve
    out = io.StringIO()
    serve(['not json\n', '{"type": "command"}\n', '{"type": "setup", "position": {"players": "A"}}\n',
           '{"type": "setup", "position": {"players": ["A", "B"]}}\n',
           '{"type": "command", "command": {"player": "A", "action": "fly", "params": {}}}\n',
           '{"type": "command", "command": {"player": "A", "action": "end-turn", "params": {}}}\n'], out)
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [a["type"] for a in answers] == ["error", "error", "error", "ready", "error", "done"]
    out = io.StringIO()
    serve(['{"type": "setup", "position": {"players": ["A", "B"]}}\n', '{"type": "setup", "position": {}}\n',
           '{"type": "observe"}\n'], out)
    assert [json.loads(x)["type"] for x in out.getvalue().splitlines()] == ["ready", "error", "error"], \
        "a refused position leaves no game behind"
    assert "send setup first" in answers[1]["message"] and "fly" in answers[4]["message"]


def test_sampled_explored_paths_are_reproducible_and_the_reference_adapter_passes_them(tmp_path, capsys):
    runs = []
    for name in ("one", "two"):
        out = tmp_path / name
        assert main(["verify", "--export-fixtures", str(out), "--sample", "12", "--seed", "5"]) == 0
        runs.append({p.name: p.read_bytes() for p in sorted(out.glob("*.json"))})
    assert len(runs[0]) == 12 and runs[0] == runs[1]
    other = tmp_path / "three"
    assert main(["verify", "--export-fixtures", str(other), "--sample", "12", "--seed", "6"]) == 0
    assert {p.name: p.read_bytes() for p in sorted(other.glob("*.json"))} != runs[0]
    v = _validator()
    for p in sorted((tmp_path / "one").glob("*.json")):
        assert not list(v.iter_errors(json.loads(p.read_text()))), p.name
    capsys.readouterr()
    code, rep = _report(capsys, tmp_path / "one", "--engine", REFERENCE)
    assert code == 0 and rep["summary"]["pass"] == 12 and rep["summary"]["commands"] > 12


def test_skip_leaves_a_key_out_of_the_comparison(tmp_path, capsys):
    wrong = _adapter(tmp_path, "no_text", """\
        if ans["type"] == "position":
            ans["observe"]["passed"] = {"priority": [], "focus": []}
        """)
    out = tmp_path / "fx"
    assert main(["export", "--fixtures", str(out), str(SEED000)]) == 0
    capsys.readouterr()
    code, rep = _report(capsys, out, "--engine", wrong)
    assert code == 1 and rep["fixtures"][0]["divergence"]["what"] == "observe.passed"
    code, rep = _report(capsys, out, "--engine", wrong, "--skip", "passed")
    assert code == 0


@pytest.mark.slow
def test_the_python_adapter_of_the_docs_passes_every_bundled_fixture(bundled, tmp_path, capsys):
    text = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    block = text.split("### Python", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    code_lines = [x for x in block.splitlines() if x.strip()]
    assert 25 <= len(code_lines) <= 40, f"the docs' Python adapter is about 30 lines, not {len(code_lines)}"
    script = tmp_path / "adapter.py"
    script.write_text(block)
    capsys.readouterr()
    code, rep = _report(capsys, bundled, "--engine", f"{sys.executable} {script}")
    assert code == 0, [r["line"] for r in rep["fixtures"] if r["status"] != "pass"][:3]


def test_the_docs_typescript_adapter_has_the_protocol():
    text = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    block = text.split("```typescript\n", 1)[1].split("```", 1)[0]
    for word in ('"setup"', '"command"', '"observe"', '"ready"', '"done"', '"refused"', '"position"', '"error"'):
        assert word in block, word
