"""652's procedure through the generated code (``simulator/core/compiled/player.py``, ``riftsim generate``):
conceding steps the player machine Banishing -> Replacing -> Removing -> Countering -> Lost (652.1-652.5), each
step the generated function of its (state, trigger), called directly by ``Runtime.steps``. It must fire exactly
the declared transitions, in the same order, with the same effects, as the declarations themselves fired
through ``Runtime.fire_ctx`` (what a mutant of ``riftsim mutate`` runs): checked on every concede of the first
states of every default verify position that explores concede (magma-chamber's team loss, 651.4, included), and
on a procedure an effect interrupts."""
from __future__ import annotations

from collections import deque

import pytest

from simulator.cli.generate import ident
from simulator.core import machines, registry
from simulator.core.compiled import player
from simulator.game import engine
from simulator.verify.command import DEFAULT_FILES, load_positions
from simulator.verify.explore import actions_of, fast_fingerprint
from searching import everything

POSITIONS = [p for f in DEFAULT_FILES for p in load_positions(str(f))[0] if p.concede]
STATES = 40


class Log(list):
    """A coverage recorder keeping every fired transition in firing order."""

    def add(self, rec) -> None:
        self.append(rec)


def _fired(g, a, generated: bool, monkeypatch) -> tuple[tuple, list]:
    """(key of the successor, the transitions fired computing it) with the generated code or the declarations."""
    with monkeypatch.context() as m:
        n = g.clone()
        if not generated:
            _declarations_only(m, n.cfg.rt)
        n.coverage = log = Log()
        engine.perform(n, a)
        engine.settle(n)
    return n.key(), list(log)


def _declarations_only(m, rt=None) -> None:
    """No generated transition or loop (the schedule stays generated): every firing is ``fire_ctx``'s, through
    the lookup table of the declarations (``Compiled.pick``), as for a leaf whose digest differs."""
    m.setattr(machines, "_GENERATED", [({}, {})])
    if rt is not None:
        m.setattr(rt, "fns", {})


def test_positions_explore_concede():
    assert POSITIONS and any(p.setup.get("mode") == "magma-chamber" for p in POSITIONS)


@pytest.mark.parametrize("pos", POSITIONS, ids=[p.name for p in POSITIONS])
def test_generated_procedure_fires_what_the_machine_fires_state_by_state(pos, monkeypatch):
    """652.1-652.5: the same successor and the same declared transitions, in order, for every concede."""
    start = pos.start()
    queue, seen, done, concedes = deque([start]), {fast_fingerprint(start)}, 0, 0
    while queue and done < STATES:
        g = queue.popleft()
        done += 1
        for a in actions_of(g, True):
            key, fired = _fired(g, a, True, monkeypatch)
            if a.kind == "concede":
                concedes += 1
                ref_key, ref = _fired(g, a, False, monkeypatch)
                assert key == ref_key, f"{pos.name}: {a.describe()}: another successor"
                assert fired == ref, f"{pos.name}: {a.describe()}: other transitions fired"
                steps = [r for r in fired if r[0] == "player" and r[2] == "next"]
                assert [(r[1], r[3]) for r in steps][:4] == [("Banishing", "Replacing"), ("Replacing", "Removing"),
                                                               ("Removing", "Countering"), ("Countering", "Lost")]
            n = engine.step(g, a)
            f = fast_fingerprint(n)
            if f not in seen and n.winner is None:
                seen.add(f)
                queue.append(n)
    assert concedes > 0


def test_generated_procedure_is_derived_from_the_declarations():
    """652.1-652.5: each unguarded step of the procedure is a function of ``player.py`` named after its (state,
    trigger), running the declared effects, listed in the table the runtime reads; the runtime uses it."""
    import inspect
    from simulator import rules
    from simulator.core.compiled import tables
    rules.install()
    leaf = machines.statecharts.LEAVES["player"]
    steps = [t for t in leaf.transitions if t.trigger == "next"]
    assert [t.source for t in steps][:4] == ["Banishing", "Replacing", "Removing", "Countering"]
    for t in steps:
        f = getattr(player, ident("player", t.source, "next"))
        assert tables.FIRES[("player", t.source, "next")] is f
        assert machines.generated()[0][("player", t.source, "next")] is f
        src = inspect.getsource(f)
        for eff in t.effects:
            assert f"EFFECTS[{eff!r}]" in src, (t.source, eff)
        assert f"g.ms[('player', inst)] = {t.dest!r}" in src


def test_an_effect_that_moves_the_machine_ends_the_generated_run_where_it_is(monkeypatch):
    """If an effect fires the machine elsewhere, the procedure goes on from there, as state by state: here 652.3's
    effect moves the player to Countering itself, so 652.4's step is skipped by both ways of firing."""
    pos = POSITIONS[0]
    g = pos.start()
    a = next(a for a in actions_of(g, True) if a.kind == "concede")
    plain = registry.EFFECTS["remove_cards"]

    def jump(g, inst, ctx):
        plain(g, inst, ctx)
        g.ms[("player", inst)] = "Countering"

    monkeypatch.setitem(registry.EFFECTS, "remove_cards", jump)
    key, fired = _fired(g, a, True, monkeypatch)
    ref_key, ref = _fired(g, a, False, monkeypatch)
    assert (key, fired) == (ref_key, ref)
    steps = [(r[1], r[3]) for r in fired if r[0] == "player" and r[2] == "next"]
    assert ("Removing", "Countering") not in steps and steps[-1] == ("Countering", "Lost")


# -- the whole search, with and without the generated procedure ------------------------------------------------

BIG = load_positions(str(__import__("pathlib").Path(__file__).resolve().parent.parent / "bench" / "positions" /
                         "war-4p-3-cards-4-turns.yaml"))[0][0]
SEARCHES = {p.name: (p, None) for p in POSITIONS if p.name in ("war-combat-R2-defender-last-concede",
                                                                 "magma-chamber-teams-invite-concede")}
SEARCHES["war-4p-3-cards-4-turns cut at depth 6"] = (BIG, 6)




@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("name", list(SEARCHES))
def test_the_search_is_the_same_with_the_generated_code_and_with_the_declarations(name, n, monkeypatch):
    """652: the same states, transitions, graph, shortest-trace tree, coverage and findings, on one and two shards,
    with the generated code and with the declarations fired through ``fire_ctx``."""
    pos, depth = SEARCHES[name]
    with monkeypatch.context() as m:
        _declarations_only(m)
        plain = everything(pos, depth, n)
    fused = everything(pos, depth, n)
    assert plain[0] > 1000 and plain[1] > plain[0]
    assert fused == plain
