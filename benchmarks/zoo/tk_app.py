"""A zoo clone in a real Tk window, logging its own truth.

    python -m zoo.tk_app --seed S [--truth FILE] [--spec JSON]

(run with `benchmarks/` on the path). The window is drawn from `zoo.spec.draw(S)`:
its cells are tiles (`zoo.tiles`) on a canvas, or toolkit buttons; around
them counters, a timer, a face, buttons, a toolbar, dialogs, a menu screen, as
the spec says. Every state change is drawn, flushed to the X server, then
logged (`zoo.truth`).
"""

from __future__ import annotations

import argparse
import functools
import random
import subprocess
import sys
import time
import tkinter as tk
from collections.abc import Callable
from typing import Any, Literal, cast

import numpy as np

from zoo.game import Game
from zoo.spec import PRESETS, SCREEN, ZooSpec, draw, rgb, shade
from zoo.tiles import Tiles
from zoo.truth import TruthLog

Cell = tuple[int, int]
Relief = Literal["raised", "sunken", "flat", "ridge", "solid", "groove"]

#: Tk key names of the spec's restart keys.
KEY_EVENTS = {
    "F2": "<F2>",
    "n": "<KeyPress-n>",
    "r": "<KeyPress-r>",
    "space": "<space>",
    "ctrl+n": "<Control-n>",
    "Return": "<Return>",
}

#: 7-segment patterns of the LED digits (a, b, c, d, e, f, g).
SEGMENTS = {
    "0": "abcdef",
    "1": "bc",
    "2": "abdeg",
    "3": "abcdg",
    "4": "bcfg",
    "5": "acdfg",
    "6": "acdefg",
    "7": "abc",
    "8": "abcdefg",
    "9": "abcdfg",
    "-": "g",
    " ": "",
}


def photo(array: np.ndarray) -> tk.PhotoImage:
    h, w = array.shape[:2]
    return tk.PhotoImage(
        data=b"P6 %d %d 255\n" % (w, h) + np.ascontiguousarray(array).tobytes(), format="PPM"
    )


class Led(tk.Canvas):
    """A red seven-segment counter of `digits` digits."""

    def __init__(self, parent: tk.Misc, digits: int = 3, scale: float = 1.0) -> None:
        self.dw, self.dh = round(13 * scale), round(23 * scale)
        super().__init__(
            parent,
            width=digits * self.dw + 4,
            height=self.dh + 4,
            bg="#000000",
            highlightthickness=0,
            borderwidth=1,
            relief="sunken",
        )
        self.digits = digits

    def set(self, value: int) -> None:
        self.delete("all")
        text = (
            f"{value:0{self.digits}d}"[-self.digits :]
            if value >= 0
            else "-" + f"{-value:0{self.digits - 1}d}"[-(self.digits - 1) :]
        )
        for i, ch in enumerate(text):
            x0, y0 = 3 + i * self.dw, 3
            w, h, t = self.dw - 3, self.dh - 2, max(2, self.dw // 5)
            half = h // 2
            segs = {
                "a": (x0 + 1, y0, x0 + w - 1, y0 + t),
                "b": (x0 + w - t, y0 + 1, x0 + w, y0 + half - 1),
                "c": (x0 + w - t, y0 + half + 1, x0 + w, y0 + h - 1),
                "d": (x0 + 1, y0 + h - t, x0 + w - 1, y0 + h),
                "e": (x0, y0 + half + 1, x0 + t, y0 + h - 1),
                "f": (x0, y0 + 1, x0 + t, y0 + half - 1),
                "g": (x0 + 1, y0 + half - t // 2, x0 + w - 1, y0 + half + (t + 1) // 2),
            }
            on = SEGMENTS.get(ch, "")
            for name, box in segs.items():
                self.create_rectangle(*box, fill="#ff0000" if name in on else "#400000", width=0)


class Face(tk.Canvas):
    """A smiley button: smile, "o" while a cell is pressed, sunglasses won, crosses lost."""

    def __init__(self, parent: tk.Misc, size: int, bg: str) -> None:
        super().__init__(
            parent,
            width=size,
            height=size,
            bg=bg,
            highlightthickness=0,
            borderwidth=2,
            relief="raised",
        )
        self.side = size
        self.mood = ""
        self.show("smile")

    def show(self, mood: str) -> None:
        if mood == self.mood:
            return
        self.mood = mood
        self.delete("all")
        s, o = self.side, 2
        m = s * 0.12
        self.create_oval(
            o + m, o + m, o + s - m, o + s - m, fill="#ffff00", outline="#000000", width=1
        )
        ex, ey, er = s * 0.34, s * 0.4, max(1.5, s * 0.06)
        if mood == "won":
            self.create_rectangle(
                o + s * 0.22, o + ey - er, o + s * 0.78, o + ey + er, fill="#000000"
            )
        elif mood == "lost":
            for cx in (ex, s - ex):
                self.create_line(o + cx - er, o + ey - er, o + cx + er, o + ey + er, width=1)
                self.create_line(o + cx - er, o + ey + er, o + cx + er, o + ey - er, width=1)
        else:
            for cx in (ex, s - ex):
                self.create_oval(o + cx - er, o + ey - er, o + cx + er, o + ey + er, fill="#000000")
        if mood == "o":
            self.create_oval(
                o + s * 0.42, o + s * 0.6, o + s * 0.58, o + s * 0.76, outline="#000000", width=1
            )
        elif mood == "lost":
            self.create_arc(
                o + s * 0.3,
                o + s * 0.62,
                o + s * 0.7,
                o + s * 0.85,
                start=0,
                extent=180,
                style="arc",
                width=1,
            )
        else:
            self.create_arc(
                o + s * 0.3,
                o + s * 0.45,
                o + s * 0.7,
                o + s * 0.75,
                start=180,
                extent=180,
                style="arc",
                width=1,
            )


class TkClone:
    """One zoo clone: the window, its games and its truth log."""

    def __init__(self, spec: ZooSpec, truth: TruthLog, truth_path: str | None = None) -> None:
        self.spec = spec
        self.truth = truth
        self.truth_path = truth_path
        self.decoy_process: subprocess.Popen[bytes] | None = None
        self.rng = random.Random(spec.seed * 7919 + 1)
        self.root = tk.Tk(className="zooclone")
        self.root.title(spec.title)
        self.root.configure(bg=spec.window_bg)
        self.root.geometry(f"+{spec.x}+{spec.y}")
        self.rows, self.cols, self.mines = spec.rows, spec.cols, spec.mines
        self.game_no = 0
        self.game: Game | None = None
        self.tiles = Tiles(spec)
        self.photos: dict[tuple[Any, ...], tk.PhotoImage] = {}
        self.drawn: dict[Cell, tuple[Any, ...]] = {}
        self.hovered: Cell | None = None
        self.pressed: Cell | None = None
        self.buttons_down: set[int] = set()
        self.unflagged: set[Cell] = set()
        self.anims: list[str] = []
        self.anims_started = 0
        self.started_at: float | None = None
        self.flash_until = 0.0
        self.dialog: tk.Toplevel | None = None
        self.overlay: list[int] = []
        self.menu_frame: tk.Frame | None = None
        self.controls: dict[str, tk.Misc] = {}
        self.last_logged: dict[str, Any] = {}
        self.board: tk.Frame | tk.Canvas | None = None
        self.canvas: tk.Canvas | None = None
        self.font = (
            spec.font_family,
            -max(9, round(min(spec.cell_h, 40) * 0.5)),
            "bold" if spec.font_bold else "normal",
        )
        self._build()
        self.truth.write("spec", spec=spec.to_json())
        self.new_game()
        self.root.update_idletasks()
        self._place_on_screen()
        if spec.decoy != "none":
            self._make_decoy()
        self.root.after(200, self._watch_windows)
        self.root.after(1000, self._tick)
        for key in spec.keys:
            self.root.bind_all(KEY_EVENTS[key], lambda e: self.restart_asked("key"))
        self.root.bind_all("<Key>", self._log_key, add="+")
        self.root.bind_all("<ButtonPress>", self._log_click, add="+")

    # ------------------------------------------------------------------ building

    def _build(self) -> None:
        s = self.spec
        bg = s.window_bg
        self.top = tk.Frame(self.root, bg=bg)
        self.top.grid(
            row=0, column=0, columnspan=3, sticky="ew", padx=s.padding, pady=(s.padding, 2)
        )
        self.toolbar_canvas: tk.Canvas | None = None
        self.left = tk.Frame(self.root, bg=bg)
        self.left.grid(row=2, column=0, sticky="ns", padx=(s.padding, 0))
        self.holder = tk.Frame(self.root, bg=bg)
        self.holder.grid(row=2, column=1, padx=s.padding, pady=2)
        self.right = tk.Frame(self.root, bg=bg)
        self.right.grid(row=2, column=2, sticky="ns", padx=(0, s.padding))
        self.bottom = tk.Frame(self.root, bg=bg)
        self.bottom.grid(
            row=3, column=0, columnspan=3, sticky="ew", padx=s.padding, pady=(2, s.padding)
        )
        panel = {"top": self.top, "bottom": self.bottom, "left": self.left, "right": self.right}[
            s.counter_pos
        ]
        label_font = (s.font_family, -14, "bold" if s.font_bold else "normal")
        fg = s.text_colour
        self.counter_led: Led | None = None
        self.counter_label: tk.Label | None = None
        if s.counter == "led":
            self.counter_led = Led(panel)
            self.counter_led.pack(
                side="left" if panel in (self.top, self.bottom) else "top", padx=4, pady=4
            )
        elif s.counter != "none":
            self.counter_label = tk.Label(panel, text="", font=label_font, fg=fg, bg=bg)
            self.counter_label.pack(
                side="left" if panel in (self.top, self.bottom) else "top", padx=4, pady=4
            )
        self.timer_led: Led | None = None
        self.timer_label: tk.Label | None = None
        tpanel = self.top if s.counter_pos != "top" or s.timer == "led" else self.bottom
        if s.timer == "led":
            self.timer_led = Led(tpanel)
            self.timer_led.pack(side="right", padx=4, pady=4)
            self.timer_led.set(0)
        elif s.timer == "text":
            self.timer_label = tk.Label(tpanel, text="Time: 0", font=label_font, fg=fg, bg=bg)
            self.timer_label.pack(side="right", padx=4, pady=4)
        self.face: Face | None = None
        if s.restart == "face":
            self.face = Face(
                self.top, 26 + s.seed % 12, s.covered_fill if s.theme != "mono" else bg
            )
            self.face.pack(side="top", pady=3)
            self.face.bind("<ButtonRelease-1>", lambda e: self.restart_asked("face"))
            self.controls["face"] = self.face
        if s.restart == "button" or (s.restart == "key" and self.rng.random() < 0.3):
            where = self.top if self.rng.random() < 0.7 else self.bottom
            button = tk.Button(
                where,
                text=s.button_text,
                font=label_font,
                command=lambda: self.restart_asked("button"),
                bg=shade(bg, -15) if s.theme != "mono" else bg,
                fg=fg,
                activebackground=shade(bg, 10),
                highlightthickness=0,
            )
            button.pack(side="top" if where is self.top else "right", pady=3, padx=4)
            self.controls["button"] = button
        self.status_label: tk.Label | None = None
        if s.end_notice == "status":
            self.status_label = tk.Label(
                self.bottom if s.counter_pos == "top" else self.top,
                text=" ",
                font=label_font,
                fg=fg,
                bg=bg,
            )
            self.status_label.pack(side="left", padx=4)
        if s.toolbar:
            self._build_toolbar()
        self._build_board()

    def _build_toolbar(self) -> None:
        s = self.spec
        sep = s.gap or s.line
        n = s.toolbar
        width = n * s.cell_w + (n - 1) * sep
        bw = 0
        self.toolbar_canvas = tk.Canvas(
            self.root,
            width=width,
            height=s.cell_h,
            bg=s.board_bg if s.gap else (s.line_colour if s.line else s.window_bg),
            highlightthickness=0,
            borderwidth=bw,
        )
        # Aligned on the board's first column (the board's own frame and margin).
        margin = (s.frame_w if s.frame != "none" else 0) + (s.line if s.line and not s.gap else 0)
        self.toolbar_canvas.grid(
            row=1, column=1, sticky="w", padx=(s.padding + margin, 0), pady=(2, 0)
        )
        self.toolbar_on: list[bool] = [False] * n
        self.toolbar_items: list[int] = []
        for i in range(n):
            x0 = i * (s.cell_w + sep)
            item = self.toolbar_canvas.create_image(
                x0, 0, anchor="nw", image=self._photo(("covered", 0, 0, False, False, False))
            )
            self.toolbar_items.append(item)
            self.controls[f"toolbar{i}"] = self.toolbar_canvas
        self.toolbar_canvas.bind("<ButtonPress-1>", self._toolbar_press)

    def _toolbar_box(self, i: int) -> list[int]:
        assert self.toolbar_canvas is not None
        s = self.spec
        sep = s.gap or s.line
        x0 = self.toolbar_canvas.winfo_rootx() + i * (s.cell_w + sep)
        y0 = self.toolbar_canvas.winfo_rooty()
        return [x0, y0, x0 + s.cell_w, y0 + s.cell_h]

    def _toolbar_press(self, event: tk.Event) -> None:  # type: ignore[type-arg]
        s = self.spec
        sep = s.gap or s.line
        i = int(event.x // (s.cell_w + sep))
        if not (0 <= i < s.toolbar) or event.x - i * (s.cell_w + sep) >= s.cell_w:
            return
        assert self.toolbar_canvas is not None
        if s.restart == "toolbar" and i == s.seed % s.toolbar:
            self.restart_asked("toolbar")
            return
        self.toolbar_on[i] = not self.toolbar_on[i]
        tile = (
            self.tiles.covered(pressed=True)
            if s.pressed != "none"
            else self.tiles.covered(hover=True)
        )
        self.toolbar_canvas.itemconfigure(
            self.toolbar_items[i], image=self._photo_array(("tb-pressed",), tile)
        )

        def release() -> None:
            if self.toolbar_canvas is None:
                return
            base = self.tiles.covered()
            if self.toolbar_on[i]:
                base = base.copy()
                h, w = base.shape[:2]
                base[h // 2 - 1 : h // 2 + 2, w // 2 - 1 : w // 2 + 2] = rgb(
                    shade(s.covered_fill, -60)
                )
            self.toolbar_canvas.itemconfigure(
                self.toolbar_items[i], image=self._photo_array(("tb", self.toolbar_on[i]), base)
            )

        self.root.after(120, release)

    def _build_board(self) -> None:
        s = self.spec
        for child in self.holder.winfo_children():
            child.destroy()
        self.drawn.clear()
        self.text_items: dict[Cell, int] = {}
        self.cell_items: dict[Cell, int] = {}
        self.buttons: dict[Cell, tk.Button] = {}
        bw = s.frame_w if s.frame != "none" else 0
        relief = cast(Relief, {"none": "flat", "line": "solid"}.get(s.frame, s.frame))
        sep = s.gap or s.line
        margin = s.line if s.line and not s.gap else 0
        self.bw, self.sep, self.margin = bw, sep, margin
        if s.cells == "buttons":
            self.board = tk.Frame(self.holder, bg=s.board_bg, borderwidth=bw, relief=relief)
            self.board.pack()
            self.canvas = None
            self.blank = tk.PhotoImage(width=1, height=1)
            self.blank_text = " " if s.natural_buttons else ""
            for r in range(self.rows):
                for c in range(self.cols):
                    # Sized by their text (a space when blank), as button-grid clones
                    # are: a column widens once a number shows in it.
                    b = tk.Button(
                        self.board,
                        text=self.blank_text,
                        font=self.font,
                        borderwidth=2,
                        relief="raised",
                        padx=max(3, s.cell_w // 3 - 3),
                        pady=max(1, s.cell_h // 8),
                        bg=s.covered_fill,
                        activebackground=shade(s.covered_fill, 20)
                        if s.hover != "none"
                        else s.covered_fill,
                        highlightthickness=0,
                        fg=s.text_colour,
                    )
                    if not s.natural_buttons:
                        b.configure(
                            image=self.blank,
                            compound="center",
                            width=s.cell_w - 4,
                            height=s.cell_h - 4,
                            padx=0,
                            pady=0,
                        )
                    b.grid(row=r, column=c, padx=s.gap // 2, pady=s.gap // 2)
                    self._bind_button(b, (r, c))
                    self.buttons[(r, c)] = b
            return
        width = self.cols * s.cell_w + (self.cols - 1) * sep + 2 * margin
        height = self.rows * s.cell_h + (self.rows - 1) * sep + 2 * margin
        bg = s.board_bg if s.gap else (s.line_colour if s.line else s.board_bg)
        canvas = tk.Canvas(
            self.holder,
            width=width,
            height=height,
            bg=bg,
            highlightthickness=0,
            borderwidth=bw,
            relief=relief,
        )
        if s.frame == "line":
            canvas.configure(
                borderwidth=0,
                highlightthickness=bw,
                highlightbackground=s.line_colour if s.theme != "mono" else s.text_colour,
            )
            self.bw = bw
        canvas.pack()
        self.board = self.canvas = canvas
        for r in range(self.rows):
            for c in range(self.cols):
                x0, y0 = self._cell_xy(r, c)
                self.cell_items[(r, c)] = canvas.create_image(x0, y0, anchor="nw")
        canvas.bind("<ButtonPress>", self._canvas_press)
        canvas.bind("<ButtonRelease>", self._canvas_release)
        canvas.bind("<Motion>", self._motion)
        canvas.bind("<Leave>", lambda e: self._hover(None))

    def _bind_button(self, button: tk.Button, cell: Cell) -> None:
        """The presses and releases of a toolkit button cell."""

        def press(number: int) -> Callable[[tk.Event[tk.Button]], None]:
            return lambda event: self._press(cell, number)

        def release(number: int) -> Callable[[tk.Event[tk.Button]], None]:
            return lambda event: self._release(cell, number)

        for number in (1, 2, 3):
            button.bind(f"<ButtonPress-{number}>", press(number))
        for number in (1, 3):
            button.bind(f"<ButtonRelease-{number}>", release(number))

    def _canvas(self) -> tk.Canvas:
        assert self.canvas is not None, "a clone of toolkit buttons has no canvas"
        return self.canvas

    def _cell_xy(self, r: int, c: int) -> tuple[int, int]:
        s = self.spec
        off = self.bw + self.margin
        return off + c * (s.cell_w + self.sep), off + r * (s.cell_h + self.sep)

    def _cell_at(self, x: float, y: float) -> Cell | None:
        s = self.spec
        off = self.bw + self.margin
        c, dx = divmod(x - off, s.cell_w + self.sep)
        r, dy = divmod(y - off, s.cell_h + self.sep)
        if 0 <= r < self.rows and 0 <= c < self.cols and dx < s.cell_w and dy < s.cell_h:
            return int(r), int(c)
        return None

    def _place_on_screen(self) -> None:
        w, h = self.root.winfo_reqwidth(), self.root.winfo_reqheight()
        x = max(0, min(self.spec.x, SCREEN[0] - w))
        y = max(0, min(self.spec.y, SCREEN[1] - h))
        self.root.geometry(f"+{x}+{y}")
        self.root.update()

    def _make_decoy(self) -> None:
        """Another program's window elsewhere on the screen (never over the clone):
        a process of its own (`zoo.decoy`), as the web clones' is, which logs its
        window and the clicks it gets to the same truth. (A window of the clone's
        own process was one more of the clone's windows to the X server: zoo
        seeds 1189351204 and 320664778 had restart searches click it.)"""
        self.root.update()
        main = (
            self.root.winfo_rootx(),
            self.root.winfo_rooty(),
            self.root.winfo_width(),
            self.root.winfo_height(),
        )
        argv = [sys.executable, "-m", "zoo.decoy", "--kind", self.spec.decoy]
        argv += ["--seed", str(self.spec.seed), "--avoid", ",".join(map(str, main))]
        if self.truth_path:
            argv += ["--truth", self.truth_path]
        self.decoy_process = subprocess.Popen(argv, stdin=subprocess.DEVNULL)

    # ------------------------------------------------------------------ drawing

    def _photo(self, key: tuple[Any, ...]) -> tk.PhotoImage:
        if key not in self.photos:
            kind = key[0]
            if kind == "covered":
                _, r, c, hover, pressed, unflagged = key
                array = self.tiles.covered(r, c, hover=hover, pressed=pressed, unflagged=unflagged)
            elif kind == "char":
                _, ch, r, c, hover, pressed, unflagged, with_text = key
                array = self.tiles.for_char(
                    ch, r, c, hover=hover, pressed=pressed, unflagged=unflagged, with_text=with_text
                )
            else:
                raise KeyError(key)
            self.photos[key] = photo(array)
        return self.photos[key]

    def _photo_array(self, key: tuple[Any, ...], array: np.ndarray) -> tk.PhotoImage:
        full = ("array", *key)
        if full not in self.photos:
            self.photos[full] = photo(array)
        return self.photos[full]

    def _look(self, cell: Cell) -> tuple[Any, ...]:
        assert self.game is not None
        ch = self.game.cell(*cell)
        s = self.spec
        hover = (
            cell == self.hovered
            and ch in ".F?"
            and s.hover != "none"
            and self.game.status == "playing"
        )
        pressed = cell == self.pressed and ch == "." and s.pressed != "none"
        unflagged = cell in self.unflagged and ch == "."
        noise = s.covered == "noise"
        r, c = cell if noise else (0, 0)
        with_text = s.digits != "tktext"
        return ("char", ch, r, c, hover, pressed, unflagged, with_text)

    def draw_cell(self, cell: Cell, force: bool = False) -> None:
        look = self._look(cell)
        if not force and self.drawn.get(cell) == look:
            return
        self.drawn[cell] = look
        if self.spec.cells == "buttons":
            self._draw_button(cell, look)
            return
        self._canvas().itemconfigure(self.cell_items[cell], image=self._photo(look))
        if self.spec.digits == "tktext":
            self._draw_text(cell, look[1])

    def _draw_text(self, cell: Cell, ch: str) -> None:
        s = self.spec
        text = ch if ch in "12345678" or (ch == "0" and s.show_zero) else ""
        item = self.text_items.get(cell)
        if not text:
            if item is not None:
                self._canvas().itemconfigure(item, text="")
            return
        colour = s.palette[int(ch) - 1] if ch != "0" else shade(s.open_fill, -60)
        if item is None:
            x0, y0 = self._cell_xy(*cell)
            size = -max(7, round(s.cell_h * s.font_scale))
            font = (s.font_family, size, "bold" if s.font_bold else "normal")
            item = self._canvas().create_text(
                x0 + s.cell_w / 2, y0 + s.cell_h / 2, text=text, fill=colour, font=font
            )
            self.text_items[cell] = item
        else:
            self._canvas().itemconfigure(item, text=text, fill=colour)

    def _draw_button(self, cell: Cell, look: tuple[Any, ...]) -> None:
        s = self.spec
        b = self.buttons[cell]
        ch = look[1]
        unflagged = look[6]
        covered_bg = shade(s.covered_fill, s.unflag_shade) if unflagged else s.covered_fill
        if ch in ".F?X":
            flag = "F" if s.flag_glyph == "letter" else "⚑"
            text = {".": self.blank_text, "F": flag, "?": "?", "X": "✗"}[ch]
            fg = {"F": s.flag_colour, "X": s.flag_colour, "?": s.question_colour}.get(
                ch, s.text_colour
            )
            b.configure(
                text=text,
                relief="raised",
                bg=covered_bg,
                fg=fg,
                activeforeground=fg,
                activebackground=shade(covered_bg, 20) if s.hover != "none" else covered_bg,
            )
        else:
            if ch in "*!":
                text = "*" if s.mine_glyph != "ball" else "●"
                red_bg = ch == "!" and s.hit_style == "red_bg"
                bg = s.hit_fill if red_bg else s.open_fill
                fg = "#e00000" if ch == "!" and s.hit_style != "red_bg" else s.mine_colour
                if red_bg and s.theme == "mono":
                    fg = s.hit_ink
            else:
                n = int(ch)
                text = str(n) if n or s.show_zero else self.blank_text
                bg, fg = s.open_fill, s.palette[n - 1] if n else s.text_colour
            b.configure(
                text=text,
                relief="sunken" if s.open_style != "flat" else "flat",
                bg=bg,
                fg=fg,
                activebackground=bg,
                activeforeground=fg,
            )

    def redraw(self, cells: list[Cell] | None = None) -> None:
        todo = (
            cells
            if cells is not None
            else [(r, c) for r in range(self.rows) for c in range(self.cols)]
        )
        for cell in todo:
            self.draw_cell(cell)

    # ------------------------------------------------------------------ truth

    def flush(self) -> None:
        """Draw everything pending and make sure the X server has it."""
        self.root.update_idletasks()
        self.root.winfo_rootx()  # a round trip: every request sent before is processed

    def log_state(self, anim: int | None = None) -> None:
        """Log the state once drawn; `anim`: the id of the animation that began
        with it (its end is logged as "settled" with that id)."""
        assert self.game is not None
        self._log_layout()
        self.flush()
        self._log_geometry()
        self.truth.write(
            "state",
            game=self.game_no,
            board=self.game.visible(),
            status=self.game.status,
            counter=self._counter_text(),
            anim=anim,
        )

    def _log_layout(self) -> None:
        g = self.game
        if (
            g is not None
            and g.layout is not None
            and self.last_logged.get("layout") != self.game_no
        ):
            self.last_logged["layout"] = self.game_no
            self.truth.write("layout", game=self.game_no, mines=sorted([list(m) for m in g.layout]))

    def _log_geometry(self) -> None:
        """Cell boxes, controls and the main window, when they changed."""
        s = self.spec
        if self.menu_frame is not None:
            xs: list[list[int]] = []
            ys: list[list[int]] = []
        elif s.cells == "buttons":
            xs = []
            for c in range(self.cols):
                b = self.buttons[(0, c)]
                xs.append([b.winfo_rootx(), b.winfo_rootx() + b.winfo_width()])
            ys = []
            for r in range(self.rows):
                b = self.buttons[(r, 0)]
                ys.append([b.winfo_rooty(), b.winfo_rooty() + b.winfo_height()])
        else:
            board = self._canvas()
            ox, oy = board.winfo_rootx(), board.winfo_rooty()
            xs = [
                [ox + self._cell_xy(0, c)[0], ox + self._cell_xy(0, c)[0] + s.cell_w]
                for c in range(self.cols)
            ]
            ys = [
                [oy + self._cell_xy(r, 0)[1], oy + self._cell_xy(r, 0)[1] + s.cell_h]
                for r in range(self.rows)
            ]
        boxes = {"xs": xs, "ys": ys}
        if boxes != self.last_logged.get("boxes"):
            self.last_logged["boxes"] = boxes
            self.truth.write("boxes", **boxes)
        controls: dict[str, list[int]] = {}
        for name, widget in self.controls.items():
            try:
                if not widget.winfo_ismapped():
                    continue
                if name.startswith("toolbar"):
                    controls[name] = self._toolbar_box(int(name[7:]))
                else:
                    x, y = widget.winfo_rootx(), widget.winfo_rooty()
                    controls[name] = [x, y, x + widget.winfo_width(), y + widget.winfo_height()]
            except tk.TclError:
                continue
        if controls != self.last_logged.get("controls"):
            self.last_logged["controls"] = controls
            self.truth.write("controls", boxes=controls)
        rect = [
            self.root.winfo_rootx(),
            self.root.winfo_rooty(),
            self.root.winfo_width(),
            self.root.winfo_height(),
        ]
        if rect != self.last_logged.get("window"):
            self.last_logged["window"] = rect
            self.truth.write("window", name="main", rect=rect)

    def _watch_windows(self) -> None:
        try:
            self._log_geometry()
        finally:
            self.root.after(200, self._watch_windows)

    def _log_click(self, event: tk.Event) -> None:  # type: ignore[type-arg]
        target = "window"
        widget = event.widget
        if self.dialog is not None and str(widget).startswith(str(self.dialog)):
            target = "dialog"
        elif widget is getattr(self, "board", None) and self.spec.cells == "canvas":
            cell = self._cell_at(event.x, event.y)
            target = f"cell {cell[0]} {cell[1]}" if cell else "board"
        elif isinstance(widget, tk.Button) and widget in self.buttons.values():
            cell = next(rc for rc, b in self.buttons.items() if b is widget)
            target = f"cell {cell[0]} {cell[1]}"
        elif widget is self.toolbar_canvas:
            sep = self.spec.gap or self.spec.line
            target = f"toolbar{int(event.x // (self.spec.cell_w + sep))}"
        else:
            for name, w in self.controls.items():
                if widget is w:
                    target = name
                    break
        self.truth.write("click", x=event.x_root, y=event.y_root, button=event.num, target=target)

    def _log_key(self, event: tk.Event) -> None:  # type: ignore[type-arg]
        self.truth.write(
            "key", key=event.keysym, state=int(event.state) if isinstance(event.state, int) else 0
        )

    # ------------------------------------------------------------------ games

    def new_game(self) -> None:
        s = self.spec
        self.game_no += 1
        self._close_dialog()
        for item in self.overlay:
            self._canvas().delete(item)
        self.overlay = []
        self.unflagged.clear()
        self.pressed = None
        self.started_at = None
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
        self.truth.write(
            "game", game=self.game_no, rows=self.rows, cols=self.cols, mines=self.mines
        )
        if s.pre_opened:
            rng = random.Random(s.seed * 31 + self.game_no)
            self.game.open(rng.randrange(self.rows), rng.randrange(self.cols))
            self.started_at = time.monotonic()
        if self.face is not None:
            self.face.show("smile")
        if self.status_label is not None:
            self.status_label.configure(text=" ")
        self._update_counter()
        if self.timer_led is not None:
            self.timer_led.set(0)
        if self.timer_label is not None:
            self.timer_label.configure(text="Time: 0")
        self.redraw()
        self.log_state()

    def restart_asked(self, how: str) -> None:
        if self.spec.menu and self.menu_frame is None:
            self._show_menu()
            return
        self.new_game()

    def _show_menu(self) -> None:
        s = self.spec
        self._close_dialog()
        self.holder.grid_remove()
        if self.toolbar_canvas is not None:
            self.toolbar_canvas.grid_remove()
        frame = tk.Frame(self.root, bg=s.window_bg)
        frame.grid(row=2, column=1, padx=20, pady=20)
        tk.Label(
            frame,
            text="Choose a level",
            bg=s.window_bg,
            fg=s.text_colour,
            font=(s.font_family, -16, "bold"),
        ).pack(pady=8)
        levels = [(self.spec.rows, self.spec.cols, self.spec.mines)]
        for preset in PRESETS:
            if preset not in levels and len(levels) < 3:
                levels.append(preset)
        levels.sort(key=lambda p: p[0] * p[1])
        names = ("Easy", "Medium", "Hard")
        for i, level in enumerate(levels):
            text = f"{names[i]}  {level[1]}x{level[0]}, {level[2]} mines"
            b = tk.Button(
                frame,
                text=text,
                font=(s.font_family, -13),
                command=functools.partial(self._choose, level),
            )
            b.pack(fill="x", padx=10, pady=4)
            self.controls[f"menu{i}"] = b
        self.menu_frame = frame
        self.truth.write("screen", name="menu")
        self.flush()
        self._log_geometry()

    def _choose(self, level: tuple[int, int, int]) -> None:
        assert self.menu_frame is not None
        self.menu_frame.destroy()
        self.menu_frame = None
        for name in [n for n in self.controls if n.startswith("menu")]:
            del self.controls[name]
        self.holder.grid()
        if self.toolbar_canvas is not None:
            self.toolbar_canvas.grid()
        if (level[0], level[1]) != (self.rows, self.cols):
            self.rows, self.cols, self.mines = level
            self._build_board()
        else:
            self.mines = level[2]
        self.truth.write("screen", name="board")
        self.new_game()

    # ------------------------------------------------------------------ input

    def _canvas_press(self, event: tk.Event) -> None:  # type: ignore[type-arg]
        cell = self._cell_at(event.x, event.y)
        if cell is not None:
            self._press(cell, event.num, int(event.state) if isinstance(event.state, int) else 0)

    def _canvas_release(self, event: tk.Event) -> None:  # type: ignore[type-arg]
        cell = self._cell_at(event.x, event.y)
        self._release(cell, event.num)

    def _press(self, cell: Cell, button: int, state: int = 0) -> None:
        g = self.game
        if g is None:
            return
        self.buttons_down.add(button)
        if button == 1:
            if self.spec.chord == "both" and 3 in self.buttons_down:
                return
            if g.status == "playing" and g.cell(*cell) == ".":
                self.pressed = cell
                if self.face is not None:
                    self.face.show("o")
                if self.spec.animation == "flash":
                    self._flash(cell)
                else:
                    self.draw_cell(cell)
        elif button == 2 and self.spec.chord == "middle":
            self._act(cell, "chord")
        elif button == 3:
            if self.spec.chord == "both" and 1 in self.buttons_down:
                return
            self._act(cell, "mark")

    def _release(self, cell: Cell | None, button: int) -> None:
        both = self.spec.chord == "both" and {1, 3} <= self.buttons_down
        self.buttons_down.discard(button)
        g = self.game
        if g is None:
            return
        if both:
            self.pressed = None
            if cell is not None:
                self._act(cell, "chord")
            return
        if button != 1:
            return
        was = self.pressed
        self.pressed = None
        if self.face is not None and g.status == "playing":
            self.face.show("smile")
        if was is not None and self.flash_until <= time.monotonic():
            self.draw_cell(was)
        if cell is None:
            return
        if g.cell(*cell) in "12345678" and self.spec.chord == "left":
            self._act(cell, "chord")
        elif g.cell(*cell) == ".":
            wait = self.flash_until - time.monotonic()
            if was == cell and wait > 0:
                self.root.after(round(wait * 1000), lambda: self._act(cell, "open"))
            else:
                self._act(cell, "open")

    def _act(self, cell: Cell, what: str) -> None:
        g = self.game
        if g is None or g.status != "playing":
            return
        before = g.visible()
        flags_before = {rc for rc, m in g.marks.items()}
        if what == "open":
            changed = g.open(*cell)
        elif what == "mark":
            changed = g.mark(*cell)
            if cell in flags_before and cell not in g.marks:
                self.unflagged.add(cell)
        else:
            changed = g.chord(*cell)
        if not changed:
            return
        if self.started_at is None:
            self.started_at = time.monotonic()
        after = g.visible()
        diff = [
            (r, c)
            for r in range(self.rows)
            for c in range(self.cols)
            if before[r][c] != after[r][c]
        ]
        self._update_counter()
        ending = g.status != "playing"
        animate = (
            what != "mark"
            and self.spec.animation in ("fade", "cascade")
            and self.spec.cells == "canvas"
        )
        anim = None
        if animate:
            anim = self._animate(changed, [d for d in diff if d not in changed])
        else:
            self.redraw(diff)
        if ending:
            self._end()
        self.log_state(anim=anim)

    def _flash(self, cell: Cell) -> None:
        """A highlight where the button went down (a web clone's ripple); the cell
        opens once it is gone (`_release`). The cell is still covered meanwhile."""
        if self.spec.cells != "canvas":
            return
        self._canvas().itemconfigure(
            self.cell_items[cell], image=self._photo_array(("flash",), self.tiles.flash())
        )
        self.drawn[cell] = ("flash",)
        self.flash_until = time.monotonic() + self.spec.anim_ms / 1000

    def _animate(self, order: list[Cell], rest: list[Cell]) -> int:
        """Cells opening over `anim_ms`: a fade through blends, or a cascade ring by
        ring; the animation's id."""
        s = self.spec
        g = self.game
        assert g is not None
        self.redraw(rest)
        steps = 3
        if s.animation == "fade":
            frames = [(k * s.anim_ms // (steps + 1), k) for k in range(1, steps + 1)]
            olds = {cell: self.tiles.covered(*cell) for cell in order}
            for delay, k in frames:
                self.root.after(delay, functools.partial(self._fade_step, order, olds, k, steps))
            total = s.anim_ms
        else:
            step = max(8, s.anim_ms // 8)
            total = 0
            for i, cell in enumerate(order):
                delay = (i // max(1, len(order) // 12 + 1)) * step
                total = max(total, delay)
                self.root.after(delay, functools.partial(self._reveal, cell))
                self.drawn[cell] = ("pending",)
        self.anims_started += 1
        anim = self.anims_started
        game_no = self.game_no

        def done() -> None:
            if self.game_no == game_no:
                self.redraw(order)
            self.flush()
            self.truth.write("settled", game=game_no, anim=anim)

        self.root.after(total + 10, done)
        return anim

    def _fade_step(
        self, order: list[Cell], olds: dict[Cell, np.ndarray], k: int, steps: int
    ) -> None:
        if self.game is None:
            return
        for cell in order:
            if cell not in olds:
                continue
            new = self.tiles.for_char(
                self.game.cell(*cell), *cell, with_text=self.spec.digits != "tktext"
            )
            blend = self.tiles.fade(olds[cell], new, k, steps)
            key = ("fade", self.game.cell(*cell), k)
            self._canvas().itemconfigure(self.cell_items[cell], image=self._photo_array(key, blend))
            self.drawn[cell] = key

    def _reveal(self, cell: Cell) -> None:
        self.drawn.pop(cell, None)
        self.draw_cell(cell)

    def _motion(self, event: tk.Event) -> None:  # type: ignore[type-arg]
        self._hover(self._cell_at(event.x, event.y))

    def _hover(self, cell: Cell | None) -> None:
        if cell == self.hovered:
            return
        old, self.hovered = self.hovered, cell
        if self.spec.hover == "none" or self.spec.cells != "canvas":
            return
        for c in (old, cell):
            if c is not None and self.drawn.get(c, ("",))[0] == "char":
                self.draw_cell(c)

    # ------------------------------------------------------------------ panels

    def _counter_text(self) -> str | None:
        g = self.game
        s = self.spec
        if g is None or s.counter == "none":
            return None
        left, flags = self.mines - g.flags(), g.flags()
        return {
            "led": str(left),
            "mines": f"Mines: {left}",
            "slash": f"{flags}/{self.mines}",
            "left": f"{left} left",
            "flags": f"Flags: {flags}",
        }[s.counter]

    def _update_counter(self) -> None:
        g = self.game
        if g is None:
            return
        if self.counter_led is not None:
            self.counter_led.set(self.mines - g.flags())
        elif self.counter_label is not None:
            self.counter_label.configure(text=self._counter_text() or "")

    def _tick(self) -> None:
        try:
            g = self.game
            if g is not None and g.status == "playing" and self.started_at is not None:
                secs = min(999, int(time.monotonic() - self.started_at))
                if self.timer_led is not None:
                    self.timer_led.set(secs)
                if self.timer_label is not None:
                    self.timer_label.configure(text=f"Time: {secs}")
        finally:
            self.root.after(1000, self._tick)

    def _end(self) -> None:
        g = self.game
        assert g is not None
        s = self.spec
        won = g.status == "won"
        if self.face is not None:
            self.face.show("won" if won else "lost")
        words = ("You won!", "Congratulations") if won else ("Game over", "BOOM!")
        text = words[s.seed % 2]
        if s.end_notice == "status" and self.status_label is not None:
            self.status_label.configure(text=text)
        elif s.end_notice == "overlay" and s.cells == "canvas":
            w = int(self._canvas().cget("width"))
            h = int(self._canvas().cget("height"))
            bw = min(w - 10, 220)
            self.overlay.append(
                self._canvas().create_rectangle(
                    w / 2 - bw / 2,
                    h / 2 - 24,
                    w / 2 + bw / 2,
                    h / 2 + 24,
                    fill="#202020" if s.theme != "light" else "#ffffe0",
                    outline=s.text_colour,
                )
            )
            self.overlay.append(
                self._canvas().create_text(
                    w / 2,
                    h / 2,
                    text=text,
                    fill="#ffffff" if s.theme != "light" else "#000000",
                    font=(s.font_family, -18, "bold"),
                )
            )
        elif s.end_notice == "dialog":
            self.root.after(
                max(50, s.anim_ms if s.animation != "none" else 50), lambda: self._open_dialog(text)
            )

    def _open_dialog(self, text: str) -> None:
        s = self.spec
        if self.dialog is not None or self.game is None or self.game.status == "playing":
            return
        d = tk.Toplevel(self.root, bg=s.window_bg, borderwidth=2, relief="raised")
        d.title(s.title)
        tk.Label(
            d, text=text, bg=s.window_bg, fg=s.text_colour, font=(s.font_family, -16, "bold")
        ).pack(padx=20, pady=(14, 8))
        if s.restart == "dialog":
            b = tk.Button(d, text="Play again", command=lambda: self.restart_asked("dialog"))
        else:
            b = tk.Button(d, text="OK", command=self._close_dialog)
        b.pack(pady=(0, 12))
        d.bind("<Escape>", lambda e: self._close_dialog() if s.restart != "dialog" else None)
        self.controls["dialog-button"] = b
        d.update_idletasks()
        bx, by = self.holder.winfo_rootx(), self.holder.winfo_rooty()
        bw, bh = self.holder.winfo_width(), self.holder.winfo_height()
        dw, dh = d.winfo_reqwidth(), d.winfo_reqheight()
        d.geometry(f"+{max(0, bx + (bw - dw) // 2)}+{max(0, by + (bh - dh) // 2)}")
        self.dialog = d
        d.update()
        self.truth.write(
            "window",
            name="dialog",
            rect=[d.winfo_rootx(), d.winfo_rooty(), d.winfo_width(), d.winfo_height()],
        )
        self._log_geometry()

    def _close_dialog(self) -> None:
        if self.dialog is None:
            return
        self.dialog.destroy()
        self.dialog = None
        self.controls.pop("dialog-button", None)
        self.flush()
        self.truth.write("window", name="dialog", rect=None)
        self._log_geometry()

    def run(self) -> None:
        try:
            self.root.mainloop()
        finally:
            if self.decoy_process is not None and self.decoy_process.poll() is None:
                self.decoy_process.kill()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A zoo clone in a Tk window")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--truth", help="append the truth log here")
    parser.add_argument("--spec", help="a spec as JSON (instead of drawing one from --seed)")
    args = parser.parse_args(argv)
    spec = (
        ZooSpec.from_json(__import__("json").loads(args.spec))
        if args.spec
        else draw(args.seed, "tk")
    )
    truth = TruthLog(args.truth)
    try:
        TkClone(spec, truth, args.truth).run()
    finally:
        truth.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
