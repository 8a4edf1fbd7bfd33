"""learn-skin command line: bad input gives one clear line and exit 2."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.cli import main


def _fail(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("msbot learn-skin: error: ") and "\n" not in err
    return err


def test_not_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "x.png"
    bad.write_text("hello")
    assert "not a PNG" in _fail(["learn-skin", "s", str(bad), "--out", str(tmp_path / "o")], capsys)
    assert not (tmp_path / "o").exists()


def test_no_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((300, 400, 3), 128, np.uint8))
    assert "no grid" in _fail(["learn-skin", "s", str(blank), "--out", str(tmp_path)], capsys)


@pytest.mark.parametrize("board", ["1,2,3", "a,b,c,d", "0,0,-5,10", "0,0,5000,10"])
def test_bad_board_rectangle(
    board: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shot = tmp_path / "s.png"
    cv2.imwrite(str(shot), np.full((300, 400, 3), 128, np.uint8))
    assert "--board" in _fail(["learn-skin", "s", str(shot), "--board", board], capsys)


def test_bad_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "bad skin name" in _fail(["learn-skin", "../x", str(tmp_path / "a.png")], capsys)


FRAME = Path(__file__).resolve().parent.parent / "recordings/xdemineur-beginner-1/frames/0002.png"
#: One game: which tile is covered is proven by what cells turn from (FRAME alone,
#: a won board, has no covered cell at all).
GAME = [str(FRAME.parent / f"{i:04d}.png") for i in range(3)]


def test_out_is_an_existing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """F8: --out onto a file is refused up front, one line, exit 2."""
    out = tmp_path / "design.txt"
    out.write_text("keep me")
    assert "not a folder" in _fail(["learn-skin", "s", str(FRAME), "--out", str(out)], capsys)
    assert out.read_text() == "keep me"


def test_an_existing_skin_is_not_replaced_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """QA Q6: `learn-skin xdemineur shot.png` overwrote the built-in skin."""
    builtin = Path(__file__).resolve().parent.parent / "templates" / "xdemineur" / "skin.json"
    before = builtin.read_bytes()
    assert "already holds a skin" in _fail(["learn-skin", "xdemineur", str(FRAME)], capsys)
    assert builtin.read_bytes() == before
    out = tmp_path / "mine"
    assert main(["learn-skin", "mine", *GAME, "--out", str(out)]) == 0
    learned = (out / "skin.json").read_bytes()
    assert "already holds a skin" in _fail(["learn-skin", "mine", *GAME, "--out", str(out)], capsys)
    assert main(["learn-skin", "mine", *GAME, "--out", str(out), "--force"]) == 0
    assert (out / "skin.json").read_bytes() == learned  # the same shots learn the same skin


def test_two_boards_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """F9: two boards in one image: refused like `msbot replay` does, nothing written."""
    image = cv2.imread(str(FRAME))
    h, w = image.shape[:2]
    two = np.zeros((2 * h, 2 * w, 3), np.uint8)
    two[:h, :w] = image
    two[h:, w:] = image
    shot = tmp_path / "two.png"
    cv2.imwrite(str(shot), two)
    out = tmp_path / "o"
    err = _fail(["learn-skin", "s", str(shot), "--out", str(out)], capsys)
    assert "2 boards in the image" in err and "--board" in err
    assert not out.exists()


def test_mines_contradicting_the_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """F11: --mines that no mine placement fits is an error and nothing is written."""
    out = tmp_path / "o"
    err = _fail(["learn-skin", "s", *GAME, "--mines", "50", "--out", str(out)], capsys)
    assert "--mines 50 does not fit" in err and "nothing written" in err
    assert not out.exists()


def test_counter_line_says_why_not(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """F10: the output always says what became of the mine counter (never silent)."""
    assert main(["learn-skin", "s", *GAME, "--out", str(tmp_path / "a")]) == 0
    assert "counter: not learned (give --mines N" in capsys.readouterr().out
    assert main(["learn-skin", "s", *GAME, "--mines", "10", "--out", str(tmp_path / "b")]) == 0
    said = capsys.readouterr().out
    assert "counter: not learned (digits seen: " in said
    assert "not learned" in (tmp_path / "b" / "skin.json").read_text()


def test_a_won_board_alone_names_no_covered_tile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 6: a won board has no covered cell; its commonest kind is the open 0.
    Learned alone it used to name the 0 "covered" (and the bot would have clicked
    open cells). Nothing proves which tile is covered: refused, nothing written."""
    out = tmp_path / "o"
    err = _fail(["learn-skin", "s", str(FRAME), "--out", str(out)], capsys)
    assert "covered" in err and "nothing written" in err
    assert not (out / "skin.json").exists()
