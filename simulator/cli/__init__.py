"""The cli layer of the simulator."""
