"""The learned-skin audit (`vision.learn.audit`) checks every sure cell of every
frame: a frame with unsure cells is still held to the rules by its sure cells,
and won frames are checked too (a won board's closed cells are its mines).

The skins under test are the built-in xdemineur skin with two kinds' tiles
swapped (every 1 reads 2 and every 2 reads 1: sure misreads) and with one
kind's tiles taken away (every cell of that kind reads unsure); the frames are
a real recording's (recordings/xdemineur-beginner-1: in play with 7 flags, won)."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from bot.board import parse_board
from vision.learn.audit import misreads, won_board_exact
from vision.skin import Skin, load_skins

RECORDING = Path(__file__).resolve().parents[1] / "recordings" / "xdemineur-beginner-1"


def _skin(swap: bool, drop: str = "") -> Skin:
    skin = load_skins(["xdemineur"])[0]
    tiles = dict(skin.tiles)
    if swap:
        tiles["1"], tiles["2"] = skin.tiles["2"], skin.tiles["1"]
    for kind in drop:
        del tiles[kind]
    return replace(skin, tiles=tiles)


def _one_frame(tmp_path: Path, name: str) -> Path:
    (tmp_path / "rec" / "frames").mkdir(parents=True)
    shutil.copy(RECORDING / "frames" / name, tmp_path / "rec" / "frames" / name)
    return tmp_path / "rec"


@pytest.mark.parametrize(
    ("frame", "drop", "why"),
    [("0001.png", "F", "against the rules"), ("0002.png", "3", "against the rules")],
)
def test_a_frame_with_unsure_cells_is_held_to_the_rules_by_its_sure_ones(
    tmp_path: Path, frame: str, drop: str, why: str
) -> None:
    """0001 in play with its flags unsure, 0002 won with its 3 unsure: the 1s
    and 2s named wrong, which the reader's rules take back (`vision.rules`):
    the audit counts each name taken back as a misread of the skin."""
    folder = _one_frame(tmp_path, frame)
    checked, found = misreads(_skin(swap=True, drop=drop), [folder], None)
    assert checked == 1
    assert len(found) == 1 and why in found[0], found
    # Without the swap the same unsure cells are no misread: the check is fair.
    assert misreads(_skin(swap=False, drop=drop), [folder], None) == (1, [])


def test_a_won_frame_read_surely_and_wrongly_is_found(tmp_path: Path) -> None:
    folder = _one_frame(tmp_path, "0002.png")
    checked, found = misreads(_skin(swap=True), [folder], None)
    assert checked == 1 and len(found) == 1 and "against the rules" in found[0], found
    assert misreads(_skin(swap=False), [folder], None) == (1, [])


def test_a_won_board_counts_its_closed_cells() -> None:
    board = parse_board("F1\n11")
    assert won_board_exact(board)
    assert not won_board_exact(parse_board("F2\n11"))  # one closed cell beside the 2
    assert not won_board_exact(parse_board("!1\n11"))  # a mine went off: no win
    # A number beside a cell the reading does not say is not held to a count.
    assert won_board_exact(parse_board("F2\n11"), frozenset({(0, 0)}))
