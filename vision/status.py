"""Game status (playing / won / lost / paused) and the skin's clickable controls.

Evidence, in order: a "paused" overlay; a face (xdemineur, minegauler: its
image says the status and its position is the "restart" control); status
messages (sgt-mines "COMPLETED!" / "DEAD!"); finally the board itself (an
exploded mine means lost; for skins that say so, no covered cell left means
won). Every rule is data in the skin manifest.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from bot.board import Board
from vision.geometry import Geometry
from vision.glyphs import Hit, best_hit
from vision.reading import Status
from vision.skin import Skin

STATUSES = ("playing", "won", "lost", "paused")


def find_controls(
    image: np.ndarray, skin: Skin, geo: Geometry, buttons: bool = True
) -> tuple[dict[str, tuple[int, int]], Hit | None]:
    """Screen points of the skin's controls ("restart": face or button), and the face.

    `buttons=False` skips the buttons (the face alone also gives the status).
    """
    controls: dict[str, tuple[int, int]] = {}
    face = None
    if skin.faces is not None:
        face = best_hit(image, skin.faces, geo)
        if face is not None:
            controls["restart"] = (face.x, face.y)
    for name, glyphs in skin.buttons.items() if buttons else ():
        hit = best_hit(image, glyphs, geo)
        if hit is not None:
            controls[name] = (hit.x, hit.y)
    return controls, face


def is_paused(image: np.ndarray, skin: Skin, geo: Geometry) -> bool:
    return skin.paused is not None and best_hit(image, skin.paused, geo) is not None


def read_status(
    image: np.ndarray, skin: Skin, geo: Geometry, board: Board, face: Hit | None = None
) -> Status:
    """The game status from the screen (see the module docstring for the order).

    `face` is the face already found by `find_controls`, to match it only once.
    """
    if skin.faces is not None:
        hit = face if face is not None else best_hit(image, skin.faces, geo)
        if hit is not None and hit.key in STATUSES:
            return cast(Status, hit.key)
    if skin.status_texts is not None:
        hit = best_hit(image, skin.status_texts, geo)
        if hit is not None and hit.key in STATUSES:
            return cast(Status, hit.key)
    if skin.lost_if_any and board.count(skin.lost_if_any):
        return "lost"
    if skin.won_if_no_covered and board.count(".?") == 0:
        return "won"
    return "playing"
