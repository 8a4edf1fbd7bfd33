"""The façade the play loop and `msbot replay` use: locate once, then read fast.

    reader = BoardReader()                 # every skin in templates/ (+ MSBOT_TEMPLATES)
    located = reader.locate(image)         # ~tens of ms on a full screen
    reading = reader.read(image, located)  # ~1 ms while the board stays put
    reading = reader.read_fresh(image)     # both at once

Cells the classifier is unsure of are listed in `Reading.unknown` (and shown
as covered in the board); `consistency_problems` says whether any mine
placement fits the numbers read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from bot.board import Board
from bot.errors import InconsistentBoardError, VisionError
from vision.capture._base import frozen
from vision.classify import CellScores, TileBank, make_bank, rescue
from vision.counter import read_counter
from vision.distinct import classify_distinct, part_sampler
from vision.geometry import Geometry
from vision.glyphs import GlyphMemo, best_hit
from vision.locate import Located, locate
from vision.reading import Reading, UnknownCell
from vision.rules import (
    enclosed,
    mines_before_a_loss,
    numbers_broken,
    zeros_beside_covered,
    zeros_unproven,
)
from vision.sampling import CellSampler, cell_edges, is_scaled, make_sampler, part_grid
from vision.skin import Skin, load_skins
from vision.status import find_controls, is_paused, read_status

#: Past this share of the board changed, all cells are classified again at once.
MOST_CHANGED = 0.5


@dataclass(frozen=True)
class _LastCells:
    """The cells of the last read: where, what pixels, and how they were classified."""

    bank: TileBank
    #: The grid: geometry and nudge.
    key: tuple[object, ...]
    #: Image position of `pixels` (the board's cells and a pixel around them).
    x0: int
    y0: int
    pixels: np.ndarray
    scores: CellScores


class BoardReader:
    """Reads boards of the given skins (default: all installed skins)."""

    def __init__(self, skins: Sequence[Skin] | None = None) -> None:
        self.skins = list(skins) if skins is not None else load_skins()
        self.banks: list[TileBank] = [make_bank(s) for s in self.skins]
        #: What repeated reads of one board reuse: the cell sampler of the last
        #: scaled grid, and the last glyph search per region (reused only while
        #: the region's pixels are unchanged, so every answer stays the same).
        self._sampler: CellSampler | None = None
        #: The last located board's cell edges and memory key (`_grid`).
        self._grid_of: tuple[Located, np.ndarray, np.ndarray, tuple[object, ...]] | None = None
        self._cells: _LastCells | None = None
        self.memo = GlyphMemo()

    def _classify(self, image: np.ndarray, located: Located) -> CellScores | None:
        """`classify` of the located board, again only for the cells whose pixels changed.

        Between two reads of a game most cells stay as they were; a cell's
        classification depends only on its own pixels (and, sampled between
        pixels, on the one pixel around it), so the cells inside the box of
        changed pixels (grown by a pixel) are classified again and the rest is
        the last answer, unchanged by construction. A whole board is classified
        one distinct cell at a time (`vision.distinct`).
        """
        geo, bank, nudge = located.geometry, located.bank, located.nudge
        sampler = self._sampler_for(located)
        cols, rows, key = self._grid(located)
        height, width = image.shape[:2]
        x0, y0 = max(0, int(cols[:, 0].min()) - 1), max(0, int(rows[:, 0].min()) - 1)
        x1 = min(width, int(cols[:, 1].max()) + 1)
        y1 = min(height, int(rows[:, 1].max()) + 1)
        last = self._cells
        pixels = image[y0:y1, x0:x1]
        # A snapshot (`Screen.grab`) never changes: kept as it is, not copied.
        snapshot = frozen(pixels)
        self._cells = None  # until this read is done: never a half-updated memory
        if (
            last is None
            or last.bank is not bank
            or last.key != key
            or (last.x0, last.y0) != (x0, y0)
            or last.pixels.shape != pixels.shape
        ):
            scores = classify_distinct(image, geo, bank, nudge, sampler)
        else:
            # One pass over both pictures (a board is megabytes, read from
            # memory, not cache): the box of changed bytes, empty when none.
            diff = cv2.absdiff(pixels, last.pixels)
            bx, by, bw, bh = cv2.boundingRect(diff.reshape(diff.shape[0], -1))
            if bw == 0 or bh == 0:
                self._cells = last
                return last.scores
            depth = 1 if diff.ndim == 2 else diff.shape[2]
            changed = (slice(by, by + bh), slice(bx // depth, (bx + bw - 1) // depth + 1))
            if snapshot:
                kept = pixels
            elif last.pixels.flags.writeable:
                # The reader's own copy (not a snapshot), brought up to date
                # where the pixels changed: cheaper than a copy of the board.
                last.pixels[changed] = pixels[changed]
                kept = last.pixels
            else:
                kept = pixels.copy()
            # Changed pixels, in image coordinates, grown by one pixel.
            cx0, cx1 = x0 + bx // depth - 1, x0 + (bx + bw - 1) // depth + 2
            cy0, cy1 = y0 + by - 1, y0 + by + bh + 1
            hit_cols = np.nonzero((cols[:, 1] > cx0) & (cols[:, 0] < cx1))[0]
            hit_rows = np.nonzero((rows[:, 1] > cy0) & (rows[:, 0] < cy1))[0]
            if len(hit_cols) == 0 or len(hit_rows) == 0:
                self._cells = _LastCells(bank, key, x0, y0, kept, last.scores)
                return last.scores
            c0, c1 = int(hit_cols.min()), int(hit_cols.max()) + 1
            r0, r1 = int(hit_rows.min()), int(hit_rows.max()) + 1
            if (c1 - c0) * (r1 - r0) > MOST_CHANGED * geo.rows * geo.cols:
                scores = classify_distinct(image, geo, bank, nudge, sampler)
            else:
                scores = self._classify_part(image, located, sampler, last.scores, (r0, r1, c0, c1))
            if scores is not None:
                self._cells = _LastCells(bank, key, x0, y0, kept, scores)
            return scores
        if scores is not None:
            self._cells = _LastCells(
                bank, key, x0, y0, pixels if snapshot else pixels.copy(), scores
            )
        return scores

    def _classify_part(
        self,
        image: np.ndarray,
        located: Located,
        sampler: CellSampler | None,
        last: CellScores,
        box: tuple[int, int, int, int],
    ) -> CellScores | None:
        """`last` with the cells rows r0:r1 x columns c0:c1 classified again."""
        r0, r1, c0, c1 = box
        geo, nudge, bank = located.geometry, located.nudge, located.bank
        if sampler is None:
            # A whole-pixel grid: its distinct cells are found by their bytes alone.
            part, part_nudge = part_grid(geo, nudge, box)
            scores = classify_distinct(image, part, bank, part_nudge)
        else:
            # A scaled grid: grouped by the whole grid's plan, cut to the part.
            part, part_nudge, cut = part_sampler(image, geo, nudge, sampler, bank, box)
            scores = classify_distinct(image, part, bank, part_nudge, cut)
        if scores is None:
            return None
        merged = [a.copy() for a in (last.chars, last.best, last.margin, last.unsure)]
        for whole, new in zip(
            merged, (scores.chars, scores.best, scores.margin, scores.unsure), strict=True
        ):
            whole[r0:r1, c0:c1] = new
        return CellScores(*merged)

    def forget(self) -> None:
        """Drop what earlier reads left (cells, glyph searches): the next read starts afresh."""
        self._cells = None
        self.memo = GlyphMemo()

    def _grid(self, located: Located) -> tuple[np.ndarray, np.ndarray, tuple[object, ...]]:
        """The cell edges (`cell_edges`) of a located board and the key its cells
        are remembered under, worked out once while the play loop reads the
        same `Located` (immutable) again and again."""
        kept = self._grid_of
        if kept is not None and kept[0] is located:
            return kept[1], kept[2], kept[3]
        geo, nudge = located.geometry, located.nudge
        cols, rows = cell_edges(geo, nudge)
        key = (geo, None if nudge is None else (nudge[0].tobytes(), nudge[1].tobytes()))
        self._grid_of = (located, cols, rows, key)
        return cols, rows, key

    def _sampler_for(self, located: Located) -> CellSampler | None:
        geo, nudge, skin = located.geometry, located.nudge, located.skin
        if not is_scaled(geo, nudge):
            return None
        if self._sampler is None or not self._sampler.fits(geo, nudge, skin.inset, skin.patch):
            self._sampler = make_sampler(geo, nudge, skin.inset, skin.patch)
        return self._sampler

    @classmethod
    def for_skin(cls, name: str | None) -> BoardReader:
        """A reader for one named skin, or every skin for None / "auto"."""
        if name is None or name == "auto":
            return cls()
        return cls(load_skins([name]))

    def locate(self, image: np.ndarray) -> Located:
        return locate(image, self.banks)

    def read(self, image: np.ndarray, located: Located) -> Reading:
        """Read a board whose geometry is known (the fast path of the play loop).

        Costly searches run only when they can matter: buttons (restart,
        resume) only once the game is over or paused; the "paused" overlay is
        looked for in a small region the skin names (GNOME Mines: the board's
        middle), and only when no cell reads as anything but covered or
        unsure (the overlay hides the whole board: a paused GNOME Mines board
        reads as covered cells); a window over the board only when a cell
        reads unsure, and a message that replaces the counter only when the
        counter does not read (`read_status`).
        """
        skin, geo, memo = located.skin, located.geometry, self.memo
        scores = self._classify(image, located)
        if scores is None:
            raise VisionError("the board no longer fits on the image (window moved or resized?)")
        scores = rescue(image, geo, located.bank, scores, located.nudge)
        # An area of 0s beside a covered cell, a number its neighbours
        # contradict: pictures read wrong, not read (`vision.rules`). Only the
        # number's are names taken back (`ruled`): a frame caught while a clone
        # draws its cascade has 0s beside covered cells, and no name wrong.
        cascade = zeros_beside_covered(scores.chars, scores.unsure)
        ruled = numbers_broken(scores.chars, scores.unsure | cascade)
        scores = replace(scores, unsure=scores.unsure | cascade | ruled)
        chars = np.where(scores.unsure, ".", scores.chars)
        if (chars == ".").all() and is_paused(image, skin, geo, memo):
            controls, _ = find_controls(image, skin, geo, buttons=True, memo=memo)
            return Reading(
                skin.name, geo, Board.covered(geo.rows, geo.cols), None, "paused", (), controls
            )
        board, unknown = self._board(scores, ruled)
        controls, face = find_controls(image, skin, geo, buttons=False, memo=memo)
        mines_left = read_counter(image, skin, geo, memo)
        status = read_status(
            image,
            skin,
            geo,
            board,
            face,
            memo,
            every_cell_sure=not unknown,
            counter_shown=mines_left is not None,
        )
        if skin.mines_only_when_lost and status != "lost":
            shown = mines_before_a_loss(scores.chars, scores.unsure)
            if shown.any():
                # Mines on a board that is not lost break the rules: not read.
                scores = replace(scores, unsure=scores.unsure | shown)
                ruled |= shown
                board, unknown = self._board(scores, ruled)
        if unknown:
            # Areas of 0s that no cell read surely closes, then cells a ring of
            # unread cells shuts in (a box over the board's middle): not read.
            lone = zeros_unproven(scores.chars, scores.unsure)
            lone |= enclosed(scores.unsure | lone)
            scores = replace(scores, unsure=scores.unsure | lone)
            board, unknown = self._board(scores, ruled)
        if status != "playing" and hides_board(image, skin, geo, memo):
            # A window over the finished board (GNOME Mines' high scores): what
            # shows through is not the board, so none of it is reported.
            return Reading(skin.name, geo, Board.covered(geo.rows, geo.cols), None, status)
        if skin.buttons and (status != "playing" or 2 * len(unknown) > geo.rows * geo.cols):
            # Over, or no board but another screen of the clone where its
            # buttons are (a menu where a difficulty is chosen).
            controls, _ = find_controls(image, skin, geo, buttons=True, memo=memo)
        return Reading(
            skin.name,
            geo,
            board,
            mines_left,
            status,
            unknown,
            controls,
        )

    @staticmethod
    def _board(
        scores: CellScores, ruled: np.ndarray | None = None
    ) -> tuple[Board, tuple[UnknownCell, ...]]:
        """The board (unsure cells shown covered) and its unsure cells (`ruled`:
        those the game's rules took back)."""
        chars = np.where(scores.unsure, ".", scores.chars)
        board = Board(tuple("".join(row) for row in chars.tolist()))
        unknown = tuple(
            UnknownCell(
                int(r),
                int(c),
                round(float(scores.best[r, c]), 1),
                round(float(scores.margin[r, c]), 1),
                str(scores.chars[r, c]),
                bool(ruled is not None and ruled[r, c]),
            )
            for r, c in zip(*np.nonzero(scores.unsure), strict=True)
        )
        return board, unknown

    def read_fresh(self, image: np.ndarray) -> Reading:
        return self.read(image, self.locate(image))


def hides_board(
    image: np.ndarray, skin: Skin, geo: Geometry, memo: GlyphMemo | None = None
) -> bool:
    """Whether the skin's status text on screen is one drawn over the board
    (manifest: `status_texts.hides_board`)."""
    texts = skin.status_texts
    return (
        texts is not None
        and bool(texts.extra.get("hides_board"))
        and best_hit(image, texts, geo, memo) is not None
    )


def consistency_problems(reading: Reading) -> list[str]:
    """Why no mine placement fits the reading (empty list: consistent).

    Uses the solver, so a reading that passes is one the solver can act on.
    Lost boards are not checked (their mines are shown and numbers are final).
    """
    if reading.status != "playing" or reading.unknown:
        return []
    from bot.solver import analyse

    flags = reading.board.count("F")
    total = None if reading.mines_left is None else reading.mines_left + flags
    try:
        analyse(reading.board, total)
    except InconsistentBoardError as exc:
        cells = ", ".join(f"({r}, {c})" for r, c in exc.cells)
        return [f"{exc}" + (f" (cells {cells})" if cells else "")]
    return []
