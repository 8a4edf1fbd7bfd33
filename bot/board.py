"""The board text format: the contract between vision and the solver.

One line per row, one character per cell, rows of equal length:

    .  covered            F  flag              ?  question mark (covered)
    0-8 open number       *  revealed mine     !  the exploded mine
    X  a wrong flag (shown by some clones after a loss)
    -  open, value unknown (a learned skin's picture of an opened cell whose
       number is not proven yet: no mine, and no constraint on its neighbours)

Coordinates are (row, col), zero-based from the top-left. Blank lines before
and after the board, trailing whitespace and an indent shared by every row
are ignored, so boards can be pasted from anywhere (`msbot replay` prints its
boards indented); anything else that is not in the alphabet is an error
naming its 1-based line and column.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from bot.errors import BoardFormatError

COVERED = "."
FLAG = "F"
QUESTION = "?"
MINE = "*"
EXPLODED = "!"
WRONG_FLAG = "X"
OPEN_UNKNOWN = "-"
NUMBERS = "012345678"
ALPHABET = frozenset(
    COVERED + FLAG + QUESTION + MINE + EXPLODED + WRONG_FLAG + OPEN_UNKNOWN + NUMBERS
)

#: Cells the player may still click: covered, with or without a question mark.
UNOPENED = frozenset(COVERED + QUESTION)

Cell = tuple[int, int]


@dataclass(frozen=True)
class Board:
    """A board as the player sees it; immutable so positions can be cached."""

    rows: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.rows or not self.rows[0]:
            raise BoardFormatError("the board is empty")
        width = len(self.rows[0])
        for i, row in enumerate(self.rows):
            if len(row) != width:
                raise BoardFormatError(
                    f"row has {len(row)} cells, expected {width} like the first row", line=i + 1
                )
        # One set test for the whole board (every read makes a Board); the
        # cell-by-cell search only names the culprit.
        if not ALPHABET.issuperset("".join(self.rows)):
            for i, row in enumerate(self.rows):
                for j, ch in enumerate(row):
                    if ch not in ALPHABET:
                        raise BoardFormatError(
                            f"unknown cell character {ch!r}", line=i + 1, col=j + 1
                        )

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    def __getitem__(self, cell: Cell) -> str:
        r, c = cell
        return self.rows[r][c]

    def cells(self) -> Iterator[Cell]:
        """Every cell, row by row."""
        for r in range(self.height):
            for c in range(self.width):
                yield (r, c)

    def neighbours(self, cell: Cell) -> Iterator[Cell]:
        """The up to eight cells touching `cell`."""
        r, c = cell
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr or dc) and 0 <= r + dr < self.height and 0 <= c + dc < self.width:
                    yield (r + dr, c + dc)

    def number(self, cell: Cell) -> int | None:
        """The open number at `cell`, or None if it shows anything else."""
        ch = self[cell]
        return int(ch) if ch in NUMBERS else None

    def count(self, chars: str) -> int:
        """How many cells show any of `chars`."""
        return sum(row.count(ch) for row in self.rows for ch in set(chars))

    def with_cell(self, cell: Cell, ch: str) -> Board:
        """A copy with one cell changed."""
        r, c = cell
        row = self.rows[r]
        return Board((*self.rows[:r], row[:c] + ch + row[c + 1 :], *self.rows[r + 1 :]))

    def with_cells(self, cells: Iterable[Cell], ch: str) -> Board:
        """A copy with every cell of `cells` showing `ch`."""
        return self.with_values({cell: ch for cell in cells})

    def with_values(self, values: Mapping[Cell, str]) -> Board:
        """A copy with each cell of `values` showing its character there."""
        grid = [list(row) for row in self.rows]
        for (r, c), ch in values.items():
            grid[r][c] = ch
        return Board(tuple("".join(row) for row in grid))

    def to_text(self) -> str:
        """The board in the text format, one line per row, with a final newline."""
        return "\n".join(self.rows) + "\n"

    @classmethod
    def covered(cls, height: int, width: int) -> Board:
        """A fresh board: every cell covered."""
        return cls(tuple(COVERED * width for _ in range(height)))


def parse_board(text: str) -> Board:
    """Parse the text format; raises `BoardFormatError` naming line and column."""
    lines = [line.rstrip() for line in text.splitlines()]
    first = 0
    while first < len(lines) and not lines[first]:
        first += 1
    last = len(lines)
    while last > first and not lines[last - 1]:
        last -= 1
    if first == last:
        raise BoardFormatError("the board is empty")
    # The indent every row shares (spaces or tabs) is not part of the board.
    indent = min(len(line) - len(line.lstrip()) for line in lines[first:last] if line)
    body = [line[indent:] for line in lines[first:last]]
    for i, line in enumerate(body):
        if not line:
            raise BoardFormatError("blank line inside the board", line=first + i + 1)
        for j, ch in enumerate(line):
            if ch not in ALPHABET:
                raise BoardFormatError(
                    f"unknown cell character {ch!r} (expected one of . F ? 0-8 * ! X)",
                    line=first + i + 1,
                    col=indent + j + 1,
                )
        if len(line) != len(body[0]):
            raise BoardFormatError(
                f"row has {len(line)} cells, expected {len(body[0])} like the first row",
                line=first + i + 1,
            )
    return Board(tuple(body))
