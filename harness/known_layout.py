"""A game on a known mine layout, played by the rules: the truth that judges msbot.

`Truth` holds a layout ("*" a mine, "." a safe cell), the cells opened and
flagged on it, and plays clicks by Minesweeper's own rules (an open floods
from a 0, a flag toggles, a mine opened loses). `board_grid` gives the cells'
pixel boxes on the screen of sgt-mines and minegauler from the window's place,
size and cell size alone (never from the pixels). Used by
`tests/test_play_known_layout.py` (every reading of a live game compared with
the truth) and `scripts/record_cell_sizes.py` (frames labelled by the truth).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Cell = tuple[int, int]
Boxes = list[tuple[int, int]]


class Truth:
    """The clone's board as the rules play the clicks on the layout."""

    def __init__(self, layout: tuple[str, ...]) -> None:
        self.layout = layout
        self.rows, self.cols = len(layout), len(layout[0])
        self.open: set[Cell] = set()
        self.flags: set[Cell] = set()
        self.lost = False
        #: The mine that was opened (the game is lost), if any.
        self.hit: Cell | None = None

    @property
    def mines(self) -> int:
        return sum(line.count("*") for line in self.layout)

    def mine(self, r: int, c: int) -> bool:
        return self.layout[r][c] == "*"

    def around(self, r: int, c: int) -> list[Cell]:
        return [
            (rr, cc)
            for rr in range(max(0, r - 1), min(self.rows, r + 2))
            for cc in range(max(0, c - 1), min(self.cols, c + 2))
            if (rr, cc) != (r, c)
        ]

    def number(self, r: int, c: int) -> int:
        return sum(self.layout[rr][cc] == "*" for rr, cc in self.around(r, c))

    def reveal(self, cell: Cell) -> None:
        if cell in self.flags or cell in self.open or self.status != "playing":
            return
        if self.mine(*cell):
            self.lost = True
            self.hit = cell
            return
        todo = [cell]
        while todo:
            r, c = todo.pop()
            if (r, c) in self.open or (r, c) in self.flags:
                continue
            self.open.add((r, c))
            if self.number(r, c) == 0:
                todo += self.around(r, c)

    def flag(self, cell: Cell) -> None:
        """A right click on a covered cell: a flag put on or taken off."""
        if cell not in self.open and self.status == "playing":
            self.flags ^= {cell}

    def act(self, action: Mapping[str, Any]) -> None:
        """One click as msbot's recorder writes it: kind open, flag or chord at row, col."""
        cell = (action["row"], action["col"])
        if action["kind"] == "open":
            self.reveal(cell)
        elif action["kind"] == "flag":
            self.flag(cell)
        elif action["kind"] == "chord":
            for n in self.around(*cell):
                self.reveal(n)

    def copy(self) -> Truth:
        other = Truth(self.layout)
        other.open, other.flags = set(self.open), set(self.flags)
        other.lost, other.hit = self.lost, self.hit
        return other

    @property
    def safe_closed(self) -> int:
        """Safe cells not open yet."""
        return self.rows * self.cols - self.mines - len(self.open)

    @property
    def status(self) -> str:
        return "lost" if self.lost else "won" if self.safe_closed == 0 else "playing"

    def shown(self, r: int, c: int) -> str:
        """The cell in play: its number when open, "F" when flagged, else covered."""
        if (r, c) in self.open:
            return str(self.number(r, c))
        return "F" if (r, c) in self.flags else "."


#: Where each clone draws its first cell at a cell size, measured on
#: screenshots at its first size (`scripts/record_clones.py`'s FIXED_GRID):
#: sgt-mines' border is 1.5 tiles (its source's BORDER) below a menu bar 25 px
#: high; minegauler's board starts 10 px right of its window's edge (a 5 + 5 px
#: frame) and 73 px below its top (menu bar and panel), at every button size.
SGT_MENU_BAR = 25
MINEGAULER_ORIGIN = (10, 73)


def board_grid(
    clone: str, window: tuple[int, int, int, int], cell: int, rows: int, cols: int
) -> tuple[Boxes, Boxes]:
    """The boxes (x0, x1) of the columns and (y0, y1) of the rows on the screen.

    `window` is (x, y, width, height). Both clones centre their board in a
    window wider than it (a board narrower than the menu bar or the panel):
    the board is then (width - its own width) // 2 further right.
    """
    x, y, width, _ = window
    if clone == "sgt-mines":
        border = cell * 3 // 2
        left, top = border, SGT_MENU_BAR + border
        natural = cols * cell + 2 * border
    elif clone == "minegauler":
        left, top = MINEGAULER_ORIGIN
        natural = cols * cell + 2 * left
    else:
        raise ValueError(f"no grid rule for {clone}")
    x0, y0 = x + left + max(0, (width - natural) // 2), y + top
    return (
        [(x0 + c * cell, x0 + (c + 1) * cell) for c in range(cols)],
        [(y0 + r * cell, y0 + (r + 1) * cell) for r in range(rows)],
    )
