"""The rules of one zoo game, apart from how it is drawn: mines, marks, the end.

A zoo clone (Tk window or web page) holds one `Game` per game played and
draws what `visible()` says; the truth log records the same. Everything here
is deterministic given the seed and the clicks, so a zoo run can be replayed.

Visible states use the board text format of msbot (`bot/board.py`): `.`
covered, `F` flag, `?` question mark, `0`-`8` open, `*` a mine shown at the
end, `!` the mine that was hit, `X` a wrong flag shown at the end.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

FirstClick = Literal["safe", "zero", "none"]
Status = Literal["playing", "won", "lost"]


def neighbours(rows: int, cols: int, r: int, c: int) -> Iterator[tuple[int, int]]:
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols:
                yield r + dr, c + dc


@dataclass
class Game:
    """One game: the hidden layout (placed at the first open), marks and the end.

    `rule`: "safe" (the first opened cell is never a mine), "zero" (nor any of
    its neighbours, so it opens an area), "none" (the layout is placed before
    the first click). `qmarks`: the mark cycle goes covered, flag, "?".
    `flags_after_first`: marks are refused until the first cell is open.
    `win_needs_flags`: the game is won only once every mine is flagged too.
    """

    rows: int
    cols: int
    mines: int
    rule: FirstClick
    seed: int
    qmarks: bool = False
    flags_after_first: bool = False
    win_needs_flags: bool = False
    status: Status = "playing"
    #: (row, col) of every mine, once placed.
    layout: frozenset[tuple[int, int]] | None = None
    opened: set[tuple[int, int]] = field(default_factory=set)
    #: Marks on covered cells: "F" or "?".
    marks: dict[tuple[int, int], str] = field(default_factory=dict)
    hit: tuple[int, int] | None = None
    #: Whether the end shows every mine ("all") or only the one hit ("hit").
    end_shows: Literal["all", "hit"] = "all"
    #: Whether wrong flags are shown crossed (X) after a loss.
    shows_wrong_flags: bool = True
    #: Whether a won board shows its mines flagged (else they stay covered).
    flags_on_win: bool = True

    def __post_init__(self) -> None:
        if not 0 < self.mines < self.rows * self.cols:
            raise ValueError(f"{self.mines} mines do not fit {self.rows}x{self.cols}")
        if self.rule == "none":
            self.layout = self._place(None)

    @property
    def started(self) -> bool:
        return bool(self.opened) or (self.status != "playing")

    def _place(self, first: tuple[int, int] | None) -> frozenset[tuple[int, int]]:
        """Mines at random, from this game's seed; away from `first` per the rule."""
        rng = random.Random(self.seed)
        cells = [(r, c) for r in range(self.rows) for c in range(self.cols)]
        banned: set[tuple[int, int]] = set()
        if first is not None:
            banned.add(first)
            if self.rule == "zero":
                banned.update(neighbours(self.rows, self.cols, *first))
        free = [cell for cell in cells if cell not in banned]
        if len(free) < self.mines:  # a tiny dense board: only the cell itself kept free
            free = [cell for cell in cells if cell != first]
        return frozenset(rng.sample(free, self.mines))

    def count(self, r: int, c: int) -> int:
        assert self.layout is not None
        return sum(cell in self.layout for cell in neighbours(self.rows, self.cols, r, c))

    def open(self, r: int, c: int) -> list[tuple[int, int]]:
        """Open (r, c): the cells that changed, in the order they opened (a flood
        of zeros goes ring by ring: the order is what a reveal animation shows)."""
        if self.status != "playing" or (r, c) in self.opened or (r, c) in self.marks:
            return []
        if self.layout is None:
            self.layout = self._place((r, c))
        if (r, c) in self.layout:
            self.status = "lost"
            self.hit = (r, c)
            return [(r, c)]
        changed = self._flood([(r, c)])
        self._check_won()
        return changed

    def _flood(self, start: list[tuple[int, int]]) -> list[tuple[int, int]]:
        assert self.layout is not None
        order: list[tuple[int, int]] = []
        queue = list(start)
        seen = set(start)
        while queue:
            cell = queue.pop(0)
            if cell in self.opened or cell in self.layout or cell in self.marks:
                continue
            self.opened.add(cell)
            order.append(cell)
            if self.count(*cell) == 0:
                for nb in neighbours(self.rows, self.cols, *cell):
                    if nb not in seen:
                        seen.add(nb)
                        queue.append(nb)
        return order

    def mark(self, r: int, c: int) -> list[tuple[int, int]]:
        """One step of the mark cycle on a covered cell; refused before the first
        open when `flags_after_first`."""
        if self.status != "playing" or (r, c) in self.opened:
            return []
        if self.flags_after_first and not self.opened:
            return []
        now = self.marks.get((r, c))
        if now is None:
            self.marks[(r, c)] = "F"
        elif now == "F" and self.qmarks:
            self.marks[(r, c)] = "?"
        else:
            del self.marks[(r, c)]
        self._check_won()
        return [(r, c)]

    def chord(self, r: int, c: int) -> list[tuple[int, int]]:
        """Open every unflagged neighbour of an open number whose flags are all there."""
        if self.status != "playing" or (r, c) not in self.opened:
            return []
        around = list(neighbours(self.rows, self.cols, r, c))
        if sum(self.marks.get(nb) == "F" for nb in around) != self.count(r, c):
            return []
        assert self.layout is not None
        todo = [nb for nb in around if nb not in self.opened and nb not in self.marks]
        hits = [nb for nb in todo if nb in self.layout]
        if hits:
            self.status = "lost"
            self.hit = hits[0]
            return todo
        changed = self._flood(todo)
        self._check_won()
        return changed

    def _check_won(self) -> None:
        if self.status != "playing" or self.layout is None:
            return
        safe = self.rows * self.cols - self.mines
        if len(self.opened) < safe:
            return
        if self.win_needs_flags and any(self.marks.get(m) != "F" for m in self.layout):
            return
        self.status = "won"

    def flags(self) -> int:
        return sum(1 for mark in self.marks.values() if mark == "F")

    def cell(self, r: int, c: int) -> str:
        """What cell (r, c) shows, as a board character."""
        mark = self.marks.get((r, c))
        if (r, c) in self.opened:
            return str(self.count(r, c))
        if self.status == "lost":
            assert self.layout is not None
            mine = (r, c) in self.layout
            if (r, c) == self.hit:
                return "!"
            if mark == "F" and not mine:
                return "X" if self.shows_wrong_flags else "F"
            if mine and mark != "F" and self.end_shows == "all":
                return "*"
        won = self.status == "won" and self.flags_on_win and self.layout is not None
        if won and (r, c) in self.layout:  # type: ignore[operator]
            return "F"
        return mark or "."

    def visible(self) -> list[str]:
        return ["".join(self.cell(r, c) for c in range(self.cols)) for r in range(self.rows)]
