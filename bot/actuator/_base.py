"""Mouse output behind one interface, with the safety rules in one place.

Two layers, so the rules cannot be bypassed by a backend:

* `Mouse`: a backend that can press buttons at screen points and type keys
  (pyautogui in `live`, a recorder in `dryrun`). It knows nothing about boards.
* `Actuator`: what the play loop calls (`open`, `flag`, `chord`,
  `click_control`, `press_key`). It turns cells into screen points with the
  board's located geometry and refuses, with `ActuatorError`, any click that
  would not land inside the located board or on a control the skin declared.
  Every action is kept in `history` so tests and recordings can check where
  each click went.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, get_args

from bot.actuator.keys import parse_keys
from bot.actuator.points import PointMap
from bot.errors import ActuatorError, NoControl
from vision.geometry import Geometry

Button = Literal["left", "right", "middle"]
#: How a clone chords (opens every unflagged neighbour of a satisfied number):
#: "middle" button (xdemineur), "left" click on the number (GNOME Mines,
#: sgt-mines), "both" left+right together (minegauler), "none" cannot.
ChordStyle = Literal["middle", "left", "both", "none"]
CHORD_STYLES: tuple[ChordStyle, ...] = get_args(ChordStyle)
ActionKind = Literal["open", "flag", "chord", "control", "key", "hover"]


@dataclass(frozen=True)
class Action:
    """One thing done (or, dry run, intended) to the game, as recordings store it."""

    kind: ActionKind
    row: int | None = None
    col: int | None = None
    x: int | None = None
    y: int | None = None
    button: str | None = None
    key: str | None = None
    #: "certain", "guess p=0.123", "restart", ...: why the bot did it.
    why: str = ""
    #: CLOCK_MONOTONIC when its input was sent (a click on a cell: right after
    #: its checks passed), else when it was recorded.
    time: float = field(default_factory=time.monotonic)

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None and v != ""}


class Mouse(ABC):
    """A backend that presses buttons at screen points and types keys.

    Points are the capture's pixels; a backend whose mouse counts otherwise
    (a Retina screen's points) maps them with `points` (`bot.actuator.points`).
    """

    #: Capture pixels to the mouse's coordinates (the same, unless measured otherwise).
    points: PointMap = PointMap()

    @abstractmethod
    def click(self, x: int, y: int, button: Button) -> None:
        """Press and release `button` at (x, y)."""

    @abstractmethod
    def click_both(self, x: int, y: int) -> None:
        """Press left and right together at (x, y), then release both."""

    def click_holding(self, x: int, y: int, button: Button, keys: tuple[str, ...]) -> None:
        """Click with modifier `keys` held down ("ctrl" and left: a web clone's flag)."""
        if keys:
            raise ActuatorError(f"this mouse cannot click holding {'+'.join(keys)}")
        self.click(x, y, button)

    @abstractmethod
    def key(self, name: str) -> None:
        """Press and release one key or combination (pyautogui key names: "n",
        "f2", "space", "ctrl+n": `bot.actuator.keys`)."""

    def check_key(self, name: str) -> None:
        """Raise `ActuatorError` if `name` is no key this backend can press."""
        parse_keys(name)

    def window_class_at(self, x: int, y: int) -> str:
        """The class of the top-level window at (x, y) ("" when not known): a web
        browser must not be sent keys that open windows (Ctrl+N)."""
        return ""

    def window_at(self, x: int, y: int) -> int | None:
        """The id of the top-level window at (x, y) (None when not known): whether
        another window now lies over the board, before a key that closes one
        (Escape) is sent to what may be the game itself (ace-minesweeper quits)."""
        return None

    def client_at(self, x: int, y: int) -> int | None:
        """Which program's window lies at (x, y) (None when not known): a dialog
        over the board that is the clone's own (its "Play again" button the
        learned restart) is told from another program's window."""
        return None

    def window_rect_at(self, x: int, y: int) -> tuple[int, int, int, int] | None:
        """(x, y, width, height) of the top-level window at (x, y) (None when not
        known, or the bare desktop): where a dialog over the board lies, to look
        for its buttons there."""
        return None

    def window_shown(self, window: int) -> bool | None:
        """Whether the top-level window `window` (an id `window_at` gave) is
        still on the screen (None when not known): a board's window that moved
        from under a click is told from one that was closed."""
        return None

    def focus_at(self, x: int, y: int, take: bool = False) -> None:  # noqa: B027 - optional hook
        """Give the window at (x, y) the keyboard focus if no window has it (a
        desktop without a window manager, after a clone's dialog closed), so a
        key reaches the game; a window that has it is left alone unless `take`
        (a key meant for a dialog over the board, while the board's window
        has the focus msbot gave it), and a desktop's window manager always."""

    @abstractmethod
    def move(self, x: int, y: int) -> None:
        """Move the pointer to (x, y) without pressing anything."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release the display connection; idempotent."""


class Actuator:
    """Cells to clicks, with every click checked against the located board.

    `bind` must be called with the current geometry (and the skin's controls)
    before any click; the loop re-binds whenever it locates the board again.
    """

    def __init__(self, mouse: Mouse, chord_style: ChordStyle = "middle") -> None:
        if chord_style not in CHORD_STYLES:
            raise ActuatorError(f"unknown chord style {chord_style!r}")
        self.mouse = mouse
        self.chord_style: ChordStyle = chord_style
        self.geometry: Geometry | None = None
        self.controls: dict[str, tuple[int, int]] = {}
        self.history: list[Action] = []
        #: Where the pointer goes after each click on a cell, from the board's
        #: top-left corner (a skin's `pointer_rest`: the clone would draw the
        #: cell under it lighter); None: it stays.
        self.rest: tuple[float, float] | None = None
        #: How a flag is placed: "right" (a right click), or modifiers and a
        #: button ("ctrl+left": clones with no right click, in a web page).
        self.flag_with = "right"
        #: Called with (row, col, x, y, kind) before every click on a cell (and
        #: pointer move: kind "hover"); raises to refuse it (`Player.check_click`:
        #: the window moved since the last reading, another window lies under the
        #: point, the cell changed). A restart's control click has its own check
        #: (`Waiter.still_there`): a finished game's board may well be covered by
        #: the clone's notice.
        self.guard: Callable[[int, int, int, int, ActionKind], None] | None = None

    def bind(self, geometry: Geometry, controls: Mapping[str, tuple[int, int]] = {}) -> None:
        """Where the board and the controls are now, in screen pixels."""
        self.geometry = geometry
        self.controls = dict(controls)

    def cell_point(self, row: int, col: int, kind: ActionKind = "open") -> tuple[int, int]:
        """The screen point a click (`kind`) on (row, col) goes to; refused
        outside the board, or by the guard."""
        g = self.geometry
        if g is None:
            raise ActuatorError("no board located yet: refusing to click")
        if not (0 <= row < g.rows and 0 <= col < g.cols):
            raise ActuatorError(f"cell ({row}, {col}) is outside the {g.cols}x{g.rows} board")
        x, y = g.cell_center(row, col)
        if g.cell_at(x, y) != (row, col):
            raise ActuatorError(f"click ({x}, {y}) would not land on cell ({row}, {col})")
        # Where the mouse really goes (a point may span several pixels), back in pixels.
        points = self.mouse.points
        if not points.identity and g.cell_at(*points.to_pixels(*points.to_mouse(x, y))) != (
            row,
            col,
        ):
            raise ActuatorError(
                f"click ({x}, {y}) would land beside cell ({row}, {col}) at this desktop scale"
            )
        if self.guard is not None:
            self.guard(row, col, x, y, kind)
        return x, y

    def _rest(self) -> None:
        """Move the pointer off the cells, to where the skin says it rests."""
        g = self.geometry
        if self.rest is not None and g is not None:
            self.mouse.move(round(g.left + self.rest[0]), round(g.top + self.rest[1]))

    def open(self, row: int, col: int, why: str = "", *, unmark: bool = False) -> Action:
        """Left click a cell; `unmark`: it shows a question mark, right click it
        first. Some clones (xdemineur) ignore a left click on a "?"; a right
        click takes a "?" back to covered in every clone that has them (their
        cycle is covered, flag, "?", covered)."""
        x, y = self.cell_point(row, col)
        sent = time.monotonic()
        if unmark:
            self._mark(x, y)
        self.mouse.click(x, y, "left")
        self._rest()
        button = "right,left" if unmark else "left"
        return self._done(Action("open", row, col, x, y, button, why=why, time=sent))

    def flag(self, row: int, col: int, why: str = "", *, unmark: bool = False) -> Action:
        """Right click a cell; `unmark`: it shows a question mark, which one right
        click takes back to covered, so a second one is needed for the flag."""
        x, y = self.cell_point(row, col, "flag")
        sent = time.monotonic()
        if unmark:
            self._mark(x, y)
        self._mark(x, y)
        self._rest()
        button = f"{self.flag_with},{self.flag_with}" if unmark else self.flag_with
        return self._done(Action("flag", row, col, x, y, button, why=why, time=sent))

    def _mark(self, x: int, y: int) -> None:
        """One step of the clone's mark cycle (covered, flag, "?") at (x, y)."""
        *keys, button = self.flag_with.split("+")
        if button not in ("left", "right", "middle"):
            raise ActuatorError(f"cannot flag with {self.flag_with!r}")
        self.mouse.click_holding(x, y, button, tuple(keys))  # type: ignore[arg-type]

    def unflag(self, row: int, col: int, clicks: int, why: str = "") -> Action:
        """Right click a flagged cell `clicks` times, back to covered (once without
        question marks, twice through the "?" with them)."""
        x, y = self.cell_point(row, col, "flag")
        sent = time.monotonic()
        for _ in range(clicks):
            self._mark(x, y)
        self._rest()
        how = ",".join([self.flag_with] * clicks)
        return self._done(Action("flag", row, col, x, y, how, why=why, time=sent))

    def chord(self, row: int, col: int, why: str = "") -> Action:
        x, y = self.cell_point(row, col, "chord")
        style = self.chord_style
        if style == "none":
            raise ActuatorError("this skin cannot chord")
        sent = time.monotonic()
        if style == "both":
            self.mouse.click_both(x, y)
        else:
            self.mouse.click(x, y, style)
        self._rest()
        return self._done(Action("chord", row, col, x, y, style, why=why, time=sent))

    def hover(self, row: int, col: int, why: str = "") -> Action:
        """Put the pointer on a cell without clicking: gives focus-follows-pointer
        windows (GNOME Mines without a window manager) the focus back."""
        x, y = self.cell_point(row, col, "hover")
        self.mouse.move(x, y)
        return self._done(Action("hover", row, col, x, y, why=why))

    def click_control(self, name: str, why: str = "") -> Action:
        """Click a control the reader found (e.g. "restart": the face)."""
        if name not in self.controls:
            known = ", ".join(sorted(self.controls)) or "none"
            raise NoControl(f"no control {name!r} on screen (found: {known})")
        x, y = self.controls[name]
        self.mouse.click(x, y, "left")
        return self._done(Action("control", x=x, y=y, button="left", key=name, why=why))

    def press_key(self, key: str, why: str = "", at: tuple[int, int] | None = None) -> Action:
        """Press a key (or combination) for the game: the board's window gets the
        keyboard focus first if nothing has it (a dialog that had it just closed,
        with no window manager to give it back); with `at`, the window there
        gets it (a dialog over the board the key is meant for)."""
        g = self.geometry
        if at is not None:
            self.mouse.focus_at(*at, take=True)
        elif g is not None:
            self.mouse.focus_at(*g.middle)
        self.mouse.key(key)
        return self._done(Action("key", key=key, why=why))

    def _done(self, action: Action) -> Action:
        self.history.append(action)
        return action

    def close(self) -> None:
        self.mouse.close()
