"""Find a status face/button near the board (the smiley that restarts the game).

Each frame's status follows from its learned board (an exploded mine: lost;
no covered cell: won; else playing). The face is the part of the window above
the board, near its middle, that is the same on every frame of one status and
differs between statuses. Its pictures become the skin's `faces`, whose
position `vision.status.find_controls` reports as the "restart" control.
Found only when the screenshots show at least two statuses; verified by
reading every frame's status back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from bot.board import Board
from vision.geometry import Geometry
from vision.glyphs import best_hit
from vision.skin import Glyphs, Region

#: Threshold of the learned face match (mean squared difference per colour value).
THRESHOLD = 60.0
#: Pixels kept around the changing part of the face (its unchanging button rim).
MARGIN = 3


@dataclass(frozen=True)
class LearnedFace:
    region: Region
    images: dict[str, np.ndarray]

    def glyphs(self) -> Glyphs:
        return Glyphs(self.region, {k: (v,) for k, v in self.images.items()}, THRESHOLD)


def board_status(board: Board) -> str:
    if board.count("!"):
        return "lost"
    if board.count(".?") == 0:
        return "won"
    return "playing"


def learn_face(
    images: Sequence[np.ndarray], geos: Sequence[Geometry], boards: Sequence[Board | None]
) -> LearnedFace | None:
    """The face (see the module docstring), or None."""
    use = [i for i, b in enumerate(boards) if b is not None]
    if not use:
        return None
    ref = geos[use[0]]
    same = [i for i in use if geos[i] == ref]
    status = {i: board_status(boards[i]) for i in same}  # type: ignore[arg-type]
    if len(set(status.values())) < 2:
        return None
    width = images[same[0]].shape[1]
    x0 = max(0, round(ref.left))
    x1 = min(width, round(ref.left + ref.width))
    y1 = round(ref.top)
    y0 = max(0, y1 - round(4 * ref.cell_h + 60))
    crops = {i: images[i][y0:y1, x0:x1].astype(np.int16) for i in same}
    steady = np.ones((y1 - y0, x1 - x0), bool)
    differs = np.zeros_like(steady)
    for i in same:
        for j in same:
            if j <= i:
                continue
            diff = np.abs(crops[i] - crops[j]).max(axis=2) > 0
            if status[i] == status[j]:
                steady &= ~diff
            else:
                differs |= diff
    mask = (steady & differs).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(cv2.dilate(mask, np.ones((5, 5), np.uint8)))
    if n < 2:
        return None
    middle = (x1 - x0) / 2
    boxes = [s for s in stats[1:n].tolist() if s[2] >= 6 and s[3] >= 6]
    if not boxes:
        return None
    first = min(boxes, key=lambda s: abs(s[0] + s[2] / 2 - middle))
    # Eyes and mouth change apart: join every changing part in the same columns.
    column = [s for s in boxes if s[0] < first[0] + first[2] and first[0] < s[0] + s[2]]
    bx = min(s[0] for s in column)
    by = min(s[1] for s in column)
    bw = max(s[0] + s[2] for s in column) - bx
    bh = max(s[1] + s[3] for s in column) - by
    fx0, fy0 = x0 + bx - MARGIN, y0 + by - MARGIN
    fx1, fy1 = x0 + bx + bw + MARGIN, y0 + by + bh + MARGIN
    centre = ref.left + ref.width / 2
    pad = 8
    region: Region = (
        (0.5, float(fx0 - pad - centre)),
        (0.0, float(fy0 - pad - ref.top)),
        (0.5, float(fx1 + pad - centre)),
        (0.0, float(fy1 + pad - ref.top)),
    )
    pictures: dict[str, np.ndarray] = {}
    for i in same:
        pictures.setdefault(status[i], images[i][fy0:fy1, fx0:fx1].copy())
    # Statuses seen only in other games: the face sits at the same place
    # relative to the board's top middle (checked below by reading back).
    more = dict(pictures)
    for i in use:
        want = board_status(boards[i])  # type: ignore[arg-type]
        if want in more:
            continue
        geo = geos[i]
        dx = round(geo.left + geo.width / 2 - centre)
        dy = round(geo.top - ref.top)
        crop = images[i][fy0 + dy : fy1 + dy, fx0 + dx : fx1 + dx]
        if crop.shape == pictures[status[same[0]]].shape:
            more[want] = crop.copy()
    for found in (more, pictures):
        face = LearnedFace(region, found)
        if _reads_back(face, images, geos, boards, use):
            return face
    return None


def _reads_back(
    face: LearnedFace,
    images: Sequence[np.ndarray],
    geos: Sequence[Geometry],
    boards: Sequence[Board | None],
    use: list[int],
) -> bool:
    glyphs = face.glyphs()
    for i in use:
        want = board_status(boards[i])  # type: ignore[arg-type]
        if want not in face.images:
            continue
        hit = best_hit(images[i], glyphs, geos[i])
        if hit is None or hit.key != want:
            return False
    return True
