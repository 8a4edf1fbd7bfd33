"""Why no board is found when a known clone is on screen but hides its board.

"No Minesweeper board found" is useless to a person whose game is right
there, paused or under its own scores window: the skins know what those
look like (a paused overlay, a Resume button, a status text drawn over the
board), so this module names the cause and, when the skin says how, what
uncovers the board again (its Resume button; its restart keys close the
window over it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import Any

from bot.play.skinplay import play_rules
from vision.capture import Image
from vision.geometry import Geometry
from vision.glyphs import best_hit

#: Whole-image search region for a skin's glyphs (relative to a 1x1 "board"
#: that is the image itself).
_WHOLE_IMAGE = ((0.0, 0), (0.0, 0), (1.0, 0), (1.0, 0))


@dataclass(frozen=True)
class HiddenBoard:
    """A known clone on screen whose board something hides, and how to uncover it."""

    message: str
    #: Where its Resume button is (image pixels), if one shows.
    resume: tuple[int, int] | None = None
    #: Keys that close the window over the board (the skin's restart keys).
    keys: tuple[str, ...] = ()


def hidden_board(image: Image, reader: Any) -> HiddenBoard | None:
    """Why no board is found when a known clone hides it: its paused overlay
    (GNOME Mines after losing the focus or its Pause key) or a window the skin
    says covers the board (GNOME Mines' Congratulations). None when none of
    them is on screen.

    The skin places these glyphs relative to the board, which cannot be found,
    so they are searched in the whole image (a few hundred ms, only on this
    error path).
    """
    height, width = image.shape[:2]
    whole = Geometry(0, 0, width, height, 1, 1)

    def seen(glyphs: Any) -> Any:
        if glyphs is None:
            return None
        return best_hit(image, replace(glyphs, region=_WHOLE_IMAGE), whole)

    for skin in getattr(reader, "skins", ()):
        button = seen(skin.buttons.get("resume"))
        if button is not None or seen(skin.paused) is not None:
            return HiddenBoard(
                f"{skin.name} is paused (its board is hidden): click its Resume button "
                "(or give its window the focus), then run again",
                resume=(button.x, button.y) if button is not None else None,
            )
        texts = skin.status_texts
        if texts is not None and texts.extra.get("hides_board"):
            hit = seen(texts)
            if hit is not None:
                restart = play_rules(SimpleNamespace(skin=skin)).restart
                keys = []
                for step in restart:  # the keys before the first click close it
                    if not step.startswith("key:"):
                        break
                    keys.append(step[4:])
                return HiddenBoard(
                    f"a {skin.name} window covers the board (the game is {hit.key or 'over'}: "
                    "its scores or message window?): close it, start a new game, then run again",
                    keys=tuple(keys),
                )
    return None
