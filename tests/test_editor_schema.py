"""Issue 34.6: what an editor shows for a broken scenario file names the wrong key and where it is.

Editors (VS Code's YAML extension, check-jsonschema in a pre-commit hook) print the raw errors of the shipped
JSON Schema, not riftsim's own one-line messages. These tests run check-jsonschema (offline: the shipped schema
file, nothing fetched) on the broken files of tests/fixtures/editor/ and check that the first error printed for
each is at the path of the wrong value and names the wrong key or value, never "is not valid under any of the
given schemas" or "is not of type 'null'" about the whole enclosing value; and that every bundled scenario
passes it, so the editor and riftsim agree on what is valid.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "fixtures" / "editor"
SCHEMA = ROOT / "simulator" / "scenario" / "schemas" / "scenario.schema.json"

#: broken file -> (the path check-jsonschema must print, the word it must name there)
CASES = {
    "unit-unknown-key": ("$.units[0]", "'mihgt' was unexpected"),
    "gear-unknown-key": ("$.gear[0]", "'mihgt' was unexpected"),
    "might-wrong-type": ("$.units[0].might", "'two' is not of type 'integer'"),
    "action-misspelled": ("$.steps[0].do", "'mvoe' is not one of"),
    "action-missing-field": ("$.steps[0]", "'to' is a required property"),
    "action-unknown-field": ("$.steps[0]", "'card' was unexpected"),
    "do-and-expect": ("$.steps[0]", "'expect' was unexpected"),
    "effect-unknown-verb": ("$.cards.zap.effect[0]", "'zapp' is not one of"),
    "verb-unknown-field": ("$.cards.zap.effect[0].damage", "'amont' was unexpected"),
    "ability-unknown-key": ("$.units[0].abilities[0]", "'efect' was unexpected"),
    "keyword-unknown": ("$.units[0].keywords[0]", "'flying' is not one of"),
    "expect-unknown-key": ("$.steps[0].expect", "'stat' was unexpected"),
    "ruling-bad-value": ("$.rulings.R1", "'maybe' is not one of ['default', 'attacker']"),
    "top-unknown-key": ("$", "'setps' was unexpected"),
    "condition-unknown": ("$.units[0].abilities[0].if", "'sunny' is not one of"),
    "give-keyword-unknown": ("$.cards.z.effect[0]['give-keyword'].keyword", "'flying' is not one of"),
}


def check_jsonschema(*files: Path) -> subprocess.CompletedProcess:
    """check-jsonschema on ``files`` against the shipped scenario schema, in a subprocess, offline."""
    env = {**os.environ, "NO_COLOR": "1", "HTTP_PROXY": "http://0.0.0.0:9", "HTTPS_PROXY": "http://0.0.0.0:9"}
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--schemafile", str(SCHEMA),
                           "--disable-formats", "*", "--color", "never", *map(str, files)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)


@pytest.fixture(scope="module")
def broken_output() -> dict[str, list[str]]:
    """The error lines check-jsonschema prints for each broken file (one run over all of them)."""
    files = sorted(BROKEN.glob("*.yaml"))
    assert {f.stem for f in files} == set(CASES), "every broken file has its case, and every case its file"
    out = check_jsonschema(*files)
    assert out.returncode == 1, out.stdout + out.stderr
    lines: dict[str, list[str]] = {}
    for line in out.stdout.splitlines():
        m = re.match(r"\s*(\S+\.yaml)::(\$\S*): (.*)$", line)
        if m:
            lines.setdefault(Path(m[1]).stem, []).append(f"{m[2]}: {m[3]}")
    return lines


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_editor_names_the_wrong_key_and_its_path(case, broken_output):
    path, words = CASES[case]
    first = broken_output[case][0]
    assert first.startswith(f"{path}: ") and words in first, (case, broken_output[case])
    for line in broken_output[case]:
        assert "is not valid under any of the given schemas" not in line and "of type 'null'" not in line, line


@pytest.mark.parametrize("case", sorted(CASES))
def test_riftsim_refuses_each_broken_file_too(case):
    """The editor and riftsim agree: riftsim refuses the file at load, with its own one-line message."""
    from simulator.core.errors import ScenarioError
    from simulator.scenario import loader
    with pytest.raises(ScenarioError):
        loader.load(str(BROKEN / f"{case}.yaml"))


def test_every_bundled_scenario_passes_check_jsonschema():
    scenarios = sorted((ROOT / "scenarios").glob("*.yaml"))
    assert len(scenarios) > 50
    out = check_jsonschema(*scenarios)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
