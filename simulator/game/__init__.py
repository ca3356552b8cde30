"""The game layer of the simulator."""
