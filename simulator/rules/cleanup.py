"""Cleanup (318-324): the tasks of 323, run by the declared ``cleanup`` machine."""
from __future__ import annotations

from statecharts.battlefield import ONGOING
from statecharts.turn import NEUTRAL_OPEN, SHOWDOWN_OPEN
from statecharts.states import CleanupState, CombatStep, Status, Window
from statecharts.citations import cite

from simulator.core.log import fire, log
from simulator.core.model import State
from simulator.core.registry import effect, guard
from simulator.rules.moves import contest
from simulator.rules.scoring import declare_winner, team_score
from simulator.rules.triggers import trigger_abilities
from simulator.rules.zones import leave_board



def run_cleanup(g: State) -> None:
    """One cleanup, repeated until a pass changes nothing (322). Awards no focus or priority (320.1)."""
    g.dirty = False
    g.cfg.rt.run(g, "cleanup", "run", "next", CleanupState.Idle)
    g.dirty = False


def _status(g: State, bf: str) -> str:
    return g.ms[("battlefield.status", bf)]


def _changed(g: State) -> None:
    g.changed = True


@guard
def _game_over(g: State, inst, ctx) -> bool:
    """323.1, 651.1: a side has won: the game is over (State.winner: the players whose machine is Won)"""
    return g.over


@guard
def _cleanup_changed(g: State, inst, ctx) -> bool:
    """322: the pass changed something: another pass"""
    return g.changed


@guard
def _combat_cleanup_due(g: State, inst, ctx) -> bool:
    """466.1, 324: the Combat Cleanup is due"""
    return g.special == 'combat'


@guard
def _ending_cleanup_due(g: State, inst, ctx) -> bool:
    """317.2, 324: the Ending Cleanup is due"""
    return g.special == 'ending'


@effect
def _win_check(g: State, inst, ctx) -> None:
    """323.1: at least the victory score and strictly more than every opponent (194.2)."""
    g.changed = False
    if g.winner is not None or max(g.score.values(), default=0) < g.cfg.victory:
        return
    players = g.in_game()
    teams = {g.team(p) for p in players}
    for t in teams:
        mine = team_score(g, t)
        others = [team_score(g, o) for o in teams if o != t]
        if mine >= g.cfg.victory and all(mine > o for o in others):
            declare_winner(g, t, cite("cleanup.win-check-declare-winner"))
            return


@effect
def _designations(g: State, inst, ctx) -> None:
    """323 task 2: designations follow the controller while a combat is in progress."""
    if g.ms[("combat", None)] == CombatStep.Idle or g.active is None:
        return
    roles = {g.attacker: "attacker", g.defender: "defender"}
    for u in g.units.values():
        want = roles.get(u.controller) if (u.zone == "board" and u.at == g.active and u.kind == "unit") else None
        if u.designation != want:
            u = g.edit(u)
            u.designation = want
            _changed(g)
            if want and not u.fought:               # 383.4.e-f: the first time it gains one in this combat
                u.fought = True
                trigger_abilities(g, u, "on-attack" if want == "attacker" else "on-defend")


@effect
def _board_state(g: State, inst, ctx) -> None:
    """323 task 3 (142.4): a unit with non-zero damage at least its might is killed."""
    dying = [u for u in g.units.values()            # (no unit is added or removed here)
             if u.damage > 0 and u.zone == "board" and u.kind == "unit" and u.damage >= g.might(u)]
    if not dying:
        return
    warded = [u.id for u in dying if u.ward]
    if warded:                                      # R21: a replaced death is no death (3a notes nothing for it)
        dying = [u for u in dying if not u.ward]
        # not a hand-off: cleanup task 3 acting (its enter effect): the deaths it found replaced (R21)
        fire(g, "cleanup", "replaced", units=warded)
        _changed(g)
        if not dying:
            return
    for u in dying:
        log(g, '{unit} dies (lethal damage)', cite("cleanup.dies-lethal-damage"), u.controller, unit=u.id)
    if any(ab.trigger == "on-death" for u in dying for ab in u.abilities):
        # not a hand-off: cleanup task 3 acting: 3a notes the dying units' own-death abilities (808.1.d)
        fire(g, "cleanup", "lethal", units=[u.id for u in dying])   # 3a: before they reach the trash (808.1.d)
    for u in dying:
        leave_board(g, g.edit(u), "trash")
        _changed(g)


def replace_deaths(g: State, units: list[str]) -> None:
    """R21: each unit would die and has a ward: instead it is healed, exhausted and recalled to its base, and
    the ward is used up. It does not die, so its own-death abilities (Deathknell, on-death) do not trigger
    (808.1.d); it stays on the board (no trash, no new object)."""
    from simulator.rules.moves import recall
    for uid in units:
        u = g.edit(g.units[uid])
        u.ward = False
        u.damage = 0
        u.exhausted = True
        own = [ab.name for ab in u.abilities if ab.trigger == "on-death"]
        log(g, "{unit} would die: its ward replaces the death; instead it is healed and exhausted",
            cite("cleanup.ward-replaces-death"), u.controller, unit=u.id)
        if own:
            log(g, "{unit} does not die, so its {abilities} does not trigger", cite("cleanup.replaced-no-own-death"),
                u.controller, unit=u.id, abilities=", ".join(own))
        if u.at != "base":
            recall(g, u, cite("cleanup.ward-recall"))
        g.dirty = True


@effect
def _replace_death(g: State, inst, ctx) -> None:
    """R21 (cleanup task 3 and a kill as it executes): the deaths of ``ctx["units"]`` are replaced."""
    replace_deaths(g, ctx["units"])


@effect
def _combat_cleanup(g: State, inst, ctx) -> None:
    """466.1: 3c heal all units; 3d recall attackers if defenders are still there."""
    g.special = None
    for u in g.units.values():
        if u.damage:
            g.edit(u).damage = 0
    bf = g.active
    if bf and g.units_at(bf, g.defender):
        for u in g.units_at(bf, g.attacker):
            u = g.edit(u)
            u.at = "base"
            u.designation = None
            g.recalled = True
            log(g, "{unit} is recalled to base: defenders remain", cite("cleanup.recalled-base-defenders-remain"), u.controller, unit=u.id)
            _changed(g)


@effect
def _ending_cleanup(g: State, inst, ctx) -> None:
    """317.2: 3c heal all units; 3d 'this turn' effects end and Stun clears (423.1.a.2); 3e pools empty."""
    g.special = None
    for u in g.units.values():
        if u.damage or u.buff or u.stunned or u.given or u.hurt:
            u = g.edit(u)
            u.damage = u.buff = 0
            u.stunned = False
            u.given = ()                            # give-keyword lasts this turn
            u.hurt = False
    for p in g.energy:
        g.energy[p] = 0


@effect
def _loss_of_control(g: State, inst, ctx) -> None:
    """323.6 (190.4.c): lose control where you have no units, if Open and nothing ongoing there."""
    if g.ms[("turn.window", None)] != Window.Open:
        return
    ms = g.ms
    for name, b in g.bfs.items():
        if b.controller and ms[("battlefield.status", name)] not in ONGOING and not g.has_units(name, b.controller):
            g.touch("battlefields")
            b.controller = None
            # not a hand-off: cleanup task 4 acting on each battlefield it finds (323.6)
            fire(g, "battlefield.control", "lose", name)
            _changed(g)


@effect
def _corrective(g: State, inst, ctx) -> None:
    """323.7 (task 5): facedown cards where their controller lacks control are trashed (811). Gear always
    sits in its base in this model: no recall to do."""
    if g.hidden:
        from simulator.rules.hidden import trash_uncontrolled
        if trash_uncontrolled(g, cite("cleanup.corrective-trash-uncontrolled")):
            _changed(g)


@effect
def _stage_showdowns(g: State, inst, ctx) -> None:
    """323.8: a showdown is staged where Contested was applied, while the applier still has units there."""
    ms = g.ms
    for name, b in g.bfs.items():
        st = ms[("battlefield.status", name)]
        if st not in (Status.Contested, Status.Staged, Status.StagedCombat):
            continue                        # nothing to stage or unstage here (and no need to look at units)
        present = bool(b.contested_by and g.has_units(name, b.contested_by))
        if st == Status.Contested and present:
            # not a hand-off: cleanup task 6 acting on each battlefield it finds (323.8)
            fire(g, "battlefield.status", "stage_showdown", name)
            _changed(g)
        elif st in (Status.Staged, Status.StagedCombat) and not present:
            # not a hand-off: cleanup task 6 acting on each battlefield it finds (323.8)
            fire(g, "battlefield.status", "unstage", name)
            _changed(g)


def two_sides(g: State, bf: str) -> bool:
    """Units of two opposing players (different teams) are at ``bf``."""
    team = g.cfg.team_of
    first = None
    for u in g.units.values():
        if u.at == bf and u.zone == "board" and u.kind == "unit":
            t = team[u.controller]
            if first is None:
                first = t
            elif t != first:
                return True                 # a second team: no need to look further
    return False


@effect
def _stage_combats(g: State, inst, ctx) -> None:
    """323.9-323.10: a combat is staged where units of two opposing players are; unstaged when one side leaves."""
    ms = g.ms
    for name in g.bfs:
        st = ms[("battlefield.status", name)]
        if st in (Status.Staged, Status.Showdown):
            if two_sides(g, name):
                # not a hand-off: cleanup task 7 acting on each battlefield it finds (323.9)
                fire(g, "battlefield.status", "stage_combat", name)
                _changed(g)
        elif st in (Status.StagedCombat, Status.ShowdownCombatStaged):
            if not two_sides(g, name):
                # not a hand-off: cleanup task 7 acting on each battlefield it finds (323.10)
                fire(g, "battlefield.status", "unstage_combat", name)
                _changed(g)


@effect
def _clear_contested(g: State, inst, ctx) -> None:
    """323.11: Contested is removed where its applier has no units and nothing is ongoing; 323.11.a: if that
    leaves units there whose controller doesn't control it, that controller applies Contested (R7 order)."""
    ms = g.ms
    for name, b in g.bfs.items():
        if ms[("battlefield.status", name)] == Status.Contested and not (b.contested_by and
                                                                     g.has_units(name, b.contested_by)):
            g.touch("battlefields")
            b.contested_by = None
            # not a hand-off: cleanup task 8 acting on each battlefield it finds (323.11)
            fire(g, "battlefield.status", "clear", name)
            _changed(g)
            claimants = [p for p in g.players_at(name) if p != b.controller]
            if claimants:
                log(g, "{player}'s units remain at {bf}, which {player} doesn't control: {player} applies Contested",
                    cite("cleanup.units-remain-which-doesn-t"), claimants[0], bf=name)
                contest(g, name, claimants[0])


def _open(g: State, kind: str) -> None:
    want = Status.Staged if kind == "showdown" else Status.StagedCombat
    ms = g.ms
    cands = tuple(n for n in g.bfs if ms[("battlefield.status", n)] == want)
    if not cands:
        return
    if len(cands) == 1:
        open_at(g, cands[0])
        _changed(g)
    elif g.choosing != cands:
        g.touch("choosing")
        g.choosing = cands
        g.priority = None
        log(g, "{player} must choose where to open a {kind}: {choices}",
            cite("cleanup.must-choose-where-open") if kind == "showdown" else cite("cleanup.must-choose-where-open-2"), g.turn, kind=kind, choices=", ".join(cands))


def open_at(g: State, bf: str) -> None:
    """Open the showdown or combat staged at ``bf`` (323.12, 323.13)."""
    g.touch("choosing")
    g.touch("active")                   # the active battlefield is the one whose status is ongoing (State.active)
    g.choosing = ()
    g.focus_due = g.bfs[bf].contested_by
    if _status(g, bf) == Status.Staged:
        # not a hand-off: cleanup task 9 opening the one staged (323.12), or the turn player's choice
        fire(g, "battlefield.status", "open_showdown", bf)
    else:                                           # the combat's showdown begins with it (464.2)
        # not a hand-off: cleanup task 10 opening the one staged (323.13), or the turn player's choice
        fire(g, "battlefield.status", "open_combat", bf)
    g.dirty = True


@effect
def _open_showdown(g: State, inst, ctx) -> None:
    """323.12: in Neutral Open, a staged non-combat showdown opens; the turn player picks among several."""
    if g.choosing:
        staged = tuple(n for n in g.bfs if _status(g, n) == Status.Staged)
        combats = tuple(n for n in g.bfs if _status(g, n) == Status.StagedCombat)
        if g.choosing not in (staged, combats) or (staged and g.choosing != staged):
            g.touch("choosing")
            g.choosing = ()
    if g.active is None and g.winner is None and g.turn_state() == NEUTRAL_OPEN:
        _open(g, "showdown")


@effect
def _open_combat(g: State, inst, ctx) -> None:
    """323.13: in Neutral Open, a staged combat opens; 323.14: in Showdown Open one converts the showdown."""
    if g.winner is not None:
        return
    st = g.turn_state()
    if st == NEUTRAL_OPEN and g.active is None and not g.choosing:
        _open(g, "combat")
    elif st == SHOWDOWN_OPEN and g.active and g.ms[("battlefield.status", g.active)] == Status.ShowdownCombatStaged:
        # not a hand-off: cleanup task 10a acting at the active battlefield (323.14)
        fire(g, "battlefield.status", "convert", g.active)
        _changed(g)


# -- the schedule's steps (statecharts/schedule.py) ------------------------------------------------

@guard
def _cleanup_outstanding(g: State, inst, ctx) -> bool:
    """319: something made a cleanup outstanding"""
    return g.dirty


@guard
def _choice_pending(g: State, inst, ctx) -> bool:
    """323.12-13: the turn player must choose which staged showdown or combat opens"""
    return bool(g.choosing)


@effect
def _run_cleanups(g: State, inst, ctx) -> None:
    """334: outstanding tasks are handled first."""
    run_cleanup(g)
