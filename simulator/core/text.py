"""What riftsim prints of text it was given (names, ids, descriptions, file names, input quoted in a refusal).

A terminal acts on some characters instead of showing them: a newline starts a line that was never printed
(a unit named ``"x\\n-- PASS"`` would forge a result line), ESC starts a control sequence (colours, cursor moves,
a window title), NUL and the other C0/C1 controls do what the terminal wants, and the bidirectional overrides
(U+202E...) reverse what follows on the line. :func:`shown` writes each of them visibly as its escape
(``\\n``, ``\\x1b``, ``\\x00``, ``\\u202e``), so a printed line says only what riftsim wrote. Every printer of
the command line uses it: on each line it prints of user-given text, and ``simulator.cli.main`` on everything
written to standard output (:class:`Shown`), the defence in depth for a printer that forgets.

>>> shown("North\\n-- PASS: 1 steps"), shown("a\\x1b[2Jb"), shown("evil\\u202etxt.yaml"), shown("Sémaphore")
('North\\\\n-- PASS: 1 steps', 'a\\\\x1b[2Jb', 'evil\\\\u202etxt.yaml', 'Sémaphore')
"""
from __future__ import annotations

import re
from typing import TextIO

#: C0 controls (tab and newline included), DEL, C1 controls, and the invisible characters that reorder or split a
#: line: the bidirectional marks, embeddings, overrides and isolates, the line and paragraph separators, BOM
HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")
#: the same without the newline: for a stream whose lines riftsim itself ends
_IN_LINES = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _visible(m: re.Match) -> str:
    c = m.group()
    return _NAMED.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")


def shown(text: object) -> str:
    """``text`` as one printable line: every control, escape, NUL, bidi override and line break written visibly."""
    s = str(text)
    return HIDDEN.sub(_visible, s) if HIDDEN.search(s) else s


def shown_lines(text: object) -> str:
    """``text`` with its own newlines kept and every other hidden character written visibly (:func:`shown`)."""
    s = str(text)
    return _IN_LINES.sub(_visible, s) if _IN_LINES.search(s) else s


class Shown:
    """A text stream that writes through :func:`shown_lines`: what riftsim prints reaches the terminal visibly."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(shown_lines(text))
        return len(text)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)
