"""A scenario's provenance header (format version 3, P1): the rules it claims to exercise, the Core Rules
version it was written against, where its question comes from and how far it has been reviewed.

The four top-level keys have no effect on the simulation. Their shape is the JSON Schema's (kinds and
statuses are enums there); what a schema can't say is checked here: that a ruling id names a ruling riftsim
has, and that ``audit.date`` is a date. ``riftsim rules ID`` lists the scenarios that claim a rule (P2).

>>> check({"rules": ["340.1", "R17"]}, lambda path, what: None)
{'rules': ['340.1', 'R17']}
>>> claimed(["340.2.a", "R1"], "340.2"), claimed(["340.20"], "340.2"), claimed(["R10"], "R1")
(True, False, False)
"""
from __future__ import annotations

import datetime
import re
from typing import Any, Callable

from statecharts.rulings import RULINGS

#: the header's keys, in the order the trace copies them
KEYS = ("rules", "rules-version", "source", "audit")
#: where a question comes from, and how far its answer has been reviewed
KINDS = ("core-rules", "faq", "ruling", "issue", "user", "peer", "other")
STATUSES = ("draft", "reviewed", "disputed", "superseded")
#: the Core Rules version riftsim implements
RULES_VERSION = "1.4"
#: a rule id in form: a Core Rules number (``340``, ``423.1.b``) or a ruling (``R17``)
RULE_ID = r"^(R[1-9][0-9]*|[0-9]{3}(\.[0-9a-z]+)*)$"


def check(doc: dict, fail: Callable[[tuple, str], Any]) -> dict:
    """The header of ``doc`` (only the keys given); ``fail(path, what)`` raises for what the schema can't say."""
    for i, rid in enumerate(doc.get("rules") or []):
        if rid.startswith("R") and rid not in RULINGS:
            fail(("rules", i), f"rules: {rid} is not a ruling: see riftsim rules")
    audit = doc.get("audit")
    if isinstance(audit, dict) and "date" in audit and as_date(audit["date"]) is None:
        fail(("audit", "date"), f"audit date {audit['date']!r} is not a date (YYYY-MM-DD)")
    return {k: doc[k] for k in KEYS if k in doc}


def as_date(v) -> datetime.date | None:
    """``v`` as a date (YAML reads ``2026-09-30`` as one; a quoted ISO date is accepted too), else None."""
    if isinstance(v, datetime.date):
        return v
    if isinstance(v, str):
        try:
            return datetime.date.fromisoformat(v)
        except ValueError:
            return None
    return None


def as_json(header: dict) -> dict:
    """The header as JSON values (a date as its ISO text)."""
    audit = header.get("audit")
    if isinstance(audit, dict) and "date" in audit:
        header = {**header, "audit": {**audit, "date": str(as_date(audit["date"]))}}
    return header


def claimed(rules, query: str) -> bool:
    """``rules`` (a header's claims) contain ``query`` or one of its sub-rules (``R1`` exactly)."""
    return any(r == query or r.startswith(query + ".") for r in rules or ())


def status(header: dict) -> str:
    """The audit status (``draft`` when the header has none)."""
    audit = header.get("audit")
    return audit.get("status", "draft") if isinstance(audit, dict) else "draft"


def rule_id_shape() -> dict:
    """The JSON Schema of one claimed rule id (the message names what is wrong)."""
    return {"type": "string", "pattern": RULE_ID, "x-messages": {
        "type": "rules must list rule ids as strings: {value} is a number",
        "pattern": "rules: {value} is not a rule id (NNN, NNN.N.a ..., or Rn)"}}


def header_shapes(text: dict, free: dict) -> dict:
    """The JSON Schema of the four keys (``text``: a one-line word; ``free``: free text)."""
    source = {"type": "object", "additionalProperties": False, "required": ["kind"], "title": "a source",
              "properties": {"kind": {"enum": list(KINDS)}, "ref": free, "repo": text, "path": text, "commit": text}}
    audit = {"type": "object", "additionalProperties": False, "required": ["status"], "title": "an audit",
             "properties": {"status": {"enum": list(STATUSES)}, "by": text,
                            "date": {"description": "a date, YYYY-MM-DD"}, "note": free}}
    return {
        "rules": {"type": "array", "items": rule_id_shape(), "uniqueItems": True,
                  "description": "the rule ids (strings) and ruling ids the scenario claims to exercise"},
        "rules-version": {"enum": [RULES_VERSION], "x-messages": {
            "enum": f"rules-version {{value}}: riftsim implements Core Rules {RULES_VERSION}"},
            "description": "the Core Rules version the scenario was written against"},
        "source": {"if": {"type": "string"}, "then": free, "else": source,
                   "description": "where the question comes from: free text, or {kind, ref, repo, path, commit}"},
        "audit": {**audit, "description": "how far the answer has been reviewed: {status, by, date, note}"},
    }


def is_rule_id(text: str) -> bool:
    return re.fullmatch(RULE_ID[1:-1], text) is not None
