"""Reading back what a search wrote (checkpoints, packed levels) without trusting the bytes.

A checkpoint is a file given on the command line (``riftsim verify --resume DIR``): damaged, or made by
someone else, it must give one line saying why, never run code or exhaust memory. A pickle may name any
callable (``os.system`` among them) and a compressed chunk may inflate a thousandfold, so:

* :func:`loads` unpickles only the classes a search's parts hold (:data:`ALLOWED`: the game model's values,
  the search's own containers, ``array``); any other name is refused;
* no admitted class's constructor ever runs: a pickle naming one gets a stand-in (:func:`_bare`) that makes an
  empty instance, whatever arguments the bytes give, and the pickle fills its fields, as riftsim's own pickles
  do. So no constructor can size itself from the bytes (``FlatTable(10**9)`` would take 8 GB); an ``array``
  is built from the bytes it is given, at most their size;
* :func:`inflate` decompresses a packed chunk at most :data:`RATIO` times its compressed size (riftsim's own
  chunks inflate 7-12 times, measured on the 4-player position).

>>> loads(__import__("pickle").dumps([1, "two", (3.0, None)]))
[1, 'two', (3.0, None)]
>>> loads(b"cos\\nsystem\\n(S'true'\\ntR.")
Traceback (most recent call last):
...
simulator.verify.unpickle.Refused: it names os.system, which no riftsim checkpoint holds
>>> loads(b"csimulator.verify.visited\\nFlatTable\\n(J\\x00\\x00\\x00\\x7ftR.")
Traceback (most recent call last):
...
simulator.verify.unpickle.Refused: it calls FlatTable with arguments, which no riftsim checkpoint does
"""
from __future__ import annotations

import io
import pickle
import zlib

from simulator.core.errors import RiftsimError

#: (module, name) of every class a checkpoint part or a packed chunk may hold; the model's value classes, the
#: search's containers (tests/test_checkpoint.py resumes every default position from every level with them)
ALLOWED = frozenset({
    ("array", "array"), ("array", "_array_reconstructor"),
    *(("simulator.core.model", c) for c in ("State", "Unit", "Ability", "Battlefield", "Item", "Resolving", "Event")),
    ("simulator.game.action_kinds", "Action"),
    *(("simulator.verify.explore", c) for c in ("Checked", "Violation")),
    *(("simulator.verify.packed", c) for c in ("Packed", "_Chunk")),
    ("simulator.verify.stategraph", "StateGraph"),
    ("simulator.verify.visited", "FlatTable"),
})
#: a packed chunk inflates to at most this many times its compressed size (plus 1 MB)
RATIO = 100


class Refused(RiftsimError):
    """Bytes that are not what riftsim writes: one line saying why."""


#: admitted names that are built from their arguments (an array from its bytes: at most their size)
BUILT = frozenset({("array", "array"), ("array", "_array_reconstructor")})


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        if (module, name) not in ALLOWED:
            raise Refused(f"it names {module}.{name}, which no riftsim checkpoint holds")
        found = super().find_class(module, name)
        return found if (module, name) in BUILT else _bare(found)


_BARE: dict[type, type] = {}


def _bare(cls: type) -> type:
    """A stand-in for the admitted class ``cls``: called (pickle's REDUCE) or asked for a new instance (NEWOBJ),
    it gives ``cls.__new__(cls)``, an empty instance that the pickle's BUILD fills, and refuses any argument:
    ``cls.__init__`` never runs."""
    if cls not in _BARE:
        def new(_stand_in, *args, **kwargs):
            if args or kwargs:
                raise Refused(f"it calls {cls.__name__} with arguments, which no riftsim checkpoint does")
            return cls.__new__(cls)
        _BARE[cls] = type(cls.__name__, (), {"__new__": new, "__slots__": ()})
    return _BARE[cls]


def loads(data: bytes):
    """``pickle.loads`` admitting only the classes of :data:`ALLOWED`."""
    return _Unpickler(io.BytesIO(data)).load()


def load(f):
    """``pickle.load`` from the binary file ``f``, admitting only the classes of :data:`ALLOWED`; the file is read
    first (its size bounds what the bytes can ask for: a length field claiming more is refused as truncated)."""
    return loads(f.read())


def inflate(data: bytes) -> bytes:
    """``zlib.decompress``, refusing more than :data:`RATIO` times the input (a decompression bomb)."""
    d = zlib.decompressobj()
    limit = RATIO * len(data) + (1 << 20)
    out = d.decompress(data, limit)
    if d.unconsumed_tail:
        raise Refused(f"a packed chunk of {len(data):,} bytes inflates past {limit:,}: not one riftsim wrote")
    if not d.eof:
        raise Refused("a packed chunk is truncated")
    return out
