"""Where a board lies on the screen, and the mapping between cells and pixels."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Geometry:
    """The board's grid in screen (or screenshot) pixel coordinates.

    `left`/`top` is the top-left corner of cell (0, 0); `cell_w`/`cell_h` is the
    pitch (cell plus grid line), which may be fractional because some clones
    (GNOME Mines) scale their cells with the window.
    """

    left: float
    top: float
    cell_w: float
    cell_h: float
    rows: int
    cols: int

    @property
    def width(self) -> float:
        return self.cell_w * self.cols

    @property
    def height(self) -> float:
        return self.cell_h * self.rows

    def cell_center(self, row: int, col: int) -> tuple[int, int]:
        """The pixel (x, y) at the middle of a cell: where a click goes."""
        return (
            round(self.left + (col + 0.5) * self.cell_w),
            round(self.top + (row + 0.5) * self.cell_h),
        )

    @property
    def middle(self) -> tuple[int, int]:
        """The pixel (x, y) at the middle of the board."""
        return round(self.left + self.width / 2), round(self.top + self.height / 2)

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        """The (row, col) under pixel (x, y), or None outside the board."""
        col = int((x - self.left) // self.cell_w)
        row = int((y - self.top) // self.cell_h)
        if 0 <= row < self.rows and 0 <= col < self.cols:
            return (row, col)
        return None

    def contains(self, x: float, y: float) -> bool:
        """True if pixel (x, y) lies on the board."""
        return self.cell_at(x, y) is not None

    def part(self, r0: int, r1: int, c0: int, c1: int) -> Geometry:
        """The grid of this one's cells rows r0:r1 x columns c0:c1 (outside it too:
        a negative start or a stop past the end extends the lattice)."""
        return Geometry(
            self.left + c0 * self.cell_w,
            self.top + r0 * self.cell_h,
            self.cell_w,
            self.cell_h,
            r1 - r0,
            c1 - c0,
        )

    def grown(self, side: str) -> Geometry:
        """This grid with one more row or column on `side` (top, bottom, left, right)."""
        if side == "top":
            return self.part(-1, self.rows, 0, self.cols)
        if side == "bottom":
            return self.part(0, self.rows + 1, 0, self.cols)
        if side == "left":
            return self.part(0, self.rows, -1, self.cols)
        return self.part(0, self.rows, 0, self.cols + 1)

    def shifted(self, dx: float, dy: float) -> Geometry:
        """The same grid moved by (dx, dy): from region to screen coordinates."""
        return Geometry(
            self.left + dx, self.top + dy, self.cell_w, self.cell_h, self.rows, self.cols
        )

    def union(
        self, other: Geometry, pitch_slack: float, phase_slack: float
    ) -> tuple[Geometry, int, int] | None:
        """The one grid this and `other` make as pieces of one lattice, with the
        columns and rows between them (0: touching, negative: overlapping), or
        None when they are not (pitches more than `pitch_slack` px apart, or
        origins more than `phase_slack` of a cell off the same lattice)."""
        a, b = self, other
        if abs(a.cell_w - b.cell_w) > pitch_slack or abs(a.cell_h - b.cell_h) > pitch_slack:
            return None
        cols_off = (b.left - a.left) / a.cell_w
        rows_off = (b.top - a.top) / a.cell_h
        if abs(cols_off - round(cols_off)) > phase_slack:
            return None
        if abs(rows_off - round(rows_off)) > phase_slack:
            return None
        dc, dr = round(cols_off), round(rows_off)
        c0, r0 = min(0, dc), min(0, dr)
        c1, r1 = max(a.cols, dc + b.cols), max(a.rows, dr + b.rows)
        gap_cols = max(dc - a.cols, -dc - b.cols)
        gap_rows = max(dr - a.rows, -dr - b.rows)
        return a.part(r0, r1, c0, c1), gap_cols, gap_rows

    def to_json(self) -> dict[str, float | int]:
        return {
            "left": self.left,
            "top": self.top,
            "cell_w": self.cell_w,
            "cell_h": self.cell_h,
            "rows": self.rows,
            "cols": self.cols,
        }


def part_of(part: Geometry, whole: Geometry) -> bool:
    """Whether grid `part` is a smaller piece of grid `whole` (the same cells,
    within a pixel)."""
    if abs(part.cell_w - whole.cell_w) > 1 or abs(part.cell_h - whole.cell_h) > 1:
        return False
    if (part.rows, part.cols) == (whole.rows, whole.cols):
        return False
    col = (part.left - whole.left) / whole.cell_w
    row = (part.top - whole.top) / whole.cell_h
    on_lattice = (
        abs(col - round(col)) * whole.cell_w <= 1 and abs(row - round(row)) * whole.cell_h <= 1
    )
    return (
        on_lattice
        and round(col) >= 0
        and round(row) >= 0
        and round(col) + part.cols <= whole.cols
        and round(row) + part.rows <= whole.rows
    )
