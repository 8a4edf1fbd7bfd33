"""Vision on real screenshots: loading, locating, reading, bad input.

Fixtures are real Xvfb screenshots (tests/data, recordings/). Labels of the
fixtures below were checked by eye; the won/lost boards are also checked by
game logic (every number equals the mines around it once all are shown).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bot.board import Board
from bot.errors import VisionError
from vision.geometry import Geometry
from vision.image_io import load_image
from vision.lattice import find_lattices
from vision.reader import BoardReader
from vision.skin import load_skins

DATA = Path(__file__).parent / "data"
RECORDINGS = Path(__file__).parent.parent / "recordings"


@pytest.fixture(scope="module")
def reader() -> BoardReader:
    return BoardReader()


def _around(board: Board, chars: str) -> np.ndarray:
    grid = np.array([[ch in chars for ch in row] for row in board.rows])
    padded = np.pad(grid, 1).astype(int)
    h, w = grid.shape
    return sum(
        padded[1 + dr : 1 + dr + h, 1 + dc : 1 + dc + w]
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if dr or dc
    )


def _numbers_match(board: Board, mines: str) -> list[tuple[int, int]]:
    counts = _around(board, mines)
    return [
        (r, c)
        for r, row in enumerate(board.rows)
        for c, ch in enumerate(row)
        if ch.isdigit() and int(ch) != counts[r, c]
    ]


# -- loading -------------------------------------------------------------------


def test_load_image_is_bgr(tmp_path: Path) -> None:
    image = load_image(DATA / "xdemineur_won.png")
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "no such file"), (b"hello, not an image", "not a PNG"), ("truncated", "corrupt")],
)
def test_load_image_bad_input(tmp_path: Path, content: object, message: str) -> None:
    path = tmp_path / "frame.png"
    if content == "truncated":
        path.write_bytes((DATA / "xdemineur_won.png").read_bytes()[:400])
    elif isinstance(content, bytes):
        path.write_bytes(content)
    with pytest.raises(VisionError, match=message):
        load_image(path)


# -- skins ---------------------------------------------------------------------


def test_every_skin_loads_with_a_play_section() -> None:
    skins = {s.name: s for s in load_skins()}
    assert {"xdemineur", "sgt-mines", "minegauler", "gnome-mines"} <= set(skins)
    assert skins["xdemineur"].play.chord == "middle"
    assert skins["xdemineur"].play.win_requires_flags is True
    assert skins["xdemineur"].play.restart == {"click": "restart"}
    assert skins["sgt-mines"].play.restart == {"key": "n"}
    assert skins["minegauler"].play.chord == "left+right"
    assert skins["gnome-mines"].play.pause is not None


def test_unknown_skin_is_a_clear_error() -> None:
    with pytest.raises(VisionError, match="unknown skin nosuch"):
        load_skins(["nosuch"])


def test_extra_skin_folder_from_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Adding a skin is adding a folder: a copy under another name is found and used."""
    import shutil

    src = Path(__file__).parent.parent / "templates" / "xdemineur"
    dst = tmp_path / "myclone"
    shutil.copytree(src, dst)
    manifest = json.loads((dst / "skin.json").read_text())
    manifest["name"] = "myclone"
    (dst / "skin.json").write_text(json.dumps(manifest))
    monkeypatch.setenv("MSBOT_TEMPLATES", str(tmp_path))
    reading = BoardReader(load_skins(["myclone"])).read_fresh(
        load_image(DATA / "xdemineur_won.png")
    )
    assert reading.skin == "myclone"
    assert reading.status == "won"


# -- locating and reading ------------------------------------------------------


def test_won_xdemineur(reader: BoardReader) -> None:
    reading = reader.read_fresh(load_image(DATA / "xdemineur_won.png"))
    assert reading.skin == "xdemineur"
    assert (reading.geometry.rows, reading.geometry.cols) == (9, 12)
    assert reading.geometry.cell_w == 21
    assert reading.board.rows[:2] == ("12F10012F111", "F211123F211F")
    assert reading.status == "won"
    assert reading.mines_left == 0
    assert reading.board.count("F") == 10 and reading.board.count(".?") == 0
    assert _numbers_match(reading.board, "F") == []
    assert "restart" in reading.controls


def test_lost_xdemineur_shows_every_kind(reader: BoardReader) -> None:
    reading = reader.read_fresh(load_image(DATA / "xdemineur_lost.png"))
    assert reading.status == "lost"
    assert reading.certain
    board = reading.board
    assert board.count("!") == 1 and board.count("*") > 50 and board.count("?") == 1
    # Game logic: once all mines are shown, every number counts shown mines and
    # correct flags around it.
    assert _numbers_match(board, "*!F") == []


def test_two_boards_is_one_clear_error(reader: BoardReader) -> None:
    with pytest.raises(VisionError, match="2 boards in the image"):
        reader.locate(load_image(DATA / "two_boards.png"))


def test_no_board(reader: BoardReader) -> None:
    image = load_image(DATA / "two_boards.png")[600:, 900:]
    with pytest.raises(VisionError, match="no Minesweeper board"):
        reader.locate(image)


@pytest.mark.parametrize("edge", ["left", "right", "top", "bottom"])
def test_board_cut_off_by_the_screen_edge(reader: BoardReader, edge: str) -> None:
    image = load_image(DATA / "xdemineur_won.png")
    geo = reader.locate(image).geometry
    mid_x = round(geo.left + geo.width / 2 + 5)
    mid_y = round(geo.top + geo.height / 2 + 5)
    crop = {
        "left": image[:, mid_x:],
        "right": image[:, :mid_x],
        "top": image[mid_y:, :],
        "bottom": image[:mid_y, :],
    }[edge]
    with pytest.raises(VisionError, match="cut off by the screen edge"):
        reader.locate(crop)


def test_board_found_anywhere_with_other_windows(reader: BoardReader) -> None:
    """The same board pasted at odd offsets on a busy screen is found there."""
    image = load_image(DATA / "xdemineur_won.png")
    located = reader.locate(image)
    g = located.geometry
    x0, y0 = max(0, round(g.left) - 20), max(0, round(g.top) - 80)
    window = image[y0 : round(g.top + g.height) + 20, x0 : round(g.left + g.width) + 20]
    screen = load_image(DATA / "two_boards.png")
    screen[:, :] = screen[:, ::-1]  # move the other boards around
    screen[:300, :] = 40
    screen[17 : 17 + window.shape[0], 901 : 901 + window.shape[1]] = window
    moved = reader.locate(screen)
    assert moved.skin.name == "xdemineur"
    assert moved.geometry.left == g.left - x0 + 901
    assert moved.geometry.top == g.top - y0 + 17


def test_fractional_pitch_is_fitted() -> None:
    """GNOME Mines scales its cells: the grid fit is not a whole number of pixels."""
    frame = RECORDINGS / "gnome-mines-expert-1" / "frames" / "0000.png"
    if not frame.exists():
        pytest.skip("recording not present")
    lattice = find_lattices(load_image(frame))[0]
    geo: Geometry = lattice.geometry
    assert (geo.rows, geo.cols) == (16, 30)
    assert 30 < geo.cell_w < 45 and geo.cell_w != round(geo.cell_w)


# -- recordings: every labelled frame read exactly -------------------------------


def _recorded_frames() -> list[tuple[str, Path, dict[str, object]]]:
    out = []
    for folder in sorted(RECORDINGS.glob("*/")):
        labels = folder / "labels.jsonl"
        if not labels.is_file():
            continue
        for line in labels.read_text().splitlines():
            if line.strip():
                label = json.loads(line)
                out.append((folder.name, folder / "frames" / label["frame"], label))
    return out


FRAMES = _recorded_frames()


@pytest.mark.parametrize(
    ("frame", "label"),
    [pytest.param(f, lab, id=f"{r}/{f.name}") for r, f, lab in FRAMES],
)
def test_recorded_frame_read_exactly(
    reader: BoardReader, frame: Path, label: dict[str, object]
) -> None:
    """Every recorded frame is read exactly; first of all, a cell is either read
    right or reported unsure (a sure misread is named as such, the worst bug)."""
    reading = reader.read_fresh(load_image(frame))
    unsure = {(u.row, u.col) for u in reading.unknown}
    wrong = [
        (r, c, a, b)
        for r, (got, want) in enumerate(zip(reading.board.rows, label["board"], strict=True))  # type: ignore[call-overload]
        for c, (a, b) in enumerate(zip(got, want, strict=True))
        if a != b and (r, c) not in unsure
    ]
    assert wrong == [], "sure misreads (row, col, read, label)"
    assert reading.unknown == ()
    assert list(reading.board.rows) == label["board"]
    assert reading.mines_left == label["mines_left"]
    assert reading.status == label["status"]


def test_there_are_labelled_recordings() -> None:
    assert len(FRAMES) > 20, "the labelled recordings are missing"


def test_an_impossible_number_is_not_read() -> None:
    """A real frame with one number made impossible (an 8 pasted over a 1 that
    fewer than eight covered cells touch): the rules say it cannot be, so it is
    unsure (`vision.rules`), and nothing is proposed."""
    from bot.commands.replay import intended_actions

    frame = RECORDINGS / "xdemineur-beginner-1" / "frames" / "0000.png"
    image = load_image(frame)
    reader = BoardReader(load_skins(["xdemineur"]))
    reading = reader.read_fresh(image)
    r, c = next(
        (r, c) for r, row in enumerate(reading.board.rows) for c, ch in enumerate(row) if ch == "1"
    )
    g = reading.geometry
    eight = load_image(Path(__file__).parent.parent / "templates/xdemineur/tiles/8.png")
    x, y = round(g.left + c * g.cell_w), round(g.top + r * g.cell_h)
    image[y : y + 21, x : x + 21] = eight
    rows = reading.board.rows
    assert sum(rows[rr][cc] == "." for rr, cc in reading.board.neighbours((r, c))) < 8
    bad = reader.read_fresh(image)
    assert (r, c) in bad.unread and not bad.certain
    actions, analysis, problems = intended_actions(bad, "zero")
    assert actions == [] and analysis is None, problems


def test_gnome_paused_and_hover() -> None:
    """GNOME Mines: a hovered (lighter) covered tile reads as covered; once the
    window lost focus the board is hidden and the reading says "paused" with
    the Resume button as a control (same window, geometry known from before)."""
    reader = BoardReader(load_skins(["gnome-mines"]))
    fresh = load_image(DATA / "gnome_fresh_hover.png")
    located = reader.locate(fresh)
    reading = reader.read(fresh, located)
    assert reading.certain and reading.board.count(".") == 64
    assert reading.mines_left == 10 and reading.status == "playing"
    paused = reader.read(load_image(DATA / "gnome_paused.png"), located)
    assert paused.status == "paused"
    assert "resume" in paused.controls
