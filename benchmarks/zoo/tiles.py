"""Cell pictures of a zoo clone, drawn with Pillow from its spec.

`Tiles(spec)` draws every look a cell can have (covered and its variants,
open numbers, marks, mines) as RGB arrays; the Tk clone shows them as images
(numbers may also be the toolkit's own text on top: `spec.digits == "tktext"`).
Text glyphs are drawn with FreeType fonts found through fontconfig, the way
real clones' toolkits draw them; "pixel" digits are a 3x5 bitmap font scaled
up, as pixel-art clones draw theirs.
"""

from __future__ import annotations

import functools
import subprocess

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from zoo.spec import ZooSpec, mix, rgb, shade

RGB = tuple[int, int, int]

#: A 3x5 pixel font: digits, "?" and a few letters.
PIXEL_FONT = {
    "0": ("111", "101", "101", "101", "111"),
    "1": ("010", "110", "010", "010", "111"),
    "2": ("111", "001", "111", "100", "111"),
    "3": ("111", "001", "011", "001", "111"),
    "4": ("101", "101", "111", "001", "001"),
    "5": ("111", "100", "111", "001", "111"),
    "6": ("111", "100", "111", "101", "111"),
    "7": ("111", "001", "010", "010", "010"),
    "8": ("111", "101", "111", "101", "111"),
    "9": ("111", "101", "111", "001", "111"),
    "?": ("111", "001", "011", "000", "010"),
    "F": ("111", "100", "110", "100", "100"),
    "M": ("101", "111", "111", "101", "101"),
    "X": ("101", "101", "010", "101", "101"),
}


@functools.cache
def font_file(family: str, bold: bool) -> str | None:
    """The font file fontconfig picks for `family` (None: no fontconfig)."""
    pattern = f"{family}:bold" if bold else family
    try:
        out = subprocess.run(
            ["fc-match", "-f", "%{file}", pattern], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


@functools.cache
def _font(family: str, bold: bool, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = font_file(family, bold)
    if path is None:
        return ImageFont.load_default()
    return ImageFont.truetype(path, max(6, size))


class Tiles:
    """Every cell picture of one clone, each an (h, w, 3) uint8 RGB array."""

    def __init__(self, spec: ZooSpec, width: int | None = None, height: int | None = None) -> None:
        self.spec = spec
        self.w = width or spec.cell_w
        self.h = height or spec.cell_h
        self._cache: dict[tuple[object, ...], np.ndarray] = {}

    # ------------------------------------------------------------ bases

    def covered(
        self,
        r: int = 0,
        c: int = 0,
        hover: bool = False,
        pressed: bool = False,
        unflagged: bool = False,
    ) -> np.ndarray:
        key = (
            "covered",
            r if self.spec.covered == "noise" else 0,
            c if self.spec.covered == "noise" else 0,
            hover,
            pressed,
            unflagged,
        )
        if key not in self._cache:
            self._cache[key] = self._covered(r, c, hover, pressed, unflagged)
        return self._cache[key]

    def _covered(self, r: int, c: int, hover: bool, pressed: bool, unflagged: bool) -> np.ndarray:
        s = self.spec
        if pressed and s.pressed == "open":
            return self.open_base()
        fill, light, dark, alt = s.covered_fill, s.covered_light, s.covered_dark, s.covered_alt
        if unflagged and s.unflag_shade:
            fill, alt = shade(fill, s.unflag_shade), shade(alt, s.unflag_shade)
        if hover and s.hover == "light":
            fill, alt = shade(fill, 22), shade(alt, 22)
            light = shade(light, 15)
        if pressed and s.pressed == "sunken":
            light, dark = dark, light
        h, w = self.h, self.w
        tile = np.empty((h, w, 3), np.uint8)
        tile[:] = rgb(fill)
        style = s.covered
        if style == "gradient":
            top, bottom = np.array(rgb(light), float), np.array(rgb(dark), float)
            t = np.linspace(0.15, 0.85, h)[:, None, None]
            tile[:] = np.clip(top * (1 - t) + bottom * t, 0, 255).astype(np.uint8)
        elif style == "dither":
            ys, xs = np.mgrid[0:h, 0:w]
            tile[(ys + xs) % 2 == 0] = rgb(alt)
        elif style == "noise":
            rng = np.random.default_rng(abs(hash((s.seed, r, c))) % (2**32))
            noise = rng.normal(0, 3 + s.seed % 6, (h, w, 1))
            tile[:] = np.clip(tile.astype(float) + noise, 0, 255).astype(np.uint8)
        elif style == "rounded":
            tile[:] = rgb(s.board_bg)
            img = Image.fromarray(tile)
            ImageDraw.Draw(img).rounded_rectangle(
                (0, 0, w - 1, h - 1), radius=max(2, min(w, h) // 4), fill=fill, outline=dark
            )
            tile = np.asarray(img).copy()
        if style in ("bevel", "gradient", "noise") or (pressed and s.pressed == "sunken"):
            b = max(1, s.bevel)
            for i in range(b):
                tile[i, i : w - i] = rgb(light)
                tile[i : h - i, i] = rgb(light)
                tile[h - 1 - i, i : w - i] = rgb(dark)
                tile[i : h - i, w - 1 - i] = rgb(dark)
        if hover and s.hover == "outline":
            edge = rgb(shade(fill, 60) if sum(rgb(fill)) < 384 else shade(fill, -70))
            tile[0, :], tile[-1, :], tile[:, 0], tile[:, -1] = edge, edge, edge, edge
        return tile

    def open_base(self, fill: str | None = None) -> np.ndarray:
        s = self.spec
        h, w = self.h, self.w
        tile = np.empty((h, w, 3), np.uint8)
        tile[:] = rgb(fill or s.open_fill)
        if s.open_style == "outline":
            edge = rgb(s.open_line)
            tile[0, :], tile[-1, :], tile[:, 0], tile[:, -1] = edge, edge, edge, edge
        elif s.open_style == "sunken":
            tile[0, :], tile[:, 0] = rgb(s.open_line), rgb(s.open_line)
        return tile

    # ------------------------------------------------------------ glyphs

    def text(
        self, tile: np.ndarray, text: str, colour: str, scale: float | None = None
    ) -> np.ndarray:
        """`text` drawn in the middle of `tile` (font or pixel digits per the spec)."""
        s = self.spec
        scale = s.font_scale if scale is None else scale
        out = Image.fromarray(tile)
        draw = ImageDraw.Draw(out)
        if s.digits == "pixel" and text in PIXEL_FONT:
            rows = PIXEL_FONT[text]
            k = max(1, int(self.h * scale) // 5)
            gw, gh = 3 * k, 5 * k
            x0, y0 = (self.w - gw) // 2, (self.h - gh) // 2
            for j, row in enumerate(rows):
                for i, bit in enumerate(row):
                    if bit == "1":
                        draw.rectangle(
                            (x0 + i * k, y0 + j * k, x0 + (i + 1) * k - 1, y0 + (j + 1) * k - 1),
                            fill=colour,
                        )
            return np.asarray(out).copy()
        size = round(self.h * scale / 0.72)
        # A symbol the clone's font may not hold (the flag): a toolkit falls back
        # to a font that has it; Pillow does not, so the fallback is named here.
        family = s.font_family if text.isascii() else "DejaVu Sans"
        font = _font(family, s.font_bold, size)
        box = draw.textbbox((0, 0), text, font=font)
        tw, th = box[2] - box[0], box[3] - box[1]
        x = (self.w - tw) / 2 - box[0]
        y = (self.h - th) / 2 - box[1]
        draw.text((x, y), text, fill=colour, font=font)
        return np.asarray(out).copy()

    def number(self, n: int, with_text: bool = True) -> np.ndarray:
        key = ("open", n, with_text)
        if key not in self._cache:
            tile = self.open_base()
            if with_text and (n > 0 or self.spec.show_zero):
                colour = (
                    self.spec.palette[n - 1]
                    if n > 0
                    else mix(self.spec.open_fill, self.spec.open_line, 0.8)
                )
                tile = self.text(tile, str(n), colour)
            self._cache[key] = tile
        return self._cache[key]

    def flag(self, hover: bool = False, wrong: bool = False) -> np.ndarray:
        key = ("flag", hover, wrong)
        if key not in self._cache:
            tile = self.covered(hover=hover).copy()
            if self.spec.covered == "noise":
                tile = self.covered()
            tile = self._flag_on(tile)
            if wrong:
                ink = "#000000" if self.spec.theme != "dark" else "#ffffff"
                if self.spec.theme == "mono":
                    ink = self.spec.flag_colour
                tile = self._cross(tile, ink)
            self._cache[key] = tile
        return self._cache[key]

    def _flag_on(self, tile: np.ndarray) -> np.ndarray:
        s = self.spec
        w, h = self.w, self.h
        colour = s.flag_colour
        if s.flag_glyph == "letter":
            return self.text(tile, "F", colour, min(0.75, s.font_scale + 0.05))
        if s.flag_glyph == "unicode" and s.digits != "pixel":
            return self.text(tile, "⚑", colour)
        img = Image.fromarray(tile)
        d = ImageDraw.Draw(img)
        cx, cy = w / 2, h / 2
        u = min(w, h) / 2
        if s.flag_glyph == "dot":
            d.ellipse((cx - u * 0.45, cy - u * 0.45, cx + u * 0.45, cy + u * 0.45), fill=colour)
        elif s.flag_glyph == "cross":
            k = max(2, round(u / 5))
            d.line((cx - u * 0.5, cy - u * 0.5, cx + u * 0.5, cy + u * 0.5), fill=colour, width=k)
            d.line((cx - u * 0.5, cy + u * 0.5, cx + u * 0.5, cy - u * 0.5), fill=colour, width=k)
        else:  # pennant (and unicode on pixel clones)
            pole = s.mine_colour if s.theme != "mono" else colour
            px = cx + u * 0.15
            d.line((px, cy - u * 0.6, px, cy + u * 0.45), fill=pole, width=max(1, round(u / 8)))
            d.polygon(
                [(px, cy - u * 0.6), (px, cy - u * 0.05), (cx - u * 0.55, cy - u * 0.32)],
                fill=colour,
            )
            d.rectangle((cx - u * 0.45, cy + u * 0.4, cx + u * 0.55, cy + u * 0.55), fill=pole)
        return np.asarray(img).copy()

    def question(self, hover: bool = False) -> np.ndarray:
        key = ("?", hover)
        if key not in self._cache:
            base = self.covered(hover=hover)
            self._cache[key] = self.text(base, "?", self.spec.question_colour)
        return self._cache[key]

    def mine(self, hit: bool = False) -> np.ndarray:
        key = ("mine", hit)
        if key not in self._cache:
            s = self.spec
            fill = None
            colour = s.mine_colour
            if hit and s.hit_style == "red_bg":
                fill = s.hit_fill
                if s.theme == "mono":
                    colour = s.hit_ink
            if hit and s.hit_style == "red_glyph" and s.theme != "mono":
                colour = "#e00000"
            tile = self._mine_on(self.open_base(fill), colour)
            if hit and (
                s.hit_style == "cross" or (s.theme == "mono" and s.hit_style == "red_glyph")
            ):
                tile = self._cross(tile, "#ff0000" if s.theme != "mono" else colour)
            self._cache[key] = tile
        return self._cache[key]

    def _mine_on(self, tile: np.ndarray, colour: str) -> np.ndarray:
        s = self.spec
        w, h = self.w, self.h
        if s.mine_glyph == "letter":
            return self.text(tile, "M", colour)
        if s.mine_glyph == "star" and s.digits != "pixel":
            return self.text(tile, "*", colour, min(0.95, s.font_scale + 0.3))
        img = Image.fromarray(tile)
        d = ImageDraw.Draw(img)
        cx, cy = w / 2, h / 2
        u = min(w, h) / 2
        if s.mine_glyph == "square":
            d.rectangle((cx - u * 0.4, cy - u * 0.4, cx + u * 0.4, cy + u * 0.4), fill=colour)
        else:
            k = max(1, round(u / 8))
            for dx, dy in ((1, 0), (0, 1), (0.7, 0.7), (0.7, -0.7)):
                d.line(
                    (cx - dx * u * 0.7, cy - dy * u * 0.7, cx + dx * u * 0.7, cy + dy * u * 0.7),
                    fill=colour,
                    width=k,
                )
            d.ellipse((cx - u * 0.45, cy - u * 0.45, cx + u * 0.45, cy + u * 0.45), fill=colour)
            if s.theme != "mono":
                d.ellipse(
                    (cx - u * 0.25, cy - u * 0.25, cx - u * 0.08, cy - u * 0.08), fill="#ffffff"
                )
        return np.asarray(img).copy()

    def _cross(self, tile: np.ndarray, colour: str) -> np.ndarray:
        img = Image.fromarray(tile)
        d = ImageDraw.Draw(img)
        k = max(1, round(min(self.w, self.h) / 12))
        m = min(self.w, self.h) * 0.15
        d.line((m, m, self.w - m, self.h - m), fill=colour, width=k)
        d.line((m, self.h - m, self.w - m, m), fill=colour, width=k)
        return np.asarray(img).copy()

    # ------------------------------------------------------------ states

    def for_char(
        self,
        ch: str,
        r: int = 0,
        c: int = 0,
        hover: bool = False,
        pressed: bool = False,
        unflagged: bool = False,
        with_text: bool = True,
    ) -> np.ndarray:
        """The picture of a cell showing board character `ch`."""
        if ch == ".":
            return self.covered(r, c, hover=hover, pressed=pressed, unflagged=unflagged)
        if ch == "F":
            return self.flag(hover=hover)
        if ch == "?":
            return self.question(hover=hover)
        if ch == "X":
            return self.flag(wrong=True)
        if ch == "*":
            return self.mine()
        if ch == "!":
            return self.mine(hit=True)
        return self.number(int(ch), with_text)

    def fade(self, old: np.ndarray, new: np.ndarray, k: int, steps: int) -> np.ndarray:
        t = k / (steps + 1)
        return (old.astype(float) * (1 - t) + new.astype(float) * t).astype(np.uint8)

    def flash(self) -> np.ndarray:
        key = ("flash",)
        if key not in self._cache:
            s = self.spec
            colour = "#ffff80" if s.theme != "mono" else s.text_colour
            tile = self.open_base(colour)
            self._cache[key] = tile
        return self._cache[key]
