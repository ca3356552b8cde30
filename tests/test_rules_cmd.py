"""``riftsim rules ID``: every rule id a bundled scenario's trace or a declaration cites resolves, with a title,
its declarations and the scenarios that exercise it; an unknown id is a one-line error."""
from __future__ import annotations

import pathlib

import pytest

from statecharts.titles import title

from simulator.cli import rules as rules_cmd
from simulator.cli.main import main
from simulator.scenario import bundled, loader

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def traced() -> dict[str, set[str]]:
    """rule id -> the bundled scenarios whose trace cites it."""
    out: dict[str, set[str]] = {}
    for path in bundled.under(ROOT / "scenarios"):
        for e in loader.run(loader.load(str(path))).events:
            for r in (e.rule or "").split(","):
                if r.strip():
                    out.setdefault(r.strip(), set()).add(path.stem)
    return out


def test_every_rule_id_a_trace_cites_resolves_with_a_title(traced):
    assert len(traced) > 100
    missing = sorted(r for r in traced if not rules_cmd.resolves(r) or not title(r))
    assert missing == [], f"trace rule ids riftsim rules cannot resolve: {missing}"


def test_every_declared_rule_id_has_a_title():
    missing = sorted({r for rules, _ in rules_cmd.declarations() for r in rules if not title(r)})
    assert missing == []


def test_rules_shows_title_declarations_and_scenarios(capsys, traced):
    assert main(["rules", "340.2"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == title("340.2")
    assert "chain: Resolve --resolved [chain_empty]--> Empty   (340.2)" in out
    assert "schedule step 6 after a resolution" in out
    assert "seed001-reaction-resolves-before-the-spell" in out
    for stem in traced["340.2"]:
        assert stem in out


def test_a_refusal_cites_a_timing_row(capsys):
    """310.1.a is applied by the timing table: riftsim rules shows the row."""
    assert main(["rules", "310.1.a", "--no-scenarios"]) == 0
    out = capsys.readouterr().out
    assert "timing.TURN_PLAYER_ONLY[neutral-open]" in out and "timing.PLAY[neutral-open]: normal" in out


@pytest.mark.parametrize("bad", ["999.1", "hello", "R99", "340..2"])
def test_an_unknown_id_is_a_one_line_error(capsys, bad):
    assert main(["rules", bad]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and repr(bad) in err


def test_what_the_identity_forgets_is_found_by_its_rule(capsys):
    """652.3 and 651.1: `riftsim rules` names where a state's identity forgets what was removed from the game
    (simulator/core/model.py FORGOTTEN, the one place it is decided)."""
    assert main(["rules", "652.3", "--no-scenarios"]) == 0
    out = capsys.readouterr().out
    assert "identity (simulator/core/model.py FORGOTTEN): a state's identity forgets a removed card's place" in out
    assert main(["rules", "651.1", "--no-scenarios"]) == 0
    assert "forgets a removed player's points" in capsys.readouterr().out


def test_what_the_symmetric_identity_relies_on_is_found_by_its_rules(capsys):
    """190.6, 652.2, 323.12: `riftsim rules` names where interchangeable battlefields are decided
    (simulator/verify/symmetry.py RELIES_ON, read by its functions only)."""
    for rule in ("190.6", "652.2", "323.12", "323.13"):
        assert main(["rules", rule, "--no-scenarios"]) == 0
        assert "identity (simulator/verify/symmetry.py RELIES_ON): it holds battlefields with no abilities" \
            in capsys.readouterr().out
