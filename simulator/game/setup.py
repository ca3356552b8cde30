"""Building a starting position from a scenario's setup (spec/scenario-format.md)."""
from __future__ import annotations

import statecharts
from statecharts.rulings import SWITCHES
from statecharts.states import Control

from simulator.core import catalogue
from simulator.core.cards import Card, keyword_abilities, to_ability, to_keywords
from simulator.core.errors import ScenarioError
from simulator.core.machines import Runtime
from simulator.core.model import Battlefield, Config, State, Unit
from simulator.rules import install
from simulator.rules.zones import census

MODES = {"duel": (2, 8), "skirmish": (3, 8), "war": (4, 8), "magma-chamber": (4, 11)}
RULINGS = SWITCHES


def build(setup: dict, *, backend: str = "compiled", rulings: dict | None = None,
          cards: dict[str, Card] | None = None, where=lambda *path: "setup") -> State:
    """A :class:`State` in the first player's Main Phase, Neutral Open, that player holding priority."""
    mode = setup.get("mode", "duel")
    players = tuple(setup["players"])
    teams = _teams(setup, mode, players, where)
    merged = {**(setup.get("rulings") or {}), **(rulings or {})}
    res = setup.get("resources")
    cfg = Config(mode, players, teams, MODES[mode][1], dict(cards or catalogue.every()), merged,
                 resources=None if res is None else {p: int((res.get(p) or {}).get("runes", 0)) for p in players},
                 manual=setup.get("assign") == "manual", zones=bool(setup.get("zones")))
    install()                                        # the rules' named guards and effects
    cfg.rt = Runtime(backend)
    g = State(cfg)
    _machines(g, players)
    _battlefields(g, setup)
    _players(g, setup, players, teams)
    for entry in setup.get("units", []) or []:
        g.units[entry["id"]] = make_unit(entry, cfg.cards, "unit")
    for entry in setup.get("gear", []) or []:
        g.units[entry["id"]] = make_unit(entry, cfg.cards, "gear")
    zones(g, setup)
    g.priority = players[0]
    return g


def _teams(setup: dict, mode: str, players: tuple, where) -> tuple:
    """The mode's number of players, and its teams (magma-chamber: two of two, seated alternately, 489)."""
    size = MODES[mode][0]
    if len(players) != size:
        raise ScenarioError(where("players"), f"mode {mode} needs {size} players, got {len(players)}")
    teams = tuple(tuple(t) for t in setup.get("teams") or [(p,) for p in players])
    if mode == "magma-chamber":
        if len(teams) != 2 or any(len(t) != 2 for t in teams) or sorted(sum(teams, ())) != sorted(players):
            raise ScenarioError(where("teams"), "magma-chamber needs two teams of two of its players (489)")
        if any((players[i] in teams[0]) == (players[i + 1] in teams[0]) for i in range(3)):
            raise ScenarioError(where("players"), f"magma-chamber turn order alternates teams (489): "
                                                  f"{', '.join(players)} seats two teammates in a row")
    return teams


def _machines(g: State, players: tuple) -> None:
    """Every machine leaf of the game and of each player in its initial state."""
    for m in statecharts.MACHINES:
        for leaf in m.leaves():
            if leaf.per == "game":
                g.ms[(leaf.name, None)] = leaf.initial
            elif leaf.per == "player":
                for p in players:
                    g.ms[(leaf.name, p)] = leaf.initial


def _battlefields(g: State, setup: dict) -> None:
    """The battlefields, their abilities and machines, and who controls them."""
    for entry in setup.get("battlefields", []):
        if isinstance(entry, str):
            entry = {"name": entry}
        abilities = tuple(to_ability(a) for a in entry.get("abilities", []))
        b = Battlefield(entry["name"], entry.get("provider"), tuple(a for a in abilities if not a.static_might),
                        sum(a.static_might for a in abilities))
        g.bfs[b.name] = b
        for leaf in statecharts.BATTLEFIELD.leaves():
            g.ms[(leaf.name, b.name)] = leaf.initial
    for bf, p in (setup.get("control") or {}).items():
        if p is not None:
            g.bfs[bf].controller = p
            g.ms[("battlefield.control", bf)] = Control.Controlled


def _players(g: State, setup: dict, players: tuple, teams: tuple) -> None:
    """Each player's score (a team's on its first player), hand, energy and runes."""
    res = setup.get("resources")
    for p in players:
        g.score[p] = 0
        g.set_hand(p, [_entry(g.cfg, e) for e in (setup.get("hands") or {}).get(p, [])])
        g.energy[p] = int(((res or {}).get(p) or {}).get("energy", 0))
        if g.cfg.resources is not None:
            g.runes[p] = g.cfg.resources[p]
    for p, n in (setup.get("score") or {}).items():
        team = teams[[i for i, t in enumerate(teams) if p in t][0]]
        g.score[team[0]] = n


def _entry(cfg: Config, e) -> str:
    """A zone entry (Z1): a card id, or ``{id: ID, card: CARD}`` (its id is kept in ``cfg.ids``)."""
    if isinstance(e, dict):
        cfg.ids[e["id"]] = e["card"]
        return e["id"]
    return e


def zones(g: State, setup: dict) -> None:
    """Z1: the decks (``count`` cards, the ``top`` ones named, the rest blank cards), trash and banishment; a unit
    or gear declared without ``card:`` is an anonymous card named by its id (cost 0, its might and abilities)."""
    cfg = g.cfg
    if not cfg.zones:
        return
    for key in ("units", "gear"):
        for e in setup.get(key) or []:
            u = g.units[e["id"]]
            if u.card is None:
                cfg.cards[u.id] = Card(u.id, u.kind, might=u.might, abilities=u.abilities, keywords=u.keywords)
    for p, d in (setup.get("decks") or {}).items():
        count, top = (d, []) if isinstance(d, int) else (d["count"], d.get("top") or [])
        g.set_pile("deck", p, tuple([_entry(cfg, e) for e in top] + ["card"] * (count - len(top))))
    for zone in ("trash", "banished"):
        for p, cards in (setup.get(zone) or {}).items():
            g.set_pile(zone, p, tuple(_entry(cfg, e) for e in cards or []))
    cfg.start_cards = census(g)


def make_unit(entry: dict, cards: dict, kind: str) -> Unit:
    card = cards.get(entry.get("card")) if entry.get("card") else None
    might = entry.get("might", card.might if card else 0)
    abilities = tuple(to_ability(a) for a in entry.get("abilities", []) or []) or (card.abilities if card else ())
    abilities += keyword_abilities(entry.get("keywords"))
    keywords = to_keywords(entry["keywords"]) if entry.get("keywords") else (card.keywords if card else ())
    u = Unit(entry["id"], entry["owner"], entry.get("at", "base"), might, entry.get("controller"), abilities,
             entry.get("card"), kind, keywords)
    u.exhausted = bool(entry.get("exhausted", False))
    u.ward = bool(entry.get("ward", False))
    u.damage, u.stunned, u.buff = entry.get("damage", 0), bool(entry.get("stunned")), entry.get("buff", 0)
    if kind == "gear":
        u.at = "base"
    if entry.get("exhausted"):
        u.exhausted = True
    return u
