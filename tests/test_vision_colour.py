"""Background colours as a second witness of a cell's kind (vision/colour.py).

The frames in tests/data/gnome-scales/ are real screenshots, taken under Xvfb
by QA and by `msbot play --record`, at window sizes no recording uses: GNOME
Mines renders its digits with other hinting there and the glyph distances
alone read 2s as sure 1s. Their expected rows were read by eye from the
frames (zoomed), not from the reader.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.errors import OpenSides, VisionError
from vision.colour import ColourTable, allowed_kinds, cell_colours, parse_colour
from vision.image_io import load_image
from vision.reader import BoardReader

DATA = Path(__file__).parent / "data" / "gnome-scales"
ZOO = Path(__file__).parent / "data" / "zoo"


def test_colours_are_hex_rgb_stored_as_bgr() -> None:
    assert parse_colour("#ddfac3", "t") == (0xC3, 0xFA, 0xDD)
    with pytest.raises(VisionError, match="#rrggbb"):
        parse_colour("green", "t")


def test_a_kind_is_ruled_out_by_a_colour_it_does_not_declare() -> None:
    kinds = (".", "1", "2", "*")
    table = ColourTable.build(kinds, {"1": [(195, 250, 221)], "2": [(191, 237, 236)]}, 10)
    assert table is not None
    seen = np.array([[191, 237, 236], [196, 249, 220], [40, 40, 40]], dtype=np.float32)
    allowed, unmatched = allowed_kinds(seen, table, len(kinds))
    # A "2" background: "1" is ruled out; kinds without colours never are.
    assert allowed[0].tolist() == [True, False, True, True]
    assert allowed[1].tolist() == [True, True, False, True]
    # No declared colour: nothing ruled out, but reported.
    assert allowed[2].all() and unmatched.tolist() == [False, False, True]


def test_cell_colour_is_the_background_not_the_digit() -> None:
    image = np.full((20, 20, 3), (191, 237, 236), dtype=np.uint8)
    image[6:14, 9:11] = 30  # a dark stroke through the middle
    seen = cell_colours(image, np.array([0]), np.array([20]), np.array([0]), np.array([20]))
    assert seen[0].tolist() == [191, 237, 236]


def read_rows(frame: str, rows: range) -> list[str]:
    reading = BoardReader.for_skin("gnome-mines").read_fresh(load_image(DATA / frame))
    assert reading.skin == "gnome-mines"
    lines = reading.board.to_text().splitlines()
    unknown = {(u.row, u.col) for u in reading.unknown}
    return [
        "".join("u" if (r, c) in unknown else ch for c, ch in enumerate(lines[r])) for r in rows
    ]


def test_gnome_at_26_px_reads_its_2s_as_2s() -> None:
    """QA's blocker: at 26 px the bot read (2, 2) as a sure 1 and lost on "certain" moves."""
    assert read_rows("expert-26px.png", range(3)) == [
        "." * 30,
        "." * 30,
        "12213" + "." * 25,
    ]


def test_gnome_at_23_px_is_found_and_read() -> None:
    """Below the old 24 px floor of the skin's pitch range the board was not found at all."""
    assert read_rows("intermediate-23px.png", range(8)) == [
        "0122100001F10000",
        "23FF100001110000",
        "FF32211000000111",
        "22101F22221012F1",
        "000123F3FF322F21",
        "1101F22F33FF3321",
        "F10111112244F2F1",
        "221110002F3F2...",
    ]


def test_another_clones_fresh_board_is_never_a_won_board_of_zeros() -> None:
    """sgt-mines at 32 px tiles: its raised grey tiles look like GNOME Mines'
    open 0s. A board with no cell that could hold a mine is no game, so GNOME
    Mines never takes it; since sgt-mines is read at any tile size, it is its
    own fresh board, every cell covered."""
    reading = BoardReader().read_fresh(load_image(DATA / "sgt-mines-32px-fresh.png"))
    assert reading.skin == "sgt-mines"
    assert reading.geometry.cell_w == 32
    assert set("".join(reading.board.rows)) == {"."} and reading.certain
    with pytest.raises(VisionError, match="no Minesweeper board"):
        BoardReader.for_skin("gnome-mines").read_fresh(
            load_image(DATA / "sgt-mines-32px-fresh.png")
        )


def test_a_board_its_window_cuts_off_is_refused_not_read_as_a_smaller_board() -> None:
    """GNOME Mines' expert board in its default 600x400 window: the window
    shows 19 whole columns and 11 whole rows, then parts of the next ones (seen
    by eye). Read as an 11x19 board, its cut edges would be edges to the
    solver. Nor are its sides open ones, which `msbot play` would learn as a
    clone of its own: its cut tiles end within a pitch."""
    with pytest.raises(VisionError, match="goes on past its right and bottom edge") as refused:
        BoardReader().read_fresh(load_image(DATA / "expert-default-window-cut.png"))
    assert not isinstance(refused.value, OpenSides)


def test_a_whole_board_in_a_window_of_the_skins_tile_colours_has_open_sides() -> None:
    """Zoo seed 287145384 (a crop of its screen from (300, 300)): a page of
    grey bevelled cells on a light grey page, which the GNOME Mines skin reads
    (its tile colours all round the board). Refused as cut, `msbot play` did
    not learn it; one flat colour for more than a pitch past every side is no
    cut tile: open sides, learned when the desktop says no window lies there."""
    with pytest.raises(OpenSides) as refused:
        BoardReader().locate(load_image(ZOO / "seed-287145384" / "fresh.png"))
    assert sorted(refused.value.sides) == ["bottom", "left", "right", "top"]


def test_gnome_theme_with_numbers_on_grey_is_read() -> None:
    """GNOME Mines' "default" theme paints every number on the grey of an open
    0 (the shipped "bgcolors" theme colours each number): the grey is declared
    for every number, so only the glyph tells them apart there."""
    assert read_rows("theme-default-grey-numbers.png", range(8)) == [
        ".100001.",
        "1100002.",
        "0000002.",
        "0000013.",
        "000001..",
        "110013..",
        ".1001...",
        ".1001...",
    ]


def test_another_clones_grey_tiles_are_not_gnome_mines() -> None:
    """KMines (a clone msbot has no skin for): its covered tiles are 191 grey,
    GNOME Mines' 186/189/182; with glyph distances alone the bot took it for
    GNOME Mines and clicked (QA Q5). GNOME paints exact colours, so the
    tolerance is a few levels."""
    with pytest.raises(VisionError, match="no Minesweeper board"):
        BoardReader().read_fresh(load_image(DATA / "kmines-grey-tiles.png"))


def test_gnome_side_panel_at_the_boards_pitch_is_no_board_column() -> None:
    """A beginner board in a 700x480 window: the side panel (flag, "0/10", buttons)
    sits at the board's pitch, and two panel columns were read as unsure board
    cells, so the bot stopped. Their colour is no tile colour of the skin."""
    reading = BoardReader().read_fresh(load_image(DATA / "beginner-wide-window-panel.png"))
    assert reading.skin == "gnome-mines"
    assert (reading.geometry.rows, reading.geometry.cols) == (8, 8)
    assert reading.board.rows == ("." * 8,) * 8 and reading.unknown == ()
    assert reading.mines_left == 10
