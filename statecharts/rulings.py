"""The rulings (../shared/rules/rulings.md): how the simulator decides where the rules leave a gap.

One declared table: each :class:`Ruling` has an id, a name, the rule ids it decides between, its default
and, for a switch, the alternatives a user can pick (``--ruling R1=attacker`` or a scenario's
``rulings:``). The simulator reads a switch in one way only, ``simulator.core.rulings.ruling_is(g, "R1",
"attacker")``, which refuses an id or a value this table does not declare (tests/test_rulings_table.py).

>>> RULINGS["R9"].values(), SWITCHES["R11"]
(('default', 'reset'), ('default', 'fifo'))
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ruling:
    """One ruling: ``default`` is what the simulator does unless ``alternatives`` (value, meaning) is picked."""

    id: str
    name: str
    rules: tuple[str, ...]
    default: str
    alternatives: tuple[tuple[str, str], ...] = ()
    why: str = ""

    def values(self) -> tuple[str, ...]:
        """The values a scenario or ``--ruling`` may give it: ``default`` first."""
        return ("default", *(v for v, _ in self.alternatives))


RULINGS: dict[str, Ruling] = {r.id: r for r in (
    Ruling('R1', 'focus-on-conversion', ('340.2.a', '464.2.c.1.b', '464.2.d'),
           "the focus holder after the closing chain's hand-off keeps focus through the conversion (464.2.c.1.b)",
           alternatives=(('attacker', 'the attacker gains focus (464.2.d)'),)),
    Ruling('R2', 'focus-order', ('340.2.a', '347.2.b'),
           'next player in turn order, every player still in the game',
           alternatives=(('defender-last', 'in a combat, from the attacker round the table, the defender last'),)),
    Ruling('R3', 'pass-sequence', ('347.2.a',),
           'any new chain restarts the run of consecutive focus passes'),
    Ruling('R4', 'focus-after-cleanup', ('320.1', '335.1'),
           'a showdown opens in the cleanup; focus and priority are awarded once cleanups have settled'),
    Ruling('R5', 'unit-in-showdown', ('340.2.a',),
           'a unit played in a showdown: focus passes when its chain empties'),
    Ruling('R6', 'showdown-end', ('190.3.b',),
           'establishing control clears Contested; with no units left nobody gains control and cleanup task 8 clears Contested'),
    Ruling('R7', 'simultaneous-arrival', ('303.2.a', '464.2.c.1'),
           "the turn player applies Contested if among the arrivals, else the first of them in turn order; the same order picks the attacker when the player who applied Contested has left the battlefield and two others' units remain (464.2.c.1, an extension of R7)"),
    Ruling('R8', 'no-result-restage', ('466.3.d.1', '190.3.b'),
           'a re-staged combat keeps the same attacker'),
    Ruling('R9', 'concede-battlefield', ('438',),
           'the token battlefield keeps control and Contested',
           alternatives=(('reset', 'the token battlefield is uncontrolled and uncontested'),)),
    Ruling('R10', 'concede-turn', ('652',),
           "the turn passes to the next player still in the game, from Start of Turn; the conceder's extra turns are dropped"),
    Ruling('R11', 'extra-turns', ('735', '738'),
           'each new extra turn goes directly after the current turn',
           alternatives=(('fifo', 'extra turns in the order their effects occurred'),)),
    Ruling('R12', 'phases-modelled', ('315', '316', '317', '312.2.c', '335'),
           'Beginning (Hold), Main, Ending (expiration); Awaken, Channel and Draw as tasks without choices'),
    Ruling('R13', 'team-invite', ('316.5.b.1', '489.8.a'),
           "on a teammate's turn, Neutral Open plays need the turn player's invite, which lends priority for one action"),
    Ruling('R14', 'end-turn', ('305', '316.9', '335', '348'),
           'only the turn player, Main Phase, Neutral Open, holding priority'),
    Ruling('R15', 'concede-control', ('652', '323.6', '323.10', '466'),
           "the conceder's units are banished; a staged combat losing a side is dropped; an active combat proceeds"),
    Ruling('R16', 'final-point', ('471.1.b', '470'),
           "'every battlefield' counts all battlefields in play, the one being conquered included"),
    Ruling('R17', 'chain-first-priority', ('312.2.c', '337.4', '340.4'),
           'the controller of the newest item once all pending items are finalized'),
    Ruling('R18', 'replaced-final-point', ('471.1.b', '470', '471.2', '383.4.c.2.c'),
           'a Conquer whose final point becomes a card draw (471.1.b) still scores the battlefield: it counts as scored this turn (470), its on-conquer triggers fire, and a later Conquer that turn may then be the final point',
           why='471.1.b replaces the point, not the score: Conquer effects trigger only when a battlefield actually scores (471.2) and they still trigger here (383.4.c.2.c), so the battlefield has scored; 470 allows one score per battlefield per turn, with or without the point'),
    Ruling('R19', 'contest-after-settle', ('190.3.a.1', '466.5.a', '466.7'),
           'a unit arriving at a battlefield whose combat has settled control (466.5.a) but not yet ended (466.7) applies Contested again; when the combat ends the battlefield stays Contested (or a showdown and combat are staged again when both sides remain)',
           why='190.3.a.1 applies Contested to any battlefield that is not Contested, and 466.5.a cleared it; no rule makes the 466.6 chain window an exception'),
    Ruling('R20', 'move-to-own-place', ('355.4.a', '055', '447.2.c'),
           'an instruction that moves a unit to the place where it already is does nothing: no move (no on-arrive, no Contested), and no recall',
           why="a move's destination is a place other than the unit's own (355.4.a), so there is no move to carry out; an impossible instruction is ignored (055); 447.2.c recalls only a unit that may not be present at its destination, and it is already present there"),
    Ruling('R21', 'replaced-death', ('808.1.d', '323', '142.4'),
           "a unit that would die (lethal damage in cleanup task 3, or a kill) with a ward does not die: instead "
           "it is healed, exhausted and recalled to its base and the ward is used up; its own-death abilities "
           "(Deathknell, on-death) do not trigger, and nothing is noted for it in task 3a",
           why="own-death abilities trigger on a death (808.1.d: noted in 3a for a unit being killed in 3b); a "
               "replacement effect means the event does not happen, so there is no death to trigger them; the "
               "digest gives replacement effects no rule number (465.2.c.5 only names them), hence a ruling"),
    Ruling('R22', 'unbreakable-loop', ('334', '651.1', '194.2'),
           "a position that repeats (the same position up to the numbering of new objects: fresh ids, counters, "
           "new cards that left the board) with only forced steps between, no player having any other choice but "
           "to concede, is a loop nobody can end: the game is a draw, nobody wins; the simulator stops there and "
           "reports one round of the loop",
           why="the digest has no loop rule; the game ends only by a win (194.2, 323.1) or when one player is left "
               "(651.1), and HOT FEPR (334) runs until a player must act; a loop of mandatory actions that comes "
               "back to the same position would go on forever, and no player can win it without a choice to make; "
               "trading card games that rule on it (Magic: The Gathering 104.4b, Yu-Gi-Oh!) call an unbreakable loop "
               "of mandatory actions a draw; conceding stays open (651), which is a choice to lose, not to end the "
               "loop"),
)}

#: the rulings that are switches: id -> allowed values ("default" first)
SWITCHES: dict[str, tuple[str, ...]] = {rid: r.values() for rid, r in RULINGS.items() if r.alternatives}
