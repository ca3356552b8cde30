"""Building a starting position from a scenario's setup (spec/scenario-format.md)."""
from __future__ import annotations

import statecharts
from statecharts.rulings import SWITCHES
from statecharts.states import Control

from simulator.core.cards import CATALOGUE, KEYWORDS, Card, to_keywords
from simulator.core.errors import ScenarioError
from simulator.core.machines import Runtime
from simulator.core.model import Ability, Battlefield, Config, State, Unit
from simulator.rules import install
from simulator.rules.zones import census

MODES = {"duel": (2, 8), "skirmish": (3, 8), "war": (4, 8), "magma-chamber": (4, 11)}
RULINGS = SWITCHES


def build(setup: dict, *, backend: str = "compiled", rulings: dict | None = None,
          cards: dict[str, Card] | None = None, where=lambda *path: "setup") -> State:
    """A :class:`State` in the first player's Main Phase, Neutral Open, that player holding priority."""
    mode = setup.get("mode", "duel")
    players = tuple(setup["players"])
    size, victory = MODES[mode]
    if len(players) != size:
        raise ScenarioError(where("players"), f"mode {mode} needs {size} players, got {len(players)}")
    teams = tuple(tuple(t) for t in setup.get("teams") or [(p,) for p in players])
    if mode == "magma-chamber":
        if len(teams) != 2 or any(len(t) != 2 for t in teams) or sorted(sum(teams, ())) != sorted(players):
            raise ScenarioError(where("teams"), "magma-chamber needs two teams of two of its players (489)")
        if any((players[i] in teams[0]) == (players[i + 1] in teams[0]) for i in range(3)):
            raise ScenarioError(where("players"), f"magma-chamber turn order alternates teams (489): "
                                                  f"{', '.join(players)} seats two teammates in a row")
    merged = {**(setup.get("rulings") or {}), **(rulings or {})}
    res = setup.get("resources")
    cfg = Config(mode, players, teams, victory, dict(cards or CATALOGUE), merged,
                 resources=None if res is None else {p: int((res.get(p) or {}).get("runes", 0)) for p in players},
                 manual=setup.get("assign") == "manual", zones=bool(setup.get("zones")))
    install()                                        # the rules' named guards and effects
    cfg.rt = Runtime(backend)
    g = State(cfg)
    for m in statecharts.MACHINES:
        for leaf in m.leaves():
            if leaf.per == "game":
                g.ms[(leaf.name, None)] = leaf.initial
            elif leaf.per == "player":
                for p in players:
                    g.ms[(leaf.name, p)] = leaf.initial
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
    for p in players:
        g.score[p] = 0
        g.set_hand(p, [_entry(cfg, e) for e in (setup.get("hands") or {}).get(p, [])])
        g.energy[p] = int(((res or {}).get(p) or {}).get("energy", 0))
        if cfg.resources is not None:
            g.runes[p] = cfg.resources[p]
    for p, n in (setup.get("score") or {}).items():
        team = teams[[i for i, t in enumerate(teams) if p in t][0]]
        g.score[team[0]] = n
    for entry in setup.get("units", []) or []:
        g.units[entry["id"]] = make_unit(entry, cfg.cards, "unit")
    for entry in setup.get("gear", []) or []:
        g.units[entry["id"]] = make_unit(entry, cfg.cards, "gear")
    zones(g, setup)
    g.priority = players[0]
    return g


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
    if kind == "gear":
        u.at = "base"
    if entry.get("exhausted"):
        u.exhausted = True
    return u


def keyword_abilities(keywords) -> tuple:
    """808: ``{deathknell: [effects]}`` is an on-death ability named deathknell."""
    out = []
    for k in keywords or []:
        if isinstance(k, dict) and "deathknell" in k:
            out.append(Ability("deathknell", "on-death", effect=to_effect(k["deathknell"])))
    return tuple(out)


def to_condition(v) -> tuple:
    """``if:``: a name, a one-key mapping ``{might-at-least: 5}``, or a list of them (all must hold)."""
    if v is None:
        return ()
    items = v if isinstance(v, list) else [v]
    out = []
    for c in items:
        if isinstance(c, dict):
            (name, arg), = c.items()
            out.append((name, arg))
        else:
            out.append((c, None))
    return tuple(out)


def _keyword(v) -> tuple:
    """give-keyword's ``keyword``, ``assault`` or ``{assault: 3}``, as ``("assault", 1)`` or ``("assault", 3)``:
    a numbered keyword without its number has its default (1); ``("tank", None)`` for the others. (The
    validator refuses a bad one, naming its line; custom cards are built before that check.)"""
    if isinstance(v, str):
        return (v, KEYWORDS[v][1] if v in KEYWORDS else None)
    return next(iter(v.items())) if isinstance(v, dict) and len(v) == 1 else v


def to_effect(steps) -> tuple:
    """``[{verb: {field: value}, if: ..., may: true}, ...]`` -> ``((verb, ((field, value), ...)), ...)``; an
    entry's ``if`` and ``may`` become its fields ``("if", condition)`` and ``("may", True)``."""
    out = []
    for s in steps or []:
        verb = next(k for k in s if k not in ("if", "may"))
        fields = tuple((f, _keyword(v) if f == "keyword" else v) for f, v in (s[verb] or {}).items())
        if "if" in s:
            fields += (("if", to_condition(s["if"])),)
        if s.get("may"):
            fields += (("may", True),)
        out.append((verb, fields))
    return tuple(out)


def to_ability(a: dict) -> Ability:
    static = (a.get("static") or {}).get("might", 0)
    return Ability(a["name"], a.get("trigger"), bool(a.get("activated")), to_effect(a.get("effect")), static,
                   condition=to_condition(a.get("if")), once=bool(a.get("once-per-turn")),
                   speed=a.get("speed", "normal"), exhaust=bool(a.get("exhaust")), by=a.get("by", "any"),
                   cost=int(a.get("cost", 0)), play_from=(a.get("static") or {}).get("may-play-from", ""))


def to_card(cid: str, d: dict) -> Card:
    abilities = tuple(to_ability(a) for a in d.get("abilities", []) or []) + keyword_abilities(d.get("keywords"))
    return Card(cid, d.get("type", "spell"), d.get("timing", "normal"), to_effect(d.get("effect")),
                int(d.get("might", 0)), abilities, d.get("text", ""), bool(d.get("friendly", False)),
                cost=int(d.get("cost", 0)), keywords=to_keywords(d.get("keywords")),
                trash_cost=None if "play-from-trash" not in d else int((d["play-from-trash"] or {}).get("energy", 0)))
