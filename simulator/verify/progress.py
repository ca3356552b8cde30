"""What ``riftsim verify`` shows while it explores: the work done (states discovered, levels finished), with a rate.

Every search reports each breadth-first level it finishes (:func:`report`), wherever it runs: in this process
(one position, or the shards of one position), or in a worker process of the pool (forked after
:meth:`Progress.start`, so it inherits the queue). The parent draws one line from those reports: the states
discovered so far over every position, the positions done, the level of the largest search still running, the
rate in states per second and the elapsed time. A percentage and a time left are shown only when the expected
count is known (every position's ``explore: states:``, the count of its last run) and not yet passed: no estimate
is made from the number of positions, whose sizes differ by orders of magnitude.

On a terminal the line is redrawn in place; otherwise (a log, a pipe, CI) a plain line is printed every
``every`` seconds, so a long run shows it is alive without filling a log with carriage returns.
"""
from __future__ import annotations

import sys
import threading
import time

#: the queue the searches report their levels to while a :class:`Progress` runs (inherited by forked workers)
REPORT = None
#: seconds between two redraws on a terminal
REDRAW = 0.5
#: seconds between two lines when stderr is not a terminal (``riftsim verify --progress-every``)
EVERY = 30.0


def report(name: str, depth: int, states: int) -> None:
    """A search of position ``name`` finished level ``depth`` with ``states`` states discovered."""
    if REPORT is not None:
        REPORT.put((name, depth, states))


def expected(positions) -> int | None:
    """The states the searches are expected to discover: the sum of every position's last count (``explore:
    states:``, at most its state bound), or None when a position has none (then no estimate is shown)."""
    if not positions or not all(p.states for p in positions):
        return None
    return sum(min(p.states, p.max_states) for p in positions)


def duration(seconds: float) -> str:
    """``1:05:09``, ``4:07``, ``12 s``.

    >>> duration(12.4), duration(247), duration(3909)
    ('12 s', '4:07', '1:05:09')
    """
    s = int(seconds + 0.5)
    if s < 60:
        return f"{s} s"
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"


class Progress:
    """The progress line of one ``run_positions``: :meth:`start`, :meth:`done` per finished position,
    :meth:`close`. ``tty``: redraw one line in place; otherwise a line every ``every`` seconds."""

    def __init__(self, positions, *, tty: bool, every: float = EVERY, stream=None) -> None:
        self.sizes = {p.name: min(p.states, p.max_states) for p in positions}
        self.expected = expected(positions)
        self.total = len(positions)
        self.tty, self.every = tty, (REDRAW if tty else every)
        self.stream = stream if stream is not None else sys.stderr
        self.states: dict[str, int] = {}          # per position: states discovered so far
        self.levels: dict[str, int] = {}          # per position still running: the last level finished
        self.closed: set[str] = set()             # the positions done (a late report of theirs is ignored)
        self.finished = 0
        self.width = 0
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.t0 = time.monotonic()

    def start(self) -> Progress:
        global REPORT
        import multiprocessing as mp
        self.queue = mp.get_context("fork").Queue()
        REPORT = self.queue
        self.reader = threading.Thread(target=self._read, name="verify-progress", daemon=True)
        self.reader.start()
        return self

    def done(self, name: str, states: int) -> None:
        with self.lock:
            self.states[name] = states
            self.levels.pop(name, None)
            self.closed.add(name)
            self.finished += 1

    def close(self) -> None:
        global REPORT
        REPORT = None
        self.stop.set()
        self.reader.join()
        self.queue.close()
        self.queue.join_thread()
        if self.tty and self.width:
            self.stream.write("\r" + " " * self.width + "\r")      # the line goes: the results follow
            self.stream.flush()

    def _read(self) -> None:
        import queue
        last = time.monotonic()
        while not self.stop.is_set():
            try:
                name, depth, states = self.queue.get(timeout=0.1)
                with self.lock:
                    if name not in self.closed:
                        self.states[name], self.levels[name] = states, depth
            except queue.Empty:
                pass
            except (EOFError, OSError):                             # the queue closed under us: the run ended
                return
            if time.monotonic() - last >= self.every:
                last = time.monotonic()
                self._draw()

    def line(self) -> str:
        """``explore: 45,120 states (+1,230/s), 3/43 positions done, level 23 of seed-big, 37 s[; 45% of ~100,000
        expected, about 45 s left]``."""
        with self.lock:
            found = sum(self.states.values())
            running = sorted(self.levels, key=lambda n: -self.states.get(n, 0))
            counted = sum(min(s, self.sizes.get(n, s)) for n, s in self.states.items())
            finished = self.finished
        seconds = time.monotonic() - self.t0
        rate = found / seconds if seconds > 0 else 0.0
        text = f"explore: {found:,} states ({rate:,.0f}/s), {finished}/{self.total} positions done"
        if running:
            text += f", level {self.levels.get(running[0], 0)} of {running[0]}"
            if len(running) > 1:
                text += f" (+{len(running) - 1} running)"
        text += f", {duration(seconds)}"
        if self.expected and 0 < counted < self.expected:
            left = seconds * (self.expected - counted) / counted
            text += f"; {100 * counted // self.expected}% of ~{self.expected:,} expected, about {duration(left)} left"
        return text

    def _draw(self) -> None:
        text = self.line()
        if self.tty:
            import shutil
            text = text[:max(20, shutil.get_terminal_size((80, 24)).columns - 1)]     # one row: \r redraws it
            self.stream.write("\r" + text + " " * max(0, self.width - len(text)))
            self.width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
