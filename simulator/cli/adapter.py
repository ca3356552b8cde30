"""riftsim as an engine of the conformance protocol: the reference adapter (docs/conformance.md).

Reads one JSON request per line on stdin (setup, command, observe) and writes one JSON answer per line
on stdout, until the end of input. `riftsim conformance --engine "riftsim adapter"` passes every fixture:
it is the protocol's worked example, and the model an adapter for another engine follows.

examples:
  riftsim adapter < requests.jsonl
  riftsim conformance fixtures/ --engine "riftsim adapter"
"""
from __future__ import annotations

import argparse
import json
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--backend", choices=("compiled", "transitions"), default="compiled",
                   help="the machine backend the games run on (both give the same answers)")


def serve(lines, out, backend: str = "compiled") -> None:
    """Answer every request line of ``lines`` on ``out``, one JSON line each."""
    from simulator.scenario.conformance import Reference
    ref = Reference(backend)
    for line in lines:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except (ValueError, RecursionError) as e:
            answer = {"type": "error", "message": f"not a JSON line: {e}"}
        else:
            answer = ref.handle(req)
        out.write(json.dumps(answer) + "\n")
        out.flush()


def run(args: argparse.Namespace) -> int:
    serve(sys.stdin, sys.stdout, args.backend)
    return 0


if __name__ == "__main__":                  # python -m simulator.cli.adapter [--backend B]
    parser = argparse.ArgumentParser(prog="python -m simulator.cli.adapter", description=__doc__.split("\n")[0])
    add_arguments(parser)
    sys.exit(run(parser.parse_args()))
