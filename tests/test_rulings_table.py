"""Rulings are all switches read the same way (rulings R1..R22, statecharts/rulings.py).

One declared table (``statecharts.rulings.RULINGS``: id, name, rule ids, default, alternatives) and one
accessor, ``simulator.core.rulings.ruling_is(g, RID, VALUE)``. No other module under ``simulator/`` reads a
game's switches: nothing touches ``cfg.rulings`` (or ``.rulings`` of a ``cfg``), nothing looks up a ruling id
written as a text with ``.get`` or ``[...]``, and every ``ruling_is`` call names a declared switch and value.
"""
from __future__ import annotations

import ast
import pathlib
import re

import pytest

from simulator.core.rulings import ruling_is
from simulator.scenario import loader
from statecharts.rulings import RULINGS, SWITCHES

ROOT = pathlib.Path(__file__).resolve().parents[1]
ACCESSOR = ROOT / "simulator" / "core" / "rulings.py"
RID = re.compile(r"R\d+")


def _is_cfg(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "cfg") or (isinstance(node, ast.Attribute) and node.attr == "cfg")


def other_reads(src: str, name: str = "<src>") -> list[str]:
    """Ruling reads that bypass ``ruling_is``, and ``ruling_is`` calls naming an undeclared switch or value.

    >>> other_reads('x = g.cfg.rulings.get("R2") == "defender-last"')
    ['<src>:1: looks up ruling R2 directly', '<src>:1: reads cfg.rulings']
    >>> other_reads('x = ruling_is(g, "R2", "defender-last")'), other_reads('x = ruling_is(g, "R2", "last")')
    ([], ["<src>:1: ruling_is(g, 'R2', 'last'): not a declared switch value"])
    """
    out = []
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.Attribute) and node.attr == "rulings" and _is_cfg(node.value):
            out.append(f"{name}:{node.lineno}: reads cfg.rulings")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str) \
                and RID.fullmatch(node.args[0].value):
            out.append(f"{name}:{node.lineno}: looks up ruling {node.args[0].value} directly")
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                and isinstance(node.slice.value, str) and RID.fullmatch(node.slice.value):
            out.append(f"{name}:{node.lineno}: looks up ruling {node.slice.value} directly")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ruling_is":
            args = [a.value if isinstance(a, ast.Constant) else None for a in node.args[1:3]]
            if len(args) != 2 or args[0] not in SWITCHES or args[1] not in SWITCHES[args[0]]:
                out.append(f"{name}:{node.lineno}: ruling_is(g, {args[0]!r}, {args[1]!r}): not a declared switch value")
    return sorted(out)


def test_nothing_but_the_accessor_reads_a_ruling_switch():
    found = [hit for p in sorted((ROOT / "simulator").rglob("*.py")) if p != ACCESSOR
             for hit in other_reads(p.read_text(), str(p.relative_to(ROOT)))]
    assert not found, "read rulings with simulator.core.rulings.ruling_is:\n" + "\n".join(found)


def test_every_switch_is_read_by_the_code():
    """A declared alternative that no code reads would be a switch that does nothing."""
    read = set()
    for p in (ROOT / "simulator").rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ruling_is":
                read.add(node.args[1].value)  # type: ignore[attr-defined]
    assert read == set(SWITCHES)


def test_the_table_declares_each_ruling_with_its_rules():
    assert [f"R{i}" for i in range(1, 23)] == list(RULINGS)
    for rid, r in RULINGS.items():
        assert r.id == rid and r.name and r.default and r.rules, rid
        assert all(re.fullmatch(r"\d{3}(\.[0-9a-z]+)*", x) for x in r.rules), rid


def test_the_accessor_refuses_an_undeclared_reading():
    class G:
        class cfg:
            rulings = {"R1": "attacker"}
    assert ruling_is(G, "R1", "attacker") and not ruling_is(G, "R2", "defender-last")
    with pytest.raises(KeyError, match="R3"):
        ruling_is(G, "R3", "default")           # R3 has no alternative: not a switch


def test_a_scenarios_rulings_set_the_switch():
    """R1 (464.2.c.1.b / 464.2.d): the file's ``rulings: {R1: attacker}`` gives the attacker A focus on the
    conversion; pinning R1=default over it gives focus to the holder B instead, so its expectation fails."""
    sc = loader.load(str(ROOT / "scenarios" / "ruling-R1-attacker-gains-focus-on-conversion.yaml"))
    assert sc.rulings == {"R1": "attacker"}
    assert loader.run(sc).status == "pass"
    pinned = loader.run(sc, rulings={"R1": "default"})
    assert pinned.status == "fail" and "expected focus A, got B" in pinned.message
