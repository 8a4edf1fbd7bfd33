"""GNOME Mines' high-score window over a finished board (`status_texts.hides_board`).

The reader only searches the window's "Congratulations!" title when a cell
of the board reads as unsure (`vision.status.read_status`, `every_cell_sure`):
the search costs about 1.2 ms a read, and a window over the board hides cells,
which then cannot read as the skin's tiles. Checked on real screenshots of
the window over won boards (`tests/data/gnome-won-window/`: the clone's high
scores start empty, so its first win opens it), and with a window like the
real one (header bar in the colour of the cut title, the title, a lighter body
with lines of text and a button) pasted over recorded boards at many places.
The tests fail if the gate lets a window over the board go unseen.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.glyphs import best_hit, region_box
from vision.image_io import load_image
from vision.reader import BoardReader

RECORDINGS = Path(__file__).resolve().parent.parent / "recordings"
WON_WINDOW = Path(__file__).resolve().parent / "data" / "gnome-won-window"
#: The window, as GNOME Mines 40 draws it (sizes in pixels, colours BGR).
WINDOW_W, WINDOW_H, HEADER_H = 420, 320, 46
HEADER, BODY, BORDER, INK = (217, 221, 224), (244, 245, 246), (194, 199, 205), (60, 56, 54)


def _window(title: np.ndarray) -> np.ndarray:
    window = np.empty((WINDOW_H, WINDOW_W, 3), np.uint8)
    window[:] = BODY
    window[:HEADER_H] = HEADER
    th, tw = title.shape[:2]
    y, x = (HEADER_H - th) // 2, (WINDOW_W - tw) // 2
    window[y : y + th, x : x + tw] = title[:, :, :3]
    for row in range(HEADER_H + 30, WINDOW_H - 70, 28):  # lines of the score table
        for col in range(40, WINDOW_W - 60, 70):
            window[row : row + 10, col : col + 40] = INK
    window[WINDOW_H - 50 : WINDOW_H - 14, WINDOW_W - 130 : WINDOW_W - 20] = HEADER  # a button
    window[[0, -1], :] = BORDER
    window[:, [0, -1]] = BORDER
    return window


def _pasted(image: np.ndarray, window: np.ndarray, cx: int, cy: int) -> np.ndarray | None:
    h, w = window.shape[:2]
    x, y = cx - w // 2, cy - h // 2
    if x < 0 or y < 0 or x + w > image.shape[1] or y + h > image.shape[0]:
        return None
    out = image.copy()
    out[y : y + h, x : x + w, :3] = window
    return out


@pytest.mark.parametrize("size", ["beginner", "beginner-149px", "intermediate", "expert"])
def test_the_real_window_over_a_won_board_is_seen(size: str) -> None:
    """The board is located on the fresh game, then read under the window
    GNOME Mines opened after the bot won it: no board, status won."""
    reader = BoardReader()
    located = reader.locate(load_image(WON_WINDOW / f"{size}-fresh.png"))
    geo = located.geometry
    reading = reader.read(load_image(WON_WINDOW / f"{size}-window.png"), located)
    assert reading.status == "won"
    assert reading.board.count(".") == geo.rows * geo.cols and reading.mines_left is None


@pytest.mark.parametrize(
    "name",
    [
        "gnome-mines-beginner-1",
        "gnome-mines-beginner-2",
        "gnome-mines-intermediate-1",
        "gnome-mines-expert-1",
        "gnome-mines-expert-2",
    ],
)
def test_a_window_over_the_board_leaves_cells_unsure(name: str) -> None:
    """Wherever the window lies over the board, some cell reads as unsure, so
    the title is searched as before the gate; where the title falls in the
    skin's search band the reading shows no board."""
    reader = BoardReader()
    for frame in sorted((RECORDINGS / name / "frames").glob("*.png")):
        image = load_image(frame)
        located = reader.locate(image)
        skin, geo = located.skin, located.geometry
        assert skin.status_texts is not None and skin.status_texts.extra.get("hides_board")
        window = _window(skin.status_texts.images["won"][0])
        # Where GNOME Mines puts it (its title 84 px right of and 270 px above
        # the board's centre: benchmarks/gnome_won_window.py), and elsewhere.
        middle = (round(geo.left + geo.width / 2), round(geo.top + geo.height / 2))
        gnome = (middle[0] + 84, middle[1] - 270 - HEADER_H // 2 + WINDOW_H // 2)
        places = [gnome] + [
            (round(geo.left + fx * geo.width), round(geo.top + fy * geo.height))
            for fx in np.linspace(0.0, 1.0, 5)
            for fy in np.linspace(-0.2, 1.0, 5)
        ]
        placed = hidden = 0
        for cx, cy in places:
            pasted = _pasted(image, window, cx, cy)
            if pasted is None:
                assert (cx, cy) != gnome, frame.name
                continue
            reader.forget()
            reading = reader.read(pasted, located)
            where = f"{frame.name}: window centred at ({cx}, {cy})"
            if reading.mines_left is None and reading.board.count(".") == geo.rows * geo.cols:
                assert reading.status == "won", where  # the title was found
                hidden += 1
            else:
                assert (cx, cy) != gnome, where  # GNOME's own place is always seen
                assert reading.unknown, where  # so the title was searched
            placed += 1
        assert placed >= 12 and hidden >= 1, frame.name


def test_the_title_is_not_searched_on_a_board_read_surely() -> None:
    """The other side of the gate: a board whose every cell reads surely is
    reported as it is, even with the title pasted inside the search region
    but off the board (where no window over the board could put it alone)."""
    reader = BoardReader()
    image = load_image(RECORDINGS / "gnome-mines-expert-1" / "frames" / "0001.png")
    located = reader.locate(image)
    skin, geo = located.skin, located.geometry
    assert skin.status_texts is not None
    plain = reader.read(image, located)
    assert not plain.unknown and plain.status == "playing"
    title = skin.status_texts.images["won"][0]
    x0, y0, _, _ = region_box(skin.status_texts.region, geo)
    x, y = x0 + 10, y0 + 10
    assert y + title.shape[0] < geo.top  # above the board, inside the region
    pasted = image.copy()
    pasted[y : y + title.shape[0], x : x + title.shape[1], :3] = title[:, :, :3]
    assert best_hit(pasted, skin.status_texts, geo) is not None  # it would be found
    reader.forget()
    reading = reader.read(pasted, located)
    assert reading.board == plain.board and reading.status == "playing"
