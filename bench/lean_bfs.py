# Copied unchanged (below this header) from the project's shared sources, ../shared/bench/lean_bfs.py, so that
# bench/bench_lean.py works from a clone; the reference baseline for issue 13 (exploration speed).
"""A lean, hand-written BFS over a simplified Riftbound timing model (chain + priority + focus + showdowns,
N players, k cards each, units that move to battlefields, conquest/score, end of turn, concede).

Same *job* as riftsim's explore(): every legal action of every player, apply + settle (cleanups), a 56-bit
fingerprint into a visited set, a trace tree of three flat arrays, a few invariants on every distinct state
(exactly one player can act, no deadlock, showdown-open: focus holder has priority). States are flat tuples.

usage: python lean_bfs.py N K [--units U] [--bfs B] [--turns T] [--concede] [--max N]
"""
from __future__ import annotations

import argparse
import gc
import time
from array import array
from collections import deque

MASK = (1 << 56) - 1
NORMAL, ACTION, REACTION, MOVE = 0, 1, 2, 3          # card codes: timing; MOVE = action spell "move a friendly unit"
CARD_SETS = [REACTION, ACTION, NORMAL, MOVE]          # the k cards of each player are the first k of these

# state tuple layout
TURN, ENDED, INGAME, ACTIVE, CHAIN, PRIO, PASSED, FOCUS, FPASSED, HANDS, UNITS, CTRL, SCORE, WINNER = range(14)
# ACTIVE: -1 Neutral, else the battlefield of the showdown.  CHAIN: tuple of (card, controller, unit, dest).
# UNITS: tuple of locations (0 = base, 1..B = battlefield, -1 = gone); unit i is owned by OWNER[i].


def make(n: int, k: int, units: int, nbf: int, concede_on: bool, victory: int = 3):
    owner = tuple(p for p in range(n) for _ in range(units))
    might = tuple(1 + (i % 2) for i in range(len(owner)))
    full = (1 << n) - 1

    def nxt(p, ingame):
        for d in range(1, n + 1):
            q = (p + d) % n
            if ingame >> q & 1:
                return q
        return p

    def legal(s):
        """Every (player, action) in a fixed order. Actions are tuples."""
        out = []
        if s[WINNER] >= 0:
            return out
        ingame = s[INGAME]
        for p in range(n):
            if not ingame >> p & 1:
                continue
            if concede_on:
                out.append((p, "concede"))
            if s[PRIO] != p:
                continue
            chain, active = s[CHAIN], s[ACTIVE]
            hand = s[HANDS][p]
            if chain:                                   # Closed: pass or a Reaction
                out.append((p, "pass"))
                for c in sorted(set(hand)):
                    if c == REACTION:
                        out.append((p, "play", c, -1, -1))
            elif active >= 0:                           # Showdown Open: the focus holder passes focus or plays
                out.append((p, "pass"))
                for c in sorted(set(hand)):
                    if c == REACTION or c == ACTION:
                        out.append((p, "play", c, -1, -1))
                    elif c == MOVE:
                        for u in range(len(owner)):
                            if owner[u] == p and s[UNITS][u] >= 0:
                                for d in range(nbf + 1):
                                    if d != s[UNITS][u] and (s[UNITS][u] == 0 or d == 0):
                                        out.append((p, "play", c, u, d))
            else:                                       # Neutral Open: the turn player
                out.append((p, "end-turn"))
                for u in range(len(owner)):
                    if owner[u] == p and s[UNITS][u] >= 0:
                        loc = s[UNITS][u]
                        for d in range(nbf + 1):
                            if d != loc and (loc == 0 or d == 0):
                                out.append((p, "move", u, d))
                for c in sorted(set(hand)):
                    if c == MOVE:
                        for u in range(len(owner)):
                            if owner[u] == p and s[UNITS][u] >= 0:
                                for d in range(nbf + 1):
                                    if d != s[UNITS][u] and (s[UNITS][u] == 0 or d == 0):
                                        out.append((p, "play", c, u, d))
                    else:
                        out.append((p, "play", c, -1, -1))
        return out

    def contested(s, bf):
        """Players with units at ``bf`` other than its controller (the contester is the first in turn order)."""
        ctrl = s[CTRL][bf - 1]
        here = {owner[u] for u, loc in enumerate(s[UNITS]) if loc == bf}
        return ctrl not in here and bool(here) or len(here) > 1

    def settle(s: list) -> None:
        """Cleanups: the win check, a Contested battlefield opens a showdown (turn player gets focus)."""
        if s[WINNER] >= 0:
            s[PRIO] = -1
            return
        for p in range(n):
            if s[SCORE][p] >= victory:
                s[WINNER] = p
                s[PRIO] = -1
                return
        if bin(s[INGAME]).count("1") == 1:
            s[WINNER] = s[INGAME].bit_length() - 1
            s[PRIO] = -1
            return
        if s[ACTIVE] < 0 and not s[CHAIN]:
            for bf in range(1, nbf + 1):
                if contested(s, bf):
                    s[ACTIVE] = bf
                    s[FOCUS] = s[PRIO] = s[TURN]
                    s[FPASSED] = 0
                    break

    def end_showdown(s: list) -> None:
        """Every player passed focus in succession: combat (might), conquest and score, back to Neutral."""
        bf = s[ACTIVE]
        locs = list(s[UNITS])
        mights = {}
        for u, loc in enumerate(locs):
            if loc == bf:
                mights[owner[u]] = mights.get(owner[u], 0) + might[u]
        if len(mights) > 1:                              # combat: the weaker sides' units die
            top = max(mights.values())
            win = [p for p, m in mights.items() if m == top]
            for u, loc in enumerate(locs):
                if loc == bf and (owner[u] not in win or len(win) > 1):
                    locs[u] = -1
            mights = {win[0]: top} if len(win) == 1 else {}
        if len(mights) == 1:
            (p,) = mights
            ctrl = list(s[CTRL])
            if ctrl[bf - 1] != p:
                ctrl[bf - 1] = p
                sc = list(s[SCORE])
                sc[p] += 1
                s[SCORE] = tuple(sc)
            s[CTRL] = tuple(ctrl)
        s[UNITS] = tuple(locs)
        s[ACTIVE] = -1
        s[FOCUS] = -1
        s[FPASSED] = 0
        s[PRIO] = s[TURN]

    def resolve_top(s: list) -> None:
        card, ctl, u, d = s[CHAIN][-1]
        s[CHAIN] = s[CHAIN][:-1]
        if card == MOVE and s[UNITS][u] >= 0:
            locs = list(s[UNITS])
            locs[u] = d
            s[UNITS] = tuple(locs)
        s[PASSED] = 0
        if s[CHAIN]:
            holder = s[CHAIN][-1][1]
            s[PRIO] = holder if s[INGAME] >> holder & 1 else nxt(holder, s[INGAME])
        elif s[ACTIVE] >= 0:
            s[PRIO] = s[FOCUS]                          # the focus holder keeps focus; a new round of passes
            s[FPASSED] = 0
        else:
            s[PRIO] = s[TURN]

    def apply(s0: tuple, a: tuple) -> tuple:
        s = list(s0)
        p, kind = a[0], a[1]
        if kind == "concede":
            ingame = s[INGAME] & ~(1 << p)
            s[INGAME] = ingame
            s[UNITS] = tuple(-1 if owner[u] == p else loc for u, loc in enumerate(s[UNITS]))
            s[CHAIN] = tuple(it for it in s[CHAIN] if it[1] != p)
            s[PASSED] &= ingame
            s[FPASSED] &= ingame
            if s[TURN] == p:                             # the turn passes; anything ongoing ends
                s[TURN] = nxt(p, ingame)
                s[CHAIN] = ()
                s[ACTIVE] = s[FOCUS] = -1
                s[PRIO] = s[TURN]
            else:
                if s[FOCUS] == p:
                    s[FOCUS] = nxt(p, ingame)
                if s[PRIO] == p:
                    s[PRIO] = nxt(p, ingame)
                if s[CHAIN] and s[PASSED] & ingame == ingame:
                    resolve_top(s)
                elif not s[CHAIN]:                       # the chain emptied: back to the focus or turn holder
                    s[PASSED] = 0
                    if s[ACTIVE] >= 0 and s[FPASSED] & ingame == ingame:
                        end_showdown(s)
                    else:
                        s[PRIO] = s[FOCUS] if s[ACTIVE] >= 0 else s[TURN]
            if s[ACTIVE] >= 0 and not contested(s, s[ACTIVE]) and not s[CHAIN]:
                end_showdown(s)
        elif kind == "pass":
            if s[CHAIN]:
                s[PASSED] |= 1 << p
                if s[PASSED] & s[INGAME] == s[INGAME]:
                    resolve_top(s)
                else:
                    s[PRIO] = nxt(p, s[INGAME])
            else:
                s[FPASSED] |= 1 << p
                if s[FPASSED] & s[INGAME] == s[INGAME]:
                    end_showdown(s)
                else:
                    s[FOCUS] = s[PRIO] = nxt(p, s[INGAME])
        elif kind == "play":
            card, u, d = a[2], a[3], a[4]
            hands = list(s[HANDS])
            h = list(hands[p])
            h.remove(card)
            hands[p] = tuple(h)
            s[HANDS] = tuple(hands)
            if not s[CHAIN] and s[ACTIVE] >= 0:
                s[FPASSED] = 0                           # R3: a new chain restarts the focus passes
            s[CHAIN] = s[CHAIN] + ((card, p, u, d),)
            s[PASSED] = 0
            s[PRIO] = p                                  # priority to the newest item's controller
        elif kind == "move":
            locs = list(s[UNITS])
            locs[a[2]] = a[3]
            s[UNITS] = tuple(locs)
        elif kind == "end-turn":
            t = nxt(p, s[INGAME])
            s[TURN] = s[PRIO] = t
            s[ENDED] += 1
            sc = list(s[SCORE])                          # hold: the new turn player scores what they control
            sc[t] += sum(1 for c in s[CTRL] if c == t)
            s[SCORE] = tuple(sc)
        settle(s)
        return tuple(s)

    start = [0] * 14
    start[TURN], start[ENDED], start[INGAME], start[ACTIVE] = 0, 0, full, -1
    start[CHAIN], start[PRIO], start[PASSED], start[FOCUS], start[FPASSED] = (), 0, 0, -1, 0
    start[HANDS] = tuple(tuple(sorted(CARD_SETS[:k])) for _ in range(n))
    start[UNITS] = tuple(0 for _ in owner)
    start[CTRL] = tuple(-1 for _ in range(nbf))
    start[SCORE] = tuple(0 for _ in range(n))
    start[WINNER] = -1
    return tuple(start), legal, apply


def explore(n, k, units, nbf, turns, concede, max_states):
    start, legal, apply = make(n, k, units, nbf, concede)
    seen = set()
    fps, parent, via = array("Q"), array("l"), array("H")
    f0 = hash(start) & MASK
    seen.add(f0)
    fps.append(f0)
    parent.append(-1)
    via.append(0)
    queue = deque([(start, 0)])
    edges = terminal = bounded = 0
    violations = []
    c0 = time.process_time()
    gc.disable()
    while queue:
        s, idx = queue.popleft()
        acts = legal(s)
        # invariants: exactly one player can act (besides conceding); no deadlock; focus holder has priority
        if s[WINNER] < 0:
            actors = {a[0] for a in acts if a[1] != "concede"}
            if len(actors) != 1:
                violations.append(("one actor", idx))
            if s[ACTIVE] >= 0 and not s[CHAIN] and s[FOCUS] != s[PRIO]:
                violations.append(("focus priority", idx))
        else:
            terminal += 1
            continue
        if s[ENDED] >= turns or len(seen) >= max_states:
            bounded += 1
            continue
        for i, a in enumerate(acts):
            nstate = apply(s, a)
            edges += 1
            f = hash(nstate) & MASK
            if f in seen:
                continue
            seen.add(f)
            fps.append(f)
            parent.append(idx)
            via.append(i)
            queue.append((nstate, len(fps) - 1))
    gc.enable()
    cpu = time.process_time() - c0
    return len(seen), edges, terminal, bounded, cpu, violations


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int)
    ap.add_argument("k", type=int)
    ap.add_argument("--units", type=int, default=1)
    ap.add_argument("--bfs", type=int, default=2)
    ap.add_argument("--turns", type=int, default=2)
    ap.add_argument("--concede", action="store_true")
    ap.add_argument("--max", type=int, default=10**8)
    a = ap.parse_args()
    st, ed, te, bo, cpu, v = explore(a.n, a.k, a.units, a.bfs, a.turns, a.concede, a.max)
    print(f"lean n={a.n} k={a.k} units={a.units} bfs={a.bfs} turns={a.turns} concede={a.concede}: {st} states, "
          f"{ed} edges ({ed / st:.2f}/state), {te} terminal, {bo} bounded, {cpu:.2f} s CPU: {st / cpu:,.0f} states/s, "
          f"{ed / cpu:,.0f} edges/s, {cpu / ed * 1e6:.1f} us/edge; violations {len(v)}")


if __name__ == "__main__":
    main()
