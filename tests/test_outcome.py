"""A win hidden by a notice, proven by the board (`bot.outcome`, `bot.waiting.proven_won`).

KMines draws "Congratulations! You have won!" over the board the moment the
last safe cell opens; under load msbot's first picture after its clicks
already has it, and the cells under it are unreadable. The board proves the
win from what msbot knew: the cells hidden showed numbers before, or were
opened by clicks the solver called certain, and every closed cell left is a
certain mine; or, the learner's probe having found that the game takes no
more clicks, the last clicks were all certain (no mine opened). Anything less
proves nothing.
"""

from __future__ import annotations

from bot.board import Board
from bot.outcome import proven_outcome
from bot.waiting import Pending, proven_won
from vision.geometry import Geometry
from vision.reading import Reading, UnknownCell

GEO = Geometry(0.0, 0.0, 20.0, 20.0, 3, 4)
#: Before the last batch: (2, 2) and (2, 3) covered; the 0 at (2, 1) makes
#: (2, 2) certainly safe, and the 2 at (1, 2) then (2, 3) the one mine left.
BEFORE = Board(("0011", "002F", "00.."))
#: After it, a notice over the middle of the board: cells (1, 1) to (2, 2) unread.
HIDDEN = [(1, 1), (1, 2), (2, 1), (2, 2)]


def _reading(rows: tuple[str, ...], unknown: list[tuple[int, int]]) -> Reading:
    cells = tuple(UnknownCell(r, c, 99.0, 0.0, "?") for r, c in unknown)
    return Reading("x", GEO, Board(rows), 1, "playing", unknown=cells)


def _pending(certain: bool) -> Pending:
    return Pending(total=2, opened=[(2, 2)], certain=certain)


def test_a_win_under_a_notice_is_proven_when_the_last_clicks_were_certain() -> None:
    # The unread cells read as covered; (2, 3) is still covered: the last mine.
    reading = _reading(("0011", "0..F", "0..."), HIDDEN)
    prev = _reading(BEFORE.rows, [])
    won = proven_won(reading, prev, _pending(certain=True))
    assert won is not None and won.status == "won"
    assert proven_outcome(reading, BEFORE, (2, 2), True, 2, ((2, 2),)) == "won"


def test_nothing_is_proven_after_a_guess_or_with_a_safe_cell_left() -> None:
    reading = _reading(("0011", "0..F", "0..."), HIDDEN)
    prev = _reading(BEFORE.rows, [])
    # A guess opened (2, 2): it may be the mine under the notice.
    assert proven_won(reading, prev, _pending(certain=False)) is None
    # A game of three mines: the closed cells cannot all be mines.
    assert proven_won(reading, prev, Pending(total=3, opened=[(2, 2)])) is None
    # Nothing opened in the batch: nothing to explain the notice by.
    assert proven_won(reading, prev, Pending(total=2)) is None


def test_a_game_that_takes_no_more_clicks_after_certain_clicks_was_won() -> None:
    # KMines during learning: the last certain click's cascade opened cells
    # under the notice, which showed covered before: the board alone proves
    # nothing, but the probe found the game over, and no certain click opens
    # a mine.
    reading = _reading(("0011", "0..F", "0..."), HIDDEN)
    before = Board(("0011", "0.2F", "0..."))
    assert proven_outcome(reading, before, (2, 2), True, 2, ((2, 2),)) is None
    assert proven_outcome(reading, before, (2, 2), True, 2, ((2, 2),), over=True) == "won"
    # After a guess the same proves nothing (the guess may have hit a mine).
    assert proven_outcome(reading, before, (2, 2), False, 2, ((2, 2),), over=True) != "won"
