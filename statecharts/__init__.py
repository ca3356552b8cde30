"""The Riftbound timing rules, declared as statecharts (data).

``MACHINES`` lists every declared machine; each leaf (a flat machine or a
region) carries state in the simulator. ``LEAVES`` maps a leaf's name to it.
``statecharts.build.build(machine)`` turns a declaration into a real
``transitions`` machine (a ``HierarchicalMachine`` with parallel regions where
the declaration has regions). ``statecharts.states`` holds every leaf's state names as constants
(``ChainState.Decide``), checked here against the declarations.
"""
from .battlefield import BATTLEFIELD
from .chain import CHAIN
from .cleanup import CLEANUP
from .combat import COMBAT
from .concede import PLAYER
from .focus import FOCUS
from .phases import PHASES
from .spec import Machine, T
from .states import NAMESPACES, check
from .turn import TURN

MACHINES: tuple[Machine, ...] = (TURN, CHAIN, FOCUS, CLEANUP, BATTLEFIELD, COMBAT, PHASES, PLAYER)
LEAVES: dict[str, Machine] = {leaf.name: leaf for m in MACHINES for leaf in m.leaves()}
check(LEAVES)     # every leaf's state names are constants (statecharts/states.py), exactly its declared states

__all__ = ["MACHINES", "LEAVES", "Machine", "T", "TURN", "CHAIN", "FOCUS", "CLEANUP", "BATTLEFIELD", "COMBAT",
           "PHASES", "PLAYER", "NAMESPACES"]
