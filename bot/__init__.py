"""msbot: plays real Minesweeper windows hands-free by reading the screen.

`bot` holds everything that is not about pixels, one subpackage per job: the
board text format (`board`, the contract with `vision`), the solver
(`solver`, pure), the play loop and its stages (`play`), the live learner
(`learning`), the mouse (`actuator`), the bench on simulated games (`bench`)
and the command line (`cli`, `commands`).
"""

__version__ = "0.1.0"
