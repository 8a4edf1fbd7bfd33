"""The mine counter: glyph templates read left to right, then parsed per the skin's format.

Formats: "left" (a 7-segment display of mines left, may start with "-") and
"marked/total" (GNOME Mines "3/10", sgt-mines "Marked: 3 / 10": only the
digits and the slash are templates, so the rest of the text is ignored).
"""

from __future__ import annotations

import re

import numpy as np

from vision.geometry import Geometry
from vision.glyphs import GlyphMemo, read_text
from vision.skin import Skin


def parse_counter(
    text: str, fmt: str, digits: int | None = None, spaced: bool = False
) -> int | None:
    """The mines left from the glyph string, or None if it does not fit the format.

    `digits`: a "left" counter that always shows this many digits (minegauler's
    "010"); fewer means part of it is outside the region (a board narrower than
    the clone's panel), and "10" of "010" cut to "0" would be a misread.
    `spaced`: the display's digits stand in fixed slots, so a narrow one (a
    7-segment "1" at the right of its slot) leaves a gap that is no space: gaps
    are ignored (only for a region that holds the counter alone).
    """
    for line in text.splitlines():
        line = line.replace(" ", "") if spaced else line.strip()
        if fmt == "left":
            m = re.fullmatch(r"(-?)(\d+)", line)
            if m and digits is not None and len(m.group(1) + m.group(2)) != digits:
                return None
            if m:
                return (-1 if m.group(1) else 1) * int(m.group(2))
        elif fmt == "marked/total":
            m = re.search(r"(?:^| )(\d+) ?/ ?(\d+)(?: |$)", line)
            if m:
                return int(m.group(2)) - int(m.group(1))
    return None


def read_counter(
    image: np.ndarray, skin: Skin, geo: Geometry, memo: GlyphMemo | None = None
) -> int | None:
    """Mines left per the counter, or None when the skin has none or it is not shown.

    `memo`: see `vision.glyphs.GlyphMemo`.
    """
    if skin.counter is None:
        return None
    text, _ = read_text(image, skin.counter, geo, memo)
    digits = skin.counter.extra.get("digits")
    return parse_counter(
        text,
        str(skin.counter.extra.get("format", "left")),
        None if digits is None else int(digits),
        bool(skin.counter.extra.get("spaced", False)),
    )
