"""The ``riftsim`` command: simulate, diagrams, verify, and friends.

Each subcommand lives in its own module, which provides ``add_arguments(parser)``
and ``run(args) -> int``. Errors never show a traceback: they print one line.
Ctrl-C from the first instant (while the modules load too) ends it with one line and exit 130.
"""
from __future__ import annotations

import os
import signal
import sys


def _interrupted_at_start(signum, frame):
    """Ctrl-C while the command loads (nothing to clean up yet): one line, exit 130 at once. Not an exception:
    one raised there can land in a callback that swallows it (Python prints "Exception ignored" and goes on)."""
    os.write(2, b"riftsim: interrupted\n")
    os._exit(130)


def _catch_early_interrupt() -> None:
    """Ctrl-C while the command loads ends it quietly: set as this module is imported by the command (the
    ``riftsim`` script or ``python -m simulator.cli.main``; a program importing it keeps its Ctrl-C until it calls
    :func:`main`), unless someone set a handler of their own (or this is not the main thread)."""
    command = __name__ == "__main__" or os.path.basename(sys.argv[0]) == "riftsim"
    if command and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        try:
            signal.signal(signal.SIGINT, _interrupted_at_start)
        except ValueError:                    # not the main thread
            pass


_catch_early_interrupt()

import argparse  # noqa: E402 - after the handler: Ctrl-C while these load is handled
import importlib  # noqa: E402

from simulator.core.errors import RiftsimError  # noqa: E402
from simulator.core.text import Shown, shown  # noqa: E402

COMMANDS = {
    "simulate": ("simulator.cli.simulate", "run scenario files and print their traces"),
    "examples": ("simulator.cli.examples", "list the bundled scenarios, print one, or copy them into a folder"),
    "new": ("simulator.cli.new", "print a commented starting scenario for a mode (duel, skirmish, war, magma-chamber)"),
    "diagrams": ("simulator.cli.diagrams", "export every statechart as DOT and SVG into diagrams/"),
    "generate": ("simulator.cli.generate", "write the code generated from the declarations into simulator/core/compiled/"),
    "verify": ("simulator.verify.command", "check the statecharts and explore the simulator's state space"),
    "play": ("simulator.cli.play", "play a position interactively: type actions, see trace, state, legal actions"),
    "rules": ("simulator.cli.rules", "a rule's title, the declarations that implement it, the scenarios that exercise it"),
    "cards": ("simulator.cli.cards", "list the real Riftbound cards riftsim models, with their modelled effect"),
    "compare": ("simulator.cli.compare", "run a scenario under two readings (--ruling) and show where they part"),
    "schema": ("simulator.cli.schema", "print the JSON Schema of scenario files, for editors"),
    "approve": ("simulator.verify.approve", "approve the golden traces of the bundled scenarios (tests/golden/)"),
    "export": ("simulator.cli.export", "export scenarios as engine-neutral conformance fixtures (JSON)"),
    "conformance": ("simulator.cli.conformance", "check another Riftbound engine against the fixtures, via its adapter"),
    "adapter": ("simulator.cli.adapter", "riftsim as an engine of the conformance protocol (JSON lines on stdin/stdout)"),
    "site": ("simulator.cli.site", "build the playground: a static site that runs riftsim in the browser, offline"),
    "mutate": ("simulator.verify.mutate", "mutation testing: break each declared transition once, count what the tests notice"),
}


def version() -> str:
    """The installed distribution's version (pyproject.toml)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version
    try:
        return dist_version("riftsim")
    except PackageNotFoundError:
        return "unknown (not installed)"


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line; only ``command``'s module is imported (its options), the others are named with their
    help (so ``riftsim --version`` and each command start without loading the rest)."""
    p = argparse.ArgumentParser(
        prog="riftsim",
        description="Reference simulator of the Riftbound TCG timing rules (Core Rules v1.4).",
        epilog="examples:\n  riftsim examples --copy scenarios      (the bundled scenarios, into ./scenarios)\n"
               "  riftsim simulate scenarios/*.yaml",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action=_Version, nargs=0, default=argparse.SUPPRESS,
                   help="show riftsim's version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, helptext) in COMMANDS.items():
        if name != command:
            sub.add_parser(name, help=helptext)
            continue
        mod = importlib.import_module(module)
        sp = sub.add_parser(name, help=helptext, description=mod.__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(sp)
        sp.set_defaults(_run=mod.run)
    return p


class _Version(argparse.Action):
    """``--version``: the version is looked up only when asked for (importlib.metadata costs a fifth of a start)."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"riftsim {version()}")
        parser.exit()


def _command(argv: list[str]) -> str | None:
    """The subcommand ``argv`` names: its first word that is not an option (riftsim's own options take no value)."""
    return next((a for a in argv if not a.startswith("-")), None)


class Terminated(BaseException):
    """SIGTERM, raised in the main thread so that ``with`` blocks (worker pools, temporary files) clean up."""


def _on_sigterm(signum, frame):
    raise Terminated()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    previous = signal.signal(signal.SIGTERM, _on_sigterm) if _main_thread() else None
    out, sys.stdout = sys.stdout, Shown(sys.stdout)     # nothing a file holds reaches the terminal raw
    try:
        p, args = _loaded(argv)
        if not getattr(args, "_run", None):
            p.print_help()
            return 2
        return args._run(args)
    except RiftsimError as e:
        print(f"riftsim: {shown(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:                  # Ctrl-C: workers stopped, no output half-written
        _quiet_exit("riftsim: interrupted")
        return 130
    except Terminated:
        _quiet_exit("riftsim: terminated")
        return 143
    except BrokenPipeError:                 # e.g. `riftsim rules | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:                       # a path the system refuses (too long, a folder, no space...)
        return _refused_path(e)
    except Exception as e:                  # a bug in riftsim itself: one line, the traceback on request
        return _internal_error(e)
    finally:
        if isinstance(sys.stdout, Shown):
            sys.stdout = out
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _refused_path(e: OSError) -> int:
    """A path the system refuses, in one line (2); with RIFTSIM_DEBUG, an OSError of riftsim's own re-raised."""
    if e.errno is None and os.environ.get("RIFTSIM_DEBUG"):
        raise                                   # the OSError being handled, its traceback intact
    print(shown(f"riftsim: {e.filename or ''}{': ' if e.filename else ''}{e.strerror or e}"), file=sys.stderr)
    return 2


def _internal_error(e: Exception) -> int:
    """A bug in riftsim itself, in one line (3); with RIFTSIM_DEBUG, re-raised with its traceback."""
    if os.environ.get("RIFTSIM_DEBUG"):
        raise                                   # the exception being handled, its traceback intact
    text = str(e).strip().splitlines()          # a worker's error carries its traceback: its last line
    print(shown(f"riftsim: internal error: {type(e).__name__}: {text[-1] if text else ''} ")
          + "(set RIFTSIM_DEBUG=1 for the traceback)", file=sys.stderr)
    return 3


def _loaded(argv: list[str]) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """The parser (the named command's module loaded) and the arguments, Ctrl-C meanwhile ending the command at
    once (:func:`_interrupted_at_start`); then Ctrl-C is a KeyboardInterrupt again, which the run cleans up after."""
    before = signal.getsignal(signal.SIGINT)
    ours = _main_thread() and before in (signal.default_int_handler, _interrupted_at_start)   # (not a caller's own)
    if ours:
        signal.signal(signal.SIGINT, _interrupted_at_start)
    try:
        p = parser(_command(argv))
        return p, p.parse_args(argv)
    finally:
        if ours:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def _main_thread() -> bool:
    import threading
    return threading.current_thread() is threading.main_thread()


def _quiet_exit(line: str) -> None:
    """One line on stderr; further Ctrl-C or SIGTERM during the exit are ignored (no second traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    print(line, file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
