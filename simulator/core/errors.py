"""Errors the simulator raises. Each carries a one-line message."""
from __future__ import annotations

from typing import TypeVar


class RiftsimError(Exception):
    """Base class."""


class IllegalAction(RiftsimError):
    """The rules forbid this action now. ``rule`` names the rule that forbids it."""

    def __init__(self, reason: str, rule: str) -> None:
        super().__init__(f"{reason} [{rule}]")
        self.reason = reason
        self.rule = rule


class ScenarioError(RiftsimError):
    """A scenario file is not valid: ``where`` is FILE:LINE."""

    def __init__(self, where: str, what: str) -> None:
        super().__init__(f"{where}: {what}")
        self.where = where
        self.what = what


class RulesBug(RiftsimError):
    """A declared machine was asked for a transition it does not have: a bug in the rules model."""


class Loop(RiftsimError):
    """A loop no player decision can end (ruling R22): the position repeated, modulo fresh ids and counters, with
    only forced steps between. ``rule`` cites the ruling; ``path`` is what happens in one round of the loop."""

    def __init__(self, what: str, rule: str, path: tuple[str, ...] = ()) -> None:
        super().__init__(f"{what} [{rule}]" + (f"; one round: {' / '.join(path)}" if path else ""))
        self.what, self.rule, self.path = what, rule, path


class TooCostly(RiftsimError):
    """A bounded computation (``actions.budget``) ran past its bound: hostile input, refused."""


_T = TypeVar("_T")


def need(value: _T | None, what: str) -> _T:
    """``value``, which the rules guarantee is set here (a field the action's kind requires, checked by
    ``game.actions.check``; the item being decided while one is): a ``None`` is a bug in the rules model.

    >>> need("North", "choose's battlefield")
    'North'
    """
    if value is None:
        raise RulesBug(f"{what} is not set")
    return value
