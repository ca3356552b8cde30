"""Where the shards of a search (:class:`simulator.verify.explore.Shard`) run: the transports.

Each transport builds ``n`` :class:`~simulator.verify.explore.Shard` objects and calls their methods:
``call_all(method, *args)`` on every shard at once (results in shard order), ``call_each(method, args)``
with one argument per shard, ``call_one(i, method, *args)``. Between shards travel only bytes (fingerprints
and orders as flat arrays, the frontier states a rebalance moves, pickled).

* :class:`InProcess`: the shards in this process, one after another (tests: same results, no parallelism);
* :class:`Processes`: one forked process per shard (``riftsim verify --jobs N`` on one machine);
* :class:`DaskActors`: one Dask actor per shard on a Dask distributed cluster (``riftsim verify --cluster
  tcp://HOST:8786``; the ``cluster`` extra installs Dask, docs/cluster.md says how to run a cluster).
"""
from __future__ import annotations

import os
import traceback

from simulator.core.errors import RiftsimError


class InProcess:
    local = True                   # the shards run in this process: the search's CPU time is this process's

    def __init__(self, n: int, make) -> None:
        self.n = n
        self.shards = [make(i) for i in range(n)]

    def call_all(self, method: str, *args):
        return [getattr(s, method)(*args) for s in self.shards]

    def call_each(self, method: str, args: list):
        return [getattr(s, method)(a) for s, a in zip(self.shards, args)]

    def call_one(self, i: int, method: str, *args):
        return getattr(self.shards[i], method)(*args)

    def close(self) -> None:
        self.shards = []

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class ShardError(RuntimeError):
    """A shard's method raised: the worker's traceback."""


def worker_start() -> None:
    """In each worker: Ctrl-C is the parent's to handle (it terminates the pool), SIGTERM ends the worker
    silently, and the worker dies with its parent even if the parent is killed outright (Linux prctl)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)       # PR_SET_PDEATHSIG
    except (OSError, AttributeError):                    # pragma: no cover - not Linux
        pass
    if os.getppid() == 1:                                # the parent died before prctl took effect
        os._exit(0)


def _serve(conn, make, i: int) -> None:
    """A worker process: build shard ``i``, then run the methods the coordinator sends until told to stop."""
    worker_start()
    import gc
    gc.disable()                   # a search's worker: long-lived objects, no cycles (as explore does)
    try:
        shard = make(i)
        conn.send(("ok", None))
        while True:
            msg = conn.recv()
            if msg is None:
                return
            method, args = msg
            try:
                conn.send(("ok", getattr(shard, method)(*args)))
            except RiftsimError as e:        # bad input (a damaged checkpoint...): raised as itself, one line
                conn.send(_as_itself(e))
            except Exception:  # noqa: BLE001 - reported to the coordinator, which raises it
                conn.send(("error", traceback.format_exc()))
    except Exception:  # noqa: BLE001
        conn.send(("error", traceback.format_exc()))
    except (EOFError, KeyboardInterrupt):
        return


def _as_itself(e: Exception) -> tuple:
    """A worker's error to raise in the coordinator as itself when it pickles both ways, else its traceback."""
    import pickle
    try:
        pickle.loads(pickle.dumps(e))
    except Exception:  # noqa: BLE001
        return ("error", traceback.format_exc())
    return ("raise", e)


class Processes(InProcess):
    """One forked worker process per shard, talking to this one through pipes."""

    local = False

    def __init__(self, n: int, make) -> None:
        import multiprocessing as mp
        ctx = mp.get_context("fork")
        self.n = n
        self.conns, self.procs = [], []
        try:
            for i in range(n):
                a, b = ctx.Pipe()
                p = ctx.Process(target=_serve, args=(b, make, i), daemon=True)
                p.start()
                b.close()
                self.conns.append(a)
                self.procs.append(p)
            for c in self.conns:
                self._recv(c)
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _recv(c):
        try:
            kind, value = c.recv()
        except EOFError:
            raise ShardError("a shard's worker process ended") from None
        if kind == "error":
            raise ShardError(value)
        if kind == "raise":
            raise value
        return value

    def call_all(self, method: str, *args):
        for c in self.conns:
            c.send((method, args))
        return [self._recv(c) for c in self.conns]

    def call_each(self, method: str, args: list):
        for c, a in zip(self.conns, args):
            c.send((method, (a,)))
        return [self._recv(c) for c in self.conns]

    def call_one(self, i: int, method: str, *args):
        self.conns[i].send((method, args))
        return self._recv(self.conns[i])

    def close(self) -> None:
        for c in self.conns:
            try:
                c.send(None)
            except (OSError, ValueError):
                pass
        for p in self.procs:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()
                p.join()
        for c in self.conns:
            c.close()
        self.conns, self.procs = [], []


class DaskActors(InProcess):
    """One Dask actor per shard, spread over the cluster's workers (``client``: a ``distributed.Client``)."""

    local = False

    def __init__(self, client, n: int, make) -> None:
        workers = sorted(client.scheduler_info()["workers"])
        if not workers:
            raise ShardError("the Dask cluster has no workers")
        self.n = n
        futures = [client.submit(_Actor, make, i, actor=True, workers=[workers[i % len(workers)]], pure=False)
                   for i in range(n)]
        self.futures = futures                     # an actor lives as long as its future is held
        self.actors = [f.result() for f in futures]

    def call_all(self, method: str, *args):
        futures = [a.call(method, *args) for a in self.actors]
        return [f.result() for f in futures]

    def call_each(self, method: str, args: list):
        futures = [a.call(method, x) for a, x in zip(self.actors, args)]
        return [f.result() for f in futures]

    def call_one(self, i: int, method: str, *args):
        return self.actors[i].call(method, *args).result()

    def close(self) -> None:
        self.actors, self.futures = [], []


class _Actor:
    """A shard in a Dask worker. Each of its methods runs with the cyclic garbage collector off, as in the forked
    workers (``_serve``): a shard holds millions of long-lived objects and makes no cycles, and the collections
    over them cost a Dask worker about 1.5x the shard's own CPU (measured on the 4-player cut at depth 11: 9.7 s
    against 6.4 s a shard). The worker is not the search's alone, so the collector is on again between calls."""

    def __init__(self, make, i: int) -> None:
        self.shard = make(i)

    def call(self, method: str, *args):
        import gc
        was = gc.isenabled()
        gc.disable()
        try:
            return getattr(self.shard, method)(*args)
        finally:
            if was:
                gc.enable()


def connect(address: str):
    """A ``distributed.Client`` for ``address`` (``tcp://HOST:8786``); a one-line error without Dask."""
    try:
        from distributed import Client
    except ImportError:
        from simulator.core.errors import ScenarioError
        raise ScenarioError("--cluster", "Dask is not installed: pip install 'riftsim[cluster]'") from None
    return Client(address, timeout="10s")


def hash_probe() -> int:
    """This process's hash of a fixed key-like tuple: workers agree on fast fingerprints (Python's hash of
    ``State.key()``) only if theirs are equal: the same string hash seed (PYTHONHASHSEED), and, before
    Python 3.12, the same address of None (whose hash is its address): forked workers, not spawned ones."""
    return hash(("riftsim fingerprint probe", None, 1, (2, "x")))


def same_hash_seed(client) -> bool:
    """Whether every worker hashes strings alike (their Python hash seeds agree: PYTHONHASHSEED set the same,
    docs/cluster.md); if not, the shards fingerprint states with blake2b, the same in every process."""
    return len(set(client.run(hash_probe).values())) <= 1
