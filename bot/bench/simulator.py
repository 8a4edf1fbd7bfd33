"""A headless Minesweeper game: the hidden truth the bench plays against.

The bench needs thousands of games per second that are reproducible from a
seed and that follow the first-click rule of the clone being modelled:

* ``safe``: the first click is never a mine (Windows XP style);
* ``zero``: the first click opens an area: neither the clicked cell nor any of
  its neighbours is a mine (Windows 7 / GNOME style);
* ``none``: the mines are placed before the first click, which may lose.

How the layout is drawn: at construction the seed shuffles every cell once
(numpy's PCG64 generator). The mines are the first ``mines`` cells of that
order that the rule does not exclude. With ``none`` nothing is excluded, so
the layout is fixed before the first click; with ``safe`` and ``zero`` the
excluded cells are only known at the first click, so the layout is drawn then.
Skipping excluded cells of a uniform random order gives a uniform layout over
the allowed cells, and the same seed and first click always give the same
layout, whatever happens to the generator elsewhere.

The player's view is `board()` in the board text format. The game is won when
every safe cell is open; flags are never needed (they only protect a cell from
`open` and make `chord` possible).
"""

from __future__ import annotations

from typing import Literal, get_args

import numpy as np
import numpy.typing as npt

from bot.board import Board, Cell
from bot.errors import MsbotError

Rule = Literal["safe", "zero", "none"]
Status = Literal["playing", "won", "lost"]
RULES: tuple[Rule, ...] = get_args(Rule)

BoolGrid = npt.NDArray[np.bool_]
IntGrid = npt.NDArray[np.int8]


class GameError(MsbotError):
    """A game that cannot be set up (too many mines, unknown rule) or a bad move."""


def neighbour_counts(mines: BoolGrid) -> IntGrid:
    """For every cell, how many of its up to eight neighbours are mines.

    Sums the nine shifted views of a zero-padded grid (a 3x3 box filter) and
    takes away the cell itself: no per-cell loop.
    """
    h, w = mines.shape
    padded = np.pad(mines.astype(np.int8), 1)
    total = np.zeros((h, w), dtype=np.int8)
    for dr in range(3):
        for dc in range(3):
            total += padded[dr : dr + h, dc : dc + w]
    result: IntGrid = total - mines.astype(np.int8)
    return result


class Game:
    """One seeded game of `height` x `width` with `mines` mines under `rule`."""

    def __init__(
        self, height: int, width: int, mines: int, rule: Rule = "safe", seed: int = 0
    ) -> None:
        if rule not in RULES:
            raise GameError(f"unknown rule {rule!r} (expected one of {', '.join(RULES)})")
        if height < 1 or width < 1:
            raise GameError(f"a board needs at least one row and one column, not {height}x{width}")
        # The zero rule may need to keep a full 3x3 block free of mines.
        reserved = {"safe": 1, "zero": 9, "none": 0}[rule]
        if not 0 <= mines <= height * width - reserved:
            raise GameError(
                f"{mines} mines do not fit a {height}x{width} board under the {rule!r} rule "
                f"(at most {max(height * width - reserved, 0)})"
            )
        self.height = height
        self.width = width
        self.mines = mines
        self.rule: Rule = rule
        self.seed = seed
        self._order = np.random.default_rng(seed).permutation(height * width)
        self._mine = np.zeros((height, width), dtype=np.bool_)
        self._counts = np.zeros((height, width), dtype=np.int8)
        self._opened = np.zeros((height, width), dtype=np.bool_)
        self._flagged = np.zeros((height, width), dtype=np.bool_)
        self._exploded: Cell | None = None
        self._placed = False
        self._safe_left = height * width - mines
        self.status: Status = "playing"
        if rule == "none":
            self._place(excluded=())

    # -- the hidden truth -------------------------------------------------

    @property
    def started(self) -> bool:
        """Whether the mines are placed (always for ``none``; after the first click otherwise)."""
        return self._placed

    def is_mine(self, cell: Cell) -> bool:
        """The hidden truth at `cell`; only defined once the mines are placed."""
        self._check_cell(cell)
        if not self._placed:
            raise GameError("the mines are not placed before the first click under this rule")
        return bool(self._mine[cell])

    def mine_grid(self) -> BoolGrid:
        """A copy of the mine layout (for tests and checks)."""
        if not self._placed:
            raise GameError("the mines are not placed before the first click under this rule")
        return self._mine.copy()

    def _place(self, excluded: tuple[Cell, ...]) -> None:
        banned = {r * self.width + c for r, c in excluded}
        chosen = [i for i in self._order.tolist() if i not in banned][: self.mines]
        flat = self._mine.reshape(-1)
        flat[chosen] = True
        self._counts = neighbour_counts(self._mine)
        self._placed = True

    def _neighbours(self, cell: Cell) -> list[Cell]:
        r, c = cell
        return [
            (r + dr, c + dc)
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < self.height and 0 <= c + dc < self.width
        ]

    def _check_cell(self, cell: Cell) -> None:
        r, c = cell
        if not (0 <= r < self.height and 0 <= c < self.width):
            raise GameError(f"cell {cell} is outside the {self.height}x{self.width} board")

    # -- moves ------------------------------------------------------------

    def open(self, cell: Cell) -> list[Cell]:
        """Open `cell`; returns the cells newly opened (a flood fill from a zero).

        Opening a flagged or already open cell does nothing. Opening a mine
        loses (nothing is opened; `board()` shows it as ``!``).
        """
        self._check_cell(cell)
        cell = (int(cell[0]), int(cell[1]))
        if self.status != "playing":
            raise GameError(f"the game is over ({self.status}); cannot open {cell}")
        if not self._placed:
            if self.rule == "zero":
                self._place(excluded=(cell, *self._neighbours(cell)))
            else:
                self._place(excluded=(cell,))
        if self._opened[cell] or self._flagged[cell]:
            return []
        if self._mine[cell]:
            self._exploded = cell
            self.status = "lost"
            return []
        return self._flood(cell)

    def _flood(self, start: Cell) -> list[Cell]:
        """Open `start` and, through zeros, every safe cell connected to it."""
        opened: list[Cell] = []
        stack = [start]
        self._opened[start] = True
        while stack:
            cell = stack.pop()
            opened.append(cell)
            if self._counts[cell] == 0:
                for n in self._neighbours(cell):
                    if not self._opened[n] and not self._flagged[n]:
                        self._opened[n] = True
                        stack.append(n)
        self._safe_left -= len(opened)
        if self._safe_left == 0:
            self.status = "won"
        return opened

    def flag(self, cell: Cell) -> None:
        """Toggle a flag on a covered cell (an open cell cannot be flagged)."""
        self._check_cell(cell)
        if self.status != "playing":
            raise GameError(f"the game is over ({self.status}); cannot flag {cell}")
        if not self._opened[cell]:
            self._flagged[cell] = not self._flagged[cell]

    def chord(self, cell: Cell) -> list[Cell]:
        """Open every unflagged neighbour of an open number whose flags match it.

        As in the real clones: when the flags around the number are not exactly
        as many as the number, nothing happens; a wrong flag can make it lose.
        """
        self._check_cell(cell)
        if self.status != "playing":
            raise GameError(f"the game is over ({self.status}); cannot chord {cell}")
        if not self._opened[cell]:
            return []
        around = self._neighbours(cell)
        if sum(bool(self._flagged[n]) for n in around) != self._counts[cell]:
            return []
        opened: list[Cell] = []
        for n in around:
            if self.status != "playing":
                break
            opened += self.open(n)
        return opened

    # -- the player's view ------------------------------------------------

    def board(self) -> Board:
        """What the player sees, in the board text format.

        While playing: numbers, ``F`` flags and ``.`` covered. After a loss the
        clones reveal the truth: ``*`` mines, ``!`` the exploded one, ``X`` a
        flag on a safe cell (correct flags stay ``F``). After a win every mine
        shows as a flag, as Windows does.
        """
        grid = np.full((self.height, self.width), ".", dtype="<U1")
        grid[self._flagged] = "F"
        grid[self._opened] = self._counts[self._opened].astype(str)
        if self.status == "lost":
            grid[self._mine & ~self._flagged] = "*"
            grid[self._flagged & ~self._mine] = "X"
            assert self._exploded is not None
            grid[self._exploded] = "!"
        elif self.status == "won":
            grid[self._mine] = "F"
        return Board(tuple("".join(row) for row in grid.tolist()))
