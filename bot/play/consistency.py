"""Is a reading believable? Checked against itself, the previous reading and
what the bot clicked since, before the solver ever sees it.

A misread cell that reaches the solver can turn into a "certain" click on a
mine, so the play loop acts only on readings that pass every check here:

* numbers are locally possible (flags around <= number <= flags + covered,
  and a 0 has no plain covered neighbour: the clone opens those itself);
* opened cells never close and numbers never change between readings;
* flags appear only where the bot flagged (when it is the only player) and
  never vanish; flags it did not place are not trusted (`untrusted_flags`);
* mines are only shown once the game is lost;
* the mine counter agrees with the flags on the board (mines left + flags is
  the same total all game long).

Every check returns a list of `Problem`s (empty = fine) so the loop can say
exactly which cell is wrong, and save the frame, rather than just "bad".
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bot.board import COVERED, FLAG, MINE, NUMBERS, OPEN_UNKNOWN, UNOPENED, Board, Cell

OPENED = frozenset(NUMBERS)
MINES_SHOWN = frozenset("*!X")


@dataclass(frozen=True)
class Problem:
    """One reason not to trust a reading; `cell` is None for board-wide ones."""

    message: str
    cell: Cell | None = None

    def __str__(self) -> str:
        where = f"cell ({self.cell[0]}, {self.cell[1]}): " if self.cell is not None else ""
        return where + self.message


def _grid(board: Board) -> npt.NDArray[np.str_]:
    return np.array([list(row) for row in board.rows])


def _around(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int16]:
    """For every cell, how many of its eight neighbours are set in `mask`."""
    h, w = mask.shape
    padded = np.pad(mask.astype(np.int16), 1)
    total = np.zeros((h, w), dtype=np.int16)
    for dr in range(3):
        for dc in range(3):
            total += padded[dr : dr + h, dc : dc + w]
    result: npt.NDArray[np.int16] = total - mask.astype(np.int16)
    return result


def number_problems(board: Board, untrusted: Collection[Cell] = ()) -> list[Problem]:
    """Numbers no mine placement can satisfy locally (too many flags or too few cells).

    A cheap, local subset of the solver's full consistency check, with a
    message naming the cell. `untrusted`: flags the bot did not place, which
    may be wrong (`untrusted_flags`): they count as covered cells.
    """
    grid = _grid(board)
    digits = np.isin(grid, list(NUMBERS))
    values = np.where(digits, grid, "0").astype(np.int16)
    doubtful = np.zeros(grid.shape, dtype=bool)
    for r, c in untrusted:
        doubtful[r, c] = True
    flags = _around(np.isin(grid, list(FLAG + MINE + "!")) & ~doubtful)
    room = flags + _around(np.isin(grid, list(UNOPENED)) | doubtful)
    problems = []
    for r, c in zip(*np.nonzero(digits & (flags > values)), strict=True):
        problems.append(Problem(f"shows {values[r, c]} but has {flags[r, c]} flags around", (r, c)))
    for r, c in zip(*np.nonzero(digits & (room < values)), strict=True):
        problems.append(
            Problem(
                f"shows {values[r, c]} but only {room[r, c]} cells around can hold mines", (r, c)
            )
        )
    # Every clone opens the plain covered neighbours of a 0 by itself: a 0 next
    # to one is a frame grabbed while the clone was still drawing the cascade.
    # Flags and question marks stop a cascade (a person's wrong flag or "?"
    # stays closed beside a 0), so they are no sign of a half-drawn frame.
    plain = _around(grid == COVERED)
    for r, c in zip(*np.nonzero((grid == "0") & (plain > 0)), strict=True):
        problems.append(Problem("a 0 next to a covered cell (still drawing?)", (r, c)))
    return problems


def transition_problems(
    prev: Board,
    cur: Board,
    *,
    lost: bool,
    flagged_by_bot: Collection[Cell] | None = None,
    flags_may_vanish: bool = False,
) -> list[Problem]:
    """What changed from `prev` to `cur` that cannot happen in one game.

    `flagged_by_bot`: cells the bot right-clicked; when given, a flag anywhere
    else is a misread (None: a person may be playing too, any new flag is fine).
    `flags_may_vanish`: a person is playing, who may take a flag back.
    """
    if (prev.height, prev.width) != (cur.height, cur.width):
        return [
            Problem(
                f"the board changed size from {prev.height}x{prev.width} "
                f"to {cur.height}x{cur.width}"
            )
        ]
    a, b = _grid(prev), _grid(cur)
    problems: list[Problem] = []
    opened = np.isin(a, list(OPENED))
    # A learned skin may read an open cell's picture less precisely later ('-':
    # open, value unknown, when a look of the same digit is not named yet).
    for r, c in zip(*np.nonzero(opened & (a != b) & (b != OPEN_UNKNOWN)), strict=True):
        problems.append(
            Problem(f"was '{a[r, c]}', now '{b[r, c]}': open cells never change", (r, c))
        )
    # An opened cell of a learned skin whose number was not known yet may show
    # it once it is learned, and nothing else.
    unknown = a == OPEN_UNKNOWN
    renamed = np.isin(b, list(OPENED | {OPEN_UNKNOWN}))
    for r, c in zip(*np.nonzero(unknown & ~renamed), strict=True):
        problems.append(
            Problem(f"was open ('-'), now '{b[r, c]}': open cells never change", (r, c))
        )
    # A person may take a flag back (to a cover or a "?"); the bot never does.
    back = [FLAG, "X", *UNOPENED] if flags_may_vanish else [FLAG, "X"]
    unflagged = (a == FLAG) & ~np.isin(b, back)
    for r, c in zip(*np.nonzero(unflagged), strict=True):
        problems.append(Problem(f"flag vanished (now '{b[r, c]}')", (r, c)))
    if flagged_by_bot is not None:
        allowed = np.zeros(a.shape, dtype=bool)
        for r, c in flagged_by_bot:
            allowed[r, c] = True
        # Once no cell is left to open, some clones flag the mines themselves
        # (minegauler, on a win): those flags are no misread.
        if np.isin(b, list(UNOPENED)).any():
            for r, c in zip(*np.nonzero((b == FLAG) & (a != FLAG) & ~allowed), strict=True):
                problems.append(Problem("a flag appeared where the bot did not flag", (r, c)))
    if not lost:
        for r, c in zip(*np.nonzero(np.isin(b, list(MINES_SHOWN))), strict=True):
            problems.append(Problem(f"shows '{b[r, c]}' but the game is not lost", (r, c)))
    return problems


def looks_like_new_game(prev: Board, cur: Board, unread: Collection[Cell] = ()) -> bool:
    """Whether `cur` is another game rather than a misread of `prev`.

    Within a game opened cells never close and their numbers never change, so
    many of them covered again, or showing other numbers, means someone
    started a new game (a person restarting right after a win the watcher
    never saw; xdemineur opens an area of the new game by itself, so the new
    board is not all covered; a short game may be seen only when it is over,
    every cell open but with other numbers). A reader unsure of a cell reports
    it as unknown, never as a confident other value, so a misread does not
    look like this. The `unread` cells of `cur` (unsure or held: shown covered
    in its board, e.g. under a clone's "Game over" box) say nothing either way.
    """
    if (prev.height, prev.width) != (cur.height, cur.width):
        return False
    a, b = _grid(prev), _grid(cur)
    read = np.ones(a.shape, dtype=bool)
    for r, c in unread:
        read[r, c] = False
    opened = read & np.isin(a, list(OPENED | MINES_SHOWN | {OPEN_UNKNOWN}))
    closed = opened & np.isin(b, list(UNOPENED))
    renumbered = np.isin(a, list(OPENED)) & np.isin(b, list(OPENED)) & (a != b)
    n_open, n_changed = int(opened.sum()), int(closed.sum() + renumbered.sum())
    return n_open > 0 and n_changed >= min(2, n_open) and 4 * n_changed >= n_open


def counter_problems(
    board: Board, mines_left: int | None, total: int | None, unsure: int = 0
) -> list[Problem]:
    """The counter must equal the mine total minus the flags on the board.

    `unsure` cells (reported covered) may each be a flag the reader could not
    prove: the counter then only has to lie within their reach (a flag caught
    half drawn in a fade is no contradiction).

    A board with every cell open or flagged, as many flags as the game has
    mines, is a won board whatever the counter shows: a clone that flags the
    last mines itself at the win may leave its counter as it was (a zoo clone
    showed "1" over 36 flags of 36 mines)."""
    if mines_left is None or total is None:
        return []
    flags = board.count(FLAG)
    if flags == total and board.count("".join(UNOPENED)) == 0:
        return []
    if not flags <= total - mines_left <= flags + unsure:
        return [
            Problem(
                f"counter shows {mines_left} with {flags} flags on the board, "
                f"but the game has {total} mines"
            )
        ]
    return []


def flags_show_mines(prev: Board, cur: Board, flagged_by_bot: Collection[Cell]) -> bool:
    """Whether every flag the bot placed on `prev` shows a mine on `cur`: a clone
    showing its mines at a game's end, won as well as lost (xbomb draws every
    mine as a bomb on red when the game is won). No misread turns every flag
    into a mine at once."""
    if (prev.height, prev.width) != (cur.height, cur.width):
        return False
    flags = [cell for cell in flagged_by_bot if prev[cell] == FLAG]
    return bool(flags) and all(cur[cell] in MINES_SHOWN for cell in flags)


def untrusted_flags(board: Board, flagged_by_bot: Collection[Cell]) -> frozenset[Cell]:
    """Flags on `board` the bot did not place: a person's, set before the bot
    took over or while it only advised.

    A person's flag may be wrong. Trusted, a wrong flag turns the numbers
    around it into "certain" moves that are not (a game lost on a certain
    click), and it changes what a chord opens. The loop therefore reads these
    cells as covered: every deduction then holds whatever lies under them.
    """
    return frozenset(
        cell for cell in board.cells() if board[cell] == FLAG and cell not in flagged_by_bot
    )


def missing_effects(cur: Board, opened: Iterable[Cell], flagged: Iterable[Cell]) -> list[Cell]:
    """Cells the bot clicked that do not show it yet: opened cells still covered,
    flagged cells without a flag. The loop keeps polling while this is not empty."""
    late = [cell for cell in opened if cur[cell] in UNOPENED or cur[cell] == FLAG]
    late += [cell for cell in flagged if cur[cell] != FLAG]
    return late
