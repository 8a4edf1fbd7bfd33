"""The truth a zoo clone logs about itself, and the timelines the judge reads from it.

A zoo clone appends one JSON line per event to its truth file, stamped with
`time.monotonic()` (CLOCK_MONOTONIC: the same clock in every process of the
machine, so msbot's own action times compare directly). Lines:

    {"t", "event": "spec", "spec": {...}}              the clone drawn (`ZooSpec`)
    {"t", "event": "window", "name", "rect": [x, y, w, h]}   a window's place (name
                                                     "main", "dialog", "decoy"; rect null: gone)
    {"t", "event": "screen", "name": "board"|"menu"}  what the main window shows
    {"t", "event": "game", "game": n, "rows", "cols", "mines"}    a fresh board
    {"t", "event": "layout", "game": n, "mines": [[r, c], ...]}   mines placed
    {"t", "event": "state", "game": n, "board": [...], "status", "counter", "anim": id|null}
                                                     every cell's visible state (board
                                                     text format), once drawn; "anim":
                                                     cells are still changing on screen
                                                     (an animation, ended by "settled")
    {"t", "event": "settled", "game": n, "anim": id} that animation is over: until then
                                                     the state before it may still show
    {"t", "event": "boxes", "xs": [[x0, x1], ...], "ys": [[y0, y1], ...]}
                                                     screen pixels of each column and row
                                                     of cells (end exclusive)
    {"t", "event": "controls", "boxes": {name: [x0, y0, x1, y1]}}   clickable parts
                                                     that are not cells (face, buttons,
                                                     toolbar, dialog and menu buttons)
    {"t", "event": "click", "x", "y", "button", "target"}   a press the clone received
    {"t", "event": "key", "key"}                     a key the clone received
"""

from __future__ import annotations

import bisect
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO


class TruthLog:
    """Appends truth lines, each flushed at once (a killed clone keeps its log)."""

    def __init__(self, path: str | Path | None) -> None:
        self._out: TextIO | None = open(path, "a") if path else None  # noqa: SIM115

    def write(self, event: str, **data: Any) -> float:
        now = time.monotonic()
        if self._out is not None:
            line = {"t": now, "event": event, **data}
            self._out.write(json.dumps(line, separators=(",", ":")) + "\n")
            self._out.flush()
        return now

    def close(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None


@dataclass
class Span:
    """One visible state of the board from `start` to `end` (None: still shown);
    `anim_until`: before this time the previous state may still show too."""

    start: float
    end: float | None
    game: int
    board: list[str]
    status: str
    counter: str | None
    anim_until: float | None = None


@dataclass
class Game:
    number: int
    rows: int
    cols: int
    mines: int
    start: float
    layout: list[tuple[int, int]] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)

    @property
    def outcome(self) -> str:
        return self.spans[-1].status if self.spans else "playing"


@dataclass
class Truth:
    """Everything a clone logged, indexed by time."""

    spec: dict[str, Any]
    games: list[Game]
    spans: list[Span]
    boxes: list[tuple[float, list[list[int]], list[list[int]]]]
    controls: list[tuple[float, dict[str, list[int]]]]
    windows: list[tuple[float, str, list[int] | None]]
    screens: list[tuple[float, str]]
    clicks: list[dict[str, Any]]
    keys: list[dict[str, Any]]

    @staticmethod
    def load(path: str | Path) -> Truth:
        lines = []
        for text in Path(path).read_text().splitlines():
            try:
                lines.append(json.loads(text))
            except json.JSONDecodeError:
                continue  # a last line cut short by a kill
        truth = Truth({}, [], [], [], [], [], [], [], [])
        current: Game | None = None
        animating: dict[Any, Span] = {}
        for line in lines:
            kind, t = line["event"], line["t"]
            if kind == "spec":
                truth.spec = line["spec"]
            elif kind == "game":
                current = Game(line["game"], line["rows"], line["cols"], line["mines"], t)
                truth.games.append(current)
            elif kind == "layout" and current is not None:
                current.layout = [tuple(m) for m in line["mines"]]  # type: ignore[misc]
            elif kind == "state" and current is not None:
                if truth.spans and truth.spans[-1].end is None:
                    truth.spans[-1].end = t
                span = Span(t, None, line["game"], line["board"], line["status"], line["counter"])
                if line.get("anim") is not None and line.get("anim") is not False:
                    span.anim_until = float("inf")
                    animating[line["anim"]] = span
                truth.spans.append(span)
                current.spans.append(span)
            elif kind == "settled" and line.get("anim") in animating:
                animating.pop(line["anim"]).anim_until = t
            elif kind == "boxes":
                truth.boxes.append((t, line["xs"], line["ys"]))
            elif kind == "controls":
                truth.controls.append((t, line["boxes"]))
            elif kind == "window":
                truth.windows.append((t, line["name"], line["rect"]))
            elif kind == "screen":
                truth.screens.append((t, line["name"]))
            elif kind == "click":
                truth.clicks.append(line)
            elif kind == "key":
                truth.keys.append(line)
        return truth

    def shown_between(self, t0: float, t1: float) -> list[Span]:
        """Every state whose picture may be on the screen at some moment of
        [t0, t1]: those logged as shown then, and, while an animation that began
        with a state is not over, the state before it (animations overlap: a
        cascade may still run when the next click's state is logged)."""
        out: list[Span] = []
        for i, span in enumerate(self.spans):
            if span.start > t1:
                break
            if span.end is None or span.end >= t0:
                out.append(span)
            if span.anim_until is not None and span.anim_until >= t0 and i > 0:
                out.append(self.spans[i - 1])
        return out

    def at(self, items: list[Any], t: float) -> Any:
        """The last of time-stamped `items` (tuples starting with t) at time `t`."""
        starts = [item[0] for item in items]
        i = bisect.bisect_right(starts, t) - 1
        return items[i] if i >= 0 else None

    def game_at(self, t: float) -> Game | None:
        starts = [g.start for g in self.games]
        i = bisect.bisect_right(starts, t) - 1
        return self.games[i] if i >= 0 else None

    def screen_at(self, t: float) -> str:
        found = self.at(self.screens, t)
        return "board" if found is None else str(found[1])
