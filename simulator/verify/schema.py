"""The JSON Schema of a verify positions file, from the scenario schema's starting-position keys.

>>> positions_schema()["required"]
['positions']
"""
from __future__ import annotations

from simulator.scenario.schema import DIALECT, REF, TEXT, WHOLE, WORD, _list, _obj, defs, or_null, setup_props, setup_schema, SETUP_RULES

#: bounds of one position's search (``explore:``), as load_positions reads them
EXPLORE = {"turns": WHOLE, "concede": {"type": "boolean"}, "max_states": {"type": "integer", "minimum": 1},
           "rulings": REF("rulings"), "states": WHOLE, "symmetry": {"type": "boolean"}}


def positions_schema() -> dict:
    """The JSON Schema of a verify positions file (``riftsim verify --positions``)."""
    position = {**_obj({**setup_props(), "explore": or_null({**_obj(EXPLORE), "title": "explore"})}, ("name", "players")),
                "title": "a position", "allOf": SETUP_RULES}
    unexercised = {**_obj({"machine": WORD, "source": WORD, "trigger": WORD, "dest": WORD,
                        "guards": _list(WORD), "why": TEXT}, ("machine", "source", "trigger", "dest", "why")),
                   "title": "an unexercised entry"}
    return {
        "$schema": DIALECT,
        "$id": "https://riftsim.invalid/schemas/positions.schema.json",
        "title": "riftsim verify positions",
        "x-name": "a positions file",
        "description": "Starting positions that riftsim verify explores (docs/scenario-format.md)",
        "type": "object",
        "required": ["positions"],
        "properties": {"positions": _list(position, minItems=1), "unexercised": _list(unexercised)},
        "additionalProperties": False,
        "$defs": {**defs(), "setup": setup_schema()},
    }
