"""One error type per layer, all under `MsbotError`.

The command line catches `MsbotError` and prints its message with a non-zero
exit and no traceback: every expected failure (bad input, a board the bot
cannot read, a window that went away) must be raised as one of these, with a
message a person can act on.
"""

from __future__ import annotations


class MsbotError(Exception):
    """Base of every error msbot reports to a person instead of crashing."""


class BoardFormatError(MsbotError):
    """A board text that does not follow the board format.

    `line` and `col` are 1-based positions in the text, so the message points
    at the offending character the way an editor would.
    """

    def __init__(self, message: str, line: int | None = None, col: int | None = None) -> None:
        where = ""
        if line is not None:
            where = f"line {line}" + (f", column {col}" if col is not None else "") + ": "
        super().__init__(where + message)
        self.line = line
        self.col = col


class InconsistentBoardError(MsbotError):
    """No mine placement satisfies the board (a misread or a corrupt position).

    `cells` are the (row, col) cells whose constraints contradict each other.
    """

    def __init__(self, message: str, cells: list[tuple[int, int]] | None = None) -> None:
        super().__init__(message)
        self.cells = cells or []


class VisionError(MsbotError):
    """The screen cannot be read: no board, unreadable cells, corrupt image."""


class NoBoard(VisionError):
    """No skin reads a board on the screen (none found, or the cells a skin
    reads are part of a larger grid of cells it does not): perhaps a clone no
    skin knows, which `msbot play` then learns."""


class OpenSides(VisionError):
    """A skin reads the board's cells but its border does not close the board on
    some sides: another window hides that edge, or the clone is drawn in a
    theme the skin does not know (`bot.commands.play` asks the desktop which).
    `geometry` is where the cells were read (in the picture's pixels)."""

    def __init__(self, message: str, geometry: object, sides: list[str], skin: str) -> None:
        super().__init__(message)
        self.geometry = geometry
        self.sides = sides
        self.skin = skin


class ActuatorError(MsbotError):
    """A click was refused (outside the board) or could not be performed."""


class NoControl(ActuatorError):
    """A control the skin clicks (a face, a dialog's button) is not on screen."""


class PlayError(MsbotError):
    """The play loop stopped: the board moved, vanished or contradicted itself."""


class NotInPlace(PlayError):
    """Before a click: the board is not seen where it was (covered, perhaps by
    the clone's own end-of-game window, or gone). The loop stops the batch of
    clicks and reads the screen again, which tells which; uncaught, it stops
    the run with its message."""
