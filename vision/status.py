"""Game status (playing / won / lost / paused) and the skin's clickable controls.

Evidence, in order: a "paused" overlay; a face (xdemineur, minegauler: its
image says the status and its position is the "restart" control); status
messages (sgt-mines "COMPLETED!" / "DEAD!"); finally the board itself (an
exploded mine means lost; for skins that say so, no covered cell left means
won). Every rule is data in the skin manifest.

A learned control may show "over": a picture the clone showed when a game
ended, not proven to mean one outcome (GNOME Mines' "Play Again" comes after
wins and losses alike). It says only that the game is over: the board then
tells won from lost, and until it can (a hit mine not named yet) the status
stays "playing" and the player finds out from its own clicks.

When the picture cuts off where the face or message would be (a screenshot
cropped to the board), a win can still be proved from the board: if every
covered cell is certainly a mine, every safe cell is open, so the clone has
declared the win (for a clone that wants every mine flagged first, no covered
cell may remain).
"""

from __future__ import annotations

from typing import cast

import numpy as np

from bot.board import Board
from bot.errors import InconsistentBoardError
from vision.face_rim import face_by_rim
from vision.geometry import Geometry
from vision.glyphs import GlyphMemo, Hit, best_hit, region_on_image
from vision.reading import Status
from vision.skin import Glyphs, Skin

STATUSES = ("playing", "won", "lost", "paused")
#: A learned control's picture at a game's end that names no outcome.
OVER = "over"


def find_controls(
    image: np.ndarray,
    skin: Skin,
    geo: Geometry,
    buttons: bool = True,
    memo: GlyphMemo | None = None,
) -> tuple[dict[str, tuple[int, int]], Hit | None]:
    """Screen points of the skin's controls ("restart": face or button), and the face.

    `buttons=False` skips the buttons (the face alone also gives the status).
    `memo` (here and below): see `vision.glyphs.GlyphMemo`.
    """
    controls: dict[str, tuple[int, int]] = {}
    face = None
    if skin.faces is not None:
        face = best_hit(image, skin.faces, geo, memo)
        if face is not None:
            controls["restart"] = (face.x, face.y)
        elif skin.faces.extra.get("any_expression"):
            # An expression the skin has no image of (a learned skin's won face).
            point = face_by_rim(image, skin.faces, geo)
            if point is not None:
                controls["restart"] = point
    for name, glyphs in skin.buttons.items() if buttons else ():
        hit = best_hit(image, glyphs, geo, memo)
        if hit is not None:
            controls[name] = (hit.x, hit.y)
    return controls, face


def is_paused(image: np.ndarray, skin: Skin, geo: Geometry, memo: GlyphMemo | None = None) -> bool:
    return skin.paused is not None and best_hit(image, skin.paused, geo, memo) is not None


def read_status(
    image: np.ndarray,
    skin: Skin,
    geo: Geometry,
    board: Board,
    face: Hit | None = None,
    memo: GlyphMemo | None = None,
    every_cell_sure: bool = False,
    counter_shown: bool = False,
) -> Status:
    """The game status from the screen (see the module docstring for the order).

    `face` is the face already found by `find_controls`, to match it only once.
    `every_cell_sure` (no cell of `board` read as unsure) and `counter_shown`
    (the mine counter was read) spare searches for messages that cannot be on
    screen then (`_message_possible`).
    """
    # A hit mine on the board is a loss whatever a face or button shows: a
    # learned button that looks the same in every game says "playing" even then.
    lost_board = bool(skin.lost_if_any) and board.count(skin.lost_if_any) > 0
    over = False
    if skin.faces is not None:
        hit = face if face is not None else best_hit(image, skin.faces, geo, memo)
        if hit is not None and hit.key in STATUSES and not (lost_board and hit.key == "playing"):
            return cast(Status, hit.key)
        over = hit is not None and hit.key == OVER
    texts = skin.status_texts
    if texts is not None and _message_possible(texts, skin, every_cell_sure, counter_shown):
        hit = best_hit(image, texts, geo, memo)
        if hit is not None and hit.key in STATUSES:
            return cast(Status, hit.key)
    if lost_board:
        return "lost"
    if skin.won_if_no_covered and board.count(".?") == 0:
        return "won"
    if (over or status_hidden(image, skin, geo)) and every_safe_cell_open(board, skin, over):
        return "won"
    return "playing"


def _message_possible(
    texts: Glyphs, skin: Skin, every_cell_sure: bool, counter_shown: bool
) -> bool:
    """Whether a status message of the skin may be on screen, given the rest of the reading.

    - `hides_board` (GNOME Mines' high-score window): not when every cell read
      surely. The cells under such a window would not look like the skin's
      tiles, and a board it does not cover says won itself (for a skin whose
      won board has no covered cell, `won_if_no_covered`). This spares the
      search for GNOME Mines' "Congratulations!" title on nearly every read
      (1.1 to 1.2 ms a read when it was searched in a 1575x360 band).
    - `replaces_counter` (sgt-mines' "COMPLETED!" and "DEAD!", written where
      "Marked: n / 10" was): not when the counter was read (about 0.3 ms).
    """
    if every_cell_sure and skin.won_if_no_covered and texts.extra.get("hides_board"):
        return False
    return not (counter_shown and texts.extra.get("replaces_counter"))


def status_hidden(image: np.ndarray, skin: Skin, geo: Geometry) -> bool:
    """Whether the face or status message the skin expects is (partly) off the picture."""
    return any(
        glyphs is not None and not region_on_image(glyphs.region, geo, image.shape)
        for glyphs in (skin.faces, skin.status_texts)
    )


def every_safe_cell_open(board: Board, skin: Skin, over: bool = False) -> bool:
    """Whether the numbers prove that only mines are still covered (a won game).

    Only called when the status cannot be seen, or when a learned control says
    the game is `over` (then even for a skin whose won boards usually show no
    covered cell); uses the solver, so it costs a solve of the board.
    """
    covered = board.count(".?")
    by_rule = skin.won_if_no_covered and not over
    if by_rule or board.count("!") or (skin.play.win_requires_flags and covered):
        # won_if_no_covered: this clone's won board has no covered cell (rule above).
        return False
    if board.count("0123456789") == 0:
        return False
    from bot.solver import analyse

    try:
        analysis = analyse(board)
    except InconsistentBoardError:
        return False
    return len(analysis.mines) == covered
