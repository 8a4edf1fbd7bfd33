#!/usr/bin/env python3
"""Re-create tests/data/cell-sizes/ (frames + labels.jsonl) from known mine layouts.

    .venv/bin/python scripts/record_cell_sizes.py [NAME-PATTERN ...] [--out DIR] [--sheets DIR]

Each game of GAMES below is a mine layout, a clone (sgt-mines or minegauler)
and the cell sizes to play it at. For each size this starts a 1600x1000 Xvfb
(displays :150-:169), launches the clone on the layout (sgt-mines from a game
ID, minegauler from a board file: `scripts/record_clones.py`'s `layout_spec`),
clicks cells with xdotool at the centres of a grid computed from the window's
place, size and the cell size (`harness.known_layout.board_grid`), and saves
the window with an 8 px margin of the screen around it. The clicks are chosen
from the layout (safe cells opened, mines flagged), the same clicks at every
size of a game, so its frames show the same boards at every size.

The labels do NOT come from `vision/` nor from any reading of the pixels:
every label is the layout with the clicks made played on it by the rules
(`harness.known_layout.Truth`: an open floods from a 0, a flag toggles, a
mine opened loses, the game is won when every safe cell is open), drawn as the
clone draws it. What each clone shows at the end was learned by playing games
to a win and a loss at its first size and looking at the frames, then checked
by eye on frames of other sizes (`--sheets`):
- sgt-mines, lost: only the mine opened is shown ("!"); every other cell stays
  as it was, flags on safe cells too (its source keeps the rest hidden so that
  the move can be undone). Won: every cell not open shows a flag.
- minegauler, lost: the mine opened "!", every other mine not flagged "*",
  a flag on a mine stays "F", a flag on a safe cell shows "X". Won: every mine
  shows a flag.
The status is "lost" once a mine was opened, "won" once every safe cell is
open, else "playing".

The mine counter is mines minus flags where the clone shows it and the skin
reads it, and null (unknown) where it does not, as the earlier labels had it:
- sgt-mines shows "[m:ss] Marked: F / M" below the board, and " (N safe
  squares remain)" after it when 1 to 9 safe cells are left (seen on the
  clone: 10 left, no such text); a finished game shows "COMPLETED!" or
  "DEAD!" there instead: null. GTK cuts a status text wider than its window
  with "..." ("Marked: 0 / 2..."): the count is null when the total and the
  space after it are not whole before the "..." (the total may go on). Whether
  a text fits is computed from its width in the bar's font, DejaVu Sans at
  13 px with hinted advances (PIL's basic layout draws the clone's texts to
  the pixel), against the window's width less 26 to 28 px: measured on frames
  of the clone, where each text was cut after the longest prefix that, with
  the "...", left 26-28 px of the window free (one more character would have
  left 25 or less). A text whose width leaves 26 or 27 px stops the
  recording (choose another state).
- minegauler always shows its counter at x 17-37 of its window, in a panel
  that does not scale with its buttons; its skin looks for it from 8 px left
  of the board to 14 px left of the board's middle. A board narrower than the
  panel is centred below it, and when the counter is not inside that span
  (an 8x1 board) it is null.

Every batch of clicks is also checked against the screen, without naming
any cell: the cells whose pixels changed must be exactly the cells whose
truth changed (a click that missed its cell, or a rule of the clone's that
the truth does not know, stops the recording). sgt-mines' resized windows
(`cell` null) are played at 20 px, then resized by xdotool: the clone picks
its tile size itself.

Frames are named CLONE-COLSxROWSnMINES-GAME-CELLpx-TAG.png (-resized-WxH for
the resized windows). `--sheets DIR` writes each frame enlarged with its label
drawn in every cell, to check by eye.
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import mss
import numpy as np
from PIL import ImageFont

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from record_clones import HIGH_LAYOUT, layout_first_zero, layout_spec, sgt_game_id  # noqa: E402

from harness.clones import CLONES, BoardSize, CloneSpec, launch_clone  # noqa: E402
from harness.known_layout import Cell, Truth, board_grid  # noqa: E402
from harness.xdisplay import VirtualDisplay  # noqa: E402

OUT = ROOT / "tests" / "data" / "cell-sizes"
SCREEN = (1600, 1000)
#: Display numbers :150-:169 (the test suite's workers start at :100, :120...).
FIRST_DISPLAY, DISPLAY_TRIES = 150, 20
PLACE = (137, 91)
MARGIN = 8
#: Seconds between two clicks of a batch (minegauler drops clicks closer than a few ms).
CLICK_GAP = 0.04

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#: sgt-mines' status bar: the text's size (px), and what the window's width less
#: the text's width must be for the text to be whole: 28 px or more whole,
#: 25 or less cut, in between too close to say (measured: see the docstring).
STATUS_PX, STATUS_MARGINS = 13, (25, 28)
#: minegauler: the counter's digits (x in the window) and the skin's counter
#: span (from board left - 8 to board middle - 14: templates/minegauler/skin.json).
MINEGAULER_COUNTER_X = (17, 37)


def planted(
    seed: int, rows: int, cols: int, mines: int, plants: tuple[tuple[int, int, int], ...] = ()
) -> tuple[str, ...]:
    """A random layout of `mines` mines, with a number planted at each (row, col, n):
    that cell safe with exactly n mines around it."""
    rng = random.Random(seed)
    fixed: dict[Cell, bool] = {}
    for r, c, n in plants:
        fixed[(r, c)] = False
        ring = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
        rng.shuffle(ring)
        for i, cell in enumerate(ring):
            fixed[cell] = i < n
    free = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in fixed]
    placed = {cell for cell, mine in fixed.items() if mine}
    placed |= set(rng.sample(free, mines - len(placed)))
    return tuple(
        "".join("*" if (r, c) in placed else "." for c in range(cols)) for r in range(rows)
    )


# The layouts. HIGH_LAYOUT (record_clones.py): 9x9 with 26 mines, an 8, a 7,
# two 6s and a 5, each walled in by mines, and a zero column: every digit.
# TYPICAL_8X8: the 8x8 game with 12 mines of the earlier sgt-mines frames
# (the mines of its won board), digits 0-5. SPARSE_8X8: the 8x8 game with 10
# mines of the earlier minegauler frames, digits 0-2.
TYPICAL_8X8 = ("...*....", "...*....", ".****...", "........",
               "......**", "........", "......*.", "....*.**")  # fmt: skip
SPARSE_8X8 = ("*..*.*..", "..*.....", ".......*", ".*.....*",
              ".*......", ".......*", "........", "*.......")  # fmt: skip
SGT_9X9 = ("...*.....", "........*", "*.....*..", "......*..", "...*.....",
           ".....*...", "..*...*..", ".........", "....*....")  # fmt: skip
TINY_4X3 = ("...*", "...*", "....")
TINY_3X4 = ("..*", "...", "*..", "...")
ROW_8 = (".....*..",)
COLUMN_8 = (".", ".", ".", ".", ".", ".", ".", "*")
# Busy boards at small cells (the hard cases of the play loop's 11 and 14 px
# games: mostly opened boards whose rows of numbers cut the board into
# pieces), with a 7 and an 8 planted in the expert one.
BUSY_16X16 = planted(1616, 16, 16, 40)
BUSY_16X30 = planted(1630, 16, 30, 99, ((12, 22, 7), (3, 6, 8)))


@dataclass(frozen=True)
class Game:
    """One layout on one clone, played with the same steps at each cell size."""

    clone: str
    name: str
    layout: tuple[str, ...]
    cells: tuple[int, ...]
    steps: tuple[str, ...]
    #: sgt-mines: start with no cell open (a game ID without a start cell).
    closed_start: bool = False

    def frame_name(self, cell: int | None, tag: str) -> str:
        rows, cols = len(self.layout), len(self.layout[0])
        mines = sum(line.count("*") for line in self.layout)
        size = f"{cell}px" if cell is not None else "resized"
        parts = [self.clone, f"{cols}x{rows}n{mines}", self.name, size, tag]
        return "-".join(p for p in parts if p) + ".png"


# Steps: "frame:TAG" saves a frame ("frame" alone: no tag); "zero" opens the
# layout's zero cell nearest the middle; "open:R,C" and "flag:R,C" one cell;
# "high" opens the safe cells showing 5 or more; "each" opens a cell of each
# number the board does not show open yet; "flags:N" flags N mines next
# to open cells; "wrongflags:N" flags N safe covered cells next to open ones;
# "grow:P" opens covered safe cells next to open ones, in a random order of
# the game's own seed, until P % of the safe cells are open; "flagfront:P"
# flags P % of the mines next to open cells; "clear" opens every safe cell
# left (a win); "explode" opens a mine next to the open area (a loss);
# "flags:all" flags every mine; "openexcept:R,C/R,C..." opens every safe cell
# but those (a flood opening one of them stops the recording); "resize:WxH"
# resizes the window and saves a frame (`cell` null).
PLAY_LOSE = (
    "zero",
    "high",
    "each",
    "flags:3",
    "frame:play",
    "grow:80",
    "flags:6",
    "explode",
    "frame:lost",
)
PLAY_LOSE_MARKS = (
    "zero",
    "high",
    "each",
    "flags:2",
    "frame:play",
    "grow:70",
    "flags:5",
    "wrongflags:2",
    "explode",
    "frame:lost",
)
PLAY_WIN = ("zero", "grow:55", "flags:5", "frame:play", "clear", "frame:won")

GAMES = [
    Game("sgt-mines", "high", HIGH_LAYOUT, (12, 14, 16, 24, 32, 40, 48), PLAY_LOSE),
    Game("sgt-mines", "typical", TYPICAL_8X8, (13, 18, 27, 36), PLAY_WIN),
    Game(
        "sgt-mines",
        "busy",
        BUSY_16X16,
        (11,),
        ("grow:45", "flagfront:70", "frame:a", "grow:92", "flagfront:85", "frame:opened"),
    ),
    Game(
        "sgt-mines",
        "busy",
        BUSY_16X16,
        (14,),
        (
            "grow:35",
            "flagfront:60",
            "frame:a",
            "grow:65",
            "flagfront:75",
            "frame:b",
            "grow:85",
            "flagfront:85",
            "frame:c",
            "grow:97",
            "flagfront:90",
            "frame:opened",
        ),
    ),
    Game(
        "sgt-mines",
        "busy",
        BUSY_16X30,
        (11,),
        ("grow:75", "high", "flagfront:80", "frame:a", "grow:96", "flagfront:95", "frame:opened"),
    ),
    Game("sgt-mines", "tiny", TINY_4X3, (24,), ("frame",)),
    Game("sgt-mines", "tiny", TINY_3X4, (32,), ("frame",), closed_start=True),
    Game(
        "sgt-mines",
        "mid",
        SGT_9X9,
        (20,),
        ("grow:85", "flags:6", "resize:420x480", "resize:330x300", "resize:700x760"),
    ),
    Game("minegauler", "high", HIGH_LAYOUT, (20, 24, 32, 40), PLAY_LOSE_MARKS),
    Game("minegauler", "sparse", SPARSE_8X8, (22, 28, 36), PLAY_WIN),
    Game(
        "minegauler",
        "sparse",
        SPARSE_8X8,
        (14,),
        ("flags:all", "openexcept:2,1/3,0/4,0/5,0/6,0/4,7", "frame:piece"),
    ),
    Game("minegauler", "tiny", ROW_8, (16,), ("frame",)),
    Game("minegauler", "tiny", ROW_8, (24,), ("open:0,7", "frame")),
    Game("minegauler", "tiny", COLUMN_8, (16,), ("frame",)),
    Game("minegauler", "tiny", TINY_4X3, (20,), ("open:0,0", "frame")),
]


# ----------------------------------------------------------------- what the clones show


def shown(truth: Truth, clone: str) -> list[str]:
    """The board as the clone draws it (see the module's docstring for the ends)."""
    rows = []
    for r in range(truth.rows):
        line = ""
        for c in range(truth.cols):
            ch = truth.shown(r, c)
            mine = truth.mine(r, c)
            if truth.status == "won" and ch in ".F":
                ch = "F" if clone == "sgt-mines" or mine else ch
            elif truth.status == "lost":
                if (r, c) == truth.hit:
                    ch = "!"
                elif clone == "minegauler" and mine and ch == ".":
                    ch = "*"
                elif clone == "minegauler" and not mine and ch == "F":
                    ch = "X"
            line += ch
        rows.append(line)
    return rows


def status_fits(text: str, width: int) -> bool | None:
    """Whether sgt-mines' status text is whole in a window this wide (None: too close to say)."""
    font = ImageFont.truetype(FONT, STATUS_PX, layout_engine=ImageFont.Layout.BASIC)
    spare = width - font.getlength(text)
    low, high = STATUS_MARGINS
    return True if spare >= high else False if spare <= low else None


def sgt_status_text(truth: Truth) -> str:
    """sgt-mines' status bar text in play (its timer's minutes and seconds as 0:00:
    DejaVu Sans draws every digit equally wide)."""
    text = f"[0:00] Marked: {len(truth.flags)} / {truth.mines}"
    if 0 < truth.safe_closed <= 9:
        plural = "s" if truth.safe_closed > 1 else ""
        text += f" ({truth.safe_closed} safe square{plural} remain{'' if plural else 's'})"
    return text


def mines_left(
    truth: Truth, clone: str, window: tuple[int, int, int, int], cell: int
) -> int | None:
    """What the counter shows, where the skin reads it; None where it does not (docstring)."""
    left = truth.mines - len(truth.flags)
    x, _, width, _ = window
    if clone == "sgt-mines":
        if truth.status != "playing":
            return None
        text = sgt_status_text(truth)
        whole = status_fits(text, width)
        if whole is None or not whole:
            # Cut: the count is known only when the text up to the total, and
            # the space after it, is whole before the "...".
            upto = text.split(" (")[0] + " …" if " (" in text else None
            cut = status_fits(upto, width) if upto else False
            if whole is None or cut is None:
                raise RecordError(f"the status text {text!r} is too close to {width} px to tell")
            return left if cut else None
        return left
    xs, _ = board_grid(clone, window, cell, truth.rows, truth.cols)
    board_left = xs[0][0] - x
    span = (board_left - 8, board_left + truth.cols * cell / 2 - 14)
    if span[0] > MINEGAULER_COUNTER_X[0] or span[1] < MINEGAULER_COUNTER_X[1]:
        return None
    return 0 if truth.status == "won" else left


# ----------------------------------------------------------------- playing


class RecordError(Exception):
    pass


def covered(t: Truth) -> list[Cell]:
    """Cells neither open nor flagged, row by row."""
    return [
        (r, c)
        for r in range(t.rows)
        for c in range(t.cols)
        if (r, c) not in t.open and (r, c) not in t.flags
    ]


def sgt_closed_spec(layout: tuple[str, ...]) -> CloneSpec:
    """sgt-mines on a layout with no cell open at the start: its game ID
    without the "x,y," of a start cell (mines.c accepts that)."""
    size, _, rest = sgt_game_id(layout).partition(":")
    return dataclasses.replace(CLONES["sgt-mines"], argv=(f"{size}:{rest.split(',')[-1]}",))


class Session:
    """One game at one cell size: the clone, the truth, the frames saved."""

    def __init__(self, game: Game, cell: int, xd: VirtualDisplay, shot: Any) -> None:
        self.game, self.cell, self.xd, self.shot = game, cell, xd, shot
        self.rng = random.Random(f"{game.clone}-{game.name}-{len(game.layout)}")
        layout = game.layout
        self.truth = Truth(layout)
        size = BoardSize(len(layout), len(layout[0]), self.truth.mines)
        spec = sgt_closed_spec(layout) if game.closed_start else layout_spec(game.clone, layout)
        self.clone = launch_clone(spec, size, xd, PLACE, cell_size=cell)
        if game.clone == "sgt-mines" and not game.closed_start:
            # The game ID names a cell the game opens by itself at the start.
            c, r = map(int, sgt_game_id(layout).split(":")[1].split(",")[:2])
            self.truth.reveal((r, c))
        self.window = self.clone.geometry()
        if self.window[:2] != PLACE:
            raise RecordError(f"the window is at {self.window[:2]}, not {PLACE}")
        self.grid = board_grid(game.clone, self.window, cell, self.truth.rows, self.truth.cols)
        self.labels: list[dict[str, Any]] = []
        self.frames: dict[str, np.ndarray] = {}
        self.sheets: dict[str, np.ndarray] = {}
        self.park()
        self.board_now = self.settled()

    def close(self) -> None:
        self.clone.close()

    # -- the screen

    def grab(self, box: tuple[int, int, int, int]) -> np.ndarray:
        x, y, w, h = box
        shot = self.shot.grab({"left": x, "top": y, "width": w, "height": h})
        return np.asarray(shot)[:, :, :3].copy()

    def board_box(self) -> tuple[int, int, int, int]:
        xs, ys = self.grid
        return xs[0][0], ys[0][0], xs[-1][1] - xs[0][0], ys[-1][1] - ys[0][0]

    def settled(self, timeout: float = 6.0) -> np.ndarray:
        """The board once it has not changed for 0.3 s (sgt-mines flashes a won or lost board)."""
        deadline = time.monotonic() + timeout
        time.sleep(0.15)
        last, still_since = self.grab(self.board_box()), time.monotonic()
        while time.monotonic() - still_since < 0.3:
            if time.monotonic() > deadline:
                raise RecordError("the board did not settle")
            time.sleep(0.1)
            now = self.grab(self.board_box())
            if not np.array_equal(now, last):
                last, still_since = now, time.monotonic()
        return last

    def changed_cells(self, before: np.ndarray, after: np.ndarray) -> set[Cell]:
        """Cells with pixels changed in their box (sgt-mines' covered and open greys
        differ by 12 levels, and a small tile's raised edge is one pixel wide)."""
        xs, ys = self.grid
        x0, y0 = xs[0][0], ys[0][0]
        diff = np.abs(before.astype(np.int16) - after.astype(np.int16)).max(axis=2) > 8
        out = set()
        for r, (a, b) in enumerate(ys):
            for c, (p, q) in enumerate(xs):
                if diff[a - y0 : b - y0, p - x0 : q - x0].sum() >= 2:
                    out.add((r, c))
        return out

    # -- clicks

    def park(self) -> None:
        self.xdotool("mousemove", str(SCREEN[0] - 1), str(SCREEN[1] - 1))

    def xdotool(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self.xd.env, check=True, timeout=60)

    def play(self, clicks: list[tuple[Cell, str]]) -> None:
        """Click (left "open", right "flag") in one xdotool run; check the screen."""
        if not clicks:
            return
        before_truth = shown(self.truth, self.game.clone)
        args: list[str] = []
        xs, ys = self.grid
        for (r, c), kind in clicks:
            x, y = (xs[c][0] + xs[c][1]) // 2, (ys[r][0] + ys[r][1]) // 2
            args += ["mousemove", str(x), str(y), "click", "1" if kind == "open" else "3"]
            args += ["sleep", str(CLICK_GAP)]
            if kind == "open":
                self.truth.reveal((r, c))
            else:
                self.truth.flag((r, c))
        self.xdotool(*args, "mousemove", str(SCREEN[0] - 1), str(SCREEN[1] - 1))
        after = self.settled()
        now_truth = shown(self.truth, self.game.clone)
        want = {
            (r, c)
            for r in range(self.truth.rows)
            for c in range(self.truth.cols)
            if before_truth[r][c] != now_truth[r][c]
        }
        seen = self.changed_cells(self.board_now, after)
        if seen != want:
            raise RecordError(
                f"{self.game.clone} at {self.cell} px: the screen changed at {sorted(seen - want)} "
                f"where the rules changed nothing, not at {sorted(want - seen)} where they did"
            )
        self.board_now = after

    # -- steps

    def all_cells(self) -> list[Cell]:
        return [(r, c) for r in range(self.truth.rows) for c in range(self.truth.cols)]

    def covered(self) -> list[Cell]:
        return covered(self.truth)

    def front(self, cells: list[Cell]) -> list[Cell]:
        """Those of `cells` next to an open cell."""
        return [
            cell for cell in cells if any(n in self.truth.open for n in self.truth.around(*cell))
        ]

    def grow(self, percent: float) -> list[tuple[Cell, str]]:
        """Clicks opening covered safe cells next to open ones (any when there are none:
        at first, or walled in by mines), one at a time in a random order, until
        `percent` % of the safe cells are open."""
        t = self.truth.copy()
        safe = t.rows * t.cols - t.mines
        clicks: list[tuple[Cell, str]] = []
        while len(t.open) < safe * percent / 100:
            safe_left = [cell for cell in covered(t) if not t.mine(*cell)]
            cand = [cell for cell in safe_left if any(n in t.open for n in t.around(*cell))]
            cand = cand or safe_left  # nothing next to the open cells: anywhere
            if not cand:
                break
            cell = self.rng.choice(cand)
            t.reveal(cell)
            clicks.append((cell, "open"))
        return clicks

    def step(self, step: str) -> None:
        name, _, arg = step.partition(":")
        t = self.truth
        if name == "frame":
            self.save(arg)
        elif name == "resize":
            w, h = map(int, arg.split("x"))
            self.xdotool("windowsize", self.clone.window, str(w), str(h))
            time.sleep(0.5)
            self.window = self.clone.geometry()
            if self.window[2:] != (w, h):
                raise RecordError(f"the window is {self.window[2:]} after resizing, not {(w, h)}")
            self.settle_window()
            self.save(arg, cell=None)
        elif name == "zero":
            cell = layout_first_zero(t.layout)
            self.play([(cell, "open")] if cell not in t.open else [])
        elif name == "open":
            r, c = map(int, arg.split(","))
            self.play([((r, c), "open")])
        elif name == "flag":
            r, c = map(int, arg.split(","))
            self.play([((r, c), "flag")])
        elif name == "high":
            cells = [c for c in self.covered() if not t.mine(*c) and t.number(*c) >= 5]
            self.play([(c, "open") for c in cells])
        elif name == "each":
            probe, clicks = t.copy(), []
            for cell in self.covered():
                numbers = {probe.number(*c) for c in probe.open}
                if not t.mine(*cell) and cell not in probe.open and t.number(*cell) not in numbers:
                    probe.reveal(cell)
                    clicks.append((cell, "open"))
            self.play(clicks)
        elif name == "flags":
            mines = [c for c in self.covered() if t.mine(*c)]
            if arg != "all":
                mines = self.front(mines)[: int(arg)]
            self.play([(c, "flag") for c in mines])
        elif name == "wrongflags":
            safe = self.front([c for c in self.covered() if not t.mine(*c)])
            self.play([(c, "flag") for c in self.rng.sample(safe, int(arg))])
        elif name == "flagfront":
            # Flag mines next to open cells until P % of those mines are flagged.
            front = self.front([c for c in self.all_cells() if t.mine(*c) and c not in t.open])
            want = round(len(front) * float(arg) / 100) - len([c for c in front if c in t.flags])
            todo = [c for c in front if c not in t.flags]
            self.play([(c, "flag") for c in self.rng.sample(todo, max(0, min(want, len(todo))))])
        elif name == "grow":
            self.play(self.grow(float(arg)))
        elif name == "openexcept":
            keep = {tuple(map(int, rc.split(","))) for rc in arg.split("/")}
            clicks = []
            probe = t.copy()
            for cell in self.covered():
                if not t.mine(*cell) and cell not in keep and cell not in probe.open:
                    probe.reveal(cell)
                    clicks.append((cell, "open"))
            self.play(clicks)
            if keep - set(self.covered()):
                raise RecordError(f"a flood opened some of {sorted(keep)}")
        elif name == "clear":
            probe, clicks = t.copy(), []
            for cell in self.covered():
                if not t.mine(*cell) and cell not in probe.open:
                    probe.reveal(cell)
                    clicks.append((cell, "open"))
            self.play(clicks)
        elif name == "explode":
            mines = self.front([c for c in self.covered() if t.mine(*c)])
            middle = (t.rows / 2, t.cols / 2)
            mines.sort(key=lambda c: abs(c[0] - middle[0]) + abs(c[1] - middle[1]))
            self.play([(mines[0], "open")])
        else:
            raise RecordError(f"unknown step {step!r}")

    def settle_window(self) -> None:
        """Wait until the whole window stays unchanged for 0.3 s (after a resize)."""
        x, y, w, h = self.window
        box = (x, y + 25, w, h - 60)
        deadline = time.monotonic() + 6
        last, since = self.grab(box), time.monotonic()
        while time.monotonic() - since < 0.3:
            if time.monotonic() > deadline:
                raise RecordError("the resized window did not settle")
            time.sleep(0.1)
            now = self.grab(box)
            if not np.array_equal(now, last):
                last, since = now, time.monotonic()

    def save(self, tag: str, cell: int | None = -1) -> None:
        size = self.cell if cell == -1 else cell
        name = self.game.frame_name(size, tag)
        x, y, w, h = self.window
        x0, y0 = max(0, x - MARGIN), max(0, y - MARGIN)
        x1, y1 = min(SCREEN[0], x + w + MARGIN), min(SCREEN[1], y + h + MARGIN)
        time.sleep(0.2)
        frame = self.grab((x0, y0, x1 - x0, y1 - y0))
        board = shown(self.truth, self.game.clone)
        self.frames[name] = frame
        self.labels.append(
            {
                "frame": name,
                "skin": self.game.clone,
                "cell": size,
                "board": board,
                "mines_left": mines_left(self.truth, self.game.clone, self.window, self.cell),
                "status": self.truth.status,
            }
        )
        if size is not None:
            self.sheets[name] = sheet(frame, self.labels[-1], self.grid, (x0, y0))


def sheet(
    frame: np.ndarray,
    label: dict[str, Any],
    grid: tuple[list[tuple[int, int]], list[tuple[int, int]]],
    origin: tuple[int, int],
) -> np.ndarray:
    """The frame enlarged with its label drawn in every cell: for checking by eye."""
    scale = max(2, min(4, 1400 // frame.shape[1]))
    big = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
    xs, ys = grid
    for r, line in enumerate(label["board"]):
        for c, ch in enumerate(line):
            x = (xs[c][0] - origin[0]) * scale + 2
            y = (ys[r][1] - origin[1]) * scale - 3
            colour = (255, 0, 255) if ch in "F?*!X" else (0, 140, 255)
            cv2.putText(big, ch, (x, y), cv2.FONT_HERSHEY_PLAIN, 0.9, colour, 1)
    text = f"{label['frame']} left={label['mines_left']} {label['status']}"
    bar = np.full((22, big.shape[1], 3), 255, np.uint8)
    cv2.putText(bar, text, (3, 16), cv2.FONT_HERSHEY_PLAIN, 0.9, (0, 0, 0), 1)
    return np.vstack([bar, big])


# ----------------------------------------------------------------- main


def record(game: Game, cell: int, xd: VirtualDisplay, shot: Any) -> Session:
    session = Session(game, cell, xd, shot)
    try:
        for step in game.steps:
            session.step(step)
    finally:
        session.close()
    return session


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("patterns", nargs="*", help="frame names to make (fnmatch), default all")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--sheets", type=Path, help="also write label-check sheets here")
    args = parser.parse_args()
    plans = [
        (game, cell)
        for game in GAMES
        for cell in game.cells
        if not args.patterns
        or any(fnmatch.fnmatch(game.frame_name(cell, "x"), p) for p in args.patterns)
    ]
    labels: list[dict[str, Any]] = []
    frames: dict[str, np.ndarray] = {}
    with (
        VirtualDisplay(*SCREEN, first=FIRST_DISPLAY, tries=DISPLAY_TRIES) as xd,
        mss.MSS(display=xd.display) as shot,
    ):
        for game, cell in plans:
            session = record(game, cell, xd, shot)
            print(f"{game.frame_name(cell, '')}: {len(session.labels)} frames", flush=True)
            labels += session.labels
            frames.update(session.frames)
            if args.sheets:
                args.sheets.mkdir(parents=True, exist_ok=True)
                for name, image in session.sheets.items():
                    cv2.imwrite(str(args.sheets / name), image)
    if not args.patterns and args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, image in frames.items():
        cv2.imwrite(str(args.out / name), image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    path = args.out / "labels.jsonl"
    old = [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []
    made = {lab["frame"] for lab in labels}
    lines = [lab for lab in old if lab["frame"] not in made] + labels
    path.write_text("".join(json.dumps(lab) + "\n" for lab in lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
