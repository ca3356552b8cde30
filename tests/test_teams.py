"""Magma Chamber (2v2, 489): turn order alternating teams, shared points and victory score 11, a team wins and
loses together, teammate-occupied destinations (447.2.b), no standard move of a teammate's units, and the
invitation of ruling R13 (316.5.b.1, 489.8.a). Seeds 002 and 004."""
from conftest import do, expect, illegal, lines, rules_of

from mp_helpers import magma, unit, war

BFS4 = ["North", "South", "East", "West"]
SHOVE = {"shove-north": {"type": "spell", "timing": "normal", "effect": [{"move": {"unit": "target", "to": "North"}}]}}


def _teams(backend="compiled", **keys):
    """A and C against B and D. C occupies North; A holds West with a2; B and D hold South and East."""
    keys.setdefault("control", {"North": "C", "South": "B", "East": "D", "West": "A"})
    return magma(battlefields=BFS4, backend=backend, cards=SHOVE, units=[
        unit("a1", "A", "base", 2), unit("a2", "A", "West", 2), unit("b1", "B", "South"),
        unit("c1", "C", "North", 3), unit("c2", "C", "base"), unit("d1", "D", "East")], **keys)


def test_turn_order_alternates_teams(backend):
    """489: turns go P1, an opponent, P1's ally, the other opponent: A, B, C, D, then A again."""
    g = _teams(backend)
    seen = [g.state.turn]
    for _ in range(4):
        do(g, f"{g.state.turn} end-turn")
        seen.append(g.state.turn)
        expect(g, state="neutral-open", turn=seen[-1], priority=seen[-1])
    assert seen == ["A", "B", "C", "D", "A"]
    assert [g.state.team(p) for p in seen[:4]] == [0, 1, 0, 1]


def test_standard_move_into_a_teammate_occupied_battlefield_is_illegal(backend):
    """Seed 004, 447.2.b (v1.4 'occupied by'): A may not move a unit to North, where C's units are."""
    g = _teams(backend)
    e = illegal(g, "A move a1 North", "occupied by a teammate", rule="447.2.b")
    assert "489" in e.rule
    expect(g, legal={"A": ["concede", "end-turn", "invite C", "move a1 East", "move a1 South", "move a1 West",
                           "move a2 base"]})                          # no 'move a1 North'; no move of c1, c2


def test_no_standard_move_of_a_teammates_units(backend):
    """Seed 002, 489: being allies gives A neither control of C's units nor the right to make their standard move."""
    g = _teams(backend)
    illegal(g, "A move c2 South", "teammate's unit", rule="489")
    illegal(g, "A move c1 base", "teammate's unit")


def test_move_spell_target_into_teammate_occupied_battlefield_is_illegal(backend):
    """A chosen destination must be valid when chosen (scenario contract, 447.2.b): move-spell to North is illegal."""
    g = _teams(backend, hands={"A": ["move-spell"]})
    illegal(g, "A play move-spell unit=a1 to=North", "occupied by a teammate", rule="447.2.b")
    do(g, "A play move-spell unit=a1 to=South")
    expect(g, chain=["move-spell"], priority="A")


def test_forced_move_into_teammate_occupied_battlefield_is_a_recall(backend):
    """Seed 004: 'un déplacement imposé invalide devient un rappel' (447.2.c): a2, forced from West to North where
    C is, goes back to A's base; North keeps only C's units, nothing is contested."""
    g = _teams(backend, hands={"A": ["shove-north"]})
    do(g, "A play shove-north unit=a2", "A pass", "B pass", "C pass", "D pass")
    expect(g, state="neutral-open", units={"a2": {"at": "base", "zone": "board"}}, contested=[], staged={},
           controller={"North": "C"})
    assert "447.2.c" in rules_of(g, "a2 cannot move to North") and "a2 is recalled to base" in lines(g)


def test_points_are_shared_and_the_victory_score_is_11(backend):
    """489.8.d (v1.4): points are the team's. A's team starts at 10: C holding North at the start of C's turn gives
    the team 11 and A and C win together (323.1, 651.4 'a team wins together')."""
    g = _teams(backend, score={"A": 10})
    expect(g, score={"A": 10, "C": 10, "B": 0, "D": 0})
    do(g, "A end-turn", "B end-turn")
    expect(g, winner=["A", "C"], score={"A": 11, "C": 11}, priority=None,
           legal={"A": [], "B": [], "C": [], "D": []})
    assert "C holds North and scores 1 (now 11)" in lines(g)


def test_ten_points_do_not_win_in_magma_chamber_but_eight_win_in_war(backend):
    """Victory score: 11 in magma-chamber, 8 in war (485-489). The same hold reaches 8 in both."""
    g = _teams(backend, score={"A": 7})
    do(g, "A end-turn", "B end-turn")
    expect(g, winner=None, score={"A": 8, "C": 8}, turn="C")
    w = war(battlefields=BFS4, control={"North": "C"}, score={"C": 7}, units=[unit("c1", "C", "North")],
            backend=backend)
    do(w, "A end-turn", "B end-turn")
    expect(w, winner="C", score={"C": 8})


def test_a_concede_makes_the_whole_team_lose(backend):
    """651.4, seed 003: C concedes -> A, C's teammate, loses and leaves too; B and D win together."""
    g = _teams(backend)
    do(g, "C concede")
    expect(g, players=["B", "D"], winner=["B", "D"], priority=None, focus=None,
           units={"a1": {"zone": "removed"}, "c1": {"zone": "removed"}, "b1": {"zone": "board"}},
           legal={"A": [], "B": [], "C": [], "D": []})
    assert "651.4" in rules_of(g, "A loses with their team and leaves")


def test_invite_lends_priority_for_one_action_then_returns_it(backend):
    """R13 (316.5.b.1, 489.8.a): in Neutral Open on A's turn C may act only when A invites; the invitation lends
    A's priority for one action; after that action's chain priority returns to the turn player A."""
    g = _teams(backend, hands={"C": ["normal-spell", "normal-spell"]})
    illegal(g, "C play normal-spell", "priority")                                  # C has no priority
    do(g, "A invite C")
    expect(g, state="neutral-open", turn="A", priority="C",
           legal={"A": ["concede"], "C": ["concede", "pass", "play normal-spell"]})
    assert "R13" in rules_of(g, "A invites C")
    do(g, "C play normal-spell", "C pass", "D pass", "A pass", "B pass")
    expect(g, state="neutral-open", chain=[], turn="A", priority="A")
    illegal(g, "C play normal-spell", "priority")                                  # one action only


def test_an_invited_teammate_may_decline_and_priority_returns(backend):
    """R13: the invited teammate passes -> priority goes back to the turn player at once."""
    g = _teams(backend, hands={"C": ["normal-spell"]})
    do(g, "A invite C", "C pass")
    expect(g, state="neutral-open", priority="A", legal={"C": ["concede"]})


def test_invite_only_a_teammate_only_in_magma_chamber(backend):
    """R13: an opponent cannot be invited; there are no invitations in free-for-all (the v1.0 procedure is gone)."""
    g = _teams(backend)
    illegal(g, "A invite B", "not A's teammate", rule="R13")
    w = war(backend=backend)
    illegal(w, "A invite C", "only in magma-chamber")


def test_a_battlefield_the_ally_controlled_at_the_beginning_phase_cannot_be_scored_by_the_team(backend):
    """489.8.b, 469.1.a: North is C's when A's turn begins. A moves C's unit home with a move-spell (a friendly
    unit), C loses control (323.6), A's unit takes North after a showdown, but A's team scores no Conquer for it
    this turn (469.1.a: closed to A's team, not scored); A's own Hold of West did score."""
    g = _teams(backend, hands={"A": ["move-spell"]})
    do(g, "A end-turn", "B end-turn", "C end-turn", "D end-turn")
    expect(g, turn="A", score={"A": 2, "C": 2}, controller={"North": "C", "West": "A"})   # C held North, A held West
    do(g, "A play move-spell unit=c1 to=base", "A pass", "B pass", "C pass", "D pass")
    expect(g, state="neutral-open", controller={"North": None}, units={"c1": {"at": "base"}})
    do(g, "A move a1 North", "A pass", "B pass", "C pass", "D pass")
    expect(g, state="neutral-open", controller={"North": "A"}, score={"A": 2, "C": 2})
    assert "489.8.b" in rules_of(g, "North was controlled by an ally at the scoring step")


def test_magma_chamber_setup_needs_two_teams_seated_alternately():
    """489: a magma-chamber game has two teams of two and its turn order alternates teams; anything else is a
    one-line setup error naming the field (not a silent free-for-all)."""
    import pytest

    from conftest import game
    from simulator.core.errors import ScenarioError

    base = {"mode": "magma-chamber", "players": ["A", "B", "C", "D"], "battlefields": BFS4}
    with pytest.raises(ScenarioError, match="needs two teams of two"):
        game(base)
    with pytest.raises(ScenarioError, match="alternates teams"):
        game(base, teams=[["A", "B"], ["C", "D"]])
    g = game(base, teams=[["A", "C"], ["B", "D"]])
    assert g.state.teammates("A", "C") and g.state.opponents("A", "B")


def test_magma_chamber_scenario_with_teammates_seated_together_is_invalid(tmp_path, capsys):
    """The CLI contract: a setup that is not a valid magma-chamber game exits 2 with FILE:LINE and the reason."""
    from simulator.cli.main import main

    f = tmp_path / "bad.yaml"
    f.write_text("name: bad seating\nmode: magma-chamber\nplayers: [A, C, B, D]\nteams: [[A, C], [B, D]]\n"
                 "battlefields: [North, South, East]\nsteps:\n  - expect: {turn: A}\n")
    assert main(["simulate", str(f)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"{f}:3: magma-chamber turn order alternates teams (489): A, C, B, D seats two teammates in a row"]


def test_a_teammate_is_an_outsider_to_its_allys_combat(backend):
    """462 applies to teams too (seed 004: 'Cette restriction diffère de celle qui exclut un troisième participant'):
    A attacks B at South; C, A's ally, has no units there: C's move-spell may not send c2 into that combat, and
    D, B's ally, may not either."""
    g = magma(battlefields=BFS4, control={"South": "B", "West": "A"}, backend=backend,
              hands={"C": ["move-spell"], "D": ["move-spell"]},
              units=[unit("a1", "A", "base", 2), unit("b1", "B", "South", 1), unit("c2", "C", "base"),
                     unit("d2", "D", "base")])
    do(g, "A move a1 South")
    expect(g, active={"kind": "combat", "at": "South", "attacker": "A", "defender": "B"}, focus="A")
    do(g, "A pass")
    expect(g, focus="B")
    do(g, "B pass")
    expect(g, focus="C")
    illegal(g, "C play move-spell unit=c2 to=South", "staged or ongoing combat", rule="462")
    do(g, "C pass")
    expect(g, focus="D")
    illegal(g, "D play move-spell unit=d2 to=South", "staged or ongoing combat", rule="462")


def test_magma_combat_triggers_attacker_then_non_defenders_in_turn_order_then_defender(backend):
    """464.2.e in 2v2: A attacks B; the non-defenders C (A's ally) and D (B's ally) place theirs in turn order, the
    defender last: chain A, C, D, B; B's trigger is newest, so B gets priority first (R17)."""
    from mp_helpers import trig
    g = magma(battlefields=BFS4, control={"South": "B", "West": "A", "East": "D", "North": "C"}, backend=backend,
              units=[unit("a1", "A", "base", 2, abilities=[trig("a-attacks", "on-attack")]),
                     unit("b1", "B", "South", 1, abilities=[trig("b-defends", "on-defend")]),
                     unit("c1", "C", "North", 1, abilities=[trig("c-watches", "on-any-attack")]),
                     unit("d1", "D", "East", 1, abilities=[trig("d-watches", "on-any-attack")])])
    do(g, "A move a1 South")
    expect(g, chain=["a-attacks", "c-watches", "d-watches", "b-defends"], priority="B", focus="A",
           active={"kind": "combat", "at": "South", "attacker": "A", "defender": "B"})


def test_in_a_showdown_a_teammate_acts_with_focus_without_any_invitation(backend):
    """R13: focus and priority work as for any player - on A's turn, C gains focus in turn order and plays an Action
    spell without being invited; the invitation is only for Neutral Open plays."""
    g = magma(battlefields=BFS4, control={"South": "B", "East": "D"}, hands={"C": ["action-spell"]}, backend=backend,
              units=[unit("a1", "A", "base", 2), unit("b1", "B", "South"), unit("d1", "D", "East")])
    do(g, "A move a1 North", "A pass", "B pass")
    expect(g, state="showdown-open", focus="C", priority="C", legal={"C": ["concede", "pass", "play action-spell"]})
    do(g, "C play action-spell")
    expect(g, state="showdown-closed", chain=["action-spell"], priority="C", focus="C")
