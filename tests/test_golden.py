"""Golden traces: each bundled scenario's full trace, final position and legal actions are approved output.

``tests/golden/<scenario>.json`` is what ``scenarios/<scenario>.yaml`` produced when it was last approved:
every trace event (step, player, text, rules; machine, instance, trigger, source, destination for a declared
transition), the result, the final view and each player's legal actions at the end. Both backends must
produce it exactly. A changed trace fails with a diff; when the change is intended, approve it with
``riftsim approve NAME`` (docs/testing.md) and say why in the commit message.
"""
from __future__ import annotations

import json

import pytest

from simulator.verify import golden

FILES = golden.scenario_files()


@pytest.mark.parametrize("backend", ["compiled", "transitions"])
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_trace_matches_the_approved_golden_output(path, backend):
    """The trace a judge reads (and the rules it cites) is exactly the approved one."""
    why = golden.problem(path, backend)
    assert not why, why


def test_no_golden_file_without_its_scenario():
    gone = [golden.rel(p) for p in golden.orphans()]
    assert not gone, f"golden files whose scenario is gone: {gone}; delete them with `{golden.APPROVE}`"


def test_golden_files_are_valid_json_with_one_event_per_line():
    """The layout is diff-friendly and still JSON any tool can read."""
    for path in FILES:
        gp = golden.golden_path(path)
        if not gp.exists():
            continue                      # reported by the comparison test, with how to approve it
        text = gp.read_text(encoding="utf-8")
        doc = json.loads(text)
        assert doc["scenario"] == path.stem
        assert set(doc) == {"scenario", "status", "message", "events", "final", "pool", "legal"}
        assert len(text.splitlines()) >= len(doc["events"]) + len(doc["final"]), gp.name
        assert golden.render_doc(doc) == text, f"{gp.name} was edited by hand: re-approve it"


def test_a_changed_trace_fails_with_a_diff_and_says_how_to_approve(tmp_path, monkeypatch):
    """The failure message a colleague sees: the diff, and the approve command for that scenario."""
    path = FILES[0]
    fake = tmp_path / "golden"
    fake.mkdir()
    doc = json.loads(golden.golden_path(path).read_text(encoding="utf-8"))
    doc["events"][0]["rules"] = "999"
    (fake / f"{path.stem}.json").write_text(golden.render_doc(doc), encoding="utf-8")
    monkeypatch.setattr(golden, "GOLDEN", fake)
    why = golden.problem(path)
    assert f"riftsim approve {path.stem}" in why
    assert '-{"step"' in why and '"rules": "999"' in why
    (fake / f"{path.stem}.json").unlink()
    why = golden.problem(path)
    assert "no approved golden output" in why and f"riftsim approve {path.stem}" in why


@pytest.mark.slow
def test_approve_writes_then_check_is_clean(tmp_path, monkeypatch, capsys):
    """`riftsim approve` writes every missing file and deletes orphans; `--check` then finds nothing."""
    from simulator.cli.main import main
    monkeypatch.setattr(golden, "GOLDEN", tmp_path)
    (tmp_path / "no-such-scenario.json").write_text("{}\n")
    assert main(["approve", "--check"]) == 1
    assert main(["approve"]) == 0
    assert not (tmp_path / "no-such-scenario.json").exists()
    assert sorted(p.stem for p in tmp_path.glob("*.json")) == sorted(p.stem for p in FILES)
    capsys.readouterr()
    assert main(["approve", "--check"]) == 0
    assert "0 would change" in capsys.readouterr().out
    assert main(["approve", "not-a-scenario"]) == 2
