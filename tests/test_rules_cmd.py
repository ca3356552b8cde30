"""`riftsim rules`: the rule index is read from the declarations, never written by hand."""
import statecharts
from simulator.cli.main import main
from simulator.cli.rules import cites, index


def test_every_declared_transition_is_indexed_under_each_rule_it_cites():
    idx = index()
    for m in statecharts.MACHINES:
        for leaf in m.leaves():
            for t in leaf.transitions:
                for r in t.rules:
                    assert (leaf.name, t) in idx[r]


def test_sub_rules_match_their_parent_but_not_lookalikes():
    assert cites("340.2.a", "340.2") and cites("340.2", "340.2")
    assert not cites("340.20", "340.2") and not cites("R10", "R1")


def test_focus_hand_off_rule_340_2_a_lists_both_chain_closed_transitions(capsys):
    """340.2.a: the two ways a chain's end treats focus are both declared on the focus machine."""
    assert main(["rules", "340.2.a"]) == 0
    out = capsys.readouterr().out
    assert "focus: Waiting --chain_closed [chain_by_trigger_or_add]--> Holding" in out
    assert "focus: Waiting --chain_closed--> Holding" in out


def test_ruling_with_a_switch_names_it(capsys):
    assert main(["rules", "R1"]) == 0
    assert "--ruling R1=attacker" in capsys.readouterr().out


def test_unknown_rule_is_a_one_line_error(capsys):
    assert main(["rules", "999.9"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["riftsim: no declaration cites 999.9"]
