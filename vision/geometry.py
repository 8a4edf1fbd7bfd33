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

    def shifted(self, dx: float, dy: float) -> Geometry:
        """The same grid moved by (dx, dy): from region to screen coordinates."""
        return Geometry(
            self.left + dx, self.top + dy, self.cell_w, self.cell_h, self.rows, self.cols
        )

    def to_json(self) -> dict[str, float | int]:
        return {
            "left": self.left,
            "top": self.top,
            "cell_w": self.cell_w,
            "cell_h": self.cell_h,
            "rows": self.rows,
            "cols": self.cols,
        }
