"""The one structural check of scenario files, verify positions files and setups: their JSON Schema.

The shipped schemas (``simulator/scenario/schemas/*.json``, the files ``riftsim schema`` prints) say which
keys exist, what each holds and which combinations mean nothing; :func:`check` validates a document
against one of them with the ``jsonschema`` library and reports the **first** problem in the file (the
lowest line) as riftsim's own one-line ``FILE:LINE: what is wrong``. What a schema can't say (that a
unit id is declared, a player exists, a refusal a rule makes) is checked in code afterwards
(:mod:`simulator.game.validate`). The validators are compiled once, when a file is first checked, so
commands that read no file never import ``jsonschema``.

>>> check({"players": ["A", "B"], "colour": "red"}, "setup", "setup")
Traceback (most recent call last):
...
simulator.core.errors.ScenarioError: setup:1: unknown key colour in a starting position (expected one of: mode, players, teams, battlefields, control, score, units, gear, hands, cards, rulings, resources, assign, decks, trash, banished)
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any

from simulator.core.errors import ScenarioError

FILES = {"scenario": "scenario.schema.json", "positions": "positions.schema.json", "fixture": "fixture.schema.json"}
#: the schema each kind of document is checked with: a file's own, or a definition inside one
ROOTS = {"scenario": ("scenario", None), "positions": ("positions", None), "setup": ("positions", "setup"),
         "step": ("scenario", "step"), "fixture": ("fixture", None), "catalogue": ("scenario", "catalogue")}
TYPES = {"object": "a mapping", "array": "a list", "string": "a text", "integer": "a whole number",
         "number": "a number", "boolean": "true or false", "null": "nothing (null)"}


def shipped(kind: str) -> str:
    """The text of a schema shipped in the package (``scenario`` or ``positions``)."""
    return resources.files("simulator.scenario").joinpath("schemas", FILES[kind]).read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def validator(kind: str):
    """The compiled validator of ``kind`` (``scenario``, ``positions``, ``setup``, ``step``), made once."""
    import jsonschema
    name, ref = ROOTS[kind]
    schema = json.loads(shipped(name))
    if ref is not None:
        schema = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": f"#/$defs/{ref}"}
    return jsonschema.Draft202012Validator(schema)


def check(doc: Any, kind: str, file: str, lines: dict | None = None, root: tuple = ()) -> None:
    """Raise ScenarioError ``FILE:LINE: what`` for the first schema error of ``doc`` (none: return)."""
    errors = list(validator(kind).iter_errors(doc))
    if not errors:
        return
    lines = lines if lines is not None else {(): 1}
    found = [explain(leaf(e), doc, file, lines, root) for e in errors]
    where, what = min(found, key=lambda f: (int(f[0].rsplit(":", 1)[1]), f[2]))[:2]
    raise ScenarioError(where, what)


def leaf(e):
    """The error to report inside an ``anyOf`` / ``oneOf``: the one branch whose kind of value fits (a
    mapping, a list, ...), at its deepest error; the alternatives themselves when none fits, or when several
    fit and the schema words the choice itself (``x-messages``)."""
    while e.context and e.validator in ("anyOf", "oneOf"):
        branches: dict = {}
        for c in e.context:
            branches.setdefault(c.schema_path[0], []).append(c)
        fits = [b for b in branches.values() if not any(
            len(c.absolute_path) == len(e.absolute_path) and c.validator in ("type", "enum", "const") for c in b)]
        clean = [b for b in fits if all(len(c.absolute_path) > len(e.absolute_path) for c in b)]
        if len(clean) == 1:                 # the value is of this branch's kind, wrong only inside
            fits = clean
        if not fits or (len(fits) > 1 and e.validator in e.schema.get("x-messages", {})):
            return e
        e = max((c for b in fits for c in b), key=lambda c: len(c.absolute_path))
    return e


def line_of(path: tuple, lines: dict, root: tuple) -> int:
    path = root + tuple(path)
    while path not in lines:
        path = path[:-1]
    return lines[path]


def explain(e, doc, file: str, lines: dict, root: tuple) -> tuple[str, str, tuple]:
    """(FILE:LINE, the message, an order among errors of one line) of one schema error."""
    path = tuple(e.absolute_path)
    v, x, s = e.validator, e.instance, e.schema
    what = name_of(path, doc) if path else object_name(path, x, s) or "the document"
    custom = s.get("x-messages", {}).get(v) if isinstance(s, dict) else None
    if v == "additionalProperties" and isinstance(x, dict):
        known = list(s.get("properties", {}))
        extra = next(k for k in x if k not in known)
        keys = f" (expected one of: {', '.join(known)})" if known else ""
        text = custom.format(key=fmt(extra)) if custom else f"unknown key {fmt(extra)} in {object_name(path, x, s)}{keys}"
        return f"{file}:{line_of(path + (extra,), lines, root)}", text, (1, len(path))
    if "propertyNames" in e.relative_schema_path and isinstance(x, str):     # a key's name: the key's line
        text = custom.format(**facts(e, what)) if custom else f"{fmt(x)} is not allowed as a key here"
        return f"{file}:{line_of(path + (x,), lines, root)}", text, (-1, 0)
    if custom:
        return f"{file}:{line_of(path, lines, root)}", custom.format(**facts(e, what)), (0, len(path), v != "type")
    return f"{file}:{line_of(path, lines, root)}", message(e, what, path, x, s), (2, len(path))


def facts(e, what: str) -> dict:
    """What a schema's own message (``x-messages``) may name: ``{what}``, ``{value}``, ``{kind}``, ``{count}``,
    ``{missing}`` (a required key), ``{twice}`` (a value listed twice)."""
    x = e.instance
    out = {"what": what, "value": fmt(x), "kind": kind(x), "count": len(x) if isinstance(x, (list, dict)) else 0}
    if e.validator == "required" and isinstance(x, dict):
        out["missing"] = next(k for k in e.validator_value if k not in x)
    if e.validator == "uniqueItems" and isinstance(x, list):
        out["twice"] = fmt(next(a for i, a in enumerate(x) if a in x[:i]))
    return out


def message(e, what: str, path: tuple, x, s) -> str:
    """The wording of an error other than an unknown key."""
    v, want = e.validator, e.validator_value
    if v == "required":
        missing = next(k for k in want if k not in x)
        return f"{object_name(path, x, s)} needs {missing!r}"
    if v in ("enum", "const"):
        return f"{what} must be {describe(e)}, not {fmt(x)}"
    if v == "type" or (v in ("anyOf", "oneOf") and e.context):
        return f"{what} must be {describe(e)}, not {kind(x)}"
    if v in ("minimum", "maximum"):
        return f"{what} must be at {'least' if v == 'minimum' else 'most'} {want}, not {x}"
    if v == "minLength":
        return f"{what} must be a non-empty text, not {kind(x)}"
    if v == "minItems":
        return f"{what} lists at least {want} {'entry' if want == 1 else 'entries'}"
    if v in ("maxItems", "maxProperties"):
        return f"{what} has {len(x):,} entries: at most {want:,}"
    if v == "minProperties":
        return f"{what} names at least {want} key{'s' if want > 1 else ''}"
    if v == "uniqueItems":
        twice = next(a for i, a in enumerate(x) if a in x[:i])
        return f"{fmt(twice)} is listed twice in {what}"
    if v == "pattern":
        return f"{what} must match {want}, not {fmt(x)}"
    return f"{what} is not allowed here ({e.message})"          # pragma: no cover - every keyword the schemas use


def describe(e) -> str:
    """What a value may be, from the failing keyword (its alternatives for an anyOf)."""
    if e.validator == "type":
        types = e.validator_value if isinstance(e.validator_value, list) else [e.validator_value]
        return " or ".join(TYPES[t] for t in types)
    if e.validator == "enum":
        return "one of " + ", ".join(fmt(o) for o in e.validator_value)
    if e.validator == "const":
        return fmt(e.validator_value)
    seen: list[str] = []
    for c in e.context or ():
        if len(c.absolute_path) == len(e.absolute_path) and c.validator in ("type", "enum", "const", "anyOf", "oneOf"):
            d = c.schema.get("title") if isinstance(c.schema, dict) and c.validator != "enum" else None
            d = d or describe(c)
            if d not in seen:
                seen.append(d)
    return " or ".join(seen) or "something else"


def name_of(path: tuple, doc) -> str:
    """How a message names the value at ``path``: ``a1's might``, ``step 2's expect``, ``A's score``."""
    if not path:
        return "the document"
    *head, last = path
    if isinstance(last, int):
        if head == ["steps"]:
            return f"step {last + 1}"
        return f"entry {last + 1} of {name_of(tuple(head), doc)}"
    owner = _at(doc, tuple(head))
    if len(head) == 2 and head[0] == "steps":
        return f"step {head[1] + 1}'s {last}"
    if last in ("id", "name"):
        return str(last)
    for k in ("id", "name"):
        if isinstance(owner, dict) and isinstance(owner.get(k), str) and head and isinstance(head[-1], int):
            return f"{fmt(owner[k])}'s {last}"
    if head and head[-1] in _UNDER:
        return _UNDER[head[-1]].format(last=last, fmt=fmt(last))
    if len(head) >= 3 and head[-3] in ("effect", "deathknell") and isinstance(head[-2], int):
        return f"{head[-1]} {last}"
    if len(head) == 2 and head[0] == "cards":
        return f"card {fmt(head[1])}'s {last}"
    return str(last)


#: how a key is named under these parents: ``explore.turns``, ``ruling R1``, ``A's hand``, ``A's score``
_UNDER = {"explore": "explore.{last}", "rulings": "ruling {fmt}", "hands": "{fmt}'s hand",
          **{k: "{fmt}'s " + k for k in ("score", "resources", "energy", "runes", "control", "controller")}}


def object_name(path: tuple, x, s) -> str:
    """How a message names a mapping: its schema's title (``an ability``), a step by its action."""
    if len(path) == 2 and path[0] == "steps":
        return f"a {x['do']} step" if isinstance(x, dict) and isinstance(x.get("do"), str) and "expect" not in x \
            else f"step {path[1] + 1}"
    if len(path) == 3 and path[0] == "steps" and path[2] == "expect":
        return f"step {path[1] + 1}'s expect"
    if len(path) == 2 and path[0] == "cards":
        return f"card {fmt(path[1])}"
    title = (s.get("x-name") or s.get("title")) if isinstance(s, dict) else None
    return title or name_of(path, None)


def _at(doc, path: tuple):
    for k in path:
        try:
            doc = doc[k]
        except (KeyError, IndexError, TypeError):
            return None
    return doc


def fmt(v) -> str:
    """A value as a user would write it in YAML (flow style)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return v if v and re.fullmatch(r"[\w#.+-]+( [\w#.+-]+)*", v) else repr(v)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{fmt(k)}: {fmt(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(fmt(x) for x in v) + "]"
    return str(v)


def kind(v) -> str:
    """What a value is, in a user's words (``the text two``, ``a number (3)``)."""
    if v is None:
        return "nothing (null)"
    if isinstance(v, bool):
        return f"true/false ({fmt(v)})"
    if isinstance(v, (int, float)):
        return f"a number ({v})"
    if isinstance(v, str):
        return f"the text {fmt(v)}"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "a mapping"
    return type(v).__name__
