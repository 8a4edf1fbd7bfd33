"""How a clone starts a new game, found by trying what clones use, once a game has ended.

Tried in order, each followed by a look for a fresh board (most cells
covered, and not the finished board):

1. Escape, when a window covers the finished board (open cells no longer
   show): it closes a clone's "you lost" dialog in every toolkit here, and
   then the board it hid is the finished board;
2. each part of the window that changed when the game ended and is not the
   clock or the counter: a face (the classic smiley, ace's penguin) or a
   button, clicked at its middle, squarest first;
3. the keys clones bind: F2, N, S, Ctrl+N (last: in a web browser it opens
   another window).

What worked is written into the skin with its evidence: a clicked part as
the skin's face (its picture now and at the game's end, found whatever it
shows: `vision.face_rim`), a key as the restart key. Every click goes through
the `Actuator`, which only accepts the one control being tried.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import cv2
import numpy as np

from bot.errors import MsbotError, PlayError
from bot.learning.first_look import ENTER
from bot.learning.settle import settled
from bot.skinplay import play_rules
from vision.capture import Image
from vision.geometry import Geometry
from vision.learn.draft import Control
from vision.reading import Reading

if TYPE_CHECKING:
    from bot.play import Player

#: Keys tried, in order.
KEYS = ("F2", "n", "s", "ctrl+n")
#: Seconds a try gets to show a fresh board.
FRESH_TIMEOUT = 2.0
#: Share of the cells a fresh board shows covered, at least (and half of it drawn
#: otherwise than the finished board).
FRESH_SHARE = 0.3
#: A changed part larger than this many cells on a side is no button.
LARGEST_CELLS = 5


def _fresh(reading: Reading, final: Reading, moved: float) -> bool:
    """A new game: no mine, flag or mark shown, a good part of the cells covered,
    and a good part of the board drawn otherwise than the finished one (`moved`:
    the share of cells whose picture changed; a clone that opens an area of its
    new game by itself shows pictures the skin may not know yet)."""
    board = reading.board
    if board.count("*!XF?"):
        return False
    covered = board.count(".") - len(reading.unknown)
    cells = board.height * board.width
    return covered >= FRESH_SHARE * cells and moved >= FRESH_SHARE / 2


def _wait_fresh(player: Player, end: Image, final: Reading) -> tuple[Image, Reading] | None:
    apprentice = player.apprentice
    assert apprentice is not None
    before = apprentice.looks(end)
    deadline = time.monotonic() + FRESH_TIMEOUT
    while time.monotonic() < deadline:
        try:
            image, reading = player.window.grab_reading()
        except MsbotError as exc:
            raise PlayError(f"the board went away while msbot tried to restart: {exc}") from None
        moved = float((apprentice.looks(image) != before).mean())
        if _fresh(reading, final, moved):
            return image, reading
        time.sleep(0.05)
    return None


def changed_parts(
    before: Image, after: Image, busy: np.ndarray, geo: Geometry
) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1, region coordinates) of what changed between `before`
    and `after` outside the board, leaving out `busy` pixels (a clock, the
    counter), squarest and nearest the board's top middle first."""
    diff = np.abs(np.asarray(before, np.int16) - np.asarray(after, np.int16)).max(axis=2) > 40
    diff &= ~busy
    x0, y0 = round(geo.left) - 2, round(geo.top) - 2
    x1, y1 = round(geo.left + geo.width) + 2, round(geo.top + geo.height) + 2
    diff[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)] = False
    mask = cv2.dilate(diff.astype(np.uint8), np.ones((5, 5), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    largest = LARGEST_CELLS * max(geo.cell_w, geo.cell_h, 20)
    boxes = []
    for x, y, w, h, _area in stats[1:n].tolist():
        if 6 <= w <= largest and 6 <= h <= largest:
            boxes.append((x, y, x + w, y + h))
    mid = geo.left + geo.width / 2

    def order(box: tuple[int, int, int, int]) -> tuple[float, float]:
        w, h = box[2] - box[0], box[3] - box[1]
        squareness = max(w, h) / max(1, min(w, h))
        return (round(squareness, 1), abs((box[0] + box[2]) / 2 - mid) + abs(box[1] - geo.top))

    return sorted(boxes, key=order)


def find_restart(player: Player, final: Reading) -> Reading:
    """Start a new game by the first way that works, learn it, and return the
    new game's first reading (see the module docstring)."""
    apprentice = player.apprentice
    assert apprentice is not None
    window, actuator = player.window, player.actuator
    assert window.region is not None
    origin = window.region
    record = apprentice.current()
    draft = apprentice.draft
    geo_region = window.located.geometry
    end = window.screen.grab(window.region)
    tried: list[str] = []

    def learned(how: str, reading: Reading) -> Reading:
        draft.restart_said = how
        apprentice.save()
        window.rules = play_rules(window.located)
        player.say(f"restart: {how}")
        return reading

    # 1. A window over the finished board (the apprentice may have closed it already).
    covered_over = record.overlay or (
        record.last_image is not None and _hides_open(apprentice, record, end)
    )
    if covered_over and not record.overlay:
        player.actions += 1
        player.recorder.action(
            actuator.press_key("Escape", "close the window over the board").to_json(),
            game=player.game,
            frame=player.frame_name,
        )
        end = settled(window.screen, window.region)
        tried.append("Escape")
        got = _wait_fresh(player, end, final)
        if got is not None:
            draft.restart = {"key": "Escape"}
            return learned("press Escape (a fresh board appeared)", got[1])
    # 2. Parts of the window that changed when the game ended.
    if record.first_image is not None and record.last_image is not None:
        busy = _busy(record.first_image, record.last_image)
        for box in changed_parts(record.last_image, end, busy, geo_region)[:4]:
            x = origin.left + (box[0] + box[2]) // 2
            y = origin.top + (box[1] + box[3]) // 2
            actuator.bind(final.geometry, {"restart": (x, y)})
            # Some clones ignore a click that comes with the pointer (xdemineur).
            actuator.mouse.move(x, y)
            time.sleep(ENTER)
            done = actuator.click_control("restart", "learn: does this restart the game?")
            player.actions += 1
            player.recorder.action(done.to_json(), game=player.game, frame=player.frame_name)
            tried.append(f"a click at ({x}, {y})")
            got = _wait_fresh(player, end, final)
            if got is None:
                continue
            reading = got[1]
            settled_now = settled(window.screen, window.region)
            draft.control = _control(box, geo_region, settled_now, end, x, y, record.outcome)
            draft.restart = (
                [{"key": "Escape"}, {"click": "restart"}] if covered_over else {"click": "restart"}
            )
            return learned(
                f"click the part of the window at ({x}, {y}) that changed when "
                "the game ended (a fresh board appeared)",
                reading,
            )
    # 3. Keys.
    for key in KEYS:
        done = actuator.press_key(key, "learn: does this key restart the game?")
        player.actions += 1
        player.recorder.action(done.to_json(), game=player.game, frame=player.frame_name)
        tried.append(key)
        got = _wait_fresh(player, end, final)
        if got is not None:
            prefix = [{"key": "Escape"}] if covered_over else []
            draft.restart = {"key": key} if not prefix else [*prefix, {"key": key}]
            return learned(f"press {key} (a fresh board appeared)", got[1])
    draft.restart_said = f"none found (tried {', '.join(tried)})"
    apprentice.save()
    raise window.stop(
        f"msbot could not find how this clone starts a new game (tried {', '.join(tried)}): "
        "start one by hand and run again, or give --restart-key KEY"
    )


def _hides_open(apprentice: object, record: object, end: Image) -> bool:
    """Whether cells open in the last board in play show otherwise now, on part of
    the board only (a window over it) rather than on all of it (a redrawn board)."""
    from bot.learning.apprentice import REDRAWN, Apprentice, GameRecord

    assert isinstance(apprentice, Apprentice) and isinstance(record, GameRecord)
    assert record.last_image is not None
    before = apprentice.looks(record.last_image)
    now = apprentice.looks(end)
    was_open = ~np.isin(before, apprentice.closed_looks())
    changed = (before != now) & was_open
    return bool(changed.any()) and changed.sum() < REDRAWN * was_open.sum()


def _busy(first: Image, last: Image) -> np.ndarray:
    """Pixels that changed during the game in play: a clock, the counter."""
    diff = np.abs(np.asarray(first, np.int16) - np.asarray(last, np.int16)).max(axis=2) > 40
    return np.asarray(cv2.dilate(diff.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0)


def _control(
    box: tuple[int, int, int, int],
    geo: Geometry,
    now: Image,
    end: Image,
    x: int,
    y: int,
    outcome: str,
) -> Control:
    """The clicked part as a face: a region around it relative to the board, and its
    picture on the fresh board and at the end of the game."""
    x0, y0, x1, y1 = box
    pad = 4
    region = (
        (0.0, float(x0 - pad - geo.left)),
        (0.0, float(y0 - pad - geo.top)),
        (0.0, float(x1 + pad - geo.left)),
        (0.0, float(y1 + pad - geo.top)),
    )
    images = {
        "playing": np.asarray(now)[y0:y1, x0:x1].copy(),
        outcome if outcome in ("won", "lost") else "lost": np.asarray(end)[y0:y1, x0:x1].copy(),
    }
    evidence = f"a click at ({x}, {y}) on what changed when the game ended started a new game"
    return Control(region, images, evidence)
