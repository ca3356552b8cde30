"""The action kinds declared once (``simulator/game/action_kinds.py``) and the one answer to "who must decide what
now" (``simulator/game/decision.py``, ``Game.decision()``), checked the way a judge would: at every step of every
bundled scenario exactly one player may do more than concede (651), with the actions the rules give that decision."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import do, expect, game, illegal
from simulator.game.action_kinds import KINDS, ParseError, read, step_of
from simulator.game.actions import legal
from simulator.game.decision import RANK
from simulator.scenario import schema
from simulator.scenario.loader import load, run

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


def decisions_along(path: Path):
    """(step, decision, each player's legal actions) after every step of a bundled scenario that held."""
    out = []

    def watch(st, g, failure):
        if st is not None and not failure:
            s = g.state
            out.append((st.number, g.decision(), {p: legal(s, p) for p in s.in_game()} if s.winner is None else {}))
    run(load(str(path)), observe=watch)
    return out


@pytest.mark.parametrize("path", SCENARIOS[::3], ids=[p.stem for p in SCENARIOS[::3]])
def test_one_player_decides_with_the_actions_of_that_decision(path):
    """651, 312-313, 383.3.a, 383.3.d, 465.2.c, 323.12: the decision names the one player who may do more than
    concede, every action they may take answers it, and priority or focus is theirs exactly when it says so."""
    for step, d, acts in decisions_along(path):
        if d is None:
            assert not acts, (path.stem, step)
            continue
        for p, mine in acts.items():
            more = [a for a in mine if a.kind != "concede"]
            if p != d.player:
                assert not more, (path.stem, step, d, p, [a.describe() for a in more])
            assert all(d.kind in KINDS[a.kind].answers for a in more), (path.stem, step, d)
        assert acts[d.player] != [], (path.stem, step, d)


def test_every_kind_of_decision_is_met_in_the_bundled_scenarios():
    """Each kind of decision (X3) is reached by some bundled scenario, and nothing else is."""
    seen = {d.kind if d else None for path in SCENARIOS for _, d, _ in decisions_along(path)}
    assert seen == set(RANK) | {None}


def test_the_turn_players_main_phase_then_priority_then_focus():
    """310.1.a: the turn player decides in Neutral Open, Main Phase; 312.2.c: after a play the priority holder
    decides in a Closed state; 313.2: in Showdown Open the focus holder decides."""
    g = game(units=[{"id": "a1", "owner": "A", "at": "base"}], hands={"A": ["rune-prison"], "B": ["reaction-spell"]})
    assert g.decision().data() == {"kind": "main", "player": "A", "item": None}
    do(g, "A move a1 North")
    expect(g, state="showdown-open", focus="A", decision={"kind": "focus", "player": "A"})
    do(g, "A pass")
    expect(g, decision={"kind": "focus", "player": "B"})
    do(g, "B play reaction-spell")
    expect(g, state="showdown-closed", decision={"kind": "priority", "player": "B"})


def test_a_may_is_its_controllers_decision_and_nobody_else_acts():
    """383.3.a: B decides the may of B's pending trigger while nobody has priority; A's pass is refused
    naming that decision, and the position is unchanged."""
    path = ROOT / "scenarios" / "decision-a-trigger-s-may-while-a-spell-waits.yaml"
    sc = load(str(path))
    g = sc.game()
    for st in sc.steps[:9]:
        if st.action is not None and not st.illegal:
            g.apply(st.action, st.number)
    assert g.decision().data() == {"kind": "may", "player": "B", "item": "scout-b"}
    assert g.decision().options == ("yes", "no")
    illegal(g, "A pass", "B must first choose yes or no", "383.3.a")
    illegal(g, "A order b1:scout-b", "no simultaneous triggers", "383.3.d")


def test_the_game_over_has_no_decision():
    """651, 323.1: once a player has won nobody decides (decision: null)."""
    g = game()
    do(g, "B concede")
    assert g.state.winner is not None and g.decision() is None


# -- the table --------------------------------------------------------------------------------------------

def test_the_schema_steps_are_the_table_rows():
    """The scenario JSON Schema's do: steps are the rows: each kind, its parameters, the needed ones."""
    for k, row in KINDS.items():
        shape = schema._action(k)
        assert shape["properties"]["do"] == {"const": k}
        assert set(shape["properties"]) == {"do", "player", "illegal", *(f for f, _ in row.params)}
        assert shape["required"] == ["do", "player", *row.needs]
    assert json.loads(schema.dumps(schema._step()))["properties"]["do"]["enum"] == list(KINDS)


@pytest.mark.parametrize("text, step", [
    ("A move a1 a2 North", {"do": "move", "player": "A", "units": ["a1", "a2"], "to": "North"}),
    ("A play 'Rune Prison' unit=b1", {"do": "play", "player": "A", "card": "Rune Prison", "targets": {"unit": "b1"}}),
    ("A play unit-2 at=North accelerate=true", {"do": "play", "player": "A", "card": "unit-2", "at": "North",
                                                 "accelerate": True}),
    ("A play back-off at=North from=hidden", {"do": "play", "player": "A", "card": "back-off", "at": "North",
                                              "from": "hidden"}),
    ("B activate b1 snare unit=a1", {"do": "activate", "player": "B", "source": "b1", "ability": "snare",
                                     "targets": {"unit": "a1"}}),
    ("A choose North", {"do": "choose", "player": "A", "battlefield": "North"}),
    ("A choose no", {"do": "choose", "player": "A", "option": "no"}),
    ("A target unit=b1", {"do": "target", "player": "A", "targets": {"unit": "b1"}}),
    ("A order a1:brace a2:guard", {"do": "order", "player": "A", "triggers": ["a1:brace", "a2:guard"]}),
    ("B assign b1=2 b2=1", {"do": "assign", "player": "B", "damage": {"b1": 2, "b2": 1}}),
    ("A hide back-off North", {"do": "hide", "player": "A", "card": "back-off", "at": "North"}),
    ("C invite A", {"do": "invite", "player": "C", "teammate": "A"}),
    ("A end-turn", {"do": "end-turn", "player": "A"}),
])
def test_the_text_form_and_the_file_form_are_one_parser(text, step):
    """``riftsim play`` and the tests read the text form, scenario files the file form: the same action."""
    assert step_of(read(text)) == step


@pytest.mark.parametrize("text, words", [
    ("A pass now", "pass takes nothing after it"),
    ("A jump", "unknown action 'jump': one of move, play, activate, pass, choose"),
    ("A move North", "move needs units and a destination"),
    ("A pass unit=a1", "only play, activate, target and assign name fields"),
    ("B assign b1=two", "assign gives whole numbers"),
])
def test_a_bad_text_is_one_line_saying_how_it_is_written(text, words):
    with pytest.raises(ParseError) as info:
        read(text)
    assert words in str(info.value)


def test_a_play_lists_its_targets_in_its_cards_order():
    """356: the targets of a play are named as its card's effect leaves them (the order ``legal`` lists)."""
    g = game()
    a = read("A play move-spell to=North unit=a1", g.state.cfg.cards)
    assert a.targets == (("unit", "a1"), ("to", "North"))
