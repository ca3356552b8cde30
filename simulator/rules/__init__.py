"""The rules layer of the simulator."""
