"""List the real Riftbound cards riftsim knows (by printed name), with their facts and modelled effect.

Each card shows its type, energy cost, might, timing, keywords and the effect riftsim gives it in the
effect vocabulary (docs/keywords-and-resources.md), then what of the printed card is not modelled, named by
the vocabulary item it needs (docs/cards.md). A card is fully modelled, partly, or not modelled. Use a
printed name of a unit, spell or gear in a scenario as ``card: "Rune Prison"``.

examples:
  riftsim cards                       every card, one line each
  riftsim cards "rune prison"         one card in full (names match without case; a unique prefix is enough)
  riftsim cards --set origins         the cards of one set (origins, proving-grounds, unsorted)
  riftsim cards --keyword tank        the cards with a printed keyword
  riftsim cards --partial --set origins   the partly modelled cards of a set (--modelled: fully, --unmodelled: not)
  riftsim cards --json                the facts and models as JSON
  riftsim cards --coverage            per set, how many cards are fully, partly and not modelled, and what is missing
  riftsim cards --coverage --markdown the same as the tables of docs/cards.md
"""
from __future__ import annotations

import argparse
import json

from simulator.core.cards import KEYWORDS
from simulator.core.errors import RiftsimError

#: a status's words in listings
SAID = {"full": "fully modelled", "partial": "partly modelled", "none": "not modelled"}


def _value(v) -> str:
    """A field's value as written: a given keyword ``("assault", 3)`` as ``{assault: 3}``, ``("tank", None)`` as
    ``tank``; a condition as its names."""
    if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str):
        return v[0] if v[1] is None else f"{{{v[0]}: {v[1]}}}"
    if isinstance(v, tuple):
        return ", ".join(_value(x) for x in v)
    return str(v).lower() if isinstance(v, bool) else str(v)


def effect_text(effect: tuple) -> str:
    """``(("stun", (("unit", "target"),)),)`` -> ``stun {unit: target}``."""
    return "; ".join(f"{verb} {{" + ", ".join(f"{f}: {_value(v)}" for f, v in fields) + "}" for verb, fields in effect)


def keywords_text(keywords: tuple) -> str:
    return ", ".join(k if (v is None or (KEYWORDS[k][0] and v == KEYWORDS[k][1] and k != "accelerate"))
                     else f"{k} {v}" for k, v in keywords)


def abilities_text(abilities: tuple) -> list[str]:
    out = []
    for ab in abilities:
        how = f"on {ab.trigger[3:]}" if ab.trigger else "activated (exhaust)" if ab.activated else "static"
        out.append(f"{ab.name}: {how}: {effect_text(ab.effect) if ab.effect else f'might {ab.static_might:+d}'}")
    return out


def modelled(e) -> str:
    """The entry's modelled behaviour in the effect vocabulary."""
    card = e.card
    parts = ([effect_text(card.effect)] if card and card.effect else []) + abilities_text(
        (card.abilities if card else ()) + e.battlefield)
    if parts:
        return " | ".join(parts)
    return "no effect (keywords only)" if e.keywords else "no effect"


def line(e) -> str:
    """``NAME: type, cost N, might M, timing; keywords -- model`` and, unless fully modelled, its status."""
    from simulator.core import catalogue
    if e.kind in ("legend", "battlefield", "rune"):
        head = f"{e.name}: {e.kind}"
    else:
        might = f", might {e.might}" if e.might is not None else ""
        timing = "" if e.timing == "normal" else f", {e.timing}"
        head = f"{e.name}: {e.kind}, cost {e.cost}{might}{timing}"
    kw = keywords_text(e.keywords)
    state = catalogue.status(e)
    return head + (f"; {kw}" if kw else "") + f" -- {modelled(e)}" + ("" if state == "full" else f" [{SAID[state]}]")


def find(name: str, among: list) -> list:
    """Entries whose printed name is ``name`` (any case), else those it begins."""
    q = name.casefold()
    exact = [e for e in among if e.name.casefold() == q]
    return exact or [e for e in among if e.name.casefold().startswith(q)]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", nargs="?", help="a printed card name (any case; a unique prefix is enough)")
    p.add_argument("--set", dest="set_id", metavar="SET", help="only the cards of this set (origins, proving-grounds, "
                                                                "unsorted)")
    p.add_argument("--keyword", metavar="KEYWORD", help="only the cards with this printed keyword (tank, deflect...)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--modelled", dest="status", action="store_const", const="full", help="only fully modelled")
    which.add_argument("--partial", dest="status", action="store_const", const="partial", help="only partly modelled")
    which.add_argument("--unmodelled", dest="status", action="store_const", const="none", help="only not modelled")
    p.add_argument("--json", action="store_true", help="print the selected cards as JSON")
    p.add_argument("--coverage", action="store_true",
                   help="per set, how many cards are fully, partly and not modelled, and the missing vocabulary")
    p.add_argument("--markdown", action="store_true", help="with --coverage: as the Markdown tables of docs/cards.md")


def selected(args: argparse.Namespace) -> list:
    """The entries the filters select, in catalogue order (set, then collector number)."""
    from simulator.core import catalogue
    every = list(catalogue.entries().values())
    if args.set_id is not None and args.set_id not in catalogue.sets():
        raise RiftsimError(f"unknown set {args.set_id!r} (sets: {', '.join(catalogue.sets())})")
    out = [e for e in every if args.set_id in (None, e.set)]
    if args.keyword:
        out = _with_keyword(args.keyword, out, every)
    if args.status:
        out = [e for e in out if catalogue.status(e) == args.status]
    return out


def _with_keyword(keyword: str, out: list, every: list) -> list:
    """The entries of ``out`` printing ``keyword``; a keyword no card prints is refused, naming those printed."""
    k = keyword.casefold()
    known = {e.name: printed_keywords(e) for e in every}
    if not any(k in ks for ks in known.values()):
        words = sorted(set().union(*known.values()))
        raise RiftsimError(f"no card has the keyword {keyword!r} (printed keywords: {', '.join(words)})")
    return [e for e in out if k in known[e.name]]


def printed_keywords(e) -> set[str]:
    """The names of the entry's printed keywords, modelled (``keywords``) or not (``other-keywords``)."""
    other = {o.split(":")[0].strip("{' ").split(" ")[0].casefold() for o in e.other_keywords}
    return {n for n, _ in e.keywords} | {n for n, _ in (e.card.keywords if e.card else ())} | other


def as_json(e) -> dict:
    from simulator.core import catalogue
    return {"name": e.name, "set": e.set, "number": e.number, "kind": e.kind, "domains": list(e.domains),
            "cost": e.cost, "power": e.power, "might": e.might, "timing": e.timing,
            "keywords": [k if v is None else {k: v} for k, v in e.keywords], "other_keywords": list(e.other_keywords),
            "status": catalogue.status(e), "model": modelled(e), "text": e.text,
            "unmodelled": [{"id": i, "item": name, "detail": part.strip()} for part in e.unmodelled.split(";")
                           if part.strip() for i, name in [catalogue.item(part)]],
            "rulings": list(e.rulings)}


def show_one(e) -> None:
    from simulator.core import catalogue
    print(line(e))
    print(f"  card: {'; '.join(_facts(e))}" + (f"; also printed: {', '.join(e.other_keywords)}" if e.other_keywords
                                              else ""))
    if e.text:
        print(f"  summary: {e.text}")
    print(f"  {SAID[catalogue.status(e)]}" + "".join(f"\n  not modelled: {part.strip()}" for part in
                                                     e.unmodelled.split(";") if part.strip()))
    for r in e.rulings:
        print(f"  ruling: {r}")
    if e.card is not None:
        print(f"  in a scenario: card: \"{e.name}\"")


def _facts(e) -> list[str]:
    """Where the card is printed (set, code and number), its domains, its power."""
    from simulator.core import catalogue
    meta = catalogue.sets()[e.set]
    where = f"{meta['name']}" + (f" {meta['code']}-{e.number:03d}" if e.number and meta.get("code") else "")
    return [where] + ([", ".join(e.domains)] if e.domains else []) + ([f"power {e.power}"] if e.power else [])


def coverage_rows() -> tuple[list, list]:
    """(per-set rows, missing-item rows): ``(set, cards, full, partial, none)`` and ``(id, name, needed, alone)``."""
    from simulator.core import catalogue
    per_set, needed, alone = catalogue.coverage()
    rows = []
    for sid, n in per_set.items():
        meta = catalogue.sets()[sid]
        rows.append((meta["name"] + (f" ({meta['code']})" if meta.get("code") else ""), sum(n.values()),
                     n["full"], n["partial"], n["none"]))
    rows.append(("all", sum(r[1] for r in rows), sum(r[2] for r in rows), sum(r[3] for r in rows),
                 sum(r[4] for r in rows)))
    items = sorted(needed, key=lambda k: (-alone[k], -needed[k], k))
    return rows, [(i, name, needed[(i, name)], alone[(i, name)]) for i, name in items]


def coverage_text(markdown: bool) -> str:
    rows, items = coverage_rows()
    unlock = [r for r in items if r[0] != "OOS"]
    if markdown:
        out = ["| set | cards | fully modelled | partly | not modelled | fully or partly |", "|---|---|---|---|---|---|"]
        out += [f"| {s} | {n} | {f} | {p} | {x} | {100 * (f + p) / n:.0f}% |" for s, n, f, p, x in rows]
        out += ["", "| rank | item | what | cards that need it | cards it alone would complete |", "|---|---|---|---|---|"]
        out += [f"| {k} | {i} | {name} | {need} | {alone} |" for k, (i, name, need, alone) in enumerate(unlock[:10], 1)]
        return "\n".join(out) + "\n"
    w = max(len(r[0]) for r in rows)
    out = [f"{'set':<{w}} {'cards':>5} {'fully':>6} {'partly':>6} {'not':>5}"]
    out += [f"{s:<{w}} {n:>5} {f:>6} {p:>6} {x:>5}" for s, n, f, p, x in rows]
    out += ["", "missing vocabulary (cards that need it, cards it alone would make fully modelled):"]
    out += [f"  {i:<4} {name:<46} {need:>4} {alone:>4}" for i, name, need, alone in items]
    return "\n".join(out) + "\n"


def _named(name: str, cards: list) -> list:
    """The one card called ``name``; none or several is refused."""
    found = find(name, cards)
    if not found:
        raise RiftsimError(f"no card riftsim knows is named {name!r} (riftsim cards lists them)")
    if len(found) > 1:
        raise RiftsimError(f"{name!r} names {len(found)} cards: " + ", ".join(c.name for c in found))
    return found


def run(args: argparse.Namespace) -> int:
    if args.markdown and not args.coverage:
        raise RiftsimError("--markdown goes with --coverage")
    if args.coverage:
        print(coverage_text(args.markdown), end="")
        return 0
    cards = selected(args)
    if args.name:
        cards = _named(args.name, cards)
        if not args.json:
            show_one(cards[0])
            return 0
    if args.json:
        print(json.dumps([as_json(e) for e in cards], indent=1, ensure_ascii=False))
        return 0
    for e in cards:
        print(line(e))
    print(f"{len(cards)} card{'s' if len(cards) != 1 else ''}")
    return 0
