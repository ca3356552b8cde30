"""The scenario layer of the simulator."""
