"""The rule titles the viewer shows: they are declared in :mod:`statecharts.titles` (one table, also read
by ``riftsim rules``); this module keeps the viewer's import."""
from __future__ import annotations

from statecharts.titles import TITLES, title, titles

__all__ = ["TITLES", "title", "titles"]
