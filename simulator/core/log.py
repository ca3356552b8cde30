"""Small helpers shared by the rule modules: firing a declared transition, and writing a trace line (a
transition's own line too: :func:`say`, which the generated code calls).

A trace line is written from a **template** with named fields, never from a pre-formatted text:

    log(g, "{unit} is stunned: it deals no combat damage this turn", "423.1", item.controller, unit=u.id)

The event keeps the template and its values, so the trace can be narrated in another language from
a message catalogue (:mod:`simulator.core.i18n`; the template is the catalogue's msgid). ``{player}``
is the event's player. A template chosen among several goes through :func:`N_` so that the extractor
finds it. Adding a sentence? Add its French entry too (tests/test_i18n.py says how).
"""
from __future__ import annotations

from statecharts.spec import T

from simulator.core.model import Event, State


def fire(g: State, leaf: str, trigger: str, inst: str | None = None, **ctx):
    """Fire a declared transition (the only way a machine changes state)."""
    return g.cfg.rt.fire_ctx(g, leaf, trigger, inst, ctx)


class Fields(dict):
    """Template values; an unknown ``{name}`` stays as written (a template is never a crash)."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def N_(template: str) -> str:
    """Marks a trace template chosen by the code (the message extractor reads it); returns it unchanged."""
    return template


def log(g: State, text: str, rule: str = "", player: str | None = None, detail: str = "", **values) -> None:
    """A trace line that is not a machine transition (an action, a card's effect): ``text`` is a template
    whose ``{fields}`` are ``values`` (and ``{player}``, the event's player)."""
    if g.events_on:
        fields = Fields(player=player, **values)
        g.trace.append(Event(g.step, text.format_map(fields), player, detail, rule,
                             template=text, values=tuple(fields.items())))


def say(g: State, t: T, leaf: str, inst: str | None, ctx: dict, at: int, rules: str) -> None:
    """The trace line of ``t`` (its ``say`` text), inserted at ``at``: before what its effects logged, worded
    after them."""
    values = {"bf": inst if inst in g.bfs else ctx.get("bf", g.active), "player": ctx.get("player"),
              "item": ctx.get("item"), "attacker": g.attacker, "defender": g.defender}
    g.trace.insert(at, Event(g.step, t.say.format_map(values), ctx.get("player"), "", rules,
                             leaf, t.source, t.dest, t.trigger, inst, t.say, tuple(values.items())))
