"""Skins are data: a folder `templates/<name>/` with `skin.json` and images.

Everything that differs between clones (tile images, counter glyphs, faces,
where the counter sits relative to the board, how a new game is started, how a
chord is made) lives in the manifest, so that adding a clone means adding a
folder, not code. `load_skins()` finds the built-in folder next to this
package, the folder of skins learned on this machine (`learned_dir()`), and any
folders listed in the `MSBOT_TEMPLATES` environment variable.

Manifest fields (all paths relative to the skin folder):

    name            the skin's name (defaults to the folder name)
    pitch           [w, h] cell pitch (tile + grid line) of the tile images, px
    pitch_range     [min, max] pitches this skin is recognised at (scalable
                    clones like GNOME Mines); default: pitch +- 1 px
    display_scale   [min, max]: the desktop scales (HiDPI: 1.25, 1.5, 2...) the
                    clone's whole window may be shown at; a compositor scales
                    cells, gaps, counter and face alike, so the skin is read
                    at such a scale through `Skin.at_scale` (tiles compared as
                    they are, glyph images and region offsets scaled); default
                    [1, 1] (never scaled)
    display_max_distance  max_distance (and least colour_max_distance) of the
                    skin at a desktop scale other than 1: a pixel-exact clone's
                    cells, resampled by the compositor, are farther from its
                    tiles (default max_distance)
    display_glyph_factor  share of the glyph thresholds kept at a desktop scale
                    other than 1 (default 0.5): a linear scale blends glyphs,
                    which brings a wrong glyph's distance down too (minegauler:
                    a "1" scored 267 between two digits at 175 %, 538 at 100 %,
                    threshold 300), while the right one, blended alike
                    (`vision.display_scale.as_shown`), stays near its distance
                    at 100 % (GNOME Mines' text counter read "1/5" as 4 left at
                    125 % with its own threshold)
    display_counter  false: the counter is not read at a desktop scale other
                    than 1 (mines left unknown, never guessed); for text
                    counters ("marked/total") whose digits touch, so that a
                    scale blends one into the next and a digit can go
                    unmatched: sgt-mines' "8/12" at 125 % nearest read "/1"
                    (default true)
    cut_on_edges    true for skins learned live: their tiles were cut on each
                    cell's own edges as the picture shows them
                    (`vision.cuts.find_cuts`), so a board at a fractional
                    pitch is read cut the same way (`edges_nudge`) rather than
                    on the grid's rounded edges (default false)
    whole_pitch     true when the clone draws every cell at one whole-pixel
                    pitch whatever its size (sgt-mines' tile size, minegauler's
                    button size): a fitted pitch within a third of a pixel of
                    an integer is snapped to it (default: false)
    tiles           {char: [png, ...]}: cell images (size = pitch) per board
                    character (`. F ? 0-8 * ! X`); several images per char are
                    variants (hover, other window sizes)
    patch           side of the square patch cells are compared at (default 14)
    inset           tile border left out of comparisons (gaps that do not scale),
                    in 1/(14 + 2*inset) of a cell; default 0
    grow_distance   worst distance for extending a found grid by a row/column of
                    tiles (default max_distance / 3; 0 = never grow)
    max_distance    worst mean squared difference (per channel value) still
                    accepted for a cell; min_margin: least gap to the second-best kind
    colours         {char: ["#rrggbb", ...]}: flat background colours of kinds
                    (GNOME Mines numbers); a cell not showing one of them is
                    never read as that kind (see `vision.colour`)
    colour_tolerance  per-channel difference still matching a colour (default 10)
    colour_probe    how a cell's colour is sampled: "middle" (default: median
                    of the middle) or "mode" (commonest exact colour: for bold
                    glyphs that fill the middle of small cells); see `vision.colour`
    inks            {char: ["#rrggbb", ...]}: glyph colours of kinds (sgt-mines'
                    and minegauler's 1 blue, 2 green...); a kind with inks is
                    read only where one of them shows, a kind declared with
                    [] (covered, 0) only where no declared ink shows; kinds
                    not listed are never ruled out by ink (see `vision.colour`)
    ink_tolerance   per-channel difference still matching an ink (default 40)
    colour_max_distance  worst distance accepted for a cell whose colour only one
                    kind declares (default max_distance)
    frameless       whether the clone draws its tiles straight on the window
                    background, so that a declared tile colour just past the
                    board's edge means a board cut off by a too small window
                    (GNOME Mines; default true). false for clones that frame
                    the board and whose background may share a tile's colour
                    (sgt-mines' covered tiles are its window's grey)
    counter         {region, glyphs: {char: png}, format: "left"|"marked/total",
                    threshold}: the mine counter; see `vision.glyphs`
    faces           {region, images: {status: [png]}, threshold, any_expression}:
                    a face button; its position becomes the "restart" control.
                    any_expression (default false): a face no image matches is
                    found by what all its images share (`vision.face_rim`), so
                    a learned skin that never saw the won face still restarts;
                    rim {image, inner: [x, y, w, h]}: the button around the
                    part that changed (inner, masked out), for faces whose
                    images share too little (learned from the eyes alone)
    buttons         {name: {region, images: [png], threshold}}: other controls
    status_texts    {region, images: {status: [png]}, threshold, hides_board,
                    replaces_counter}: status messages; hides_board: the message
                    is a window drawn over the finished board, whose reading
                    then shows no board (looked for only when a cell reads
                    unsure); replaces_counter: the message is written where the
                    counter was (looked for only when the counter does not
                    read): `vision.status`
    board_status    {lost_if_any: chars, won_if_no_covered: bool,
                    mines_only_when_lost: bool (the clone shows mines, and
                    wrong flags, only on a lost board: on any other one such a
                    picture is not read, `vision.rules`)}
    paused          {region, images: [png], threshold}: "paused" overlay over
                    the whole board (looked for only when every cell reads
                    covered or unsure: `vision.reader`)
    border          {thickness, limit, bands: {top, bottom, left, right: png},
                    more: [{side: png}, ...] (other bands seen around the board)}:
                    the band of pixels just outside the board on each side, as
                    learned; or, written by hand, {sides: {top, bottom, left,
                    right: [[{from, to, colour}, ...], ...]}, tolerance, share,
                    slack}: spans of distance from the grid (px or [px,
                    pitches]) and their colour "#rrggbb", alternatives per side
                    (`vision.border`); a grid is located as a board only when
                    closed by it on every side
    play            see `PlaySpec`

A region is [[fx0, dx0], [fy0, dy0], [fx1, dx1], [fy1, dy1]]: corner
x = board_left + fx * board_width + dx (and the same for y), so it follows
the board wherever the window is and whatever its size. A corner may have a
third term, [f, d, p]: p cell pitches more, for clones whose margins grow
with their cells (sgt-mines' border is 1.5 tiles wide at every tile size).
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

import cv2
import numpy as np

from bot.board import ALPHABET
from bot.errors import MsbotError, VisionError
from bot.limits import LimitError, parse_json, read_text
from vision.border import LIMIT as BORDER_LIMIT
from vision.border import SIDES, AnyBorder, Border, drawn_border
from vision.colour import PROBES, parse_colour
from vision.display_scale import Phase, as_shown, glyph_paper
from vision.image_io import load_image


def _builtin_dir() -> Path:
    """Built-in skins: `templates/` at the checkout's root, which an installed
    msbot (a wheel) carries inside the package as `vision/_skins/`."""
    here = Path(__file__).resolve().parent
    installed = here / "_skins"
    return installed if installed.is_dir() else here.parent / "templates"


BUILTIN_DIR = _builtin_dir()
ENV_VAR = "MSBOT_TEMPLATES"

#: One corner coordinate: (f, d) or (f, d, p), see the module docstring.
Corner = tuple[float, ...]
Region = tuple[Corner, Corner, Corner, Corner]


@dataclass(frozen=True)
class PlaySpec:
    """How the play loop drives this clone (all data, no special cases in the loop)."""

    #: First-click rule of the clone: "safe" (never a mine), "zero" (opens an area), "none".
    rule: str = "safe"
    #: How to chord: "middle", "left" (on a number), "left+right", or None.
    chord: str | None = None
    flag_button: str = "right"
    #: How to start a new game: {"click": "restart"} or {"key": "n"}.
    restart: Mapping[str, str] = field(default_factory=dict)
    #: The clone declares a win only once every mine is flagged (xdemineur).
    win_requires_flags: bool = False
    #: Right click cycles flag -> ? -> covered.
    question_marks: bool = False
    #: How a paused game shows and how to resume it, e.g. {"resume": "focus"}; None if never.
    pause: Mapping[str, str] | None = None
    #: Milliseconds to wait after a click before the board shows the change.
    settle_ms: int = 20
    #: Milliseconds to leave between two clicks: minegauler (Qt) loses some
    #: clicks that arrive within a millisecond of each other; 0 for clones that keep up.
    click_gap_ms: int = 0
    #: [dx, dy]: where the pointer rests after each click, from the board's
    #: top-left corner, for clones that draw the cell under the pointer
    #: otherwise (a hover look); None: it stays where it clicked.
    pointer_rest: tuple[float, float] | None = None


@dataclass(frozen=True)
class Glyphs:
    """Small images searched for inside a region (counter digits, faces, messages)."""

    region: Region
    images: Mapping[str, tuple[np.ndarray, ...]]
    threshold: float
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: The desktop scale the screen shows them at (`Skin.at_scale`): the
    #: region is then matched at the clone's own pixels
    #: (`vision.display_scale.to_native`) against `images` as that shows them.
    scale: float = 1.0
    #: Per key, the phase each image holds at (`vision.display_scale.as_shown`);
    #: empty at scale 1 (every image holds everywhere).
    phases: Mapping[str, tuple[Phase, ...]] = field(default_factory=dict)
    #: What is worked out once from the images and kept with them, by name
    #: ("grey", "phase_of" here; `vision.glyphs`' ink test, `vision.face_rim`'s
    #: shared pixels): skins are read-only, so it never goes stale, and a
    #: `replace`d copy starts with none.
    derived: dict[str, object] = field(default_factory=dict, init=False, compare=False, repr=False)

    def phase_of(self, grey: np.ndarray) -> Phase | None:
        """The phase an image of `grey` holds at (None: everywhere)."""
        if not self.phases:
            return None
        table = cast("dict[int, Phase] | None", self.derived.get("phase_of"))
        if table is None:
            table = self.derived["phase_of"] = {
                id(img): phase
                for key, imgs in self.grey.items()
                for img, phase in zip(imgs, self.phases[key], strict=True)
            }
        return table.get(id(grey))

    @property
    def grey(self) -> Mapping[str, tuple[np.ndarray, ...]]:
        """The images in grey levels (what `vision.glyphs` matches), computed once."""
        cached = cast("Mapping[str, tuple[np.ndarray, ...]] | None", self.derived.get("grey"))
        if cached is None:
            cached = self.derived["grey"] = {
                k: tuple(cv2.cvtColor(i, cv2.COLOR_BGR2GRAY) for i in v)
                for k, v in self.images.items()
            }
        return cached


@dataclass(frozen=True)
class Skin:
    name: str
    folder: Path
    pitch: tuple[float, float]
    pitch_range: tuple[float, float]
    #: Board character -> tile images (BGR, pitch-sized).
    tiles: Mapping[str, tuple[np.ndarray, ...]]
    max_distance: float
    min_margin: float
    play: PlaySpec
    #: Border (in 1/(14 + 2 * inset) of a cell) left out when comparing tiles.
    inset: int = 0
    #: Side of the patch cells are compared at (bigger: finer detail, slower).
    patch: int = 14
    counter: Glyphs | None = None
    faces: Glyphs | None = None
    buttons: Mapping[str, Glyphs] = field(default_factory=dict)
    status_texts: Glyphs | None = None
    paused: Glyphs | None = None
    lost_if_any: str = "!"
    won_if_no_covered: bool = False
    mines_only_when_lost: bool = False
    manifest: Mapping[str, Any] = field(default_factory=dict)
    #: Board character -> declared background colours (BGR); see `vision.colour`.
    colours: Mapping[str, tuple[tuple[int, int, int], ...]] = field(default_factory=dict)
    colour_tolerance: float = 10.0
    colour_max_distance: float = 0.0
    #: Board character -> declared glyph colours (BGR); [] = no ink (see `vision.colour`).
    inks: Mapping[str, tuple[tuple[int, int, int], ...]] = field(default_factory=dict)
    ink_tolerance: float = 40.0
    colour_probe: str = "middle"
    #: Cells at one whole-pixel pitch at every size (see the module docstring).
    whole_pitch: bool = False
    #: Cells read cut where the picture shows them (see the module docstring).
    cut_on_edges: bool = False
    #: Tiles drawn straight on the window background (see the module docstring).
    frameless: bool = True
    #: What the clone draws around its board (`vision.border`): a located grid
    #: is a whole board only when it is closed by it on every side.
    border: AnyBorder | None = None

    #: Desktop scales the clone's window may be shown at (see the module docstring).
    display_scale: tuple[float, float] = (1.0, 1.0)
    #: The scale this skin is at (`at_scale`): 1 for the skin as loaded.
    scale: float = 1.0
    #: max_distance at a desktop scale other than 1 (see the module docstring).
    display_max_distance: float = 0.0
    #: Glyph thresholds at a desktop scale other than 1 are this share of
    #: theirs (see the module docstring).
    display_glyph_factor: float = 0.5
    #: Whether the counter is read at a desktop scale other than 1 (see the
    #: module docstring).
    display_counter: bool = True
    #: The skin's other forms, made once and kept (`for_reading`, `at_scale`):
    #: "for_reading", "at_scales" (by scale), and "base" on a derived form (the
    #: skin as loaded); on the skin as loaded, "banks_at_scales": its tile banks
    #: at a desktop scale and cell size (`vision.locate.bank_for`). A
    #: `replace`d copy starts with none.
    derived: dict[str, object] = field(default_factory=dict, init=False, compare=False, repr=False)

    def accepts_pitch(self, cell_w: float, cell_h: float) -> bool:
        lo, hi = self.pitch_range
        return lo <= cell_w <= hi and lo <= cell_h <= hi

    def for_reading(self) -> Skin:
        """The skin as boards are read with it: at a desktop scale other than
        1 without its counter when it declares `display_counter` false (the
        counter still tells the scale while locating: `vision.locate`)."""
        if self.scale == 1.0 or self.display_counter or self.counter is None:
            return self
        cached = cast("Skin | None", self.derived.get("for_reading"))
        if cached is None:
            cached = self.derived["for_reading"] = replace(self, counter=None)
            cached.derived["base"] = self.base
        return cached

    @property
    def base(self) -> Skin:
        """The skin as loaded, of which this one is a form (`at_scale`, `for_reading`)."""
        return cast(Skin, self.derived.get("base", self))

    @property
    def fixed_pitch(self) -> bool:
        """Whether the clone draws its cells at one size only (xdemineur): its
        pitch on screen then tells the desktop scale. Its pitch range is its
        width's and its height's, each give or take a pixel: a learned skin of
        cells 19 px wide and 25 px tall (range 18 to 26) is one size too (taken
        for a clone drawn at any size, its grid was kept at a fitted half-pixel
        origin and every cell read a pixel off: a zoo clone read 13x10 for 12x9)."""
        lo, hi = self.pitch_range
        spread = abs(self.pitch[0] - self.pitch[1])
        return not self.whole_pitch and hi - lo <= 2 * self.scale + spread

    def at_scale(self, scale: float) -> Skin:
        """This skin as a desktop scaled by `scale` shows it (scale relative to
        the skin as loaded), kept per scale (a board found again at the same
        scale reads with the same objects, so glyph memos stay valid).

        A compositor scales the whole window: pitches and pitch range scale,
        and so do the pixel offsets of the counter, face, button, status and
        pause regions (fractions of the board and cell pitches follow the
        board by themselves). Those glyphs are matched at the clone's own
        pixels, against their images as the scaled screen brought back to
        them shows them (`vision.display_scale`), with the same thresholds.
        Tiles stay as they are: every cell and tile is shrunk to the same
        patch before comparing.
        """
        if scale == self.scale:
            return self
        base = self.base
        cache = cast("dict[float, Skin]", base.derived.setdefault("at_scales", {}))
        if scale == 1.0:
            return base
        if scale not in cache:
            cache[scale] = base._scaled(scale)
        return cache[scale]

    def _scaled(self, scale: float) -> Skin:
        def glyphs(g: Glyphs | None) -> Glyphs | None:
            if g is None:
                return None
            region = tuple((c[0], c[1] * scale, *c[2:]) for c in g.region)
            shown = _AsShown(g.images, scale)
            return Glyphs(
                cast(Region, region),
                _ShownPart(shown, 0),
                g.threshold * self.display_glyph_factor,
                g.extra,
                scale,
                _ShownPart(shown, 1),
            )

        lo, hi = self.pitch_range
        out = replace(
            self,
            pitch=(self.pitch[0] * scale, self.pitch[1] * scale),
            pitch_range=(lo * scale, hi * scale),
            counter=glyphs(self.counter),
            faces=glyphs(self.faces),
            buttons={k: g for k, v in self.buttons.items() if (g := glyphs(v)) is not None},
            status_texts=glyphs(self.status_texts),
            paused=glyphs(self.paused),
            scale=scale,
            max_distance=max(self.max_distance, self.display_max_distance),
            colour_max_distance=max(self.colour_max_distance, self.display_max_distance),
        )
        out.derived["base"] = self
        return out


class _AsShown:
    """A set of glyph images as a screen at `scale` shows them (`as_shown`),
    worked out for a key when it is first asked for, then kept.

    `Skin.at_scale` is asked for every scale a board's pitch admits, for
    every skin, before the tiles tell which skin and scale it is; working out
    every glyph of every such view at once cost 30 ms a view, most of the
    time of reading a first board, for views never read again.
    """

    def __init__(self, images: Mapping[str, tuple[np.ndarray, ...]], scale: float) -> None:
        self.images = images
        self.scale = scale
        self.done: dict[str, tuple[tuple[np.ndarray, ...], tuple[Phase, ...]]] = {}
        #: The colour the set is drawn on (`glyph_paper`), once asked for.
        self.paper: tuple[int, ...] | None = None

    def of(self, key: str) -> tuple[tuple[np.ndarray, ...], tuple[Phase, ...]]:
        found = self.done.get(key)
        if found is None:
            if self.paper is None:
                self.paper = glyph_paper([img for imgs in self.images.values() for img in imgs])
            pairs = [
                pair for img in self.images[key] for pair in as_shown(img, self.scale, self.paper)
            ]
            found = self.done[key] = (
                tuple(img for img, _ in pairs),
                tuple(phase for _, phase in pairs),
            )
        return found


class _ShownPart(Mapping[str, Any]):
    """The pictures (part 0) or their phases (part 1) of an `_AsShown`, as the
    read-only mapping `Glyphs` holds: the same objects at every look-up."""

    def __init__(self, shown: _AsShown, part: int) -> None:
        self.shown = shown
        self.part = part

    def __getitem__(self, key: str) -> Any:
        return self.shown.of(key)[self.part]

    def __iter__(self) -> Iterator[str]:
        return iter(self.shown.images)

    def __len__(self) -> int:
        return len(self.shown.images)


def _region(raw: Any, where: str) -> Region:
    try:
        a, b, c, d = (tuple(float(v) for v in corner) for corner in raw)
        if not all(len(corner) in (2, 3) for corner in (a, b, c, d)):
            raise ValueError("a corner is [f, d] or [f, d, p]")
        return (a, b, c, d)
    except (TypeError, ValueError) as exc:
        raise VisionError(
            f"{where}: region must be 4 corners [f, d] or [f, d, pitches], got {raw!r}"
        ) from exc


def _images(folder: Path, names: Any, where: str) -> tuple[np.ndarray, ...]:
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, list) or not names:
        raise VisionError(f"{where}: expected a list of image files")
    return tuple(load_image(folder / str(n)) for n in names)


@dataclass(frozen=True)
class FaceRim:
    """A learned face button around the part that changed (`faces.rim`): its
    picture and where that part lies in it (x, y, w, h), masked out."""

    image: np.ndarray
    inner: tuple[int, int, int, int]


def _face_rim(folder: Path, raw: Any, where: str) -> FaceRim:
    inner = raw.get("inner") if isinstance(raw, dict) else None
    if (
        not isinstance(raw, dict)
        or not isinstance(raw.get("image"), str)
        or not isinstance(inner, list)
        or len(inner) != 4
        or not all(isinstance(v, int) and v >= 0 for v in inner)
    ):
        raise VisionError(f"{where}: faces.rim needs 'image' and 'inner' [x, y, w, h]")
    image = _images(folder, [raw["image"]], f"{where}: faces.rim")[0]
    x, y, w, h = inner
    if x + w > image.shape[1] or y + h > image.shape[0]:
        raise VisionError(f"{where}: faces.rim.inner lies outside its image")
    return FaceRim(image, (x, y, w, h))


def _glyphs(folder: Path, raw: Any, where: str, default_threshold: float) -> Glyphs:
    if not isinstance(raw, dict) or "region" not in raw or "images" not in raw:
        raise VisionError(f"{where}: needs 'region' and 'images'")
    images_raw = raw["images"]
    if isinstance(images_raw, list):
        images_raw = {"": images_raw}
    images = {str(k): _images(folder, v, f"{where}.{k}") for k, v in images_raw.items()}
    extra = {k: v for k, v in raw.items() if k not in ("region", "images", "threshold")}
    return Glyphs(
        _region(raw["region"], where),
        images,
        float(raw.get("threshold", default_threshold)),
        extra,
    )


def _colour_map(
    raw: Mapping[str, Any], key: str, tiles: Mapping[str, Any], where: str
) -> dict[str, tuple[tuple[int, int, int], ...]]:
    """`colours` or `inks` of a manifest: board character -> BGR colours."""
    values_raw = raw.get(key, {})
    if not isinstance(values_raw, dict):
        raise VisionError(f"{where}: {key} must be {{char: ['#rrggbb', ...]}}")
    out: dict[str, tuple[tuple[int, int, int], ...]] = {}
    for ch, values in values_raw.items():
        if ch not in tiles:
            raise VisionError(f"{where}: {key}[{ch!r}] names no tile kind")
        values = [values] if isinstance(values, str) else values
        out[ch] = tuple(parse_colour(v, f"{where}: {key}[{ch}]") for v in values)
    return out


#: Skins loaded in this process, by their folder's files (`_files_of`). Loading
#: decodes every tile and glyph image (about 15 ms a skin), and a reader, an
#: audit of a learned skin and the tests load the same skins again and again;
#: a skin is immutable (what it works out at a scale is memoised inside it), so
#: the same files give the same skin, and any changed file a new one.
_LOADED: dict[tuple[object, ...], Skin] = {}
#: Past this many, the cache starts again (a learner rewrites its skin often).
_LOADED_MAX = 64


def _files_of(folder: Path) -> tuple[object, ...]:
    """What a loaded skin depends on: every file under its folder, as stat sees it."""
    entries = []
    for path in sorted(folder.rglob("*")):
        st = path.stat()
        if stat.S_ISREG(st.st_mode):
            entries.append((str(path.relative_to(folder)), st.st_mtime_ns, st.st_size))
    return (str(folder.resolve()), *entries)


def load_skin(folder: Path) -> Skin:
    """The skin described by `folder/skin.json`; a VisionError names any problem."""
    try:
        key = _files_of(folder)
    except OSError:
        return _load_skin(folder)  # let the loader name the problem
    skin = _LOADED.get(key)
    if skin is None:
        skin = _load_skin(folder)
        if len(_LOADED) >= _LOADED_MAX:
            _LOADED.clear()
        _LOADED[key] = skin
    return skin


def _load_skin(folder: Path) -> Skin:
    manifest_path = folder / "skin.json"
    if not manifest_path.exists():
        raise VisionError(f"{folder}: no skin.json")
    try:
        # A regular file within the text limit (a FIFO would block the read).
        raw = parse_json(read_text(manifest_path))
    except json.JSONDecodeError as exc:
        raise VisionError(f"{manifest_path}: invalid JSON: {exc}") from exc
    except LimitError as exc:
        raise VisionError(f"{manifest_path}: {exc}") from exc
    except MsbotError as exc:  # not UTF-8 text
        raise VisionError(str(exc)) from exc
    where = str(manifest_path)
    try:
        pitch_w, pitch_h = (float(v) for v in raw["pitch"])
        tiles_raw = raw["tiles"]
    except (KeyError, TypeError, ValueError) as exc:
        raise VisionError(f"{where}: needs 'pitch' [w, h] and 'tiles'") from exc
    tiles: dict[str, tuple[np.ndarray, ...]] = {}
    for ch, names in tiles_raw.items():
        if ch not in ALPHABET:
            raise VisionError(f"{where}: tile key {ch!r} is not a board character")
        tiles[ch] = _images(folder, names, f"{where}: tiles[{ch}]")
    if "." not in tiles:
        raise VisionError(f"{where}: a skin needs at least the covered tile '.'")
    lo, hi = raw.get("pitch_range", [min(pitch_w, pitch_h) - 1, max(pitch_w, pitch_h) + 1])
    play_raw = dict(raw.get("play", {}))
    known = set(PlaySpec.__dataclass_fields__)
    unknown = set(play_raw) - known
    if unknown:
        raise VisionError(f"{where}: unknown play fields {sorted(unknown)}")
    buttons = {
        name: _glyphs(folder, spec, f"{where}: buttons.{name}", 60.0)
        for name, spec in raw.get("buttons", {}).items()
    }
    board_status = raw.get("board_status", {})
    colours = _colour_map(raw, "colours", tiles, where)
    inks = _colour_map(raw, "inks", tiles, where)
    probe = str(raw.get("colour_probe", "middle"))
    if probe not in PROBES:
        raise VisionError(f"{where}: colour_probe must be one of {', '.join(PROBES)}")

    def opt(key: str, default_threshold: float) -> Glyphs | None:
        return (
            _glyphs(folder, raw[key], f"{where}: {key}", default_threshold) if key in raw else None
        )

    faces = opt("faces", 60.0)
    if faces is not None and not isinstance(faces.extra.get("any_expression", False), bool):
        raise VisionError(f"{where}: faces.any_expression must be true or false")
    if faces is not None and "rim" in faces.extra:
        faces = replace(
            faces, extra={**faces.extra, "rim": _face_rim(folder, faces.extra["rim"], where)}
        )

    return Skin(
        name=str(raw.get("name", folder.name)),
        folder=folder,
        pitch=(pitch_w, pitch_h),
        pitch_range=(float(lo), float(hi)),
        tiles=tiles,
        max_distance=float(raw.get("max_distance", 400.0)),
        min_margin=float(raw.get("min_margin", 100.0)),
        play=PlaySpec(**play_raw),
        inset=int(raw.get("inset", 0)),
        patch=int(raw.get("patch", 14)),
        counter=opt("counter", 60.0),
        faces=faces,
        buttons=buttons,
        status_texts=opt("status_texts", 60.0),
        paused=opt("paused", 60.0),
        lost_if_any=str(board_status.get("lost_if_any", "!")),
        won_if_no_covered=bool(board_status.get("won_if_no_covered", False)),
        mines_only_when_lost=bool(board_status.get("mines_only_when_lost", False)),
        manifest=raw,
        colours=colours,
        colour_tolerance=float(raw.get("colour_tolerance", 10.0)),
        colour_max_distance=float(raw.get("colour_max_distance", raw.get("max_distance", 400.0))),
        inks=inks,
        ink_tolerance=float(raw.get("ink_tolerance", 40.0)),
        colour_probe=probe,
        whole_pitch=bool(raw.get("whole_pitch", False)),
        cut_on_edges=bool(raw.get("cut_on_edges", False)),
        frameless=bool(raw.get("frameless", True)),
        border=_border(folder, raw.get("border"), where),
        display_scale=_display_scale(raw.get("display_scale", [1.0, 1.0]), where),
        display_max_distance=float(raw.get("display_max_distance", raw.get("max_distance", 400.0))),
        display_glyph_factor=float(raw.get("display_glyph_factor", 0.5)),
        display_counter=bool(raw.get("display_counter", True)),
    )


def _border(folder: Path, raw: Any, where: str) -> AnyBorder | None:
    """The manifest's `border`: {"thickness": t, "limit": d, "bands": {side: png}}
    (learned), or {"sides": {side: [[span, ...]]}} (drawn, `vision.border`)."""
    if raw is None:
        return None
    if isinstance(raw, dict) and "sides" in raw:
        try:
            return drawn_border(raw, where)
        except (TypeError, ValueError) as exc:
            raise VisionError(str(exc)) from exc
    try:
        bands = {
            side: load_image(folder / str(raw["bands"][side])).astype(np.float32) for side in SIDES
        }
        more = tuple(
            {side: load_image(folder / str(rel)).astype(np.float32) for side, rel in m.items()}
            for m in raw.get("more", [])
        )
        limit = float(raw.get("limit", BORDER_LIMIT))
        return Border(int(raw["thickness"]), bands, limit, more)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise VisionError(f"{where}: border needs thickness and bands for {SIDES}") from exc


def _display_scale(raw: Any, where: str) -> tuple[float, float]:
    try:
        lo, hi = (float(v) for v in raw)
    except (TypeError, ValueError) as exc:
        raise VisionError(f"{where}: display_scale must be [min, max], got {raw!r}") from exc
    if not 0 < lo <= hi:
        raise VisionError(f"{where}: display_scale must be [min, max] with 0 < min <= max")
    return (lo, hi)


#: Where skins learned live go: this variable, else $XDG_DATA_HOME/msbot/skins.
LEARNED_VAR = "MSBOT_LEARNED"


def learned_dir() -> Path:
    """The folder skins learned on this machine are written to by default:
    `$MSBOT_LEARNED`, else `$XDG_DATA_HOME/msbot/skins` (~/.local/share/msbot/skins).
    Not the package's own folder: an installed msbot may not write there, and
    a person's skins must outlive an upgrade."""
    chosen = os.environ.get(LEARNED_VAR)
    if chosen:
        return Path(chosen)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "msbot" / "skins"


def skin_dirs() -> list[Path]:
    """Folders searched for skins: the built-in one, the learned one, then
    MSBOT_TEMPLATES (path list)."""
    dirs = [BUILTIN_DIR, learned_dir()]
    extra = os.environ.get(ENV_VAR, "")
    dirs += [Path(p) for p in extra.split(os.pathsep) if p]
    return dirs


def load_skins(names: list[str] | None = None) -> list[Skin]:
    """Every skin found (later folders override same-named skins), or just `names`."""
    found: dict[str, Path] = {}
    for base in skin_dirs():
        if base.is_dir():
            for sub in sorted(base.iterdir()):
                if (sub / "skin.json").is_file():
                    found[sub.name] = sub
    if names is not None:
        missing = [n for n in names if n not in found]
        if missing:
            raise VisionError(
                f"unknown skin {', '.join(missing)} (known: {', '.join(sorted(found)) or 'none'})"
            )
        return [load_skin(found[n]) for n in names]
    return [load_skin(p) for p in found.values()]
