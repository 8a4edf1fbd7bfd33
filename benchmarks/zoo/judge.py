"""The judge: msbot's recording of a run set beside the zoo clone's own truth.

    verdict = judge(Truth.load(truth_path), recording_dir, games)

Each reading msbot recorded (`--record`: readings.jsonl, each line with the
time its frame was grabbed) is compared with the states the clone showed
around that moment: from TOO_EARLY seconds before the grab (what was drawn a
moment before may still be on screen) to LATE after it (the clone logs a
state once it is drawn, a few ms after the screen has it). Counted:

- **sure misreads**: a cell read as a definite kind (not unsure) that it did
  not show at any moment of that span (an animation in progress allows the
  state before it too); `-` (open, value unknown) fits any open number;
- **wrong geometry**: a reading whose board is not the clone's: other rows or
  columns, or a cell whose centre lies outside that cell's box, or a board
  read while the clone shows no board (its menu screen);
- **false won / lost**: a reading that says won (lost) when the clone did
  not, and a game msbot reports won (lost) that the clone did not end so;
- **clicks outside**: a click (msbot's actions.jsonl) that landed on no cell
  and on no control of the clone (face, buttons, toolbar, dialog, menu):
  the clone's window elsewhere, a decoy window or the desktop; and, in play
  (not while learning the grid), clicks on a cell other than the one msbot
  meant.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zoo.truth import Span, Truth

#: Seconds before a grab whose states may still be on the screen.
TOO_EARLY = 0.25
#: Seconds after a grab whose states may already be on it.
LATE = 0.06
#: Examples kept per kind of fault.
EXAMPLES = 8


@dataclass
class Verdict:
    frames: int = 0
    judged: int = 0
    untimed: int = 0
    cells_judged: int = 0
    sure_misreads: int = 0
    wrong_geometry: int = 0
    false_won: int = 0
    false_lost: int = 0
    clicks: int = 0
    clicks_on_cells: int = 0
    clicks_on_controls: int = 0
    clicks_outside: int = 0
    clicks_wrong_cell: int = 0
    examples: dict[str, list[Any]] = field(default_factory=dict)

    def note(self, kind: str, example: Any) -> None:
        found = self.examples.setdefault(kind, [])
        if len(found) < EXAMPLES:
            found.append(example)

    @property
    def faults(self) -> int:
        return (
            self.sure_misreads
            + self.wrong_geometry
            + self.false_won
            + self.false_lost
            + self.clicks_outside
            + self.clicks_wrong_cell
        )

    def to_json(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k != "examples"}
        out["examples"] = self.examples
        return out


def _lines(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    out = []
    for text in path.read_text().splitlines():
        try:
            out.append(json.loads(text))
        except json.JSONDecodeError:
            continue
    return out


def _accepted(truth: Truth, t: float) -> list[Span]:
    """Every state that may be on the screen in a frame grabbed at `t`."""
    return truth.shown_between(t - TOO_EARLY, t + LATE)


def _fits(read: str, shown: set[str]) -> bool:
    if read in shown:
        return True
    return read == "-" and any(ch in "012345678" for ch in shown)


def _geometry_fits(geo: dict[str, Any], xs: list[list[int]], ys: list[list[int]]) -> str | None:
    """Why reading geometry `geo` is not the clone's cells (None: it is)."""
    rows, cols = geo["rows"], geo["cols"]
    if (rows, cols) != (len(ys), len(xs)):
        return f"{cols}x{rows} read, the clone shows {len(xs)}x{len(ys)}"
    for c in range(cols):
        x = geo["left"] + (c + 0.5) * geo["cell_w"]
        if not xs[c][0] <= x < xs[c][1]:
            return f"column {c}'s centre x={x:.1f} outside {xs[c]}"
    for r in range(rows):
        y = geo["top"] + (r + 0.5) * geo["cell_h"]
        if not ys[r][0] <= y < ys[r][1]:
            return f"row {r}'s centre y={y:.1f} outside {ys[r]}"
    return None


def _boxes_around(truth: Truth, t: float) -> list[tuple[list[list[int]], list[list[int]]]]:
    """The cell boxes in force at some moment around `t`."""
    out = []
    for when, xs, ys in truth.boxes:
        if when <= t + LATE:
            out.append((when, xs, ys))
    if not out:
        return []
    last_before = [b for b in out if b[0] <= t - TOO_EARLY]
    keep = [b for b in out if b[0] > t - TOO_EARLY]
    if last_before:
        keep.insert(0, last_before[-1])
    return [(xs, ys) for _, xs, ys in keep]


def judge_readings(truth: Truth, readings: list[dict[str, Any]], verdict: Verdict) -> None:
    for line in readings:
        verdict.frames += 1
        if "board" not in line:
            continue
        t = line.get("t")
        if t is None:
            verdict.untimed += 1
            continue
        verdict.judged += 1
        frame = line["frame"]
        geo = line["geometry"]
        if truth.screen_at(t) == "menu" and truth.screen_at(t - TOO_EARLY) == "menu":
            verdict.wrong_geometry += 1
            verdict.note(
                "wrong_geometry", {"frame": frame, "why": "a board read on the menu screen"}
            )
            continue
        boxes = _boxes_around(truth, t)
        why = "no cell boxes logged yet"
        for xs, ys in boxes:
            why = _geometry_fits(geo, xs, ys) or ""
            if not why:
                break
        if why:
            verdict.wrong_geometry += 1
            verdict.note("wrong_geometry", {"frame": frame, "why": why})
            continue
        spans = _accepted(truth, t)
        spans = [s for s in spans if len(s.board) == geo["rows"] and len(s.board[0]) == geo["cols"]]
        if not spans:
            continue
        unsure = {(u["row"], u["col"]) for u in line.get("unknown", [])}
        for r, row in enumerate(line["board"]):
            for c, read in enumerate(row):
                if (r, c) in unsure:
                    continue
                verdict.cells_judged += 1
                shown = {s.board[r][c] for s in spans}
                if not _fits(read, shown):
                    verdict.sure_misreads += 1
                    verdict.note(
                        "sure_misreads",
                        {"frame": frame, "cell": [r, c], "read": read, "shown": sorted(shown)},
                    )
        status = line.get("status")
        if status in ("won", "lost"):
            statuses = {s.status for s in spans}
            if status not in statuses:
                kind = "false_won" if status == "won" else "false_lost"
                setattr(verdict, kind, getattr(verdict, kind) + 1)
                verdict.note(kind, {"frame": frame, "read": status, "shown": sorted(statuses)})


def _complete(span: Span, layout: set[tuple[int, int]]) -> bool:
    """Every safe cell of `span` open."""
    for r, row in enumerate(span.board):
        for c, ch in enumerate(row):
            if ch not in "012345678" and (r, c) not in layout:
                return False
    return True


def judge_outcomes(
    truth: Truth, readings: list[dict[str, Any]], games: list[dict[str, Any]], verdict: Verdict
) -> None:
    """A game msbot reports won or lost must have ended so on the clone."""
    last_t: dict[int, float] = {}
    for line in readings:
        if "t" in line and line.get("game"):
            last_t[line["game"]] = max(last_t.get(line["game"], 0.0), line["t"])
    for game in games:
        outcome, number = game.get("outcome"), game.get("game")
        if outcome not in ("won", "lost") or number not in last_t:
            continue
        t = last_t[number]
        spans = _accepted(truth, t)
        if any(s.status == outcome for s in spans):
            continue
        played = truth.game_at(t)
        layout = set(played.layout) if played is not None else set()
        if outcome == "won" and layout and any(_complete(s, layout) for s in spans):
            continue  # every safe cell open: won by the rules (a clone that wants flags too)
        kind = "false_won" if outcome == "won" else "false_lost"
        setattr(verdict, kind, getattr(verdict, kind) + 1)
        verdict.note(
            kind, {"game": number, "reported": outcome, "shown": sorted({s.status for s in spans})}
        )


def _in_force(items: list[tuple[float, Any]], t0: float, t1: float) -> list[Any]:
    """The values of time-stamped `items` in force at some moment of [t0, t1]."""
    out = []
    for i, (when, value) in enumerate(items):
        until = items[i + 1][0] if i + 1 < len(items) else float("inf")
        if when <= t1 and until >= t0:
            out.append(value)
    return out


#: The reason msbot gives its opens on a game of another size it ends.
OTHER_GAME = "learn: end the game of another size"


def _inside(box: list[int], x: float, y: float) -> bool:
    return box[0] <= x < box[2] and box[1] <= y < box[3]


def judge_clicks(truth: Truth, actions: list[dict[str, Any]], verdict: Verdict) -> None:
    for action in actions:
        if action.get("kind") == "hover" or action.get("x") is None:
            continue
        x, y, t = action["x"], action["y"], action["time"]
        verdict.clicks += 1
        # The cell under the click by each layout in force around it: a board
        # that moved a moment before (a label beside it grew) has two (zoo seed
        # 1627108470's clicks on the new layout were counted on the old one).
        cells = []
        for xs, ys in _boxes_around(truth, t):
            col = next((c for c, (a, b) in enumerate(xs) if a <= x < b), None)
            row = next((r for r, (a, b) in enumerate(ys) if a <= y < b), None)
            if col is not None and row is not None:
                cells.append((row, col))
        if cells:
            cell = cells[0]
            verdict.clicks_on_cells += 1
            meant = (action.get("row"), action.get("col"))
            # While learning (game 0) msbot's rows may be a grid's not proven yet
            # (a toolbar above the board is row 0 until it is left out); so are
            # those of a game of another size a level menu started, opened to
            # end it (`bot.learning.other_game`): any of its cells will do.
            other = str(action.get("why", "")).startswith(OTHER_GAME)
            playing = action.get("game", 1) != 0 and not other
            if playing and meant != (None, None) and tuple(meant) not in cells:
                verdict.clicks_wrong_cell += 1
                verdict.note("clicks_wrong_cell", {"action": action, "landed": list(cell)})
            continue
        # The controls in force around the click: a click may change them at once
        # (the window shrinks around a menu), and msbot stamps its action a few
        # ms after the click itself.
        sets = _in_force(truth.controls, t - TOO_EARLY, t + LATE)
        if any(_inside(box, x, y) for boxes in sets for box in boxes.values()):
            verdict.clicks_on_controls += 1
            continue
        verdict.clicks_outside += 1
        where = "desktop"
        for when, name, rect in truth.windows:
            inside = rect is not None and _inside(
                [*rect[:2], rect[0] + rect[2], rect[1] + rect[3]], x, y
            )
            if when <= t + LATE and inside:
                where = name
        verdict.note("clicks_outside", {"action": action, "on": where})


def judge(truth: Truth, recording: Path, games: list[dict[str, Any]] | None = None) -> Verdict:
    """Everything msbot recorded in `recording` against the clone's `truth`."""
    verdict = Verdict()
    readings = _lines(recording / "readings.jsonl")
    judge_readings(truth, readings, verdict)
    judge_outcomes(truth, readings, games or [], verdict)
    judge_clicks(truth, _lines(recording / "actions.jsonl"), verdict)
    return verdict
