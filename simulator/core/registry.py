"""Named guards and effects: the declarations refer to them by name.

A guard is ``f(state, instance, ctx) -> bool``; an effect is
``f(state, instance, ctx) -> None`` and may put values in ``ctx`` (for the trace).
A rule module marks its functions with :func:`guard` and :func:`effect`; nothing is registered by
importing it. :func:`register` installs the marked functions of the modules it is given (the rules
layer lists its modules in ``simulator.rules.MODULES``; ``simulator.rules.install()`` registers them).

>>> import types
>>> m = types.ModuleType("m")
>>> m.f = guard("always")(lambda g, inst, ctx: True)
>>> register(m) and GUARDS["always"](None, None, {})
True
>>> del GUARDS["always"]
"""
from __future__ import annotations

from types import ModuleType
from typing import Callable, TypeVar

F = TypeVar("F", bound=Callable)

GUARDS: dict[str, Callable] = {}
EFFECTS: dict[str, Callable] = {}


def guard(name: str) -> Callable[[F], F]:
    """Mark ``fn`` as the guard ``name`` (installed by :func:`register`)."""
    def deco(fn: F) -> F:
        fn.guard_name = name  # type: ignore[attr-defined]
        return fn
    return deco


def effect(name: str) -> Callable[[F], F]:
    """Mark ``fn`` as the effect ``name`` (installed by :func:`register`)."""
    def deco(fn: F) -> F:
        fn.effect_name = name  # type: ignore[attr-defined]
        return fn
    return deco


def register(*modules: ModuleType) -> int:
    """Install the guards and effects marked in ``modules``; a name marked twice is an error. Idempotent
    (registering a module again installs the same functions). Returns how many names it installed."""
    seen: dict[str, str] = {}
    n = 0
    for mod in modules:
        for fn in vars(mod).values():
            for attr, table in (("guard_name", GUARDS), ("effect_name", EFFECTS)):
                name = getattr(fn, attr, None)
                if not isinstance(name, str) or not callable(fn):
                    continue
                where = f"{fn.__module__}.{fn.__qualname__}"   # imported elsewhere: the same function
                key = f"{attr}:{name}"
                if key in seen and seen[key] != where:
                    raise ValueError(f"{name!r} is marked twice: {seen[key]} and {where}")
                seen[key] = where
                table[name] = fn
                n += 1
    return n
