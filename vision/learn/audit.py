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
from vision.reading import Reading
from vision.skin import Skin, load_skins


def frames(folder: Path) -> list[Path]:
    """The frames of a recording folder (`--save`, `--record`), in order."""
    return sorted((folder / "frames").glob("*.png"))


def wrong_cells(mine: Board, theirs: Board, unsure: set[tuple[int, int]]) -> list[str]:
    """Cells read surely by the learned skin that the built-in skin reads otherwise
    (a learned "-", open with its value not proven yet, stands for any number);
    `unsure`: the cells either reading does not say."""
    wrong = []
    for r, (a_row, b_row) in enumerate(zip(mine.rows, theirs.rows, strict=True)):
        for c, (a, b) in enumerate(zip(a_row, b_row, strict=True)):
            if (r, c) in unsure or a == b or (a == "-" and b in "012345678"):
                continue
            wrong.append(f"({r}, {c}) {a!r} for {b!r}")
    return wrong


def _around(board: Board, r: int, c: int) -> list[tuple[int, int]]:
    return [
        (rr, cc)
        for rr in range(max(0, r - 1), min(board.height, r + 2))
        for cc in range(max(0, c - 1), min(board.width, c + 2))
        if (rr, cc) != (r, c)
    ]


def lost_board_exact(board: Board, unsure: frozenset[tuple[int, int]] = frozenset()) -> bool:
    """On a lost board with its mines shown, every number whose neighbours are all
    shown (none covered, none unsure) counts the mines among them."""
    for r, row in enumerate(board.rows):
        for c, ch in enumerate(row):
            if ch not in "012345678" or (r, c) in unsure:
                continue
            around = _around(board, r, c)
            if any(board[n] in ".-?" or n in unsure for n in around):
                continue
            mines = sum(board[n] in "*!F" for n in around) - sum(board[n] == "X" for n in around)
            if mines != int(ch):
                return False
    return True


def won_board_exact(board: Board, unsure: frozenset[tuple[int, int]] = frozenset()) -> bool:
    """On a won board every safe cell is open: every closed cell (covered, flag,
    mark, shown mine) is a mine, no mine went off, and every number whose
    neighbours are all read counts the closed cells among them."""
    if board.count("!X"):
        return False
    for r, row in enumerate(board.rows):
        for c, ch in enumerate(row):
            if ch not in "012345678" or (r, c) in unsure:
                continue
            around = _around(board, r, c)
            if any(n in unsure or board[n] == "-" for n in around):
                continue
            if sum(board[n] in ".?F*" for n in around) != int(ch):
                return False
    return True


def rules_broken(reading: Reading) -> list[str]:
    """What a reading's sure cells say against the game's rules. The unsure
    (and held) cells are shown covered (`Reading`): each may hold a mine or a
    number, so only what the sure cells prove alone is held against them."""
    unsure = reading.unread
    if reading.status == "playing" and not consistent(reading.board, None):
        return ["reads against the rules"]
    if reading.status == "lost" and not lost_board_exact(reading.board, unsure):
        return ["a number does not count the mines shown"]
    if reading.status == "won" and not won_board_exact(reading.board, unsure):
        return ["a number does not count the closed cells of a won board"]
    return []


def misreads(skin: Skin, folders: list[Path], builtin: str | None) -> tuple[int, list[str]]:
    """(frames checked, sure misreads found) over every frame of `folders`.

    Every sure cell of every frame read is checked, whatever the others read:
    against the built-in skin's reading where that reads the same board (the
    cells both read surely), else against the game's rules (`rules_broken`:
    in play, lost or won). A frame counts as checked only when one of the two
    was made."""
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
            truth = None
            if truth_reader is not None:
                try:
                    truth = truth_reader.read_fresh(image)
                except MsbotError:
                    truth = None
            if truth is not None:
                size = (mine.board.height, mine.board.width)
                if size != (truth.board.height, truth.board.width):
                    if truth.certain:
                        found.append(
                            f"{frame}: board {size} for {truth.board.height, truth.board.width}"
                        )
                        checked += 1
                    continue
                bad = wrong_cells(mine.board, truth.board, set(mine.unread | truth.unread))
                counted = mine.mines_left is not None and truth.mines_left is not None
                if counted and mine.mines_left != truth.mines_left:
                    bad.append(f"counter {mine.mines_left} for {truth.mines_left}")
            else:
                bad = rules_broken(mine)
            ruled = [u for u in mine.unknown if u.ruled]
            if ruled:
                # Names the tiles gave that the game's rules took back: the
                # reader did not act on them, but the skin named them wrong.
                first = ", ".join(f"({u.row}, {u.col}) {u.best}" for u in ruled[:3])
                bad.append(f"{len(ruled)} cells read against the rules, e.g. {first}")
            found += [f"{frame}: {b}" for b in bad]
            checked += 1
    return checked, found
