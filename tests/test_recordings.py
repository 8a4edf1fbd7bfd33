"""The committed recordings and their labels, checked with game logic only (no vision code).

Labels are the reference `msbot replay --check` and the vision tests compare
against, so they must be right independently of the code they judge: these
checks use nothing but the board text format and the rules of Minesweeper.
"""

from __future__ import annotations

import itertools
import json
import struct
from pathlib import Path
from typing import Any

import pytest

from bot.board import Board, parse_board

RECORDINGS = Path(__file__).resolve().parents[1] / "recordings"
FOLDERS = sorted(p for p in RECORDINGS.iterdir() if (p / "meta.json").exists())
CLONES = ("xdemineur", "gnome-mines", "sgt-mines", "minegauler")
OPEN = set("012345678")
#: Cells that may hide a mine on a finished board.
UNOPENED = set(".?F")

#: Every cell kind each clone can show (sgt-mines: no question marks, and a
#: loss shows only the mine that exploded, so no "*" and no "X"). Digits 7
#: and 8 come from crowded random boards (xdemineur, GNOME Mines) or fixed
#: mine layouts (sgt-mines' game ID, minegauler's board file).
KINDS = {
    "xdemineur": set(".F?*!X012345678"),
    "gnome-mines": set(".F?*!X012345678"),
    "sgt-mines": set(".F!012345678"),
    "minegauler": set(".F*!X012345678"),
}


def load(folder: Path) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    meta = json.loads((folder / "meta.json").read_text())
    labels = [json.loads(line) for line in (folder / "labels.jsonl").read_text().splitlines()]
    actions = [
        json.loads(line)
        for line in (folder / "actions.jsonl").read_text().splitlines()
        if line.strip()
    ]
    return meta, labels, actions


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from the PNG header (and proof that it is a PNG)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def boards(labels: list[dict[str, Any]]) -> list[Board]:
    return [parse_board("\n".join(label["board"])) for label in labels]


def around(board: Board, cell: tuple[int, int], kinds: set[str]) -> int:
    return sum(1 for n in board.neighbours(cell) if board[n] in kinds)


def test_there_are_recordings_of_every_clone_and_size() -> None:
    names = {f.name for f in FOLDERS}
    for clone in CLONES:
        for size in ("beginner", "intermediate", "expert"):
            assert any(n.startswith(f"{clone}-{size}-") for n in names), (clone, size)
    # GNOME Mines at two window sizes.
    sizes = {
        tuple(json.loads((f / "meta.json").read_text())["window_size"])
        for f in FOLDERS
        if f.name.startswith("gnome-mines-")
    }
    assert len(sizes) >= 2


def test_recordings_stay_small() -> None:
    total = sum(p.stat().st_size for p in RECORDINGS.rglob("*") if p.is_file())
    assert total < 6_000_000


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_every_frame_has_a_label_and_every_label_a_frame(folder: Path) -> None:
    meta, labels, _ = load(folder)
    frames = sorted(p.name for p in (folder / "frames").glob("*.png"))
    assert frames, "no frames"
    assert [label["frame"] for label in labels] == frames
    assert frames == [f"{i:04d}.png" for i in range(len(frames))]
    for name in frames:
        assert png_size(folder / "frames" / name) == tuple(meta["screen"]) == (1600, 1000)


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_meta_describes_the_recording(folder: Path) -> None:
    meta, _, _ = load(folder)
    assert meta["clone"] in CLONES
    assert folder.name.startswith(meta["clone"] + "-")
    assert meta["skin"]
    x, y = meta["window"]
    w, h = meta["window_size"]
    assert x >= 0 and y >= 0 and x + w <= 1600 and y + h <= 1000, "window must be fully on screen"
    assert 0 < meta["mines"] < meta["rows"] * meta["cols"]
    assert meta["made_by"].startswith("scripts/record_clones.py")


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_labels_follow_the_game_rules(folder: Path) -> None:
    meta, labels, _ = load(folder)
    rows, cols, mines = meta["rows"], meta["cols"], meta["mines"]
    for label, board in zip(labels, boards(labels), strict=True):
        where = f"{folder.name}/{label['frame']}"
        assert (board.height, board.width) == (rows, cols), where
        status = label["status"]
        assert status in ("playing", "won", "lost"), where
        # Exactly one exploded mine when lost, none otherwise.
        assert board.count("!") == (1 if status == "lost" else 0), where
        if status == "playing":
            assert board.count("*X") == 0, f"{where}: mines or wrong flags shown during play"
        flags = board.count("FX")
        if meta["clone"] == "sgt-mines" and status != "playing":
            assert label["mines_left"] is None, f"{where}: sgt-mines shows no count then"
        elif status == "won":
            assert label["mines_left"] == 0, where
        else:
            assert label["mines_left"] == mines - flags, f"{where}: counter != mines - flags"
        for cell in board.cells():
            n = board.number(cell)
            if n is None:
                continue
            # Never more mines around than unopened or shown-mine neighbours.
            assert around(board, cell, UNOPENED | set("*!X")) >= n, f"{where} {cell}"
            assert around(board, cell, set("*!")) <= n, f"{where} {cell}"
            if status == "won":
                # Every safe cell is open: the unopened neighbours are exactly the mines.
                assert around(board, cell, UNOPENED) == n, f"{where} {cell}"
            if status == "lost" and meta["clone"] != "sgt-mines":
                # Every mine is shown: as a mine, the exploded one, a (right) flag,
                # or a question mark left on it; X is a flag on no mine.
                assert around(board, cell, set("*!F")) <= n <= around(board, cell, set("*!F?")), (
                    f"{where} {cell}"
                )
        if status == "won":
            assert board.count(".?F") == mines, f"{where}: a won board has only mines unopened"
        if status == "lost" and meta["clone"] != "sgt-mines":
            assert board.count("*!F?") >= mines >= board.count("*!F"), where


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_opened_cells_never_change(folder: Path) -> None:
    _, labels, _ = load(folder)
    seq = boards(labels)
    for i, (before, after) in enumerate(itertools.pairwise(seq)):
        for cell in before.cells():
            if before[cell] in OPEN:
                assert after[cell] == before[cell], f"{folder.name} frame {i + 1} {cell}"
            if before[cell] == "F" and after[cell] not in "F.?X":
                raise AssertionError(f"{folder.name} frame {i + 1} {cell}: a flag became open")
    # The game only ends once, at the last frame.
    statuses = [label["status"] for label in labels]
    assert "won" not in statuses[:-1] and "lost" not in statuses[:-1]


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_actions_are_clicks_on_the_board(folder: Path) -> None:
    meta, labels, actions = load(folder)
    frames = {label["frame"] for label in labels}
    x0, y0 = meta["window"]
    w, h = meta["window_size"]
    assert actions, "no clicks recorded"
    for action in actions:
        assert action["button"] in ("left", "right", "middle")
        assert x0 <= action["x"] < x0 + w and y0 <= action["y"] < y0 + h
        assert 0 <= action["row"] < meta["rows"] and 0 <= action["col"] < meta["cols"]
        assert action["frame"] is None or action["frame"] in frames


@pytest.mark.parametrize("clone", CLONES)
def test_every_cell_kind_and_ending_is_recorded(clone: str) -> None:
    kinds: set[str] = set()
    statuses: set[str] = set()
    for folder in FOLDERS:
        meta, labels, _ = load(folder)
        if meta["clone"] != clone:
            continue
        for label in labels:
            kinds |= set("".join(label["board"]))
            statuses.add(label["status"])
    assert KINDS[clone] <= kinds, f"missing: {sorted(KINDS[clone] - kinds)}"
    assert statuses == {"playing", "won", "lost"}
