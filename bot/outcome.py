"""How a game ended, as its board proves it when the clone does not say.

A clone may draw a notice over the board the moment the last safe cell opens
("You won!" over the cells the click opened), and no picture of its own then
says "won": the board does, from what msbot knows of it. The cells hidden
count as what they showed before, and as open when the solver called the
clicks that opened them certain; when every closed cell is then a certain
mine, the game is won. Both the learner (`bot.learning.apprentice`) and the
play loop (`bot.waiting`) ask it.
"""

from __future__ import annotations

from bot.board import COVERED, NUMBERS, OPEN_UNKNOWN, Board, Cell
from bot.errors import MsbotError
from bot.solver import analyse
from vision.reading import Reading, Status


def proven_outcome(
    reading: Reading,
    before: Board | None,
    last: Cell | None,
    certain: bool,
    total: int | None,
    opened: tuple[Cell, ...] = (),
    over: bool = False,
) -> Status | None:
    """How a game that no longer answers ended, as its board proves it: won when
    every closed cell is a certain mine (cells not read count as what they
    showed `before`, covered if not known; when the solver called msbot's last
    clicks, `opened`, certain, those cells are open), lost when msbot's last
    click was a guess and that cell shows no open number; None when neither is
    proven.

    `over`: the game is known to take no more clicks (the learner's probe). If
    msbot's last clicks were all certain, no mine was opened: the game was won,
    whatever the notice over the board hides (the cells a cascade opened
    under it)."""
    board = reading.board
    unread = reading.unread
    if unread:
        cells = {cell: (before[cell] if before is not None else COVERED) for cell in unread}
        if certain:
            cells.update({cell: OPEN_UNKNOWN for cell in opened if cell in unread})
        board = Board(
            tuple(
                "".join(cells.get((r, c), board[(r, c)]) for c in range(board.width))
                for r in range(board.height)
            )
        )
    if not board.count("*!X"):
        # msbot's own flags are on certain mines; the covered cells must be too.
        closed = [cell for cell in board.cells() if board[cell] in ".?"]
        try:
            analysis = analyse(board, total)
        except MsbotError:
            analysis = None
        if analysis is not None and set(closed) <= set(analysis.mines):
            return "won"
    if over and certain and last is not None:
        return "won"
    if last is not None and not certain and (last in unread or reading.board[last] not in NUMBERS):
        return "lost"
    return None
