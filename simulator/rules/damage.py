"""Combat damage assignment (465.2.c, 815 Tank, 826 Backline): who must be assigned lethal damage first.

A side's damage is assigned unit by unit: a unit must be assigned lethal damage before the next one gets
any, and none more than lethal while another remains (465.2.c.3-4). Tank units come first (815.1.b), then
the units with neither keyword, Backline units last (826.3); a unit with both is placed by the assigner
(465.2.c.8). Lethal damage is the unit's might (with Assault/Shield) less the damage it already has, at
least 1 (142.4).

The automatic assignment fills the units in that order, in the order they are listed (then entered).
With ``assign: manual`` the assigning player decides; :func:`problem` checks a decision and
:func:`choices` lists one assignment per distinct outcome (which units receive lethal damage).
"""
from __future__ import annotations

from itertools import combinations, product

from statecharts.states import CombatStep
from statecharts.citations import cite
from simulator.core.model import State, Unit

#: at most this many distinct outcomes are listed for one assignment decision (hostile input stays bounded)
MAX_CHOICES = 256


def deal(g: State, u: Unit, amount: int) -> Unit:
    """``u`` is dealt ``amount`` damage (a spell's or ability's, or combat damage, 465.2): its damage grows, and it
    has been dealt damage this turn (what ``not-damaged-this-turn`` reads, until the Ending Phase's expiration)
    even once it is healed. The one place damage is dealt; returns the unit as written (``g.edit``)."""
    u = g.edit(u)
    u.damage += amount
    u.hurt = True
    return u


def lethal(g: State, u: Unit) -> int:
    """The damage still needed to kill ``u`` (142.4, 465.2.c.3)."""
    return max(g.might(u) - u.damage, 1)


def rank(u: Unit, both_first: bool = True) -> int:
    """0 Tank, 1 neither, 2 Backline (815.1.b, 826.3); a unit with both ranks as the assigner picks."""
    tank = u.kw("tank") is not None
    back = u.kw("backline") is not None
    if tank and back:
        return 0 if both_first else 2
    return 0 if tank else 2 if back else 1


def total(g: State, units: list[Unit]) -> int:
    """465.2.a-b: a side's summed might; negative might counts 0 and stunned units add 0 (423.1.b)."""
    return sum(0 if u.stunned else max(g.might(u), 0) for u in units)


def sides(g: State) -> dict[str, tuple[list[Unit], list[Unit]]]:
    """For the attacker and the defender: (their units at the combat, the enemy units they assign to)."""
    bf, a, d = g.active, g.attacker, g.defender
    if bf is None or a is None or d is None:
        return {}
    att = g.units_at(bf, a)
    dfn = g.units_at(bf, d)
    return {a: (att, dfn), d: (dfn, att)}


def ordered(victims: list[Unit]) -> list[Unit]:
    """The automatic order: Tank, neither, Backline; listed order within each (a stable sort)."""
    return sorted(victims, key=rank)


def fill(g: State, amount: int, victims: list[Unit]) -> list[tuple[Unit, int]]:
    """Lethal damage to each unit in turn; what is left after the last one goes to it (465.2.c.3-4)."""
    out = []
    for i, v in enumerate(victims):
        if amount <= 0:
            break
        give = amount if i == len(victims) - 1 else min(amount, lethal(g, v))
        out.append((v, give))
        amount -= give
    return out


def automatic(g: State, amount: int, victims: list[Unit]) -> list[tuple[Unit, int]]:
    """The default assignment: lethal first, Tank first and Backline last, in listed order."""
    return fill(g, amount, ordered(victims))


def needs_to_assign(g: State, p: str) -> bool:
    """A player with units in the combat, might above 0 and an enemy unit left decides (465.2.c)."""
    if p not in g.in_game():
        return False
    mine, theirs = sides(g).get(p, ([], []))
    return bool(theirs) and total(g, mine) > 0


def assigner(g: State) -> str | None:
    """Who assigns next in a manual Assignment: the attacker first, then the defender (465.2.c)."""
    if g.ms[("combat", None)] != CombatStep.Assignment:
        return None
    done = {p for p, _ in g.assigned}
    for p in (g.attacker, g.defender):
        if p is not None and p not in done and needs_to_assign(g, p):
            return p
    return None


def problem(g: State, p: str, damage: tuple[tuple[str, int], ...]) -> tuple[str, str] | None:
    """Why ``p`` may not assign ``damage`` ({unit: amount}); None if it is a legal assignment."""
    mine, victims = sides(g)[p]
    amount = total(g, mine)
    given = _given(g, damage, {v.id for v in victims})
    if isinstance(given, tuple):
        return given
    if sum(given.values()) != amount:
        return (f"{p} must assign exactly {amount} damage (their units' summed might), not "
                f"{sum(given.values())}", cite("damage.must-assign-exactly-damage-their"))
    both = [v for v in victims if rank(v, True) != rank(v, False)]
    reasons = []
    for picks in product((True, False), repeat=min(len(both), 8)):
        pick = dict(zip((v.id for v in both), picks))
        why = _order_problem(g, victims, given, lambda v, pick=pick: rank(v, pick.get(v.id, True)))
        if why is None:
            return None
        reasons.append(why)
    return reasons[0]


def _given(g: State, damage: tuple[tuple[str, int], ...], enemies: set[str]) -> dict[str, int] | tuple[str, str]:
    """{unit: amount} summed from ``damage``; or why not: a unit that is no enemy in the combat, a negative
    amount."""
    given: dict[str, int] = {}
    for uid, n in damage:
        if uid not in enemies:
            return (f"{uid} is not an enemy unit in the combat at {g.active}", cite("damage.not-enemy-unit-combat"))
        if n < 0:
            return (f"damage to {uid} can't be negative", cite("damage.damage-can-t-negative"))
        given[uid] = given.get(uid, 0) + n
    return given


def _order_problem(g: State, victims: list[Unit], given: dict, rank_of) -> tuple[str, str] | None:
    """465.2.c.3-4, 815.1.b, 826.3 for one placement of the units that have both Tank and Backline."""
    full = {v.id: given.get(v.id, 0) >= lethal(g, v) for v in victims}
    for v in victims:
        if given.get(v.id, 0):
            found = _rank_problem(v, victims, full, rank_of)
            if found:
                return found
    return _lethal_first(g, victims, given, full)


def _lethal_first(g: State, victims: list[Unit], given: dict, full: dict) -> tuple[str, str] | None:
    """A unit is assigned lethal damage before the next one gets any: at most one with less than lethal, and
    none above lethal while another lacks it."""
    partial = [v.id for v in victims if 0 < given.get(v.id, 0) < lethal(g, v)]
    if len(partial) > 1:
        return (f"{partial[0]} and {partial[1]} both have less than lethal damage: a unit must be assigned "
                f"lethal damage before the next one gets any", cite("damage.both-have-less-than-lethal"))
    over = [v.id for v in victims if given.get(v.id, 0) > lethal(g, v)]
    short = [v.id for v in victims if not full[v.id]]
    if over and short:
        return (f"{over[0]} is assigned more than lethal damage while {short[0]} still lacks lethal damage",
                cite("damage.assigned-more-than-lethal-damage"))
    return None


def _rank_problem(v: Unit, victims: list[Unit], full: dict, rank_of) -> tuple[str, str] | None:
    """A unit of ``v``'s controller ranked before it (Tank, then no keyword, then Backline) still lacking lethal
    damage while ``v`` gets some."""
    r = rank_of(v)
    for w in victims:
        if w is v or full[w.id] or w.controller != v.controller or rank_of(w) >= r:
            continue
        if rank_of(w) == 0:
            return (f"{w.id} has Tank: it must be assigned lethal damage before {v.id} gets any",
                    cite("damage.has-tank-must-assigned-lethal"))
        return (f"{v.id} has Backline: {w.id} must be assigned lethal damage first", cite("damage.has-backline-must-assigned-lethal"))
    return None


def choices(g: State, p: str) -> list[tuple[tuple[str, int], ...]]:
    """One legal assignment for each distinct outcome (the set of units given lethal damage), at most
    :data:`MAX_CHOICES`: the explorer branches only where assignments differ in outcome."""
    mine, victims = sides(g)[p]
    amount = total(g, mine)
    out: dict[frozenset, tuple] = {}
    auto = automatic(g, amount, victims)            # always legal: the first choice, so there is one
    out[frozenset(v.id for v, n in auto if n >= lethal(g, v))] = tuple(sorted((v.id, n) for v, n in auto if n))
    budget = 4096                                   # subsets looked at: bounded for any number of units
    for killed in _lethal_sets(g, victims, amount):
        budget -= 1
        if budget < 0 or len(out) >= MAX_CHOICES:
            break
        outcome = frozenset(v.id for v in killed)
        if outcome not in out:
            cand = _assignment_killing(g, p, victims, killed, amount)
            if cand is not None:
                out[outcome] = cand
    return list(out.values())


def _lethal_sets(g: State, victims: list[Unit], amount: int):
    """The sets of units that might all be given lethal damage out of ``amount``, largest first (465.2.c)."""
    need_sorted = sorted(lethal(g, v) for v in victims)
    kmax = 0
    while kmax < len(need_sorted) and sum(need_sorted[:kmax + 1]) <= amount:
        kmax += 1                                   # no more units than this can all receive lethal damage
    for k in range(kmax, -1, -1):
        yield from combinations(victims, k)


def _tails(g: State, rest: list[Unit], left: int) -> list[list[tuple[str, int]]]:
    """Where the damage left after the lethal ones may go: nowhere, or to one other unit (less than lethal)."""
    if not rest or left == 0:
        return [[]]
    return [[(v.id, left)] for v in rest if left < lethal(g, v)]


def _assignment_killing(g: State, p: str, victims: list[Unit], killed: tuple, amount: int) -> tuple | None:
    """A legal assignment of exactly ``amount`` giving lethal damage to ``killed`` and to no other unit, or None:
    lethal to each of them, what is left to one other unit (less than lethal), or onto the last of them."""
    need = sum(lethal(g, v) for v in killed)
    if need > amount:
        return None
    left = amount - need
    rest = [v for v in victims if v not in killed]
    base = [(v.id, lethal(g, v)) for v in killed]
    if not rest and base:
        base[-1] = (base[-1][0], base[-1][1] + left)
    for tail in _tails(g, rest, left):
        cand = tuple(sorted(base + tail))
        if sum(n for _, n in cand) == amount and problem(g, p, cand) is None:
            return cand
    return None
