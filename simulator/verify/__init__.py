"""The verify layer of the simulator."""
