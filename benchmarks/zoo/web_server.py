"""A zoo clone as a web page in Chromium: our HTTP server holds the game and logs the truth.

    python -m zoo.web_server --spec JSON --truth FILE --port N

(run with `benchmarks/` and the project root on the path). The server serves
the page (`zoo/web/`), holds the games (`zoo.game.Game`, seeded as the Tk
clone seeds them) and writes the truth (`zoo.truth`) in `time.monotonic()`.
The page draws the spec with DOM elements and CSS, sends every press, release
and key here (POST /act, in order) and draws the state it gets back; once
Chromium has swapped the frame that holds that state to the window, the page
says so (POST /drawn) with that moment in this process' clock (measured at
start by round trips), and only then is the state logged, stamped with it:
on the screen by then (3 to 25 ms before, measured), never later than the
line is written. The page's place on the screen is measured, not assumed: at
start it shows a small pattern of colours at its top-left pixel and the server
finds it in a screenshot; every page box is made a screen box with it.

`start_web` (called by `zoo.launch`) starts the server, then Debian's Chromium
in --app mode at the spec's place, then the decoy window when the spec has
one; every process in a session of its own.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import threading
import time
import traceback
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import IO, Any

from zoo.game import Game
from zoo.spec import PRESETS, SCREEN, ZooSpec, mix, rgb, shade
from zoo.truth import TruthLog

Cell = tuple[int, int]

#: The page: one HTML file and one script.
WEB_DIR = Path(__file__).resolve().parent / "web"
#: The project root (for `vision`, the screen grabs) and `benchmarks/` (for `zoo`).
ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = Path(__file__).resolve().parents[1]

#: Chromium's flags, as the project's web clone has them (`harness.clones.WEB_MINES`),
#: and one more: --enable-gpu-benchmarking gives the page a call back once a frame
#: is on the screen (the only exact one: counting animation frames is early now
#: and then), so that each state is logged once it shows, not before.
CHROMIUM_FLAGS = (
    "--no-sandbox",
    "--test-type",
    "--disable-gpu",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=Translate,MediaRouter",
    "--force-device-scale-factor=1",
    "--enable-gpu-benchmarking",
)

#: The colours of the calibration pattern the page shows at its top-left
#: corner (two rows of four pixels, RGB), found in a screenshot.
MARKER = (
    ((1, 254, 3), (252, 5, 250), (7, 249, 9), (246, 11, 244)),
    ((246, 11, 244), (7, 249, 9), (252, 5, 250), (1, 254, 3)),
)


class StampedLog(TruthLog):
    """The truth log, each line stamped with the time the page saw it happen (its
    clock made this process' `time.monotonic()`), never later than now and never
    before the line above it (so that every kind of line stays in time order)."""

    def __init__(self, path: str | Path | None) -> None:
        super().__init__(path)
        self.last = 0.0

    def write(self, event: str, **data: Any) -> float:
        return self.write_at(None, event, **data)

    def write_at(self, t: float | None, event: str, **data: Any) -> float:
        now = time.monotonic()
        when = now if t is None else min(float(t), now)
        when = max(when, self.last)
        self.last = when
        if self._out is not None:
            line = {"t": when, "event": event, **data}
            self._out.write(json.dumps(line, separators=(",", ":")) + "\n")
            self._out.flush()
        return when


@dataclass
class Shown:
    """One state the page is asked to draw; logged once the page drew it."""

    version: int
    game: int
    size: tuple[int, int, int]
    board: list[str]
    status: str
    counter: str | None
    screen: str
    layout: list[list[int]] | None


def counter_text(spec: ZooSpec, game: Game, mines: int) -> str | None:
    """What the mine counter shows (as `zoo.tk_app.TkClone._counter_text`)."""
    if spec.counter == "none":
        return None
    left, flags = mines - game.flags(), game.flags()
    return {
        "led": str(left),
        "mines": f"Mines: {left}",
        "slash": f"{flags}/{mines}",
        "left": f"{left} left",
        "flags": f"Flags: {flags}",
    }[spec.counter]


def menu_levels(spec: ZooSpec) -> list[tuple[int, int, int]]:
    """The three levels of the menu screen (as `zoo.tk_app.TkClone._show_menu`)."""
    levels = [(spec.rows, spec.cols, spec.mines)]
    for preset in PRESETS:
        if preset not in levels and len(levels) < 3:
            levels.append(preset)
    levels.sort(key=lambda p: p[0] * p[1])
    return levels


def panel_choices(spec: ZooSpec) -> dict[str, Any]:
    """The random parts of the window that the Tk clone draws from its own rng."""
    rng = random.Random(spec.seed * 7919 + 1)
    has_button = spec.restart == "button" or (spec.restart == "key" and rng.random() < 0.3)
    where = ("top" if rng.random() < 0.7 else "bottom") if has_button else None
    return {"has_button": has_button, "button_where": where, "face_size": 26 + spec.seed % 12}


def looks(spec: ZooSpec) -> dict[str, Any]:
    """Every colour the page needs that is derived from the spec (Python's arithmetic,
    so that the page's colours are the Tk clone's)."""
    s = spec
    out: dict[str, Any] = {}

    def variant(unflagged: bool, hover: bool) -> dict[str, str]:
        fill, light, dark, alt = s.covered_fill, s.covered_light, s.covered_dark, s.covered_alt
        if unflagged and s.unflag_shade:
            fill, alt = shade(fill, s.unflag_shade), shade(alt, s.unflag_shade)
            light, dark = shade(light, s.unflag_shade), shade(dark, s.unflag_shade)
        if hover and s.hover == "light":
            fill, alt = shade(fill, 22), shade(alt, 22)
            light = shade(light, 15)
        edge = shade(fill, 60) if sum(rgb(fill)) < 384 else shade(fill, -70)
        return {
            "fill": fill,
            "light": light,
            "dark": dark,
            "alt": alt,
            "grad_top": mix(light, dark, 0.15),
            "grad_bottom": mix(light, dark, 0.85),
            "edge": edge,
        }

    out["covered"] = {
        "base": variant(False, False),
        "hover": variant(False, True),
        "unf": variant(True, False),
        "unf_hover": variant(True, True),
    }
    mono = s.theme == "mono"
    out["zero"] = shade(s.open_fill, -60)
    out["question"] = s.question_colour
    out["pole"] = s.mine_colour if not mono else s.flag_colour
    out["wrong"] = "#000000" if s.theme != "dark" else "#ffffff"
    out["hit_bg"] = s.hit_fill
    out["hit_mine"] = (
        s.hit_ink
        if mono and s.hit_style == "red_bg"
        else ("#e00000" if s.hit_style == "red_glyph" and not mono else s.mine_colour)
    )
    out["hit_cross"] = s.hit_style == "cross" or (mono and s.hit_style == "red_glyph")
    out["hit_cross_colour"] = "#ff0000" if not mono else out["hit_mine"]
    out["flash"] = "#ffff80" if not mono else s.text_colour
    out["tb_mark"] = shade(s.covered_fill, -60)
    bg = s.window_bg
    out["button_bg"] = shade(bg, -15) if not mono else bg
    out["button_active"] = shade(bg, 10)
    out["face_bg"] = s.covered_fill if not mono else bg
    board_bg = s.board_bg if s.gap else (s.line_colour if s.line else s.board_bg)
    out["board_bg"] = board_bg
    out["toolbar_bg"] = s.board_bg if s.gap else (s.line_colour if s.line else s.window_bg)
    out["frame_line"] = s.line_colour if not mono else s.text_colour
    out["frame_light"] = mix(board_bg, "#ffffff", 0.55)
    out["frame_dark"] = mix(board_bg, "#000000", 0.45)
    out["win_light"] = mix(bg, "#ffffff", 0.55)
    out["win_dark"] = mix(bg, "#000000", 0.45)
    out["face_light"] = mix(out["face_bg"], "#ffffff", 0.55)
    out["face_dark"] = mix(out["face_bg"], "#000000", 0.45)
    out["overlay_bg"] = "#202020" if s.theme != "light" else "#ffffe0"
    out["overlay_fg"] = "#ffffff" if s.theme != "light" else "#000000"
    return out


class ZooWeb:
    """The games of one web clone and its truth; every method is called under `lock`."""

    def __init__(self, spec: ZooSpec, truth: StampedLog, display: str | None) -> None:
        self.spec = spec
        self.truth = truth
        self.display = display or os.environ.get("DISPLAY", "")
        self.lock = threading.Lock()
        self.rows, self.cols, self.mines = spec.rows, spec.cols, spec.mines
        self.game_no = 0
        self.game: Game | None = None
        self.started_at: float | None = None
        self.screen = "board"
        self.version = 0
        self.shown: dict[int, Shown] = {}
        self.logged_version = 0
        self.logged_screen = "board"
        self.logged_layout: set[int] = set()
        self.logged_game = 0
        self.pending_settled: list[dict[str, Any]] = []
        self.last: dict[str, Any] = {}
        self.buttons_down: set[int] = set()
        self.ctrl_press = False
        self.origin: tuple[int, int] | None = None
        self.frame_offset = (0, 0)
        self.window_rect: list[int] | None = None
        self.chromium_pid: int | None = None
        self.window_id: str | None = None
        self.grabber = ThreadPoolExecutor(max_workers=1)  # one mss instance, one thread
        self._screen: Any = None
        self.truth.write("spec", spec=spec.to_json())

    # ------------------------------------------------------------------ games

    def new_game(self) -> None:
        s = self.spec
        self.game_no += 1
        self.started_at = None
        self.buttons_down.clear()
        self.ctrl_press = False
        self.game = Game(
            self.rows,
            self.cols,
            self.mines,
            s.first_click,  # type: ignore[arg-type]
            seed=s.seed * 100003 + self.game_no,
            qmarks=s.qmarks,
            flags_after_first=s.flags_after_first,
            win_needs_flags=s.win_needs_flags,
            end_shows="all" if s.end_shows == "all" else "hit",
            shows_wrong_flags=s.wrong_flags,
            flags_on_win=s.flags_on_win,
        )
        if s.pre_opened:
            rng = random.Random(s.seed * 31 + self.game_no)
            self.game.open(rng.randrange(self.rows), rng.randrange(self.cols))
            self.started_at = time.monotonic()

    def restart_asked(self) -> str:
        """A restart (face, button, toolbar, dialog, key): the menu first when the spec
        has one; on the menu itself nothing (a level is chosen there)."""
        if self.spec.menu:
            if self.screen == "menu":
                return "none"
            self.screen = "menu"
            return "menu"
        self.new_game()
        return "new"

    def choose(self, index: int) -> str:
        levels = menu_levels(self.spec)
        if self.screen != "menu" or not 0 <= index < len(levels):
            return "none"
        rows, cols, mines = levels[index]
        self.rows, self.cols, self.mines = rows, cols, mines
        self.screen = "board"
        self.new_game()
        return "new"

    def act(self, cell: Cell, what: str) -> list[Cell]:
        g = self.game
        if g is None or g.status != "playing" or self.screen != "board":
            return []
        if what == "open":
            changed = g.open(*cell)
        elif what == "mark":
            changed = g.mark(*cell)
        else:
            changed = g.chord(*cell)
        if changed and self.started_at is None:
            self.started_at = time.monotonic()
        return changed

    def press(
        self, cell: Cell | None, button: int, held: set[int], ctrl: bool
    ) -> tuple[str, list[Cell]]:
        """A button went down on the board (as `TkClone._press`; `held`: the buttons
        down now, from the browser, so that a release the page never saw, as under
        the browser's own context menu, does not stay down here)."""
        s = self.spec
        self.buttons_down = held | {button}
        if cell is None:
            return "", []
        if button == 1:
            if ctrl and s.flag_with in ("ctrl", "either"):
                self.ctrl_press = True
                return "mark", self.act(cell, "mark")
            self.ctrl_press = False
            return "", []
        if button == 2 and s.chord == "middle":
            return "chord", self.act(cell, "chord")
        if button == 3:
            if s.chord == "both" and 1 in self.buttons_down:
                return "", []
            if s.flag_with in ("right", "either"):
                return "mark", self.act(cell, "mark")
        return "", []

    def release(self, cell: Cell | None, button: int, held: set[int]) -> tuple[str, list[Cell]]:
        """A button came up after a press on the board (as `TkClone._release`)."""
        s = self.spec
        both = s.chord == "both" and {1, 3} <= (self.buttons_down & (held | {button}))
        self.buttons_down = set(held)
        self.buttons_down.discard(button)
        g = self.game
        if g is None:
            return "", []
        if both:
            self.ctrl_press = False
            return ("chord", self.act(cell, "chord")) if cell is not None else ("", [])
        if button != 1:
            return "", []
        if self.ctrl_press:
            self.ctrl_press = False
            return "", []
        if cell is None:
            return "", []
        ch = g.cell(*cell)
        if ch in "12345678" and s.chord == "left":
            return "chord", self.act(cell, "chord")
        if ch == ".":
            return "open", self.act(cell, "open")
        return "", []

    # ------------------------------------------------------------------ requests

    def setup(self) -> dict[str, Any]:
        """What the page needs to draw the clone, and the state to draw first."""
        if self.game is None:
            self.new_game()
        return {
            "spec": self.spec.to_json(),
            "looks": looks(self.spec),
            "panels": panel_choices(self.spec),
            "marker": MARKER,
            "levels": menu_levels(self.spec) if self.spec.menu else None,
            "state": self.snapshot("new", []),
        }

    def snapshot(self, what: str, changed: list[Cell]) -> dict[str, Any]:
        """The state now (a new version when it differs from the last one)."""
        g = self.game
        assert g is not None
        board = g.visible()
        counter = counter_text(self.spec, g, self.mines)
        last = self.shown.get(self.version)
        same = (
            last is not None
            and last.game == self.game_no
            and last.board == board
            and last.status == g.status
            and last.counter == counter
            and last.screen == self.screen
        )
        if not same:
            self.version += 1
            layout = sorted([list(m) for m in g.layout]) if g.layout is not None else None
            self.shown[self.version] = Shown(
                self.version,
                self.game_no,
                (self.rows, self.cols, self.mines),
                board,
                g.status,
                counter,
                self.screen,
                layout,
            )
            for old in [v for v in self.shown if v < self.version - 50]:
                del self.shown[old]
        elapsed = None if self.started_at is None else time.monotonic() - self.started_at
        return {
            "version": self.version,
            "game": self.game_no,
            "rows": self.rows,
            "cols": self.cols,
            "mines": self.mines,
            "board": board,
            "status": g.status,
            "counter": counter,
            "left": self.mines - g.flags(),
            "screen": self.screen,
            "levels": menu_levels(self.spec) if self.screen == "menu" else None,
            "what": what,
            "changed": [list(c) for c in changed],
            "elapsed": elapsed,
        }

    def handle_ops(self, ops: list[dict[str, Any]]) -> dict[str, Any]:
        """Apply a batch of the page's events in order; the state after them."""
        what = ""
        changed: list[Cell] = []
        for op in ops:
            kind = op.get("op")
            where = op.get("cell")
            cell: Cell | None = None if where is None else (int(where[0]), int(where[1]))
            held = {int(b) for b in op.get("held", [])}
            done = ""
            cells: list[Cell] = []
            if kind == "down":
                self.log_click(op)
                if op.get("board"):
                    ctrl = bool(op.get("ctrl"))
                    done, cells = self.press(cell, int(op["button"]), held, ctrl)
            elif kind == "up":
                done, cells = self.release(cell, int(op["button"]), held)
            elif kind == "key":
                self.truth.write_at(
                    op.get("t"), "key", key=op["key"], state=int(op.get("state", 0))
                )
                if op["key"] in self.spec.keys:
                    done = self.restart_asked()
            elif kind == "restart":
                done = self.restart_asked()
            elif kind == "choose":
                done = self.choose(int(op["level"]))
            if done in ("new", "menu"):
                what, changed = done, []
            elif done in ("open", "chord") and cells and what not in ("new", "menu"):
                what = "reveal"
                changed.extend(c for c in cells if c not in changed)
            elif done == "mark" and cells and what == "":
                what = "mark"
        return self.snapshot(what, changed)

    def log_click(self, op: dict[str, Any]) -> None:
        ox, oy = self.origin or (0, 0)
        self.truth.write_at(
            op.get("t"),
            "click",
            x=ox + int(op["x"]),
            y=oy + int(op["y"]),
            button=int(op["button"]),
            target=str(op.get("target", "window")),
        )

    def drawn(self, data: dict[str, Any]) -> None:
        """The page has drawn `version` (on the screen since `t`): log it, with the
        layout it measured when that changed. A state the page reports after a
        later one is not logged (the later one was on the screen by then)."""
        t = data.get("t")
        if data.get("geometry"):
            self.log_geometry(data["geometry"], t)
        shown = self.shown.get(int(data["version"]))
        if shown is None or shown.version <= self.logged_version:
            return
        self.logged_version = shown.version
        if shown.screen != self.logged_screen:
            self.logged_screen = shown.screen
            self.truth.write_at(t, "screen", name=shown.screen)
        if shown.screen != "board":
            return
        if shown.game > self.logged_game:
            self.logged_game = shown.game
            rows, cols, mines = shown.size
            self.truth.write_at(t, "game", game=shown.game, rows=rows, cols=cols, mines=mines)
        if shown.layout is not None and shown.game not in self.logged_layout:
            self.logged_layout.add(shown.game)
            self.truth.write_at(t, "layout", game=shown.game, mines=shown.layout)
        self.truth.write_at(
            t,
            "state",
            game=shown.game,
            board=shown.board,
            status=shown.status,
            counter=shown.counter,
            anim=data.get("anim"),
        )
        pending, self.pending_settled = self.pending_settled, []
        for data in pending:
            self.settled(data)

    def settled(self, data: dict[str, Any]) -> None:
        """Animation `anim`, begun with state `version`, is over on the page."""
        if int(data.get("version", -1)) <= self.logged_version:
            game = int(data.get("game", self.game_no))
            self.truth.write_at(data.get("t"), "settled", game=game, anim=data.get("anim"))
        else:  # its state is not logged yet: once it is
            self.pending_settled.append(data)

    def log_geometry(self, geometry: dict[str, Any], t: float | None = None) -> None:
        """Cell boxes and controls, page pixels made screen pixels, when they changed."""
        ox, oy = self.origin or (0, 0)
        xs = [[ox + a, ox + b] for a, b in geometry.get("xs", [])]
        ys = [[oy + a, oy + b] for a, b in geometry.get("ys", [])]
        boxes = {"xs": xs, "ys": ys}
        if boxes != self.last.get("boxes"):
            self.last["boxes"] = boxes
            self.truth.write_at(t, "boxes", **boxes)
        controls = {
            name: [ox + box[0], oy + box[1], ox + box[2], oy + box[3]]
            for name, box in geometry.get("controls", {}).items()
        }
        if controls != self.last.get("controls"):
            self.last["controls"] = controls
            self.truth.write_at(t, "controls", boxes=controls)
        dialog = geometry.get("dialog")
        rect = None if not dialog else [ox + dialog[0], oy + dialog[1], dialog[2], dialog[3]]
        if rect != self.last.get("dialog", None):
            self.last["dialog"] = rect
            self.truth.write_at(t, "window", name="dialog", rect=rect)

    # ------------------------------------------------------------------ the window

    def xdotool(self, *args: str) -> str:
        env = dict(os.environ, DISPLAY=self.display)
        try:
            out = subprocess.run(
                ["xdotool", *args], env=env, capture_output=True, text=True, timeout=10
            )
        except (OSError, subprocess.TimeoutExpired):
            return ""
        return out.stdout

    def find_window(self, timeout: float = 10.0) -> str | None:
        if self.window_id is not None:
            return self.window_id
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.chromium_pid is not None:
                found = self.xdotool("search", "--onlyvisible", "--pid", str(self.chromium_pid))
            else:
                found = self.xdotool("search", "--onlyvisible", "--classname", "chromium")
            ids = found.split()
            if ids:
                self.window_id = ids[-1]
                return self.window_id
            time.sleep(0.1)
        return None

    def geometry(self) -> list[int] | None:
        window = self.find_window()
        if window is None:
            return None
        out = self.xdotool("getwindowgeometry", "--shell", window)
        values = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
        try:
            return [int(values[k]) for k in ("X", "Y", "WIDTH", "HEIGHT")]
        except (KeyError, ValueError):
            return None

    def fit(self, width: int, height: int, grow_only: bool) -> dict[str, Any]:
        """Size the window to the page's content (`width` x `height`), kept on the
        screen; the page's new origin follows the window."""
        rect = self.geometry()
        if rect is None:
            return {"ok": False}
        w, h = min(width, SCREEN[0]), min(height, SCREEN[1])
        if grow_only:
            w, h = max(w, rect[2]), max(h, rect[3])
        x = max(0, min(self.spec.x if not grow_only else rect[0], SCREEN[0] - w))
        y = max(0, min(self.spec.y if not grow_only else rect[1], SCREEN[1] - h))
        if [x, y, w, h] != rect:
            assert self.window_id is not None
            self.xdotool("windowsize", self.window_id, str(w), str(h))
            self.xdotool("windowmove", self.window_id, str(x), str(y))
            deadline = time.monotonic() + 3.0
            while time.monotonic() < deadline:
                rect = self.geometry()
                if rect == [x, y, w, h]:
                    break
                time.sleep(0.03)
        if rect is None:
            return {"ok": False}
        with self.lock:
            self.window_rect = rect
            if self.origin is not None:
                self.origin = (rect[0] + self.frame_offset[0], rect[1] + self.frame_offset[1])
            if self.origin is not None and rect != self.last.get("window"):
                self.last["window"] = rect
                self.truth.write("window", name="main", rect=rect)
        return {"ok": True, "rect": rect}

    def _grab(self) -> Any:
        if self._screen is None:
            from vision.capture.live import LiveScreen

            self._screen = LiveScreen(self.display)
        return self._screen.grab()

    def find_marker(self) -> tuple[int, int] | None:
        """Where the page's calibration pattern is on the screen now."""
        import numpy as np

        shot = np.asarray(self.grabber.submit(self._grab).result(timeout=10))
        rgbimg = shot[:, :, ::-1].astype(np.int16)
        first = np.array(MARKER[0][0], np.int16)
        hits = np.argwhere((rgbimg == first).all(axis=2))
        height, width = rgbimg.shape[:2]
        for y, x in hits:
            if x + 4 > width or y + 2 > height:
                continue
            ok = all(
                tuple(int(v) for v in rgbimg[y + j, x + i]) == MARKER[j][i]
                for j in range(2)
                for i in range(4)
            )
            if ok:
                return int(x), int(y)
        return None

    def calibrate(self) -> dict[str, Any]:
        """Find the page's top-left pixel on the screen (the page shows its pattern)."""
        found = None
        deadline = time.monotonic() + 5.0
        while found is None and time.monotonic() < deadline:
            found = self.find_marker()
            if found is None:
                time.sleep(0.1)
        rect = self.geometry()
        with self.lock:
            if found is None:
                print("zoo web: calibration pattern not found on the screen", file=sys.stderr)
                if rect is None:
                    return {"ok": False}
                found = (rect[0], rect[1])
            self.origin = found
            if rect is not None:
                self.window_rect = rect
                self.frame_offset = (found[0] - rect[0], found[1] - rect[1])
                if rect != self.last.get("window"):
                    self.last["window"] = rect
                    self.truth.write("window", name="main", rect=rect)
            print(
                f"zoo web: page origin {found}, window {rect}, offset {self.frame_offset}",
                file=sys.stderr,
            )
        return {"ok": True, "origin": list(found)}


def make_handler(clone: ZooWeb) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:
            return

        def _send(self, code: int, body: bytes, kind: str) -> None:
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, data: Any) -> None:
            self._send(200, json.dumps(data).encode(), "application/json")

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            if path in ("/", "/index.html"):
                path = "/index.html"
            if path == "/clock":
                self._json({"t": time.monotonic()})
                return
            if path == "/ping":
                self._json({"ok": True})
                return
            if path == "/setup":
                with clone.lock:
                    data = clone.setup()
                self._json(data)
                return
            name = path.lstrip("/")
            file = WEB_DIR / name
            if "/" in name or not file.is_file():
                self._send(404, b"not found", "text/plain")
                return
            kind = "text/html; charset=utf-8" if name.endswith(".html") else "text/javascript"
            self._send(200, file.read_bytes(), kind)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0") or 0)
            raw = self.rfile.read(length) if length else b"{}"
            try:
                data = json.loads(raw or b"{}")
                reply = self._route(self.path.split("?", 1)[0], data)
            except Exception:  # the page must hear back whatever happened
                traceback.print_exc()
                self._send(500, b"{}", "application/json")
                return
            self._json(reply)

        def _route(self, path: str, data: dict[str, Any]) -> Any:
            if path == "/act":
                with clone.lock:
                    return clone.handle_ops(list(data.get("ops", [])))
            if path == "/drawn":
                with clone.lock:
                    clone.drawn(data)
                return {"ok": True}
            if path == "/settled":
                with clone.lock:
                    clone.settled(data)
                return {"ok": True}
            if path == "/geometry":
                with clone.lock:
                    clone.log_geometry(data, data.get("t"))
                return {"ok": True}
            if path == "/fit":
                return clone.fit(int(data["w"]), int(data["h"]), bool(data.get("grow_only")))
            if path == "/calibrate":
                return clone.calibrate()
            if path == "/pid":
                with clone.lock:
                    clone.chromium_pid = int(data["pid"])
                return {"ok": True}
            if path == "/log":
                print("page:", data.get("text"), file=sys.stderr)
                return {"ok": True}
            return {"ok": False}

    return Handler


def serve(spec: ZooSpec, truth_path: str | None, port: int, display: str | None) -> None:
    truth = StampedLog(truth_path)
    clone = ZooWeb(spec, truth, display)
    server = ThreadingHTTPServer(("127.0.0.1", port), make_handler(clone))
    server.daemon_threads = True
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        truth.close()


# ---------------------------------------------------------------------- launching


def _free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _post(port: int, path: str, data: dict[str, Any], timeout: float = 2.0) -> Any:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(data).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=timeout) as answer:
        return json.loads(answer.read() or b"{}")


def _wait_answering(proc: subprocess.Popen[bytes], port: int, timeout: float) -> None:
    from zoo.launch import ZooError

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise ZooError(f"the zoo web server exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/ping", timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise ZooError(f"the zoo web server did not answer within {timeout:.0f} s")


def estimate_size(spec: ZooSpec) -> tuple[int, int]:
    """About the window the page needs (the page has it sized exactly once drawn)."""
    sep = spec.gap or spec.line
    frame = spec.frame_w if spec.frame != "none" else 0
    board_w = spec.cols * spec.cell_w + (spec.cols - 1) * sep + 2 * frame + 2 * spec.line
    board_h = spec.rows * spec.cell_h + (spec.rows - 1) * sep + 2 * frame + 2 * spec.line
    side = 110 if spec.counter_pos in ("left", "right") else 0
    width = max(240, board_w + 2 * spec.padding + side)
    height = board_h + 2 * spec.padding + 110 + (spec.cell_h if spec.toolbar else 0)
    return min(width, SCREEN[0]), min(height, SCREEN[1])


def _main_rect(truth_path: Path) -> list[int] | None:
    try:
        text = truth_path.read_text()
    except OSError:
        return None
    for line in reversed(text.splitlines()):
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            continue
        if data.get("event") == "window" and data.get("name") == "main" and data.get("rect"):
            return list(data["rect"])
    return None


def start_web(
    spec: ZooSpec, truth_path: Path, folder: Path, env: dict[str, str], log: IO[bytes]
) -> list[subprocess.Popen[bytes]]:
    """Start the server, Chromium showing its page at the spec's place, and the
    decoy once the page's window is placed; every process for `RunningZoo.close`."""
    env = dict(env)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(BENCHMARKS), str(ROOT), env.get("PYTHONPATH", "")) if p
    )
    procs: list[subprocess.Popen[bytes]] = []
    port = _free_port()
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "zoo.web_server", "--spec", spec.dumps()),
            *("--truth", str(truth_path), "--port", str(port)),
        ],
        env=env,
        cwd=str(ROOT),
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=log,
        start_new_session=True,
    )
    procs.append(server)
    try:
        _wait_answering(server, port, 15.0)
        chromium = shutil.which("chromium")
        if chromium is None:
            from zoo.launch import ZooError

            raise ZooError("chromium is not installed (run scripts/install-system-deps)")
        profile = folder / "chromium-profile"
        shutil.rmtree(profile, ignore_errors=True)
        w, h = estimate_size(spec)
        x, y = max(0, min(spec.x, SCREEN[0] - w)), max(0, min(spec.y, SCREEN[1] - h))
        browser = subprocess.Popen(
            [
                chromium,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={profile}",
                f"--window-position={x},{y}",
                f"--window-size={w},{h}",
                f"--app=http://127.0.0.1:{port}/index.html",
            ],
            env=env,
            cwd=str(folder),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
        procs.append(browser)
        _post(port, "/pid", {"pid": browser.pid})
        if spec.decoy != "none":
            deadline = time.monotonic() + 40.0
            rect = _main_rect(truth_path)
            while rect is None and time.monotonic() < deadline:
                if server.poll() is not None or browser.poll() is not None:
                    return procs
                time.sleep(0.1)
                rect = _main_rect(truth_path)
            if rect is not None:
                procs.append(
                    subprocess.Popen(
                        [
                            *(sys.executable, "-m", "zoo.decoy", "--kind", spec.decoy),
                            *("--seed", str(spec.seed), "--avoid", ",".join(map(str, rect))),
                            *("--truth", str(truth_path)),
                        ],
                        env=env,
                        cwd=str(ROOT),
                        stdin=subprocess.DEVNULL,
                        stdout=log,
                        stderr=log,
                        start_new_session=True,
                    )
                )
    except BaseException:
        for proc in reversed(procs):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        raise
    return procs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the server of a zoo web clone")
    parser.add_argument("--spec", required=True, help="the clone's spec as JSON")
    parser.add_argument("--truth", help="append the truth log here")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--display", help="the X display (default $DISPLAY)")
    args = parser.parse_args(argv)
    spec = ZooSpec.from_json(json.loads(args.spec))
    serve(spec, args.truth, args.port, args.display)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
