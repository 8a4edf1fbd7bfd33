"""Auditing a learned skin: does it read any frame wrongly for sure?

A learned skin may leave pictures unsure, never misread them. This module
reads frames again with a skin and reports every sure reading that is wrong:
against another skin's reading of the same frame (a built-in skin, for the
clones that have one), or against the game's rules when no such labels exist
(no reading may contradict its numbers; on a lost board, whose mines are
shown, every number must count the mines around it). Used by the live
learning benchmark and its tests; pure (frames and skins in, findings out).
"""

from __future__ import annotations

from pathlib import Path

from bot.board import Board
from bot.errors import MsbotError
from bot.solver import consistent
from vision.image_io import load_image
from vision.reader import BoardReader
from vision.skin import Skin, load_skins


def frames(folder: Path) -> list[Path]:
    """The frames of a recording folder (`--save`, `--record`), in order."""
    return sorted((folder / "frames").glob("*.png"))


def wrong_cells(mine: Board, theirs: Board, unsure: set[tuple[int, int]]) -> list[str]:
    """Cells read surely by the learned skin that the built-in skin reads otherwise
    (a learned "-", open with its value not proven yet, stands for any number)."""
    wrong = []
    for r, (a_row, b_row) in enumerate(zip(mine.rows, theirs.rows, strict=True)):
        for c, (a, b) in enumerate(zip(a_row, b_row, strict=True)):
            if (r, c) in unsure or a == b or (a == "-" and b in "012345678"):
                continue
            wrong.append(f"({r}, {c}) {a!r} for {b!r}")
    return wrong


def lost_board_exact(board: Board) -> bool:
    """On a lost board with its mines shown, every number whose neighbours are all
    shown counts the mines among them."""
    for r, row in enumerate(board.rows):
        for c, ch in enumerate(row):
            if ch not in "012345678":
                continue
            around = [
                board.rows[rr][cc]
                for rr in range(max(0, r - 1), min(board.height, r + 2))
                for cc in range(max(0, c - 1), min(board.width, c + 2))
                if (rr, cc) != (r, c)
            ]
            if any(x in ".-?" for x in around):
                continue
            if sum(x in "*!F" for x in around) - sum(x == "X" for x in around) != int(ch):
                return False
    return True


def misreads(skin: Skin, folders: list[Path], builtin: str | None) -> tuple[int, list[str]]:
    """(frames checked, sure misreads found) over every frame of `folders`."""
    learned = BoardReader([skin])
    truth_reader = BoardReader(load_skins([builtin])) if builtin else None
    checked, found = 0, []
    for folder in folders:
        for frame in frames(folder):
            try:
                image = load_image(frame)
                mine = learned.read_fresh(image)
            except MsbotError:
                continue  # no board read: no reading to be wrong
            unsure = {(u.row, u.col) for u in mine.unknown}
            if truth_reader is not None:
                try:
                    truth = truth_reader.read_fresh(image)
                except MsbotError:
                    continue
                if truth.unknown or truth.board.height != mine.board.height:
                    continue
                bad = wrong_cells(mine.board, truth.board, unsure)
                counted = mine.mines_left is not None and truth.mines_left is not None
                if counted and mine.mines_left != truth.mines_left:
                    bad.append(f"counter {mine.mines_left} for {truth.mines_left}")
                found += [f"{frame}: {b}" for b in bad]
            elif not unsure:
                if mine.status == "playing" and not consistent(mine.board, None):
                    found.append(f"{frame}: reads against the rules")
                if mine.status == "lost" and not lost_board_exact(mine.board):
                    found.append(f"{frame}: a number does not count the mines shown")
            checked += 1
    return checked, found
