#!/usr/bin/env python3
"""Re-create `recordings/` from the real clones under a private Xvfb.

    .venv/bin/python scripts/record_clones.py [NAME-PATTERN ...] [--out recordings]

For each planned recording (PLANS below: clone, board size, window position,
window size, a second window beside it or not, and a short script of moves)
this starts a 1600x1000 Xvfb, launches the clone with `harness.clones`, plays by
clicking with xdotool, and saves full-screen PNG frames, the clicks made
between frames (`actions.jsonl`), `meta.json` and `labels.jsonl`.

The labels do NOT come from `vision/` (the code they check). This script reads
each cell with its own, much simpler reader: the window position and cell
pitch are known here (the script placed the window; xdemineur, sgt-mines and
minegauler draw at fixed offsets, GNOME Mines' grid is measured on its first,
all-covered frame by the colour of covered tiles) and every cell crop is
compared with reference crops that a person labelled by eye
(`scripts/record_refs/<clone>/<kind>-<n>.png`). A crop matching no reference
stops the recording and is saved under /tmp/record-unknown/ to be labelled
and added. The mine counter label is mines minus flags and the status comes
from the board (an exploded mine = lost; every safe cell open, and for
xdemineur every mine flagged = won). Every frame was then checked by eye
(`--sheets DIR` draws the labels over each board for that) and by
tests/test_recordings.py with game logic.

Moves are chosen by `bot.solver.analyse` on this script's own reading, plus
deliberate marks (question marks, a wrong flag) and deliberate losses.
"""

from __future__ import annotations

import argparse
import dataclasses
import fnmatch
import json
import random
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import mss
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.board import Board  # noqa: E402
from bot.errors import MsbotError  # noqa: E402
from bot.solver import analyse  # noqa: E402
from harness.clones import (  # noqa: E402
    CLONES,
    MINEGAULER_LAUNCHER,
    BoardSize,
    CloneSpec,
    RunningClone,
    RunningWindow,
    launch_clone,
    launch_window,
    window_geometry,
)
from harness.xdisplay import VirtualDisplay  # noqa: E402

REFS = ROOT / "scripts" / "record_refs"
UNKNOWN = Path("/tmp/record-unknown")
SCREEN = (1600, 1000)

KIND_NAMES = {
    ".": "covered",
    "F": "flag",
    "?": "question",
    "*": "mine",
    "!": "exploded",
    "X": "wrongflag",
    **{str(n): f"n{n}" for n in range(9)},
}
NAME_KINDS = {name: ch for ch, name in KIND_NAMES.items()}

#: Board origin relative to the window's top-left and cell pitch, for clones
#: that draw at fixed pixel offsets (measured on screenshots).
FIXED_GRID = {
    "xdemineur": (17, 82, 21, 20),  # left, top, pitch, cell size drawn
    "sgt-mines": (30, 55, 20, 20),
    "minegauler": (10, 73, 16, 16),
}
#: GNOME Mines' covered tile colour (BGR) in a focused window.
GNOME_COVERED = (182, 189, 186)
#: Clones that offer question marks (right click cycles flag -> ? -> covered).
HAS_QUESTION = {"xdemineur", "gnome-mines"}
#: Cells are compared at this size (GNOME Mines scales its tiles).
CROP = 16


@dataclass
class Plan:
    """One recording: what to launch where, and the script of steps to play."""

    clone: str
    #: A preset name, or "dense" for `board` (a crowded custom board: digits 5-8).
    size: str
    k: int
    position: tuple[int, int]
    steps: tuple[str, ...]
    window_size: tuple[int, int] | None = None
    neighbour: tuple[int, int] | None = None
    #: Keep starting new games until the steps end in this status ("" = any).
    want: str = ""
    attempts: int = 12
    seed: int = 0
    board: BoardSize | None = None
    #: A fixed mine layout ("*" mine, "." safe), for clones that accept one
    #: (sgt-mines by game ID, minegauler by a board file): digits 5-8 on demand.
    layout: tuple[str, ...] | None = None


# Steps: "first" opens the middle cell; "solve:N" makes up to N certain moves
# (opens and flags) and guesses when nothing is certain; "question" puts a
# question mark on an undecided covered cell; "wrongflag" flags a cell known
# to be safe; "explode" opens a cell known to be a mine (or guesses until
# lost); "finish" plays to the end; "frame" saves a frame. On a plan with a
# mine layout: "zero" opens its zero area, "flags:N" flags N of its mines,
# "high" opens its cells showing 5 or more, "clear" every other safe cell. On
# crowded random boards: "corner" opens the top-left cell, "poke" a random
# cell with eight covered neighbours.
LOSE = ("first", "frame", "solve:8", "question", "frame", "solve:12", "wrongflag", "frame")
LOSE_END = ("explode", "frame")
WIN = ("first", "frame", "solve:15", "frame", "finish", "frame")

DENSE = ("first", "frame", "solve:40", "frame", "solve:400", "frame")

# A fixed layout with an 8 at (1,1), a 7 at (1,7), a 6 at (3,1) and (5,1), a 5
# at (5,7): the zero column 4 opens an area, "high" opens the cells showing 5
# or more (each walled in by mines, so only a deliberate click opens them),
# "clear" opens every other safe cell: a won board showing every digit 0-8.
HIGH_LAYOUT = (
    "***...***",
    "*.*...*.*",
    "***...**.",
    ".........",
    "***...*..",
    "*.*...*.*",
    "*.....**.",
    ".........",
    ".........",
)
LAYOUT_WIN = ("zero", "frame", "flags:3", "high", "frame", "clear", "frame")
# Random crowded boards (about 4 mines in 5 cells): open single cells whose
# eight neighbours are all covered until one shows the wanted digit, or a mine.
POKE = ("frame", *("poke", "frame") * 6)
# GNOME Mines' first click opens the cells around it: open the corner first,
# leaving most of the board untouched for pokes.
CORNER_POKE = ("corner", "frame", *("poke", "frame") * 6)
#: GNOME Mines' custom boards by mine percentage: 8x8 at its highest (84 % =
#: 54 mines; an 8 is likeliest) and at 75 % (48 mines; a 7 more likely).
GNOME_CUSTOM_PERCENT = {BoardSize(8, 8, 54): 84, BoardSize(8, 8, 48): 75}

PLANS = [
    Plan("xdemineur", "beginner", 1, (40, 30), WIN, want="won"),
    Plan(
        "xdemineur",
        "intermediate",
        1,
        (520, 260),
        (*LOSE, *LOSE_END),
        want="lost",
        neighbour=(120, 300),
    ),
    Plan(
        "xdemineur",
        "expert",
        1,
        (300, 420),
        (
            "first",
            "frame",
            "solve:60",
            "frame",
            "question",
            "solve:60",
            "frame",
            "explode",
            "frame",
        ),
    ),
    Plan("gnome-mines", "beginner", 1, (120, 80), WIN, want="won"),
    Plan(
        "gnome-mines",
        "intermediate",
        1,
        (400, 200),
        (*LOSE, *LOSE_END),
        want="lost",
        neighbour=(60, 60),
    ),
    Plan(
        "gnome-mines",
        "expert",
        1,
        (10, 10),
        ("first", "frame", "solve:40", "question", "frame", "explode", "frame"),
    ),
    Plan(
        "gnome-mines",
        "beginner",
        2,
        (20, 40),
        (*LOSE, *LOSE_END),
        want="lost",
        window_size=(1000, 760),
    ),
    Plan(
        "gnome-mines",
        "expert",
        2,
        (200, 60),
        ("first", "frame", "solve:40", "frame", "explode", "frame"),
        window_size=(1100, 640),
    ),
    Plan("sgt-mines", "beginner", 1, (700, 100), WIN, want="won", neighbour=(400, 120)),
    Plan("sgt-mines", "intermediate", 1, (60, 400), (*LOSE, *LOSE_END)),
    Plan(
        "sgt-mines",
        "expert",
        1,
        (820, 500),
        ("first", "frame", "solve:50", "frame", "explode", "frame"),
    ),
    Plan("minegauler", "beginner", 1, (1100, 600), WIN, want="won"),
    Plan(
        "minegauler",
        "intermediate",
        1,
        (250, 150),
        (*LOSE, *LOSE_END),
        want="lost",
        neighbour=(600, 150),
    ),
    Plan(
        "minegauler",
        "expert",
        1,
        (700, 30),
        ("first", "frame", "solve:60", "frame", "explode", "frame"),
    ),
    Plan(
        "xdemineur", "dense", 1, (150, 200), DENSE, board=BoardSize(16, 30, 120), want="high-digits"
    ),
    Plan(
        "minegauler",
        "dense",
        1,
        (600, 400),
        DENSE,
        board=BoardSize(16, 30, 120),
        want="high-digits",
    ),
    Plan(
        "sgt-mines",
        "layout",
        1,
        (300, 250),
        LAYOUT_WIN,
        layout=HIGH_LAYOUT,
        want="digits:5678",
        attempts=1,
    ),
    Plan(
        "minegauler",
        "layout",
        1,
        (900, 150),
        LAYOUT_WIN,
        layout=HIGH_LAYOUT,
        want="digits:5678",
        attempts=1,
    ),
    Plan(
        "xdemineur",
        "dense",
        2,
        (640, 480),
        POKE,
        board=BoardSize(9, 12, 86),
        want="digits:8",
        attempts=150,
    ),
    Plan(
        "xdemineur",
        "dense",
        3,
        (60, 520),
        POKE,
        board=BoardSize(9, 12, 86),
        want="digits:7",
        attempts=150,
    ),
    Plan(
        "gnome-mines",
        "dense",
        1,
        (150, 100),
        CORNER_POKE,
        board=BoardSize(8, 8, 54),
        window_size=(600, 400),
        want="digits:8",
        attempts=80,
    ),
    Plan(
        "gnome-mines",
        "dense",
        2,
        (700, 300),
        CORNER_POKE,
        board=BoardSize(8, 8, 48),
        window_size=(600, 400),
        want="digits:7",
        attempts=80,
    ),
    Plan(
        "gnome-mines",
        "dense",
        3,
        (400, 500),
        CORNER_POKE,
        board=BoardSize(8, 8, 48),
        window_size=(600, 400),
        want="digits:6",
        attempts=80,
    ),
]


# ----------------------------------------------------------------- layouts


def layout_mines(layout: tuple[str, ...]) -> list[tuple[int, int]]:
    return [(r, c) for r, line in enumerate(layout) for c, ch in enumerate(line) if ch == "*"]


def layout_number(layout: tuple[str, ...], cell: tuple[int, int]) -> int:
    r0, c0 = cell
    return sum(
        1
        for r in range(max(0, r0 - 1), min(len(layout), r0 + 2))
        for c in range(max(0, c0 - 1), min(len(layout[0]), c0 + 2))
        if (r, c) != cell and layout[r][c] == "*"
    )


def layout_first_zero(layout: tuple[str, ...]) -> tuple[int, int]:
    """The safe cell with no mine around nearest the middle: a click there opens an area."""
    rows, cols = len(layout), len(layout[0])
    zeros = [
        (r, c)
        for r in range(rows)
        for c in range(cols)
        if layout[r][c] == "." and layout_number(layout, (r, c)) == 0
    ]
    return min(zeros, key=lambda rc: abs(rc[0] - rows // 2) + abs(rc[1] - cols // 2))


def sgt_game_id(layout: tuple[str, ...]) -> str:
    """sgt-mines' descriptive game ID: `WxH:x,y,u<hex>`.

    x,y is a cell the game opens at the start (it must be safe), "u" says the
    mine bitmap is not obfuscated, then the bitmap row by row, one bit per
    cell, most significant bit first, in hex (see mines.c validate_desc).
    """
    rows, cols = len(layout), len(layout[0])
    bits = "".join("1" if ch == "*" else "0" for line in layout for ch in line)
    bits += "0" * (-len(bits) % 4)
    hexed = "".join(f"{int(bits[i : i + 4], 2):x}" for i in range(0, len(bits), 4))
    r, c = layout_first_zero(layout)
    return f"{cols}x{rows}:{c},{r},u{hexed}"


#: minegauler's launcher, plus loading a board file (its "Load board" menu
#: does the same) before the event loop starts: the game is then this layout.
MINEGAULER_LAYOUT_LAUNCHER = MINEGAULER_LAUNCHER.replace(
    "sys.exit(main())",
    """import minegauler.app.__main__ as started
from minegauler.app import frontend
run_app = frontend.run_app
def load_then_run(gui):
    started.ctrlr.load_minefield(sys.argv[6])
    return run_app(gui)
frontend.run_app = load_then_run
sys.exit(main())""",
)


def layout_spec(clone: str, layout: tuple[str, ...]) -> CloneSpec:
    """The clone's spec, changed to start a game with this mine layout."""
    spec = CLONES[clone]
    if clone == "sgt-mines":
        return dataclasses.replace(spec, argv=(sgt_game_id(layout),))
    if clone == "minegauler":
        board = {
            "x_size": len(layout[0]),
            "y_size": len(layout),
            "mine_coords": [[c, r] for r, c in layout_mines(layout)],
            "per_cell": 1,
        }
        return dataclasses.replace(
            spec,
            argv=(*spec.argv[:1], MINEGAULER_LAYOUT_LAUNCHER, *spec.argv[2:], "$workdir/board.mgb"),
            files={**spec.files, "board.mgb": json.dumps(board)},
        )
    raise SystemExit(f"{clone} cannot be given a mine layout")


def gnome_custom_spec() -> CloneSpec:
    """GNOME Mines started without a size flag (it shows its size chooser), custom size set."""
    spec = CLONES["gnome-mines"]
    key = "config/glib-2.0/settings/keyfile"
    files = {**spec.files, key: spec.files[key] + "xsize=$cols\nysize=$rows\n"}
    return dataclasses.replace(spec, custom_sizes=True, files=files)


def gnome_choose_custom(clone: RunningClone, xd: VirtualDisplay, percent: int) -> None:
    """Click "Custom" in GNOME Mines' chooser, type the mine percentage, play.

    Width and height come from its settings (`xsize`, `ysize`, written by
    `gnome_custom_spec`); the positions are fractions of the window,
    measured on a screenshot.
    """
    x, y, w, h = clone.geometry()

    def run(*args: str) -> None:
        subprocess.run(["xdotool", *args], env=xd.env, check=True, timeout=10)

    run("mousemove", str(x + int(0.70 * w)), str(y + int(0.76 * h)), "click", "1")
    time.sleep(0.8)
    run("mousemove", str(x + w // 2 + 15), str(y + h // 2 + 18), "click", "--repeat", "3", "1")
    run("key", "ctrl+a")
    run("type", str(percent))
    run("key", "Tab")
    time.sleep(0.2)
    run("key", "Return")
    time.sleep(1.0)


# ----------------------------------------------------------------- reading


class Unreadable(Exception):
    pass


@dataclass
class Grid:
    """Pixel boxes of the columns and rows of one board on the screen."""

    xs: list[tuple[int, int]]
    ys: list[tuple[int, int]]

    def center(self, row: int, col: int) -> tuple[int, int]:
        (x0, x1), (y0, y1) = self.xs[col], self.ys[row]
        return (x0 + x1) // 2, (y0 + y1) // 2

    @property
    def box(self) -> tuple[int, int, int, int]:
        return self.xs[0][0], self.ys[0][0], self.xs[-1][1], self.ys[-1][1]


def fixed_grid(clone: str, window: tuple[int, int], rows: int, cols: int) -> Grid:
    left, top, pitch, size = FIXED_GRID[clone]
    x0, y0 = window[0] + left, window[1] + top
    return Grid(
        [(x0 + c * pitch, x0 + c * pitch + size) for c in range(cols)],
        [(y0 + r * pitch, y0 + r * pitch + size) for r in range(rows)],
    )


def runs(profile: np.ndarray, threshold: float) -> list[tuple[int, int]]:
    on = np.concatenate([[False], profile > threshold, [False]])
    edges = np.flatnonzero(np.diff(on.astype(np.int8)))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def gnome_grid(frame: np.ndarray, win: tuple[int, int, int, int], rows: int, cols: int) -> Grid:
    """Tiles of an all-covered GNOME Mines board: runs of the covered colour."""
    x, y, w, h = win
    region = frame[y : y + h, x : x + w]
    mask = np.all(region == np.array(GNOME_COVERED, dtype=np.uint8), axis=2)
    xs = runs(mask.sum(axis=0), mask.sum(axis=0).max() * 0.5)
    ys = runs(mask.sum(axis=1), mask.sum(axis=1).max() * 0.5)
    if len(xs) != cols or len(ys) != rows:
        raise Unreadable(f"gnome-mines grid: found {len(ys)}x{len(xs)} tiles, want {rows}x{cols}")
    return Grid([(a + x, b + x) for a, b in xs], [(a + y, b + y) for a, b in ys])


def crop(frame: np.ndarray, grid: Grid, row: int, col: int) -> np.ndarray:
    (x0, x1), (y0, y1) = grid.xs[col], grid.ys[row]
    cell = frame[y0:y1, x0:x1]
    return cv2.resize(cell, (CROP, CROP), interpolation=cv2.INTER_AREA).astype(np.int16)


def gnome_flag_or_question(frame: np.ndarray, grid: Grid, row: int, col: int) -> str:
    """GNOME Mines' question mark is its flag plus a small dark "?" at the bottom right.

    Too small a difference for the nearest-crop reader at some scales, so it
    is decided here, on the full-size tile: any dark pixel in the corner
    where the plain flag has none means "?".
    """
    (x0, x1), (y0, y1) = grid.xs[col], grid.ys[row]
    h, w = y1 - y0, x1 - x0
    corner = frame[y0 + int(0.62 * h) : y0 + int(0.95 * h), x0 + int(0.6 * w) : x0 + int(0.92 * w)]
    dark = int((corner.astype(np.int32).sum(axis=2) < 300).sum())
    return "?" if dark >= 2 else "F"


@dataclass
class CellReader:
    """Nearest labelled reference crop, within a tolerance; None when nothing is close."""

    clone: str
    refs: list[tuple[str, np.ndarray]] = field(default_factory=list)
    tolerance: float = 6.0

    @classmethod
    def load(cls, clone: str) -> CellReader:
        reader = cls(clone)
        for path in sorted((REFS / clone).glob("*.png")):
            kind = NAME_KINDS[path.stem.split("-")[0]]
            reader.refs.append((kind, cv2.imread(str(path)).astype(np.int16)))
        return reader

    def classify(self, cell: np.ndarray) -> str | None:
        """The kind of the nearest reference, if it is close and clearly closer than any other kind.

        The ratio test matters for GNOME Mines, whose question mark is a flag
        with a small "?": at a scale without a reference of each, one could
        pass for the other.
        """
        nearest: dict[str, float] = {}
        for kind, ref in self.refs:
            d = float(np.abs(cell - ref).mean())
            nearest[kind] = min(d, nearest.get(kind, 1e9))
        if not nearest:
            return None
        ranked = sorted(nearest.items(), key=lambda kv: kv[1])
        best, best_d = ranked[0]
        runner_up = ranked[1][1] if len(ranked) > 1 else 1e9
        if best_d <= self.tolerance and best_d <= 0.5 * runner_up:
            return best
        return None

    def read(self, frame: np.ndarray, grid: Grid) -> tuple[Board | None, list[np.ndarray]]:
        rows, unknown = [], []
        for r in range(len(grid.ys)):
            line = ""
            for c in range(len(grid.xs)):
                cell = crop(frame, grid, r, c)
                kind = self.classify(cell)
                if kind in ("F", "?") and self.clone == "gnome-mines":
                    kind = gnome_flag_or_question(frame, grid, r, c)
                if kind is None:
                    unknown.append(cell)
                    kind = "."
                line += kind
            rows.append(line)
        return (Board(tuple(rows)) if not unknown else None), unknown


def save_unknown(clone: str, cells: list[np.ndarray], quiet: bool = False) -> None:
    folder = UNKNOWN / clone
    folder.mkdir(parents=True, exist_ok=True)
    seen: list[np.ndarray] = [cv2.imread(str(p)).astype(np.int16) for p in folder.glob("*.png")]
    for cell in cells:
        if any(float(np.abs(cell - s).mean()) < 3 for s in seen):
            continue
        seen.append(cell)
        cv2.imwrite(str(folder / f"u{len(seen):03d}.png"), cell.astype(np.uint8))
    if not quiet:
        print(f"  unknown cells saved in {folder}", file=sys.stderr)


# ----------------------------------------------------------------- playing


def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> int:
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0, w) * max(0, h)


def free_spot(win: tuple[int, int, int, int], w: int, h: int) -> tuple[int, int]:
    """Where a w x h window can go on the screen overlapping `win` the least."""
    x, y, ww, wh = win
    candidates = [(x + ww + 10, y), (x - w - 10, y), (x, y + wh + 10), (x, y - h - 10)]
    candidates += [(0, 0), (SCREEN[0] - w, 0), (0, SCREEN[1] - h), (SCREEN[0] - w, SCREEN[1] - h)]
    inside = [
        (cx, cy) for cx, cy in candidates if 0 <= cx <= SCREEN[0] - w and 0 <= cy <= SCREEN[1] - h
    ]
    return min(inside or [(0, 0)], key=lambda p: overlap((p[0], p[1], w, h), win))


class Session:
    """One game being played and recorded."""

    def __init__(self, plan: Plan, xd: VirtualDisplay, shot: Any, rng: random.Random) -> None:
        self.plan = plan
        self.xd = xd
        self.shot = shot
        self.rng = rng
        self.reader = CellReader.load(plan.clone)
        self.neighbour: RunningWindow | None = None
        if plan.neighbour is not None:
            self.neighbour = launch_window(
                "xmessage",
                ["xmessage", "-name", "neighbour", "Another window beside the game"],
                xd,
                window_class="neighbour",
            )
            self.neighbour.move(*plan.neighbour)
        try:
            board = plan.board
            if plan.layout is not None:
                board = BoardSize(
                    len(plan.layout), len(plan.layout[0]), len(layout_mines(plan.layout))
                )
            custom = plan.clone == "gnome-mines" and board is not None
            spec: CloneSpec | str = plan.clone
            if plan.layout:
                spec = layout_spec(plan.clone, plan.layout)
            elif custom:
                spec = gnome_custom_spec()
            self.clone: RunningClone = launch_clone(
                spec,
                board or plan.size,
                xd,
                plan.position,
                window_size=plan.window_size,
            )
            if custom and board is not None:
                gnome_choose_custom(self.clone, xd, GNOME_CUSTOM_PERCENT[board])
        except BaseException:
            if self.neighbour is not None:
                self.neighbour.close()
            raise
        size = self.clone.size
        self.rows, self.cols, self.mines = size.rows, size.cols, size.mines
        self.frames: list[np.ndarray] = []
        self.labels: list[dict[str, Any]] = []
        self.actions: list[dict[str, Any]] = []
        self.wrong_flags: set[tuple[int, int]] = set()
        self.status = "playing"

    def start(self) -> None:
        """Measure the grid on the first, untouched frame and read it."""
        plan = self.plan
        self.win = self.clone.geometry()
        self.park()
        time.sleep(0.3)
        frame = self.grab()
        if plan.clone == "gnome-mines":
            self.grid = gnome_grid(frame, self.win, self.rows, self.cols)
        else:
            self.grid = fixed_grid(plan.clone, self.win[:2], self.rows, self.cols)
        self.board = self.read(frame)

    def close(self) -> None:
        self.clone.close()
        if self.neighbour is not None:
            self.neighbour.close()

    def grab(self) -> np.ndarray:
        return np.asarray(self.shot.grab(self.shot.monitors[0]))[:, :, :3].copy()

    def park(self) -> None:
        """Move the pointer off the board (GNOME Mines draws the tile under it lighter)."""
        x, y, _, _ = self.win
        self.xdotool("mousemove", str(x + 3), str(y + 3))

    def xdotool(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self.xd.env, check=True, timeout=10)

    def read(self, frame: np.ndarray | None = None, quiet: bool = False) -> Board:
        frame = self.grab() if frame is None else frame
        board, unknown = self.reader.read(frame, self.grid)
        if board is None:
            if not quiet:
                save_unknown(self.plan.clone, unknown)
                self.save_context(frame)
            raise Unreadable(f"{len(unknown)} cells match no reference")
        return board

    def move_dialogs(self) -> None:
        """Move other windows of the clone (GNOME Mines' "Congratulations") off the board.

        Without a window manager they open over the board; a person would drag
        them aside. The game window gets the focus back (unfocused, GNOME Mines
        draws darker and pauses).
        """
        found = subprocess.run(
            ["xdotool", "search", "--onlyvisible", "--pid", str(self.clone.pid)],
            env=self.xd.env,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.split()
        moved = False
        for window in found:
            if window == self.clone.window:
                continue
            _, _, dw, dh = window_geometry(self.xd.display, window)
            if dw * dh < 2500:
                continue
            nx, ny = free_spot(self.win, dw, dh)
            self.xdotool("windowmove", window, str(nx), str(ny))
            moved = True
        if moved:
            if self.clone.spec.needs_focus:
                self.clone.focus()
            time.sleep(0.3)

    def save_context(self, frame: np.ndarray) -> None:
        """The frame with every unreadable cell boxed, to label them in context."""
        shown = frame.copy()
        for r in range(self.rows):
            for c in range(self.cols):
                if self.reader.classify(crop(frame, self.grid, r, c)) is None:
                    (x0, x1), (y0, y1) = self.grid.xs[c], self.grid.ys[r]
                    cv2.rectangle(shown, (x0 - 1, y0 - 1), (x1, y1), (255, 0, 255), 1)
        x, y, w, h = self.win
        cv2.imwrite(str(UNKNOWN / f"{self.plan.clone}-frame.png"), shown[y : y + h, x : x + w])

    def click(self, row: int, col: int, button: str) -> None:
        x, y = self.grid.center(row, col)
        code = {"left": "1", "middle": "2", "right": "3"}[button]
        self.xdotool("mousemove", str(x), str(y), "click", code)
        self.park()
        self.actions.append(
            {
                "frame": f"{len(self.frames) - 1:04d}.png" if self.frames else None,
                "button": button,
                "x": x,
                "y": y,
                "row": row,
                "col": col,
            }
        )
        self.settle()

    def settle(self) -> None:
        """Wait until the board stops changing after a click.

        Frames in the middle of an animation (sgt-mines flashes the board red
        when a mine explodes) may not read: wait for them to pass.
        """
        deadline = time.monotonic() + 4
        time.sleep(0.15)
        last: Board | None = None
        while True:
            try:
                now = self.read(quiet=True)
            except Unreadable:
                now = None
                self.move_dialogs()
            if now is not None and now == last:
                break
            if time.monotonic() > deadline:
                now = self.read()  # raises, saving the unknown cells
                break
            last = now
            time.sleep(0.12)
        self.board = now
        self.update_status()

    def update_status(self) -> None:
        b = self.board
        if b.count("!"):
            self.status = "lost"
            return
        unopened = b.count(".?F")
        done = unopened == self.mines
        if self.plan.clone == "xdemineur":
            done = done and b.count("F") == self.mines
        self.status = "won" if done else "playing"

    def save_frame(self) -> None:
        time.sleep(0.3)
        self.move_dialogs()
        frame = self.grab()
        self.board = self.read(frame)
        self.update_status()
        mines_left: int | None = self.mines - self.board.count("FX")
        if self.status == "won":
            mines_left = 0  # every mine counted (GNOME Mines even with a "?" left on one)
        if self.plan.clone == "sgt-mines" and self.status != "playing":
            mines_left = None  # "COMPLETED!" / "DEAD!" replace the count
        self.frames.append(frame)
        self.labels.append(
            {
                "frame": f"{len(self.frames) - 1:04d}.png",
                "board": list(self.board.rows),
                "mines_left": mines_left,
                "status": self.status,
            }
        )

    # -- steps

    def solver_board(self) -> Board:
        b = self.board
        for cell in self.wrong_flags:
            b = b.with_cell(cell, ".")
        return b

    def analysis(self) -> Any:
        return analyse(self.solver_board(), self.mines, "zero", strength="fast")

    def playable(self, cell: tuple[int, int]) -> bool:
        return cell not in self.wrong_flags and self.board[cell] in ".?"

    def solve(self, budget: int, guess: bool = True) -> None:
        while budget > 0 and self.status == "playing":
            a = self.analysis()
            moved = False
            for cell in a.safe:
                if budget <= 0 or self.status != "playing":
                    break
                if self.playable(cell):
                    if self.board[cell] == "?":
                        self.click(*cell, "right")  # ? -> covered
                    self.click(*cell, "left")
                    budget -= 1
                    moved = True
            for cell in a.mines:
                if budget <= 0 or self.status != "playing":
                    break
                if self.board[cell] == "?":
                    self.click(*cell, "right")  # ? -> covered
                if self.board[cell] == ".":
                    self.click(*cell, "right")
                    budget -= 1
                    moved = True
            if not moved:
                if not guess or a.move is None:
                    return
                self.click(a.move.row, a.move.col, "left" if a.move.action == "open" else "right")
                budget -= 1

    def finish(self) -> None:
        while self.status == "playing":
            self.solve(1000)
            if self.status != "playing":
                break
            a = self.analysis()
            flags = [c for c in a.mines if self.board[c] == "."]
            for cell in flags:
                self.click(*cell, "right")
            if not flags and a.move is None:
                # Every unopened cell is a mine: flag the rest (xdemineur wins only then).
                rest = [c for c in self.board.cells() if self.board[c] == "."]
                if not rest:
                    break
                for cell in rest:
                    self.click(*cell, "right")

    def undecided(self) -> list[tuple[int, int]]:
        a = self.analysis()
        known = set(a.safe) | set(a.mines)
        return [c for c in self.board.cells() if self.board[c] == "." and c not in known]

    def question(self) -> None:
        if self.plan.clone not in HAS_QUESTION:
            return
        cells = self.undecided()
        if cells:
            cell = self.rng.choice(cells)
            self.click(*cell, "right")
            self.click(*cell, "right")

    def wrongflag(self) -> None:
        a = self.analysis()
        safe = [c for c in a.safe if self.board[c] == "."]
        if safe:
            cell = self.rng.choice(safe)
            self.click(*cell, "right")
            self.wrong_flags.add(cell)

    def explode(self) -> None:
        while self.status == "playing":
            a = self.analysis()
            mines = [c for c in a.mines if self.board[c] in ".?"]
            if mines:
                self.click(*self.rng.choice(mines), "left")
                continue
            cells = [c for c in self.board.cells() if self.playable(c)]
            probs = a.probabilities
            cells.sort(key=lambda c: -(probs[c[0]][c[1]] or 0.0))
            self.click(*cells[0], "left")

    # -- steps on a known layout

    def layout_safe(self) -> list[tuple[int, int]]:
        layout = self.plan.layout
        assert layout is not None, "a layout step needs a plan with a layout"
        return [c for c in self.board.cells() if layout[c[0]][c[1]] == "." and self.playable(c)]

    def zero(self) -> None:
        """Open the layout's zero cell (sgt-mines opened it already at the start)."""
        assert self.plan.layout is not None
        cell = layout_first_zero(self.plan.layout)
        if self.board[cell] == ".":
            self.click(*cell, "left")

    def flags(self, n: int) -> None:
        assert self.plan.layout is not None
        for cell in layout_mines(self.plan.layout)[:n]:
            if self.board[cell] == ".":
                self.click(*cell, "right")

    def high(self) -> None:
        """Open every covered safe cell of the layout showing 5 or more."""
        assert self.plan.layout is not None
        for cell in self.layout_safe():
            if layout_number(self.plan.layout, cell) >= 5 and self.board[cell] == ".":
                self.click(*cell, "left")

    def clear(self) -> None:
        for cell in self.layout_safe():
            if self.board[cell] == "." and self.status == "playing":
                self.click(*cell, "left")

    def poke(self) -> None:
        """Open a random covered cell all of whose eight neighbours are covered.

        On a crowded board such a cell, when safe, is the likeliest to show a 7
        or an 8; when none is left, any covered cell.
        """
        if self.status != "playing":
            return
        b = self.board
        covered = [c for c in b.cells() if b[c] == "."]
        inner = [c for c in covered if [b[n] for n in b.neighbours(c)] == ["."] * 8]
        self.click(*self.rng.choice(inner or covered), "left")

    def run(self, steps: tuple[str, ...]) -> None:
        for step in steps:
            name, _, arg = step.partition(":")
            if name == "frame":
                if self.labels and self.labels[-1]["status"] != "playing":
                    continue  # the game is over and already shown
                self.save_frame()
            elif name == "first":
                self.click(self.rows // 2, self.cols // 2, "left")
            elif name == "solve":
                self.solve(int(arg))
            elif name == "finish":
                self.finish()
            elif name == "question":
                self.question()
            elif name == "wrongflag":
                self.wrongflag()
            elif name == "explode":
                self.explode()
            elif name == "zero":
                self.zero()
            elif name == "flags":
                self.flags(int(arg))
            elif name == "high":
                self.high()
            elif name == "clear":
                self.clear()
            elif name == "poke":
                self.poke()
            elif name == "corner":
                self.click(0, 0, "left")
            else:
                raise SystemExit(f"unknown step {step!r}")


def harvest(plan: Plan, xd: VirtualDisplay, shot: Any, games: int = 2) -> None:
    """Play randomly and save every cell crop that matches no reference (to label by eye)."""
    rng = random.Random(1)
    for _ in range(games):
        session = Session(plan, xd, shot, rng)
        try:
            win = session.win = session.clone.geometry()
            session.park()
            time.sleep(0.3)
            frame = session.grab()
            if plan.clone == "gnome-mines":
                grid = gnome_grid(frame, win, session.rows, session.cols)
            else:
                grid = fixed_grid(plan.clone, win[:2], session.rows, session.cols)
            session.grid = grid
            for i in range(40):
                r, c = rng.randrange(session.rows), rng.randrange(session.cols)
                x, y = grid.center(r, c)
                clicks = ["3"] * (1 + i % 2) if i % 3 else ["1"]
                for button in clicks:
                    session.xdotool("mousemove", str(x), str(y), "click", button)
                session.park()
                time.sleep(0.25)
                _, unknown = session.reader.read(session.grab(), grid)
                if unknown:
                    save_unknown(plan.clone, unknown, quiet=True)
        finally:
            session.close()


def record(plan: Plan, out: Path, xd: VirtualDisplay, shot: Any) -> bool:
    name = f"{plan.clone}-{plan.size}-{plan.k}"
    rng = random.Random(plan.seed or hash(name) & 0xFFFF)
    for attempt in range(1, plan.attempts + 1):
        session = Session(plan, xd, shot, rng)
        try:
            session.start()
            session.run(plan.steps)
        except Unreadable as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            return False
        except MsbotError as exc:
            print(f"{name}: {exc}\n{session.board.to_text()}", file=sys.stderr)
            UNKNOWN.mkdir(parents=True, exist_ok=True)
            session.save_context(session.grab())
            return False
        finally:
            session.close()
        final = session.labels[-1]["status"] if session.labels else "?"
        print(f"{name}: attempt {attempt} ended {final}")
        if plan.want == "high-digits":
            shown = "".join("".join(label["board"]) for label in session.labels)
            if not set("5678") & set(shown):
                continue
        elif plan.want.startswith("digits:"):
            shown = "".join("".join(label["board"]) for label in session.labels)
            if not set(plan.want.partition(":")[2]) <= set(shown):
                continue
        elif plan.want and final != plan.want:
            continue
        write(session, out / name, name)
        return True
    print(f"{name}: no game ended {plan.want} in {plan.attempts} attempts", file=sys.stderr)
    return False


def write(session: Session, folder: Path, name: str) -> None:
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "frames").mkdir(parents=True)
    for i, frame in enumerate(session.frames):
        cv2.imwrite(
            str(folder / "frames" / f"{i:04d}.png"), frame, [cv2.IMWRITE_PNG_COMPRESSION, 9]
        )
    plan = session.plan
    meta = {
        "clone": plan.clone,
        "skin": session.clone.spec.skin,
        "rows": session.rows,
        "cols": session.cols,
        "mines": session.mines,
        "screen": list(SCREEN),
        "window": list(session.win[:2]),
        "window_size": list(session.win[2:]),
        "grid": {"xs": session.grid.xs, "ys": session.grid.ys},
        "neighbour_window": list(plan.neighbour) if plan.neighbour else None,
        "made_by": f"scripts/record_clones.py {name}",
    }
    (folder / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    lines = [json.dumps(a) for a in session.actions]
    (folder / "actions.jsonl").write_text("\n".join(lines) + "\n")
    lines = [json.dumps(label) for label in session.labels]
    (folder / "labels.jsonl").write_text("\n".join(lines) + "\n")


# ----------------------------------------------------------------- sheets


def sheet(folder: Path, dest: Path) -> None:
    """Each frame's board, enlarged, with its label drawn in every cell: for checking by eye."""
    meta = json.loads((folder / "meta.json").read_text())
    xs, ys = meta["grid"]["xs"], meta["grid"]["ys"]
    labels = [json.loads(line) for line in (folder / "labels.jsonl").read_text().splitlines()]
    dest.mkdir(parents=True, exist_ok=True)
    wx, wy = meta["window"]
    ww, wh = meta["window_size"]
    for label in labels:
        frame = cv2.imread(str(folder / "frames" / label["frame"]))
        win = frame[wy : wy + wh, wx : wx + ww].copy()
        scale = max(1, min(3, 1500 // max(ww, 1)))
        big = cv2.resize(win, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
        for r, line in enumerate(label["board"]):
            for c, ch in enumerate(line):
                x = (xs[c][0] - wx) * scale + 1
                y = (ys[r][1] - wy) * scale - 2
                colour = (255, 0, 255) if ch in "F?*!X" else (0, 140, 255)
                cv2.putText(big, ch, (x, y), cv2.FONT_HERSHEY_PLAIN, 0.8, colour, 1)
        text = f"{label['frame']} mines_left={label['mines_left']} status={label['status']}"
        bar = np.full((24, big.shape[1], 3), 255, np.uint8)
        cv2.putText(bar, text, (4, 17), cv2.FONT_HERSHEY_PLAIN, 1.1, (0, 0, 0), 1)
        out = np.vstack([bar, big])
        cv2.imwrite(str(dest / f"{folder.name}-{label['frame']}"), out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "patterns", nargs="*", help="recording names to make (fnmatch), default all"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "recordings")
    parser.add_argument("--first-display", type=int, default=100)
    parser.add_argument("--harvest", action="store_true", help="collect unknown cell crops")
    parser.add_argument("--sheets", type=Path, help="write label-check sheets here and stop")
    args = parser.parse_args()
    chosen = [
        p
        for p in PLANS
        if not args.patterns
        or any(fnmatch.fnmatch(f"{p.clone}-{p.size}-{p.k}", pat) for pat in args.patterns)
    ]
    if args.sheets:
        for plan in chosen:
            folder = args.out / f"{plan.clone}-{plan.size}-{plan.k}"
            if folder.exists():
                sheet(folder, args.sheets)
        return 0
    ok = True
    # One display and one mss instance for the whole run (a second mss
    # instance in one process sometimes fails to connect).
    with (
        VirtualDisplay(*SCREEN, first=args.first_display, tries=10) as xd,
        mss.MSS(display=xd.display) as shot,
    ):
        for plan in chosen:
            try:
                if args.harvest:
                    harvest(plan, xd, shot)
                    continue
                ok = record(plan, args.out, xd, shot) and ok
            except (MsbotError, Unreadable) as exc:
                print(f"{plan.clone}-{plan.size}-{plan.k}: {exc}", file=sys.stderr)
                ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
