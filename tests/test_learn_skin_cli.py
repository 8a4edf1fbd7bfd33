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
