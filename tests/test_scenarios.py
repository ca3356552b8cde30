"""Every file in scenarios/ is a test case: adding a scenario adds a test.

A scenario passes when every step holds through ``riftsim simulate`` (exit 0, the
result line says PASS). A scenario marked ``pending: "reason"`` is expected to fail
(an engine gap): pytest marks it xfail(strict=True), so it turns into a failure the
moment it passes and the marker must go.
"""
from __future__ import annotations

import pathlib

import pytest

from simulator.cli.main import main
from simulator.scenario import bundled
from simulator.scenario.loader import load, run

ROOT = pathlib.Path(__file__).resolve().parent.parent
FILES = bundled.under(ROOT / "scenarios")            # and its subfolders (scenarios/cards/)


def _param(path: pathlib.Path):
    sc = load(str(path))
    marks = [pytest.mark.xfail(reason=sc.pending, strict=True)] if sc.pending else []
    return pytest.param(path, id=path.stem, marks=marks)


@pytest.mark.parametrize("path", [_param(p) for p in FILES])
def test_scenario_holds(path):
    """Each step's expectations (state, focus, priority, chain, control, score, legal...) hold."""
    sc = load(str(path))
    sc.pending = None          # judge the steps themselves; xfail(strict) flips once a pending one passes
    res = run(sc)
    assert res.status == "pass", res.message


def test_every_scenario_checks_after_every_action():
    """Scenario files carry an expectation after every action (the brief: expectations after every step)."""
    for path in FILES:
        sc = load(str(path))
        for st, nxt in zip(sc.steps, sc.steps[1:] + [None]):
            if st.action is not None:
                assert nxt is not None and nxt.expect is not None, f"{path.name}: step {st.number} has no expect after it"


def test_bundled_scenarios_exist_for_every_seed():
    """Every seed (000-004) has at least one worked example in scenarios/."""
    names = [p.name for p in FILES]
    for seed in ("seed000", "seed001", "seed002", "seed003", "seed004"):
        assert any(n.startswith(seed) for n in names), seed


def test_cli_runs_the_bundled_scenarios(capsys):
    """README's first command: every non-pending bundled scenario passes through `riftsim simulate`."""
    files = [str(p) for p in FILES if not load(str(p)).pending]
    code = main(["simulate", *files])
    out = capsys.readouterr().out
    assert code == 0, out[-2000:]
    assert out.count("-- PASS") == len(files)
    assert out.rstrip().splitlines()[-1].startswith(f"{len(files)} scenario")
    assert f": {len(files)} passed, 0 failed, 0 invalid" in out
