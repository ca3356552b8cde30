"""The two backends (compiled table, real `transitions` machines) pick the same declared transitions.

Every bundled scenario runs on both; the traces (event text, rule, and the machine
transition fields) and the final positions are identical.
"""
from __future__ import annotations

import pathlib

import pytest

from simulator.scenario import bundled
from simulator.scenario.loader import load, run

FILES = bundled.under(pathlib.Path(__file__).resolve().parent.parent / "scenarios")   # and scenarios/cards/


def _trace(res):
    return [(e.step, e.event, e.rule, e.player, e.machine, e.instance, e.trigger, e.source, e.dest)
            for e in res.events]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_same_trace_on_both_backends(path):
    sc = load(str(path))
    a = run(sc, backend="compiled")
    b = run(sc, backend="transitions")
    assert _trace(a) == _trace(b)
    assert a.final == b.final
    assert (a.status, a.message) == (b.status, b.message)
    assert any(e.machine for e in a.events), "the scenario fired no declared transition"
