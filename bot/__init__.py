"""msbot: plays real Minesweeper windows hands-free by reading the screen.

`bot` holds everything that is not about pixels: the board text format (the
contract with `vision`), the solver, the simulator, the actuator, the play loop
and the command line.
"""

__version__ = "0.1.0"
