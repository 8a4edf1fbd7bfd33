"""Turn a `Board` into a constraint problem: unknown cells and one linear equation per number.

Cells are plain integers ``row * width + col`` inside the solver because sets
of small ints are what the hot path hashes and intersects most.

What the characters mean to the solver:

* ``.`` and ``?`` are unknown (a question mark is only a note to the player).
* ``F`` is taken as a mine, as the foundation issue specifies: the bot only
  flags what it proved, and a human's wrong flag makes the board inconsistent
  (reported) rather than silently ignored.
* ``*`` and ``!`` (shown after a loss) are mines too; ``X`` (a wrong flag
  shown after a loss) is a known non-mine that shows no number. So a finished
  board is still analysed sensibly instead of rejected.
* ``-`` (an opened cell whose number a learned skin does not know yet) is a
  known non-mine like ``X``: it constrains nothing, so every deduction made
  without its number still holds whatever the number is.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bot.board import Board, Cell
from bot.errors import InconsistentBoardError

UNKNOWN_CHARS = frozenset(".?")
MINE_CHARS = frozenset("F*!")
NUMBER_VALUE = {str(n): n for n in range(9)}


@dataclass(frozen=True)
class Constraint:
    """Exactly `count` mines among `cells` (unknown cell indices), from the number at `source`."""

    source: int
    cells: frozenset[int]
    count: int


@dataclass(frozen=True)
class Position:
    """A board as a counting problem; `known_mines` are flags and revealed mines."""

    height: int
    width: int
    unknown: frozenset[int]
    known_mines: int
    constraints: tuple[Constraint, ...]

    def cell(self, index: int) -> Cell:
        return divmod(index, self.width)

    def index(self, cell: Cell) -> int:
        return cell[0] * self.width + cell[1]


@lru_cache(maxsize=16)
def neighbour_table(height: int, width: int) -> tuple[tuple[int, ...], ...]:
    """For every cell index, the indices of its up to eight neighbours.

    Memoised: a pure function of the board size, and building it for an
    expert board would otherwise cost more than the rest of a typical decision.
    """
    table = []
    for r in range(height):
        for c in range(width):
            table.append(
                tuple(
                    (r + dr) * width + c + dc
                    for dr in (-1, 0, 1)
                    for dc in (-1, 0, 1)
                    if (dr or dc) and 0 <= r + dr < height and 0 <= c + dc < width
                )
            )
    return tuple(table)


def extract(board: Board) -> Position:
    """Build the constraint problem; a number that cannot hold raises `InconsistentBoardError`.

    Numbers with no unknown neighbour are checked here and dropped: they
    constrain nothing but can already contradict the flags around them.
    """
    height, width = board.height, board.width
    flat = "".join(board.rows)
    unknown = frozenset(i for i, ch in enumerate(flat) if ch in UNKNOWN_CHARS)
    known_mines = sum(1 for ch in flat if ch in MINE_CHARS)
    table = neighbour_table(height, width)
    constraints = []
    for i, ch in enumerate(flat):
        value = NUMBER_VALUE.get(ch)
        if value is None:
            continue
        cells = []
        mines = 0
        for j in table[i]:
            nch = flat[j]
            if nch in UNKNOWN_CHARS:
                cells.append(j)
            elif nch in MINE_CHARS:
                mines += 1
        count = value - mines
        if count < 0 or count > len(cells):
            cell = divmod(i, width)
            why = "more flags/mines around it" if count < 0 else "too few covered cells around it"
            raise InconsistentBoardError(
                f"no mine placement fits the board: the {value} at {cell} cannot hold ({why})",
                [cell],
            )
        if cells:
            constraints.append(Constraint(i, frozenset(cells), count))
    return Position(height, width, unknown, known_mines, tuple(constraints))
