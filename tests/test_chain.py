"""The chain and priority, HOT FEPR (CR 328-340; rulings R17): finalize oldest first, execute, pass, resolve
newest; priority after each resolution; the state opens when the chain empties."""
from conftest import do, expect, game, illegal, index_of, lines, rules_of

UNITS = [{"id": "a1", "owner": "A", "at": "base", "might": 2},
         {"id": "b1", "owner": "B", "at": "base", "might": 3}]


def test_chain_closes_the_state_and_empty_chain_opens_it():
    """354.1, 309, 340.2: putting a card on the chain closes the state; the empty chain makes it Open again."""
    g = game(units=UNITS, hands={"A": ["normal-spell"]})
    do(g, "A play normal-spell")
    expect(g, state="neutral-closed", chain=["normal-spell"])
    assert "354.1" in rules_of(g, "the state is Closed")
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", chain=[], priority="A")
    assert "340.2" in rules_of(g, "the chain is empty")


def test_first_priority_holder_may_add_on_top_of_their_own_item():
    """338.1.a.5, R17: the first priority holder after a chain is created may add to it before anyone responds."""
    g = game(units=UNITS, hands={"A": ["normal-spell", "reaction-spell"], "B": ["reaction-spell"]})
    do(g, "A play normal-spell", "A play reaction-spell")
    expect(g, chain=["normal-spell", "reaction-spell"], priority="A", legal={"B": ["concede"]})
    do(g, "A pass", "B pass")
    expect(g, chain=["normal-spell"], priority="A")


def test_after_a_reaction_resolves_the_older_spell_waits_for_a_new_full_round_in_a_showdown():
    """Issue 2 / 339, 340.4: in a showdown, after B's Reaction resolves, A's Action waits; A passing alone does not
    resolve it; the focus holder A keeps focus throughout (313.3)."""
    g = game(units=UNITS, hands={"A": ["action-spell"], "B": ["reaction-spell"]})
    do(g, "A move a1 North", "A play action-spell", "A pass", "B play reaction-spell", "B pass", "A pass")
    expect(g, state="showdown-closed", chain=["action-spell"], focus="A", priority="A")
    do(g, "A pass")
    expect(g, state="showdown-closed", chain=["action-spell"], focus="A", priority="B")
    assert "action-spell resolves" not in lines(g)
    do(g, "B pass")
    expect(g, state="showdown-open", chain=[], focus="B", priority="B")


def test_pending_items_are_finalized_oldest_first_before_priority_is_given():
    """337.1-337.4, 312.2.c, R17: several pending items (a combat chain) are finalized one at a time in the order they
    were added; only then does the controller of the newest item get priority."""
    ab = lambda name, trig: {"name": name, "trigger": trig, "effect": []}  # noqa: E731
    g = game(units=[{**UNITS[0], "abilities": [ab("charge", "on-attack")]},
                    {**UNITS[1], "at": "North", "abilities": [ab("brace", "on-defend")]}], control={"North": "B"})
    do(g, "A move a1 North")
    expect(g, chain=["charge", "brace"], priority="B", focus="A", state="showdown-closed")
    assert index_of(g, "charge goes on the chain") < index_of(g, "brace goes on the chain") \
        < index_of(g, "charge is finalized") < index_of(g, "brace is finalized")
    assert "R17" in rules_of(g, "brace is finalized")


def test_passes_count_only_in_succession_an_addition_restarts_them():
    """339: all players must pass in succession without adding; an item added in between restarts the round."""
    g = game(units=UNITS, hands={"A": ["normal-spell"], "B": ["reaction-spell"]})
    do(g, "A play normal-spell", "A pass", "B play reaction-spell")
    assert g.state.passed == ()
    do(g, "B pass")
    expect(g, chain=["normal-spell", "reaction-spell"], priority="A")    # A's earlier pass no longer counts
    do(g, "A pass")
    expect(g, chain=["normal-spell"])


def test_counter_removes_an_item_without_resolving_it():
    """340, 'counter' effect: the countered item leaves the chain and never resolves."""
    cards = {"negate": {"type": "spell", "timing": "reaction", "effect": [{"counter": {"item": "normal-spell"}}]}}
    g = game(units=UNITS, hands={"A": ["normal-spell"], "B": ["negate"]}, cards=cards)
    do(g, "A play normal-spell", "A pass", "B play negate", "B pass", "A pass")
    expect(g, state="neutral-open", chain=[], priority="A")
    assert "normal-spell is countered" in lines(g)
    assert "normal-spell resolves" not in lines(g)


def test_spell_effects_happen_at_resolution_not_when_played():
    """340: a spell's instructions are carried out when it resolves (after all pass), not when put on the chain."""
    g = game(units=UNITS, hands={"A": ["move-spell"]}, control={"North": "A"})
    do(g, "A play move-spell unit=a1 to=North")
    expect(g, units={"a1": {"at": "base"}}, chain=["move-spell"])
    do(g, "A pass", "B pass")
    expect(g, units={"a1": {"at": "North"}}, chain=[])


def test_priority_holder_only_can_pass():
    """312, 338.2: only the priority holder passes; the other player's pass is refused and changes nothing."""
    g = game(units=UNITS, hands={"A": ["normal-spell"]})
    do(g, "A play normal-spell")
    illegal(g, "B pass", "neither priority nor focus", "312")


def test_move_spell_to_an_invalid_target_is_refused():
    """356: a move spell's target must be a unit on the board and a destination other than where it is; the
    built-in move-spell moves any unit (the opponent's included), a card with `friendly: true` a friendly one."""
    g = game(units=UNITS, hands={"A": ["move-spell", "nudge"]},
             cards={"nudge": {"type": "spell", "timing": "action", "friendly": True,
                              "effect": [{"move": {"unit": "target", "to": "target"}}]}})
    illegal(g, "A play nudge unit=b1 to=North", "friendly", "356")
    illegal(g, "A play move-spell unit=a1 to=base", "already at base", "356")
    illegal(g, "A play move-spell unit=a1 to=Nowhere", "not a battlefield", "356")
    illegal(g, "A play move-spell unit=a1", "needs a target", "356")
