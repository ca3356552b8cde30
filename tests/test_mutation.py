"""Mutation testing of the declarations (``riftsim mutate``, docs/testing.md): a sample runs here.

Each mutant breaks one declared transition in memory (a guard, ``unless``, effect or hand-off dropped, a
destination changed, two transitions with the same source and trigger swapped, an ``enter`` effect dropped)
and must be noticed by the bundled scenarios, their golden traces or the fast unit tests. The full run
(every mutant, then ``verify`` for the survivors) is ``nice -n 19 riftsim mutate``; its latest score is in
docs/testing.md.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

import statecharts
from simulator.verify import mutate

ROOT = Path(__file__).resolve().parents[1]
ALL = mutate.mutants(statecharts.MACHINES)
BY_ID = {m.id: m for m in ALL}
EQUIVALENT = mutate.load_equivalents()
HOW = ("a rule can break without any test noticing: add a scenario expectation, a test or a verify invariant "
       "that notices it (or, if it cannot change any behaviour, list it in tests/mutation-equivalents.txt "
       "with the reason)")

#: the mutants issue 18 found surviving, each with what now kills it
ISSUE_MUTANTS = [
    "chain: Finalize --finalize--> Execute  dest Resolve",                    # golden: a wrong 429 'keeps priority' line
    "chain: Resolve --resolved[priority_kept & !chain_empty & !pending_remain]--> Execute  drop-effect new_round",
    "battlefield.status: Showdown --end_showdown[control_settled]--> Calm  dest Contested",   # 190.3.b
    "battlefield.status: Staged --unstage--> Contested  dest Calm",            # 323.11, 323.11.a
    "phases: Main --game_over--> GameOver  dest Main",                         # 323.1: the phase after a win
    "phases: Draw --advance--> Main  drop-effect main_start",                  # 316.1: the pool at Main start
    # found surviving by the first full run (docs/testing.md), with the scenario that now kills them
    "phases: Ending --game_over--> GameOver  dest Expiration",                 # 651.1, 323.1: concede in Ending
    "cleanup: WinCheck --next[game_over]--> Idle  dest StageCombats",          # 323.1, R15: no task after a win
    "cleanup: WinCheck --next[game_over]--> Idle  swap with  cleanup: WinCheck --next--> Designations",
    # found surviving by the second full run, with the scenario that now kills them
    "battlefield.status: Combat --end_combat--> Contested  dest Calm",        # R19, 466.7: stays Contested
    "focus: Holding --pass_focus[all_passed_focus & in_combat]--> Off  drop-effect focus_off",   # 348.1, 313.5
    "chain: Finalize --drop[chain_empty]--> Empty  drop-send focus:chain_closed",              # 402.4, 340.2.a
    "cleanup: enter Corrective  drop-enter corrective",                        # 323.7, 811: task 5
    "chain: Resolve --replaced--> Resolve  drop-effect replace_death",         # R21 as a kill executes
]


def _killed(mid: str) -> tuple[bool, str]:
    """Stages 1-2, and first the cheap part of stage 3: verify's statechart check on the mutated declarations."""
    from simulator.verify import graphcheck
    findings = graphcheck.check(mutate.apply(statecharts.MACHINES, BY_ID[mid]))
    if findings:
        return True, f"verify: {findings[0].line()}"
    return mutate.run_mutant(BY_ID[mid], ("scenarios", "tests"))


@pytest.mark.slow
@pytest.mark.parametrize("mid", ISSUE_MUTANTS)
def test_the_mutants_the_issue_found_are_killed(mid):
    assert mid in BY_ID, f"mutant {mid!r} no longer exists (its declaration changed): update ISSUE_MUTANTS"
    killed, why = _killed(mid)
    assert killed, f"{mid}: {HOW}"


SAMPLE = [m.id for m in mutate.sample(ALL, 7, skip=EQUIVALENT)]


@pytest.mark.slow
@pytest.mark.parametrize("mid", SAMPLE)
def test_a_sample_of_mutants_is_killed(mid):
    """One mutant per operator, chosen by a stable hash of its id (the same while the declarations stay)."""
    killed, why = _killed(mid)
    assert killed, f"{mid}: {HOW}"


def test_the_unmutated_declarations_pass_every_stage_the_sample_uses():
    assert mutate.run_mutant(None, ("scenarios",)) == (False, "")


def test_every_listed_equivalent_mutant_exists_and_has_a_reason():
    stale = sorted(set(EQUIVALENT) - set(BY_ID))
    assert not stale, f"tests/mutation-equivalents.txt lists mutants that no longer exist: {stale}"
    assert all(len(why) > 10 for why in EQUIVALENT.values())


def test_every_operator_applies_to_the_declarations_and_ids_are_unique():
    ops = {m.op for m in ALL}
    assert ops == {"drop-guard", "drop-unless", "drop-effect", "drop-send", "drop-enter", "dest", "swap"}
    assert len(BY_ID) == len(ALL)
    for m in ALL:
        new = mutate.apply(statecharts.MACHINES, m)
        assert new != statecharts.MACHINES or m.op == "drop-enter", m.id   # enter is not compared: checked below
        leaf = next(x for n in new for x in n.leaves() if x.name == m.leaf)
        old = statecharts.LEAVES[m.leaf]
        assert leaf.transitions != old.transitions or leaf.enter != old.enter, m.id


def test_mutants_never_touch_the_files():
    """Mutants live in memory (a forked child): the declarations on disk and in this process are unchanged."""
    def digest():
        return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted((ROOT / "statecharts").glob("*.py"))}
    before, machines = digest(), statecharts.MACHINES
    mutate.run_stage(BY_ID[SAMPLE[0]], "scenarios")
    assert digest() == before
    assert statecharts.MACHINES is machines and mutate.mutants(statecharts.MACHINES) == ALL


def test_a_run_is_resumable_from_its_json_lines(tmp_path):
    """--resume: outcomes and survived stages are read back; a line cut short by an interruption is ignored;
    a file made with other stages is refused (its outcomes would not be this run's)."""
    f = tmp_path / "run.jsonl"
    f.write_text('{"run": {"stages": ["scenarios", "tests"], "golden": true}}\n'
                 '{"id": "m1", "passed": "scenarios"}\n{"id": "m2", "killed": true, "why": "expect: x"}\n'
                 '{"id": "m1", "passed": "tests"}\n{"id": "m3", "kil', encoding="utf-8")
    done, passed = mutate.read_run(f, {"stages": ["scenarios", "tests"], "golden": True})
    assert done == {"m2": (True, "expect: x")} and passed == {"m1": ("scenarios", "tests")}
    with pytest.raises(ValueError, match="same options"):
        mutate.read_run(f, {"stages": ["scenarios"], "golden": True})


def test_stage_2_runs_only_the_tests_that_use_the_mutated_transition():
    """A test that never fires the mutated transition (nor looks up its row) cannot notice it: it is not run."""
    mu = BY_ID["phases: Ending --game_over--> GameOver  dest Expiration"]
    fires = ["phases", "Ending", "game_over", "GameOver", []]
    other = ["phases", "Draw", "advance", "Main", []]
    cov = {"records": [fires, other], "tests": {"t::a": [0, 1], "t::b": [1]}, "outside": []}
    chosen = mutate.tests_using(statecharts.MACHINES, cov)
    assert chosen[mu.id] == ("t::a",)
    assert chosen[BY_ID["phases: Draw --advance--> Main  drop-effect main_start"].id] == ("t::a", "t::b")
    cov["outside"] = [0]                       # fired while a test module was imported: every test
    assert mutate.tests_using(statecharts.MACHINES, cov)[mu.id] is None


def test_stage_2_records_what_each_test_fires_on_the_compiled_backend():
    """The per-test record stage 2 chooses tests from must see the transitions fired through the code
    ``compile_fire`` generates (which never calls ``pick``): it recorded nothing before, so every mutant
    counted as used by no test and stage 2 killed none. Run in a child: record mode patches the runtime."""
    import json
    import subprocess
    import sys
    ids = ["tests/test_focus.py::test_focus_passes_after_a_card_started_chain",
           "tests/test_focus.py::test_passing_priority_mid_chain_keeps_focus"]
    code = ("import json, sys; from simulator.verify import mutate; "
            f"failed, out = mutate._stage_tests(record=True, only_tests={tuple(ids)!r}); "
            "print(out if not failed else 'FAILED ' + out)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300).stdout
    cov = json.loads(out.strip().splitlines()[-1])
    assert sorted(cov["tests"]) == sorted(ids)
    fired = {tuple(cov["records"][i][:3]) for t in ids for i in cov["tests"][t]}
    # 347.2 / 339: a card started the chain, priority passes round, focus moves (the focus machine fires)
    assert any(leaf == "focus" for leaf, _s, _t in fired), sorted(fired)
    assert any(leaf == "chain" for leaf, _s, _t in fired), sorted(fired)
    assert mutate.tests_using(statecharts.MACHINES, cov), "no mutant is used by the two tests"
