"""HOT FEPR and the turn cycle (334-340, 345, 323.12, 383.3.d, 464-466, 314-317), declared as a schedule.

After every action the engine *settles* the game: it tries these steps in order and takes the first whose
conditions all hold. A step that does something (``do``: a named effect, which fires the declared
transition or runs the cleanup machine) sends the engine back to the top; a step that stops (``stop``)
hands the decision to a player (``decides``), after its ``do`` (who gets priority), and the engine returns.
So: an item waiting mid-resolution for a may comes first, because no cleanup runs while an item
resolves (383.3.a.3, 321); then handle Outstanding tasks (the cleanup loop, 319-322), then Finalize, Execute, Pass and Resolve
(337-340), then the combat steps and the turn's phases. The Resolution step's tasks after the Combat Cleanup
(the result, control, the end of the combat) each name ``chain=Empty``: what the previous task made pending is
finalized and resolved first (466.2, 466.4, 466.6). Nothing in the engine restates this order.

A condition is a guard name (``simulator/rules``) or ``machine=State`` (that machine is in that state).

>>> [s.name for s in SCHEDULE][:4]
['game over', 'a may while resolving', 'deciding while resolving', 'outstanding tasks']
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Step:
    """One step of the schedule: when all of ``when`` hold, run ``do``; then stop (``decides`` acts) or settle on."""

    name: str
    when: tuple[str, ...]
    rules: tuple[str, ...]
    do: str = ""                 # a named effect; empty = nothing (a stop that leaves priority as it is)
    stop: bool = False
    decides: str = ""            # for a stop: who must act now (text for the diagram and the docs)

    def conditions(self) -> tuple[tuple[str, str | None], ...]:
        """``when`` parsed: (guard, None) or (machine, state).

        >>> Step("x", ("chain=Execute", "focus_due"), ("0",)).conditions()
        (('chain', 'Execute'), ('focus_due', None))
        """
        out: list[tuple[str, str | None]] = []
        for c in self.when:
            leaf, eq, state = c.partition("=")
            out.append((leaf, state) if eq else (c, None))
        return tuple(out)


SCHEDULE: tuple[Step, ...] = (
    Step("game over", ("game_over",), ("323.1", "651.1"), do="priority_to_nobody", stop=True,
         decides="nobody: the game is over"),
    Step("a may while resolving", ("chain=Resolve", "resolving_choice"), ("383.3.a.3", "158.3", "321"),
         do="await_resolution_choice"),
    Step("deciding while resolving", ("chain=ResolveChoice",), ("383.3.a.3", "321"), do="priority_to_nobody",
         stop=True, decides="the resolving item's controller decides its may; no cleanup runs meanwhile"),
    Step("outstanding tasks", ("cleanup_outstanding",), ("334", "319", "322"), do="run_cleanups"),
    Step("choose a battlefield", ("choice_pending",), ("323.12", "323.13"), do="priority_to_nobody", stop=True,
         decides="the turn player chooses which staged showdown or combat opens"),
    Step("after a resolution", ("chain=Resolve",), ("340.2", "340.3", "340.4"), do="after_resolution"),
    Step("award focus", ("focus_due",), ("345", "R4"), do="award_focus"),
    Step("order triggers", ("chain=Finalize", "unordered_triggers"), ("383.3.d",), do="await_order"),
    Step("no legal target", ("chain=Finalize", "untargetable"), ("402.4",), do="drop_untargetable"),
    Step("choices at finalization", ("chain=Finalize", "decision_due"), ("383.3.a", "402.1"), do="await_choice"),
    Step("finalize", ("chain=Finalize",), ("337",), do="finalize_oldest"),
    Step("ordering", ("chain=Order",), ("383.3.d",), do="priority_to_nobody", stop=True,
         decides="the orderer orders their simultaneous triggers; nobody has priority"),
    Step("deciding", ("chain=Decide",), ("383.3.a",), do="priority_to_nobody", stop=True,
         decides="the controller of the triggered ability being finalized decides its may and its targets"),
    Step("execute", ("chain=Execute",), ("338",), stop=True, decides="the priority holder plays a Reaction or passes"),
    Step("assignments made", ("combat=Assignment", "assignments_done"), ("465.2.c",), do="assignments_made"),
    Step("assign damage", ("combat=Assignment",), ("465.2.c",), do="priority_to_nobody", stop=True,
         decides="the attacker, then the defender, assigns combat damage (assign: manual); nobody has priority"),
    Step("combat damage", ("combat=DamageStep",), ("465",), do="combat_damage"),
    Step("combat result", ("combat=ResolutionStep", "chain=Empty"), ("466.2", "466.3"), do="combat_result_step"),
    Step("combat control", ("combat=Result", "chain=Empty"), ("466.4", "466.5"), do="combat_control_step"),
    Step("combat ends", ("combat=Control", "chain=Empty"), ("466.6", "466.7"), do="finish_combat"),
    Step("showdown", ("turn.mode=Showdown",), ("347",), stop=True, decides="the focus holder acts or passes focus"),
    Step("game ended", ("phases=GameOver",), ("323.1",), stop=True, decides="nobody: the game is over"),
    Step("next turn", ("phases=Main", "handoff_due"), ("652.5", "R10"), do="turn_handoff"),
    Step("main phase", ("phases=Main",), ("335.1", "312.2.a", "R13"), do="priority_to_turn_player", stop=True,
         decides="the turn player (or the teammate they invited) acts"),
    Step("next phase", (), ("314", "315", "316", "317"), do="advance_phase"),
)
