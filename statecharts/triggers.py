"""Trigger kinds (383): which event makes each kind of triggered ability pending, with its rule.

Each kind is placed by a named effect ``trigger_<kind>`` on the declared transitions that are that event
(or, for the kinds that predate this table, by the effect named in ``placed_by``), so the diagrams show
where it fires. ``tests/test_abilities.py`` checks that every kind is placed by a declared transition.

>>> KINDS["on-combat-end"].rules
('383', '466.7')
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    when: str                       # the event, in our words
    rules: tuple[str, ...]
    placed_by: tuple[str, ...]      # the declared effects that make it pending

    @property
    def effect(self) -> str:
        return self.placed_by[0]


def _k(when: str, rules: tuple[str, ...], *placed_by: str) -> Kind:
    return Kind(when, rules, placed_by)


KINDS: dict[str, Kind] = {
    "on-play": _k("this unit or gear is played, after it has entered", ("383.4.a.2",), "resolve_item"),
    "on-arrive": _k("this unit moves to a battlefield (not when played there)", ("383", "450"), "trigger_on_move"),
    "on-move": _k("this unit moves (a standard move or an effect's move; a recall is no move)",
                  ("383", "144", "446", "454"), "trigger_on_move"),
    "on-death": _k("this unit dies: killed by an effect, or lethal damage in cleanup task 3a",
                   ("383", "808.1.d", "323"), "trigger_on_death"),
    "on-attack": _k("this unit attacks (or, on a battlefield, a player attacks here)", ("383.4.e", "464.2.e"),
                    "combat_chain", "designations"),
    "on-defend": _k("this unit defends (or, on a battlefield, a player defends here)", ("383.4.f", "464.2.e"),
                    "combat_chain", "designations"),
    "on-any-attack": _k("attackers and defenders are established in any combat", ("464.2.e",), "combat_chain"),
    "on-conquer": _k("its controller conquers this battlefield", ("383.4.c", "469.1"), "combat_control",
                     "settle_showdown"),
    "on-hold": _k("its controller holds this battlefield at the Scoring Step", ("383.4.d", "469.2"),
                  "hold_scoring"),
    "on-showdown-start": _k("a showdown (combat or not) begins at this battlefield; a combat's before its "
                            "designations, so before its attack and defend triggers", ("383", "344", "464.2.b"),
                            "trigger_on_showdown_start"),
    "on-combat-end": _k("a combat this unit was in, or at this battlefield, ends", ("383", "466.7"),
                        "trigger_on_combat_end"),
    "on-turn-start": _k("the Beginning Step of its controller's turn, before the Scoring Step", ("383", "315.2.a"),
                        "trigger_on_turn_start"),
    "on-turn-end": _k("the Ending Step of its controller's turn", ("383", "317.1"), "trigger_on_turn_end"),
    "on-spell": _k("a spell finishes resolving (never a countered one)", ("383", "419.4.a"), "trigger_on_spell"),
    "on-spell-mine": _k("a spell of its controller finishes resolving", ("383", "419.4.a"), "trigger_on_spell"),
    "on-chosen": _k("this unit is chosen as a target, once the choosing item is finalized", ("383.4.b.2", "337"),
                    "trigger_on_chosen"),
}
