"""List the real Riftbound cards riftsim models (by printed name), with their modelled effect.

Each card shows its type, energy cost, might, timing, keywords and the effect riftsim gives it in the
effect vocabulary (docs/keywords-and-resources.md), then what of the printed card is not modelled. Use a
printed name in a scenario as ``card: "Rune Prison"``.

examples:
  riftsim cards                 every real card, one line each
  riftsim cards "rune prison"   one card in full (names match without case; a unique prefix is enough)
  riftsim cards --keyword tank  the cards with a keyword
"""
from __future__ import annotations

import argparse

from simulator.core.cards import KEYWORDS, REAL, Card
from simulator.core.errors import RiftsimError


def effect_text(effect: tuple) -> str:
    """``(("stun", (("unit", "target"),)),)`` -> ``stun {unit: target}``."""
    return "; ".join(f"{verb} {{" + ", ".join(f"{f}: {v}" for f, v in fields) + "}" for verb, fields in effect)


def keywords_text(card: Card) -> str:
    return ", ".join(k if (v is None or (KEYWORDS[k][0] and v == KEYWORDS[k][1] and k != "accelerate"))
                     else f"{k} {v}" for k, v in card.keywords)


def modelled(card: Card) -> str:
    """The card's modelled behaviour in the effect vocabulary."""
    parts = []
    if card.effect:
        parts.append(effect_text(card.effect))
    for ab in card.abilities:
        how = f"on {ab.trigger[3:]}" if ab.trigger else "activated (exhaust)" if ab.activated else "static"
        parts.append(f"{ab.name}: {how}: {effect_text(ab.effect)}")
    return " | ".join(parts) or "no effect (keywords only)" if card.keywords else " | ".join(parts) or "no effect"


def line(card: Card) -> str:
    might = f", might {card.might}" if card.type == "unit" else ""
    timing = "" if card.timing == "normal" else f", {card.timing}"
    kw = keywords_text(card)
    return (f"{card.name}: {card.type}, cost {card.cost}{might}{timing}" + (f"; {kw}" if kw else "")
            + f" -- {modelled(card)}")


def find(name: str) -> list[Card]:
    """Cards whose printed name is ``name`` (any case), else those it begins."""
    q = name.casefold()
    exact = [c for c in REAL.values() if c.name.casefold() == q]
    return exact or [c for c in REAL.values() if c.name.casefold().startswith(q)]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", nargs="?", help="a printed card name (any case; a unique prefix is enough)")
    p.add_argument("--keyword", choices=tuple(KEYWORDS), help="only the cards with this keyword")


def run(args: argparse.Namespace) -> int:
    cards = sorted(REAL.values(), key=lambda c: c.name)
    if args.keyword:
        cards = [c for c in cards if any(k == args.keyword for k, _ in c.keywords)]
    if args.name:
        return _show(args.name, cards)
    for c in cards:
        print(line(c))
    print(f"{len(cards)} card{'s' if len(cards) != 1 else ''}")
    return 0


def _show(name: str, cards: list) -> int:
    """The one card ``name`` names among ``cards``: its line, summary, what is not modelled, how to use it."""
    found = [c for c in find(name) if c in cards]
    if not found:
        raise RiftsimError(f"no modelled card is named {name!r} (riftsim cards lists them)")
    if len(found) > 1:
        raise RiftsimError(f"{name!r} names {len(found)} cards: " + ", ".join(c.name for c in found))
    c = found[0]
    print(line(c))
    if c.text:
        print(f"  summary: {c.text}")
    print(f"  not modelled: {c.unmodelled or 'nothing (power costs aside)'}")
    print(f"  in a scenario: card: \"{c.name}\"")
    return 0
