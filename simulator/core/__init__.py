"""The core layer of the simulator."""
