"""Cleanup (318-324) skips a task known to do nothing (issue 13): a task of 323 whose last run did nothing, none of
whose declared inputs (``statecharts/cleanup.py``: ``INPUTS``) has been written since, would do nothing again, so the
generated cleanup loop skips its body (322: the pass still counts as a pass; the machine still takes the transition
into the task's state, with its coverage record). ``State.fresh`` holds the tasks known to do nothing; every write of
an input clears the bits of its readers (``simulator.core.model``'s barriers and the generated fire code).

Checked here: the declarations are names (machine leaves or model parts); the generated loop checks exactly the
declared tasks; on every successor of the first states of every default verify position, the successor and the
declared transitions it fires are those of running every task, and every task the state says is known to do nothing
does nothing when run (so a missing barrier fails here: shown by removing one); and the whole search is the same
with and without the skip (states, transitions, graph, shortest-trace tree, coverage, findings)."""
from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest

import statecharts
from statecharts.cleanup import INPUTS, TASKS
from simulator.core import machines, registry
from simulator.core.model import FRESH_BITS, KEEP, PARTS, State, fresh_tables
from simulator.game import engine
from simulator.verify.command import DEFAULT_FILES, load_positions
from simulator.verify.explore import actions_of, fast_fingerprint
from searching import everything

POSITIONS = [p for f in DEFAULT_FILES for p in load_positions(str(f))[0]]
STATES = 40
BIG = load_positions(str(Path(__file__).resolve().parent.parent / "bench" / "positions" /
                         "war-4p-3-cards-4-turns.yaml"))[0][0]
EFFECT = {state: eff for state, eff, _ in TASKS}
#: slots ``State.key()`` leaves out that a cleanup writes or reads (322's ``changed``, 319's ``dirty``, 324's ``special``)
EXTRA = ("dirty", "changed", "special", "focus_due", "recalled", "priority", "uid")


class Log(list):
    """A coverage recorder keeping every fired transition in firing order."""

    def add(self, rec) -> None:
        self.append(rec)


def _succ(g, a, skip: bool, monkeypatch) -> tuple[State, list]:
    """The successor of ``g`` by ``a`` (perform, settle) with the skip on or off, and the transitions it fired."""
    with monkeypatch.context() as m:
        m.setattr(machines, "SKIP_FRESH", skip)
        n = g.clone()
        n.coverage = log = Log()
        engine.perform(n, a)
        engine.settle(n)
    return n, list(log)


def _whole(n: State) -> tuple:
    return (n.key(), tuple(getattr(n, s) for s in EXTRA), tuple(i.uid for i in n.chain), len(n.trace),
            [(e.event, e.rule) for e in n.trace])


def _known_idle_do_nothing(n: State) -> list[str]:
    """The tasks ``n`` says are known to do nothing (323) that do something when run on a copy of ``n``."""
    wrong = []
    for (leaf, state), bit in FRESH_BITS.items():
        if not n.fresh & bit:
            continue
        c = n.clone()
        c.coverage = log = Log()
        c.changed = False
        c.ms[(leaf, None)] = state                  # where the loop runs it (a task that acts may fire from there)
        registry.EFFECTS[EFFECT[state]](c, None, {})
        c.ms[(leaf, None)] = n.ms[(leaf, None)]
        if log or c.changed or _whole(c) != _whole(n):
            wrong.append(state)
    return wrong


def test_inputs_are_declared_by_name_next_to_the_machine():
    """323: each listed task is a state of the cleanup machine with an enter effect; every input is a machine leaf
    or a part of the model; WinCheck (it begins each pass, 322) and the special cleanups (324) are not listed."""
    leaf = statecharts.LEAVES["cleanup"]
    assert leaf.inputs is INPUTS
    assert set(INPUTS) <= set(leaf.enter) and not {"WinCheck", "CombatCleanup", "EndingCleanup"} & set(INPUTS)
    for state, parts in INPUTS.items():
        assert parts and all(p in PARTS or p in statecharts.LEAVES for p in parts), state
    assert set(FRESH_BITS) == {("cleanup", s) for s in INPUTS}
    for part, keep in KEEP.items():       # a write to a part forgets exactly its readers
        assert ~keep == sum(FRESH_BITS[("cleanup", s)] for s, ps in INPUTS.items() if part in ps), part
    bad = statecharts.spec.Machine("m", "m", ("A", "B"), "A", enter={"B": "x"}, inputs={"B": ("no-such-part",)})
    with pytest.raises(ValueError, match="no-such-part"):
        fresh_tables((bad,))


def test_the_generated_loop_checks_exactly_the_declared_tasks():
    """The check before each task's body is generated from ``INPUTS`` (``simulator/core/compiled/cleanup.py``);
    with the skip off (``skip`` 0) the check never holds, so every task runs."""
    import inspect
    from simulator.core.compiled import cleanup
    leaf = statecharts.LEAVES["cleanup"]
    lines = [line.strip() for line in inspect.getsource(cleanup).splitlines()]
    for state, eff in leaf.enter.items():
        bit = FRESH_BITS.get(("cleanup", state))
        call = f"EFFECTS[{eff!r}](g, inst, {{}})"
        before = [lines[i - 1] for i, line in enumerate(lines) if line == call]
        assert before, state
        if bit is None:                           # always run: no check before it
            assert not any(b.startswith("g.fresh = fr |") for b in before), state
        else:                                     # checked, and its bit set before it runs (its own writes clear it)
            assert set(before) == {f"g.fresh = fr | {bit}"}, state
            assert any(line.startswith(f"if not fr & skip & {bit}:") for line in lines), state


def _pairs(pos, monkeypatch, events: bool = False):
    """Breadth-first over the first :data:`STATES` states of ``pos``: for each action, (states taken so far, the
    action, (successor, transitions fired) with the skip, the same without)."""
    start = pos.start()
    start.events_on = events
    queue, seen, done = deque([start]), {fast_fingerprint(start)}, 0
    while queue and done < STATES:
        g = queue.popleft()
        done += 1
        for a in actions_of(g, True):
            on, off = _succ(g, a, True, monkeypatch), _succ(g, a, False, monkeypatch)
            yield done, a, on, off
            n = on[0]
            f = fast_fingerprint(n)
            if f not in seen and n.winner is None:
                seen.add(f)
                queue.append(n)


@pytest.mark.parametrize("pos", POSITIONS, ids=[p.name for p in POSITIONS])
def test_every_successor_is_the_same_and_a_task_known_to_do_nothing_does_nothing(pos, monkeypatch):
    """318-324: for every action of the first states, the successor (key, bookkeeping, trace) and the declared
    transitions fired, in order, are those of running every task; and in the successor every task whose bit is set
    does nothing when run (no transition, no trace line, nothing written)."""
    skipped = done = 0
    for k, a, (n, fired), (ref, ref_fired) in _pairs(pos, monkeypatch, events=True):
        done = k
        assert _whole(n) == _whole(ref), f"{pos.name}: {a.describe()}: another successor"
        assert fired == ref_fired, f"{pos.name}: {a.describe()}: other transitions fired"
        assert not _known_idle_do_nothing(n), f"{pos.name}: {a.describe()}: a task known to do nothing acts"
        skipped += bin(n.fresh).count("1")
    assert skipped > 0 or done < 5               # (a position that ends at once runs no task)


def test_a_missing_write_barrier_is_caught(monkeypatch):
    """The check above can fail: with the battlefields' barrier removed (a Contested applied or a control lost no
    longer forgets the tasks that read battlefields), some task known to do nothing acts or a successor differs."""
    plain = State.touch
    monkeypatch.setattr(State, "touch", lambda g, part: None if part == "battlefields" else plain(g, part))
    for pos in POSITIONS:
        for _done, _a, (n, fired), (ref, ref_fired) in _pairs(pos, monkeypatch):
            if _whole(n) != _whole(ref) or fired != ref_fired or _known_idle_do_nothing(n):
                return
    pytest.fail("removing the battlefields' write barrier went unnoticed")


# -- the whole search, with and without the skip ---------------------------------------------------------------

SEARCHES = {p.name: (p, None) for p in POSITIONS if p.name in ("duel-two-fronts", "war-combat-R2-defender-last-concede",
                                                                 "skirmish-seed003-replaced-battlefield-R9-reset")}
SEARCHES["war-4p-3-cards-4-turns cut at depth 6"] = (BIG, 6)




def test_the_searched_positions_exist():
    assert len(SEARCHES) == 4


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("name", list(SEARCHES))
def test_the_search_is_the_same_with_and_without_the_skip(name, n, monkeypatch):
    """318-324: the same states, transitions, graph, shortest-trace tree, coverage and findings, on one and two
    shards, whether a task known to do nothing is skipped or run."""
    pos, depth = SEARCHES[name]
    with monkeypatch.context() as m:
        m.setattr(machines, "SKIP_FRESH", False)
        plain = everything(pos, depth, n)
    with monkeypatch.context() as m:
        m.setattr(machines, "SKIP_FRESH", True)
        skipping = everything(pos, depth, n)
    assert plain[0] > 1000 and plain[1] > plain[0]
    assert skipping == plain


# -- every write of a model part the tasks read goes through its barrier -------------------------------------------

#: how a write of each model part reads in the source (``g.X = ...``, a battlefield's ``b.Y = ...``) -> its part
WRITES = {"winner": "winner", "active": "active", "attacker": "sides", "defender": "sides", "choosing": "choosing",
          "hidden": "hidden", "controller": "battlefields", "contested_by": "battlefields", "token": "battlefields",
          "static_might": "battlefields", "abilities": "battlefields"}


def test_every_write_of_an_input_goes_through_its_barrier():
    """Each assignment in ``simulator/rules`` and ``simulator/game`` to the winner, the active battlefield, the sides,
    the choice pending, the facedown cards or a battlefield's controller, Contested applier, token, abilities or
    static might has ``g.touch(PART)`` before it in its function (setup builds a state that knows nothing yet:
    ``State.fresh`` starts at 0). Units, the score and the machines' states have barriers of their own."""
    import re
    root = Path(__file__).resolve().parent.parent / "simulator"
    pat = re.compile(r"(?:\bg\.(winner|active|attacker|defender|choosing|hidden)|"
                     r"\.(controller|contested_by|token|static_might|abilities))\s*=(?!=)")
    missing, found = [], 0
    for path in sorted([*(root / "rules").glob("*.py"), *(root / "game").glob("*.py")]):
        if path.name == "setup.py":
            continue
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines):
            code = line.split("#")[0]
            for m in re.finditer(pat, code):
                found += 1
                part = WRITES[m.group(1) or m.group(2)]
                j = i
                while j >= 0 and not lines[j].lstrip().startswith("def "):
                    j -= 1
                if not any(f'g.touch("{part}")' in lines[k] for k in range(max(j, 0), i)):
                    missing.append(f"{path.name}:{i + 1}: {line.strip()} (no g.touch({part!r}) before it)")
    assert found >= 20 and not missing, "\n".join(missing)
