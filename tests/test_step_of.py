"""``step_of`` is the inverse of the loader's ``do:`` steps: every action of every bundled scenario,
written back as a step and loaded again, is the same action (``riftsim play``'s ``save`` and
``verify``'s counterexample scenarios both write their actions with it)."""
import pathlib

import pytest
import yaml

from simulator.scenario.loader import load, loads, step_of

ROOT = pathlib.Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_every_action_round_trips_through_step_of(path):
    sc = load(str(path))
    actions = [st.action for st in sc.steps if getattr(st, "action", None) is not None]
    if not actions:
        pytest.skip("no actions")
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["steps"] = [step_of(a) for a in actions]
    again = loads(yaml.safe_dump(doc, sort_keys=False), str(path))
    assert [st.action for st in again.steps] == actions


def test_kinds_seen_cover_every_writable_field():
    kinds = {st.action.kind for f in FILES for st in load(str(f)).steps if getattr(st, "action", None)}
    assert {"move", "play", "pass", "order", "assign", "hide", "choose", "target", "activate"} <= kinds
