"""How a game ended, as its board proves it when the clone does not say.

A clone may draw a notice over the board the moment the last safe cell opens
("You won!" over the cells the click opened), and no picture of its own then
says "won": the board does, from what msbot knows of it. The cells hidden
count as what they showed before, and as open when the solver called the
clicks that opened them certain; when every closed cell is then a certain
mine, the game is won. Both the learner (`bot.learning.apprentice`) and the
play loop (`bot.play.waiting`) ask it.
"""

from __future__ import annotations

from bot.board import COVERED, FLAG, NUMBERS, OPEN_UNKNOWN, QUESTION, Board, Cell
from bot.errors import InconsistentBoardError, MsbotError
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
    click was a guess and that cell shows a picture that is neither an open
    number nor closed (or, hidden under a notice, when opening it could not
    have won the game); None when neither is proven.

    `over`: the game is known to take no more clicks (the learner's probe). If
    msbot's last clicks were all certain, no mine was opened: the game was won,
    whatever the notice over the board hides (the cells a cascade opened
    under it). Otherwise, when neither is proven, "over": the game ended and
    the screen hides how (never a guess at won or lost)."""
    board = reading.board
    unread = reading.unread
    if unread:
        cells = {cell: (before[cell] if before is not None else COVERED) for cell in unread}
        if certain:
            cells.update({cell: OPEN_UNKNOWN for cell in opened if cell in unread})
        board = board.with_values(cells)
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
    if last is None or certain:
        return "over" if over else None
    if last in unread:
        # The guessed cell is under a notice: a loss only when that click
        # could not have won ("You won!" over the last safe cell it opened).
        if not _win_possible(board, before, unread, last, total):
            return "lost"
        return "over" if over else None
    if reading.board[last] not in NUMBERS + OPEN_UNKNOWN + COVERED + QUESTION + FLAG:
        # Open with a value not named yet ("-") is open all the same: no mine;
        # still covered (or marked), the click did not open it: no mine shown
        # (a zoo page's guess that came after its win, ignored, read "lost").
        return "lost"
    return "over" if over else None


def _win_possible(
    board: Board, before: Board | None, unread: frozenset[Cell], last: Cell, total: int | None
) -> bool:
    """Whether the game may have been won by opening `last`: every closed cell
    in sight (covered, question mark, flag or shown mine) a mine, and the
    cells hidden that were closed before each a mine or opened by a cascade,
    with every number read and the total. Asked of the solver: those closed
    cells flagged, the hidden ones covered, `last` open."""
    if before is None:
        return True
    cells = {cell: FLAG for cell in board.cells() if board[cell] in ".?F*" and cell not in unread}
    cells.update({cell: COVERED for cell in unread if before[cell] in ".?"})
    cells[last] = OPEN_UNKNOWN
    won = board.with_values(cells)
    try:
        analyse(won, total)
    except InconsistentBoardError:
        return False
    return True


def hidden_since(first: Status | None, second: Status | None, a: Reading, b: Reading) -> bool:
    """Whether reading `b`, taken after `a`, proves less only because more of the
    board is hidden: `a` proved won or lost, `b` proves nothing or "over", and
    every cell read in both reads the same (a "Game over" box drawn a moment
    after the hit mine showed: the proof on the first picture stands). Not
    when a cell hidden in `a` shows in `b`: then `b` knows more, not less (a
    guessed cell still fading open, unread, made `a` prove a loss; shown, it
    was a 0, and the game went on: a zoo clone, seed 1881468706)."""
    if first not in ("won", "lost") or second not in (None, "over"):
        return False
    if a.board.height != b.board.height or a.board.width != b.board.width:
        return False
    if not a.unread <= b.unread:
        return False
    seen = a.unread | b.unread
    return all(a.board[cell] == b.board[cell] for cell in a.board.cells() if cell not in seen)


def agreed_outcome(first: Status, second: Status | None, a: Reading, b: Reading) -> Status | None:
    """The end two pictures of a finished game prove together (`a` first, `b`
    settled after it; `first` and `second` what each proves), or None when
    they disagree (the loop reads the screen again). The same outcome
    stands; so does one `b` proves less of only because more is hidden
    (`hidden_since`). A first "over" (the game takes no more clicks, how not
    shown) gives way to the won or lost the settled picture shows: the first
    was caught before the guessed cell showed its mine (zoo seed 2113020827:
    its hit mine, fading in, read covered; then its "BOOM!" dialog came over
    the board, "over" and "lost" disagreed, and play stopped on the dialog)."""
    if first == "over" and second in ("won", "lost"):
        return second
    if second == first or hidden_since(first, second, a, b):
        return first
    return None
