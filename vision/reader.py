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

import numpy as np

from bot.board import Board
from bot.errors import InconsistentBoardError, VisionError
from vision.classify import TileBank, classify, make_bank, rescue
from vision.counter import read_counter
from vision.geometry import Geometry
from vision.glyphs import GlyphMemo, best_hit
from vision.locate import Located, locate
from vision.reading import Reading, UnknownCell
from vision.sampling import CellSampler, is_scaled, make_sampler
from vision.skin import Skin, load_skins
from vision.status import find_controls, is_paused, read_status


class BoardReader:
    """Reads boards of the given skins (default: all installed skins)."""

    def __init__(self, skins: Sequence[Skin] | None = None) -> None:
        self.skins = list(skins) if skins is not None else load_skins()
        self.banks: list[TileBank] = [make_bank(s) for s in self.skins]
        #: What repeated reads of one board reuse: the cell sampler of the last
        #: scaled grid, and the last glyph search per region (reused only while
        #: the region's pixels are unchanged, so every answer stays the same).
        self._sampler: CellSampler | None = None
        self.memo = GlyphMemo()

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
        middle).
        """
        skin, geo, memo = located.skin, located.geometry, self.memo
        scores = classify(image, geo, located.bank, located.nudge, self._sampler_for(located))
        if scores is None:
            raise VisionError("the board no longer fits on the image (window moved or resized?)")
        scores = rescue(image, geo, located.bank, scores, located.nudge)
        if is_paused(image, skin, geo, memo):
            controls, _ = find_controls(image, skin, geo, buttons=True, memo=memo)
            return Reading(
                skin.name, geo, Board.covered(geo.rows, geo.cols), None, "paused", (), controls
            )
        chars = np.where(scores.unsure, ".", scores.chars)
        board = Board(tuple("".join(row) for row in chars.tolist()))
        unknown = tuple(
            UnknownCell(
                int(r),
                int(c),
                round(float(scores.best[r, c]), 1),
                round(float(scores.margin[r, c]), 1),
                str(scores.chars[r, c]),
            )
            for r, c in zip(*np.nonzero(scores.unsure), strict=True)
        )
        controls, face = find_controls(image, skin, geo, buttons=False, memo=memo)
        status = read_status(image, skin, geo, board, face, memo)
        if status != "playing" and hides_board(image, skin, geo, memo):
            # A window over the finished board (GNOME Mines' high scores): what
            # shows through is not the board, so none of it is reported.
            return Reading(skin.name, geo, Board.covered(geo.rows, geo.cols), None, status)
        if status != "playing" and skin.buttons:
            controls, _ = find_controls(image, skin, geo, buttons=True, memo=memo)
        return Reading(
            skin.name,
            geo,
            board,
            read_counter(image, skin, geo, memo),
            status,
            unknown,
            controls,
        )

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
