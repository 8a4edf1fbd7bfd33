"""A zoo clone as data: every way real Minesweeper clones differ, drawn from a seed.

`draw(seed)` gives one `ZooSpec`; the same seed gives the same clone on any
machine (fonts aside: a family that is not installed falls back to
fontconfig's choice, as it would in a real clone). The ranges come from what
real clones do (see `benchmarks/zoo/README.md`), each dimension drawn on its
own, so that a run of many seeds meets combinations nobody tuned for.

Colours are "#rrggbb" strings; sizes are screen pixels.
"""

from __future__ import annotations

import colorsys
import json
import random
from dataclasses import asdict, dataclass, fields
from typing import Any

#: The screen the zoo draws on (the virtual display of tests and benchmarks).
SCREEN = (1600, 1000)

#: Board presets real clones offer (rows, cols, mines).
PRESETS = ((9, 9, 10), (8, 8, 10), (16, 16, 40), (16, 30, 99), (10, 10, 10), (12, 9, 10))

#: Font families a zoo clone may ask for; a missing one falls back.
FONTS = (
    "DejaVu Sans",
    "DejaVu Serif",
    "DejaVu Sans Mono",
    "DejaVu Sans Condensed",
    "Liberation Sans",
    "Liberation Mono",
    "Noto Sans",
    "Helvetica",
    "Courier",
    "Times",
)

#: Keys real clones start a new game with.
RESTART_KEYS = ("F2", "n", "r", "space", "ctrl+n", "Return")

#: The fields a web clone draws otherwise than a Tk one of the same seed.
FRONTEND_FIELDS = (
    *("frontend", "flag_with", "cells", "natural_buttons", "cell_w", "cell_h"),
    *("digits", "keys"),
)

#: The number palettes: Windows', GNOME-like, one ink for all, random hues.
CLASSIC = ("#0000ff", "#008000", "#ff0000", "#000080", "#800000", "#008080", "#000000", "#808080")
GNOMEISH = ("#3465a4", "#4e9a06", "#cc0000", "#204a87", "#a40000", "#06989a", "#2e3436", "#555753")


@dataclass(frozen=True)
class ZooSpec:
    """One random clone. Field groups: rules, cells, colours, glyphs, panels, place."""

    seed: int
    frontend: str  # "tk": a Tk window; "web": a page in Chromium
    # --- rules
    rows: int
    cols: int
    mines: int
    first_click: str  # "safe" | "zero" | "none"
    qmarks: bool  # the mark cycle has "?"
    flags_after_first: bool  # marks refused until the first cell is open
    win_needs_flags: bool  # won only once every mine is flagged too
    pre_opened: bool  # the game opens an area by itself at the start
    chord: str  # "none" | "middle" | "left" | "both"
    flag_with: str  # "right" | "ctrl" (ctrl+left; the right click is the browser's) | "either"
    # --- cells
    cells: str  # "canvas": drawn tiles; "buttons": toolkit buttons
    natural_buttons: bool  # buttons sized by their text: columns widen as numbers show
    cell_w: int
    cell_h: int
    gap: int  # background between cells
    line: int  # grid lines drawn between cells (px)
    covered: str  # "flat" | "bevel" | "gradient" | "dither" | "rounded" | "noise"
    bevel: int
    open_style: str  # "flat" | "sunken" | "outline"
    hover: str  # "none" | "light" | "outline": the cell under the pointer
    pressed: str  # "none" | "sunken" | "open": a covered cell while the button is down
    unflag_shade: int  # a cell whose flag came off is drawn this much lighter (0: same)
    # --- colours
    theme: str  # "light" | "dark" | "coloured" | "mono"
    window_bg: str
    board_bg: str
    line_colour: str
    covered_fill: str
    covered_light: str
    covered_dark: str
    covered_alt: str
    open_fill: str
    open_line: str
    text_colour: str
    palette: tuple[str, ...]
    # --- glyphs
    digits: str  # "font" (rendered into the tile) | "tktext" (the toolkit's text) | "pixel"
    font_family: str
    font_scale: float  # glyph height / cell height
    font_bold: bool
    show_zero: bool  # an empty open cell shows "0"
    flag_glyph: str  # "pennant" | "letter" | "dot" | "cross" | "unicode"
    flag_colour: str
    mine_glyph: str  # "ball" | "star" | "letter" | "square"
    mine_colour: str
    end_shows: str  # "all": every mine at a loss; "hit": only the one hit
    hit_style: str  # "red_bg" | "red_glyph" | "cross"
    wrong_flags: bool  # wrong flags crossed after a loss
    flags_on_win: bool  # a won board shows its mines flagged
    end_notice: str  # "dialog" | "overlay" | "status" | "none"
    animation: str  # "none" | "fade" | "cascade" | "flash"
    anim_ms: int
    # --- panels
    frame: str  # "none" | "line" | "sunken" | "raised" | "ridge"
    frame_w: int
    padding: int
    #: "led" | "mines" ("Mines: n") | "slash" ("f/total") | "left" ("n left") | "flags" | "none"
    counter: str
    counter_pos: str  # "top" | "bottom" | "left" | "right"
    timer: str  # "none" | "led" | "text"
    restart: str  # "face" | "button" | "toolbar" | "dialog" | "key"
    keys: tuple[str, ...]  # keys that start a new game (may be empty)
    button_text: str
    menu: bool  # a new game first shows a screen where a difficulty is chosen
    toolbar: int  # buttons drawn like covered cells above the board (0: none)
    title: str
    # --- place
    x: int
    y: int
    decoy: str  # "none" | "text" | "sheet" | "chess" | "photos": another window on the screen

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_json(data: dict[str, Any]) -> ZooSpec:
        known = {f.name for f in fields(ZooSpec)}
        values = {k: v for k, v in data.items() if k in known}
        for key in ("palette", "keys"):
            values[key] = tuple(values[key])
        return ZooSpec(**values)

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)

    @property
    def question_colour(self) -> str:
        """The ink of a "?" mark: seen on a covered cell in every theme (a monochrome
        clone's text colour is its window's, which may be its covered cells' too: zoo
        seed 862257573 drew white "?"s on white buttons, marks nobody could see)."""
        if self.theme == "mono":
            return "#000000" if sum(rgb(self.covered_fill)) > 380 else "#ffffff"
        return self.palette[3]

    @property
    def hit_fill(self) -> str:
        """The background of a hit mine drawn on red (`hit_style` "red_bg"): red, and
        in a monochrome theme the colour its open cells are not (the window's text
        colour may be theirs: zoo seed 1144288925 drew its hit mine as every
        shown mine, black on black, a mine nobody could tell)."""
        if self.theme != "mono":
            return "#ff0000"
        return "#ffffff" if self.open_fill == "#000000" else "#000000"

    @property
    def hit_ink(self) -> str:
        """The mine's ink on `hit_fill` in a monochrome theme: the other colour."""
        return "#000000" if self.hit_fill == "#ffffff" else "#ffffff"

    def describe(self) -> str:
        """One line a person reads: what makes this clone what it is."""
        shape = f"{self.cols}x{self.rows}/{self.mines} {self.first_click}"
        cells = (
            f"{self.cells}{' natural' if self.natural_buttons else ''}"
            if self.cells == "buttons"
            else f"{self.cell_w}x{self.cell_h} {self.covered}"
        )
        extra = [self.theme, self.digits, f"counter {self.counter}@{self.counter_pos}"]
        extra += [f"restart {self.restart}" + ("+menu" if self.menu else "")]
        if self.toolbar:
            extra.append(f"toolbar {self.toolbar}")
        if self.animation != "none":
            extra.append(self.animation)
        if self.qmarks:
            extra.append("?")
        if self.flags_after_first:
            extra.append("flags-after-first")
        if self.unflag_shade:
            extra.append("unflag-shade")
        if self.decoy != "none":
            extra.append(f"decoy {self.decoy}")
        return f"seed {self.seed} [{self.frontend}] {shape}, {cells}, " + ", ".join(extra)


# ----------------------------------------------------------------- colours


def hexc(rgb: tuple[float, float, float]) -> str:
    r, g, b = (max(0, min(255, round(v))) for v in rgb)
    return f"#{r:02x}{g:02x}{b:02x}"


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def shade(colour: str, delta: float) -> str:
    """`colour` made lighter (delta > 0) or darker, per channel."""
    return hexc(tuple(v + delta for v in rgb(colour)))  # type: ignore[arg-type]


def mix(a: str, b: str, t: float) -> str:
    return hexc(tuple(x + (y - x) * t for x, y in zip(rgb(a), rgb(b), strict=True)))  # type: ignore[arg-type]


def distance(a: str, b: str) -> float:
    return float(sum((x - y) ** 2 for x, y in zip(rgb(a), rgb(b), strict=True)) ** 0.5)


def grey(level: float) -> str:
    return hexc((level, level, level))


def _hue(rng: random.Random, h: float, s: float, v: float) -> str:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, s, v)
    return hexc((r * 255, g * 255, b * 255))


def _readable(colour: str, background: str, rng: random.Random) -> str:
    """`colour`, pushed away from `background` until a person tells them apart."""
    out = colour
    for _ in range(8):
        if distance(out, background) >= 110:
            return out
        light = sum(rgb(background)) / 3 > 127
        out = shade(out, -40 if light else 40)
    return out


# ----------------------------------------------------------------- drawing a clone


class _Forced:
    """Values of draws a caller fixed (`draw`'s `force`): each draw still uses
    the random numbers it would have, so the other dimensions stay the seed's."""

    def __init__(self, rng: random.Random, force: dict[str, Any]) -> None:
        self.rng, self.force = rng, dict(force)

    def pick(self, name: str, options: dict[str, float]) -> str:
        value = _pick(self.rng, options)
        return str(self.force.pop(name, value))

    def flip(self, name: str, p: float) -> bool:
        value = self.rng.random() < p
        return bool(self.force.pop(name, value))


def _pick(rng: random.Random, options: dict[str, float]) -> str:
    names = list(options)
    return rng.choices(names, weights=[options[n] for n in names])[0]


def draw(seed: int, frontend: str | None = None, force: dict[str, Any] | None = None) -> ZooSpec:
    """The clone of `seed` (`frontend` forces "tk" or "web"; default: one in five is web).

    `force` fixes named draws (`_Forced`: "theme", "covered", "restart", "menu",
    "buttons", ... each a value of that draw), the rest staying the seed's: the
    suite builds clones that between them show every value of every dimension."""
    rng = random.Random(seed)
    draws = _Forced(rng, force or {})
    roll = rng.random()  # drawn whatever `frontend` says: the rest stays the seed's
    web = roll < 0.2 if frontend is None else frontend == "web"
    # Rules.
    if rng.random() < 0.35:
        rows, cols, mines = rng.choice(PRESETS)
    else:
        rows, cols = rng.randint(5, 16), rng.randint(5, 30)
        mines = max(1, round(rows * cols * rng.uniform(0.10, 0.21)))
    first_click = draws.pick("first_click", {"safe": 4, "zero": 4, "none": 1})
    pre_opened = first_click == "zero" and rng.random() < 0.12
    qmarks = draws.flip("qmarks", 0.4)
    flags_after_first = draws.flip("flags_after_first", 0.15)
    win_needs_flags = draws.flip("win_needs_flags", 0.1)
    chord = draws.pick("chord", {"none": 2, "middle": 1, "left": 2, "both": 1})
    # Every draw is made whatever the frontend, so that forcing one keeps the rest.
    web_flags = draws.pick("flag_with", {"right": 6, "ctrl": 2, "either": 2})
    flag_with = web_flags if web else "right"
    # Cells.
    buttons = draws.flip("buttons", 0.18)
    natural_roll = draws.flip("natural_buttons", 0.3)
    cells = "buttons" if (not web and buttons) else "canvas"
    natural = cells == "buttons" and natural_roll
    base = rng.randint(14, 44)
    ratio = 1.0 if rng.random() < 0.6 else rng.uniform(0.7, 1.5)
    cell_w, cell_h = base, max(10, round(base * ratio))
    if cells == "buttons":
        cell_w, cell_h = max(cell_w, 22), max(cell_h, 20)
    gap = int(draws.pick("gap", {"0": 5, "1": 2, "2": 2, "3": 1, "4": 1}))
    line = 0 if gap else int(draws.pick("line", {"0": 2, "1": 4, "2": 1}))
    covered = draws.pick(
        "covered", {"flat": 3, "bevel": 4, "gradient": 2, "dither": 1, "rounded": 1, "noise": 1}
    )
    if gap == 0 and line == 0 and covered in ("flat", "dither", "noise"):
        # Covered cells a person could not tell apart: no clone draws those.
        line = 1
    bevel = rng.randint(1, max(1, min(4, cell_w // 8)))
    open_style = draws.pick("open_style", {"flat": 4, "sunken": 1, "outline": 2})
    hover = draws.pick("hover", {"none": 5, "light": 3, "outline": 1})
    pressed = draws.pick("pressed", {"none": 4, "sunken": 2, "open": 2})
    unflag_shade = 0 if rng.random() < 0.8 else rng.choice((-9, -6, 6, 9))
    # Colours.
    theme = draws.pick("theme", {"light": 5, "dark": 2, "coloured": 2, "mono": 1})
    if theme == "light":
        window_bg = grey(rng.randint(200, 240))
        covered_fill = (
            grey(rng.randint(180, 215))
            if rng.random() < 0.6
            else _hue(rng, rng.random(), rng.uniform(0.1, 0.35), rng.uniform(0.7, 0.9))
        )
        open_fill = grey(rng.randint(225, 250)) if rng.random() < 0.6 else shade(covered_fill, 30)
        text_colour = "#000000"
    elif theme == "dark":
        window_bg = grey(rng.randint(20, 50))
        covered_fill = (
            grey(rng.randint(70, 110))
            if rng.random() < 0.6
            else _hue(rng, rng.random(), rng.uniform(0.2, 0.5), rng.uniform(0.35, 0.55))
        )
        open_fill = grey(rng.randint(35, 60))
        text_colour = "#eeeeee"
    elif theme == "coloured":
        hue = rng.random()
        window_bg = _hue(rng, hue + 0.5, rng.uniform(0.2, 0.6), rng.uniform(0.5, 0.95))
        covered_fill = _hue(rng, hue, rng.uniform(0.35, 0.8), rng.uniform(0.55, 0.9))
        open_fill = _hue(rng, hue, rng.uniform(0.05, 0.2), rng.uniform(0.85, 1.0))
        text_colour = "#000000" if sum(rgb(window_bg)) > 380 else "#ffffff"
    else:
        window_bg = rng.choice(("#000000", "#ffffff"))
        covered_fill = "#ffffff" if rng.random() < 0.5 else "#000000"
        open_fill = "#ffffff" if covered_fill == "#000000" else "#000000"
        text_colour = "#ffffff" if window_bg == "#000000" else "#000000"
    if theme == "mono":
        covered_light, covered_alt = "#ffffff", open_fill
        covered_dark = "#000000" if covered_fill == "#ffffff" else "#ffffff"  # its edges show
        board_bg = line_colour = open_line = text_colour
        if covered in ("gradient", "noise"):
            covered = "dither"
        ink = "#000000" if open_fill == "#ffffff" else "#ffffff"
        palette: tuple[str, ...] = (ink,) * 8
        mine_colour = ink  # on open cells
        flag_colour = "#ffffff" if covered_fill == "#000000" else "#000000"  # on covered ones
    else:
        covered_light = shade(covered_fill, rng.randint(25, 60))
        covered_dark = shade(covered_fill, -rng.randint(35, 80))
        covered_alt = shade(covered_fill, rng.choice((-1, 1)) * rng.randint(15, 45))
        board_bg = shade(window_bg, rng.choice((-1, 1)) * rng.randint(0, 40))
        line_colour = shade(open_fill, -rng.randint(30, 90))
        open_line = shade(open_fill, -rng.randint(20, 70))
        kind = _pick(rng, {"classic": 4, "gnome": 2, "one": 1, "hues": 2})
        if kind == "classic":
            palette = CLASSIC
        elif kind == "gnome":
            palette = GNOMEISH
        elif kind == "one":
            palette = (rng.choice(("#000000", "#1a1a80", "#303030", "#ffffff")),) * 8
        else:
            start = rng.random()
            palette = tuple(
                _hue(rng, start + i * 0.13, rng.uniform(0.6, 1.0), rng.uniform(0.45, 0.9))
                for i in range(8)
            )
        palette = tuple(_readable(c, open_fill, rng) for c in palette)
        flag_colour = _readable(
            rng.choice(("#ff0000", "#d00000", "#e06000", "#ff2050")), covered_fill, rng
        )
        mine_colour = _readable(rng.choice(("#000000", "#202020", "#400000")), open_fill, rng)
    # Covered cells a person can tell apart: what lies between them differs.
    apart = shade(covered_fill, 60 if sum(rgb(covered_fill)) < 384 else -60)
    if theme == "mono":
        apart = "#ffffff" if covered_fill == "#000000" else "#000000"
    if gap and distance(board_bg, covered_fill) < 40:
        board_bg = apart
    if line and distance(line_colour, covered_fill) < 40:
        line_colour = apart
    # Glyphs.
    digits = draws.pick("digits", {"font": 4, "tktext": 3, "pixel": 2})
    if cells == "buttons" or web:
        digits = "tktext"  # the toolkit's (or the browser's) own text
    font_family = rng.choice(FONTS)
    font_scale = rng.uniform(0.45, 0.8)
    font_bold = rng.random() < 0.6
    show_zero = draws.flip("show_zero", 0.1)
    flag_glyph = draws.pick(
        "flag_glyph", {"pennant": 5, "letter": 2, "dot": 1, "cross": 1, "unicode": 1}
    )
    mine_glyph = draws.pick("mine_glyph", {"ball": 5, "star": 2, "letter": 1, "square": 1})
    end_shows = "all" if draws.flip("end_shows_all", 0.8) else "hit"
    hit_style = draws.pick("hit_style", {"red_bg": 5, "red_glyph": 2, "cross": 1})
    wrong_flags = draws.flip("wrong_flags", 0.6)
    flags_on_win = draws.flip("flags_on_win", 0.7)
    end_notice = draws.pick("end_notice", {"dialog": 2, "overlay": 2, "status": 3, "none": 2})
    animation = draws.pick("animation", {"none": 6, "fade": 2, "cascade": 2, "flash": 1})
    anim_ms = rng.randint(60, 260)
    # Panels.
    frame = draws.pick("frame", {"none": 2, "line": 2, "sunken": 3, "raised": 1, "ridge": 1})
    frame_w = rng.randint(1, 5)
    padding = rng.randint(2, 30)
    counter = draws.pick(
        "counter", {"led": 4, "mines": 2, "slash": 2, "left": 1, "flags": 1, "none": 1}
    )
    counter_pos = draws.pick("counter_pos", {"top": 6, "bottom": 2, "left": 1, "right": 1})
    timer = draws.pick("timer", {"none": 3, "led": 3, "text": 2})
    restart = draws.pick("restart", {"face": 4, "button": 3, "toolbar": 1, "dialog": 2, "key": 1})
    toolbar = rng.randint(2, 5) if (restart == "toolbar" or rng.random() < 0.15) else 0
    if cells == "buttons" and restart == "toolbar":
        restart = "button"
    if restart == "dialog" and end_notice != "dialog":
        end_notice = "dialog"
    keys: tuple[str, ...] = ()
    if restart == "key" or rng.random() < 0.4:
        key = rng.choice(RESTART_KEYS)
        keys = ("n" if web and key == "ctrl+n" else key,)  # Ctrl+N: a browser's new window
    button_text = rng.choice(("New game", "Restart", "Reset", "New", "Play", "↻"))
    menu = draws.flip("menu", 0.12)
    title = rng.choice(("Mines", "Minesweeper", "Bombs", "Démineur", "Field", "Sweeper"))
    # Place (the window's size is known once drawn: the launcher keeps it on screen).
    x, y = rng.randint(0, 700), rng.randint(0, 500)
    decoy = draws.pick("decoy", {"none": 6, "text": 1, "sheet": 1, "chess": 1, "photos": 1})
    # Keep the board on the screen: cells shrink until it fits.
    while (cell_w + gap) * cols + 260 > SCREEN[0] - 40 or (cell_h + gap) * rows + 240 > SCREEN[
        1
    ] - 60:
        cell_w, cell_h = max(10, cell_w - 1), max(10, cell_h - 1)
        if cell_w == 10 and cell_h == 10:
            break
    if draws.force:
        raise ValueError(f"no such draw to force: {', '.join(draws.force)}")
    return ZooSpec(
        seed=seed,
        frontend="web" if web else "tk",
        rows=rows,
        cols=cols,
        mines=mines,
        first_click=first_click,
        qmarks=qmarks,
        flags_after_first=flags_after_first,
        win_needs_flags=win_needs_flags,
        pre_opened=pre_opened,
        chord=chord,
        flag_with=flag_with,
        cells=cells,
        natural_buttons=natural,
        cell_w=cell_w,
        cell_h=cell_h,
        gap=gap,
        line=line,
        covered=covered,
        bevel=bevel,
        open_style=open_style,
        hover=hover,
        pressed=pressed,
        unflag_shade=unflag_shade,
        theme=theme,
        window_bg=window_bg,
        board_bg=board_bg,
        line_colour=line_colour,
        covered_fill=covered_fill,
        covered_light=covered_light,
        covered_dark=covered_dark,
        covered_alt=covered_alt,
        open_fill=open_fill,
        open_line=open_line,
        text_colour=text_colour,
        palette=palette,
        digits=digits,
        font_family=font_family,
        font_scale=round(font_scale, 3),
        font_bold=font_bold,
        show_zero=show_zero,
        flag_glyph=flag_glyph,
        flag_colour=flag_colour,
        mine_glyph=mine_glyph,
        mine_colour=mine_colour,
        end_shows=end_shows,
        hit_style=hit_style,
        wrong_flags=wrong_flags,
        flags_on_win=flags_on_win,
        end_notice=end_notice,
        animation=animation,
        anim_ms=anim_ms,
        frame=frame,
        frame_w=frame_w,
        padding=padding,
        counter=counter,
        counter_pos=counter_pos,
        timer=timer,
        restart=restart,
        keys=keys,
        button_text=button_text,
        menu=menu,
        toolbar=toolbar,
        title=title,
        x=x,
        y=y,
        decoy=decoy,
    )
