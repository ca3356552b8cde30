"""Named guards and effects: the declarations refer to them by name.

A guard is ``f(state, instance, ctx) -> bool``; an effect is
``f(state, instance, ctx) -> None`` and may put values in ``ctx`` (for the trace).
Modules register theirs with :func:`guard` and :func:`effect`.
"""
from __future__ import annotations

from typing import Callable

GUARDS: dict[str, Callable] = {}
EFFECTS: dict[str, Callable] = {}


def guard(name: str):
    def deco(fn):
        GUARDS[name] = fn
        return fn
    return deco


def effect(name: str):
    def deco(fn):
        EFFECTS[name] = fn
        return fn
    return deco
