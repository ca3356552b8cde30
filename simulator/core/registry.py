"""Named guards and effects: the declarations refer to them by name.

A guard is ``f(state, instance, ctx) -> bool``; an effect is
``f(state, instance, ctx) -> None`` and may put values in ``ctx`` (for the trace).
A rule module marks its functions with :func:`guard` and :func:`effect`, each registered under its
function's own name (:func:`own_name`: ``def _all_passed`` is the guard ``all_passed``); nothing is registered by
importing it. :func:`register` installs the marked functions of the modules it is given (the rules
layer lists its modules in ``simulator.rules.MODULES``; ``simulator.rules.install()`` registers them).

>>> import types
>>> m = types.ModuleType("m")
>>> def always(g, inst, ctx): return True
>>> m.always = guard(always)
>>> register(m) and GUARDS["always"](None, None, {})
True
>>> del GUARDS["always"]
"""
from __future__ import annotations

from types import ModuleType
from typing import Callable, TypeVar, overload

F = TypeVar("F", bound=Callable)

GUARDS: dict[str, Callable] = {}
EFFECTS: dict[str, Callable] = {}


def own_name(fn: Callable) -> str:
    """The name a guard or effect is registered under: its function's name, less a leading ``_`` (a module's
    private function ``_all_passed`` is the guard ``all_passed``).

    >>> own_name(own_name), own_name(lambda: 0)
    ('own_name', '<lambda>')
    """
    return fn.__name__.lstrip("_")


def _mark(attr: str, fn_or_name):
    """``@guard`` marks the function under its own name; ``@guard("name")`` under the name given, which
    ``tests/test_declared_names.py`` requires to be the function's own (kept so that a module written before
    the default still imports)."""
    if isinstance(fn_or_name, str):
        def named(fn: F) -> F:
            setattr(fn, attr, fn_or_name)
            return fn
        return named
    setattr(fn_or_name, attr, own_name(fn_or_name))
    return fn_or_name


@overload
def guard(fn: F) -> F: ...
@overload
def guard(fn: str) -> Callable[[F], F]: ...
def guard(fn):
    """Mark ``fn`` as a guard, named after its function (:func:`own_name`; installed by :func:`register`)."""
    return _mark("guard_name", fn)


@overload
def effect(fn: F) -> F: ...
@overload
def effect(fn: str) -> Callable[[F], F]: ...
def effect(fn):
    """Mark ``fn`` as an effect, named after its function (:func:`own_name`; installed by :func:`register`)."""
    return _mark("effect_name", fn)


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
