"""A failed ``units:`` or ``gear:`` expectation says which object and field differ, or that the object
does not exist (the same wording for both, from one comparison)."""
from simulator.scenario.loader import compare


def test_unit_field_and_missing_unit():
    got = {"units": {"a1": {"at": "North", "might": 2}}}
    msgs = compare("units", {"a1": {"at": "base"}}, got)
    assert len(msgs) == 1 and msgs[0].startswith("expected a1 at ")
    assert compare("units", {"zz": {"at": "base"}}, got) == ["expected unit zz, but no such unit exists"]
    assert compare("units", {"a1": {"might": 2}}, got) == []


def test_gear_field_and_missing_gear():
    got = {"gear": {"g1": {"exhausted": False}}}
    msgs = compare("gear", {"g1": {"exhausted": True}}, got)
    assert len(msgs) == 1 and msgs[0].startswith("expected gear g1 exhausted ")
    assert compare("gear", {"g9": {"exhausted": True}}, got) == ["expected gear g9, but no such gear exists"]
    assert compare("gear", {"g1": {"exhausted": False}}, got) == []
