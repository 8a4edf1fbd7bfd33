"""How a clone starts a new game, found by trying what clones use, once a game has ended.

Tried in order, each followed by a look for a fresh board (most cells
covered, and not the finished board):

1. Escape, when a window covers the finished board (open cells no longer
   show, and the desktop does not say the board's own window is the one
   there): it closes a clone's "you lost" dialog in every toolkit here, and
   then the board it hid is the finished board (ace-minesweeper quits on it);
2. the keys clones bind: F2, N, S, R, Space, Return (they click nothing
   msbot cannot read);
3. a part of the window that changed when the game ended, is not the clock
   or the counter, and sits where clones put their face (square, above the
   board's middle: the classic smiley, ace's penguin), clicked at its middle;
   then the other parts that changed (a button whose label changed, "Play
   Again"), top to bottom;
4. Ctrl+N, last: in a web browser it opens another window, and GNOME Mines
   shows its size chooser.

A try after which the board no longer shows is undone with Escape, or the
search stops (nothing is clicked on a screen msbot cannot read).

What worked is written into the skin with its evidence: a clicked part as
the skin's face (its picture now and at the game's end, found whatever it
shows: `vision.face_rim`), a key as the restart key. Every click goes through
the `Actuator`, which only accepts the one control being tried.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace

import cv2
import numpy as np

from bot.board import COVERED
from bot.errors import MsbotError, PlayError, VisionError
from bot.learning.apprentice import Apprentice, GameRecord, no_board_shown
from bot.learning.first_look import ENTER
from bot.learning.other_game import end_other_game, toolbar_sides
from bot.learning.settle import settled
from bot.learning.windows import beside_the_clone, board_points, is_browser
from bot.play.learner import RestartHost
from bot.play.skinplay import play_rules
from vision.capture import Image
from vision.classify import OPEN_KINDS
from vision.geometry import Geometry
from vision.glyphs import box_region, read_text, region_box
from vision.learn.draft import Control
from vision.reading import ENDED, Reading
from vision.skin import FaceRim, Glyphs
from vision.status import OVER

#: Two pictures of a control this close (mean squared difference) are the same.
FACE_SAME = 25.0
#: Keys tried, in order (the last one only outside a web browser).
KEYS = ("F2", "n", "s", "r", "space", "Return", "ctrl+n")
#: Seconds a try gets to show a fresh board, and to change anything at all.
FRESH_TIMEOUT = 2.0
NOTHING_AFTER = 0.8
#: Share of the cells a fresh board shows covered, at least (and half of it drawn
#: otherwise than the finished board).
FRESH_SHARE = 0.3
#: A changed part larger than this many cells on a side is no button.
LARGEST_CELLS = 5


def _fresh(
    reading: Reading,
    final: Reading,
    moved: float,
    shown: float = 1.0,
    anew: bool = False,
    framed: bool = False,
) -> bool:
    """A new game: no mine, flag or mark shown, a good part of the board drawn
    otherwise than the finished one (`moved`: the share of cells whose picture
    changed; a clone that opens an area of its new game by itself shows
    pictures the skin may not know yet), and either a good part of the cells
    covered, or cells covered again that the finished board showed open (no
    game closes a cell: xdemineur's new game can open three quarters of a
    beginner board by itself), or open cells showing other values (`anew`,
    see `_laid_anew`: that new game's open area can also hold every cell the
    finished board showed open).

    `shown`: the share of cells the finished board showed otherwise than
    covered. A game lost on its first click shows only its mines (12 % of a
    beginner board): a new game can move no more than those, so half of them
    is enough there.

    `framed`: the skin's border closes the board where it was, so a line of
    it all unread is no smaller board's background but pictures not learned
    yet (zoo seed 560595241's new games open their left columns by
    themselves, and the game before ended at the learner's first open)."""
    board = reading.board
    if board.count("*!XF?"):
        return False
    if moved <= 0 or moved < min(FRESH_SHARE, shown) / 2:
        return False
    if no_board_shown(reading):
        return False
    if not reading.edges_read() and not framed:
        return False  # a line of the board all unread: perhaps a smaller board there
    covered = board.count(".") - len(reading.unknown) - len(reading.held)
    if anew and covered >= CLOSED_AGAIN:
        # Laid anew, with the skin's covered tile shown: a new game has covered
        # cells. A menu's level of cells twice as large in the same frame shows
        # quarters of them in every cell, all other pictures and none covered
        # (zoo seed 2001782685's 8x8 read as its 16x16: 23 frames at a wrong
        # geometry, 50 clicks on other cells).
        return True
    before = final.board
    if (before.height, before.width) != (board.height, board.width):
        return False
    unsure = reading.unread
    was_open = [cell for cell in before.cells() if before[cell] in OPEN_KINDS]
    closed = [cell for cell in was_open if board[cell] == COVERED and cell not in unsure]
    if was_open and len(closed) < min(CLOSED_AGAIN, len(was_open)):
        # The finished board's open cells still open: the same game (a notice
        # over it closed, a button that did something else), not a new one.
        return False
    cells = board.height * board.width
    if covered >= FRESH_SHARE * cells:
        return True
    return len(closed) >= CLOSED_AGAIN


#: Open cells of the finished board shown covered again, or open with another
#: value, that prove a new game.
CLOSED_AGAIN = 3


def _laid_anew(before: np.ndarray, now: np.ndarray, closed: list[int]) -> bool:
    """Whether cells open on the finished board (`before`, looks) show other open
    pictures now in a way only another layout gives: at least `CLOSED_AGAIN` of
    them changed, and cells that showed one picture show two or more now.

    Within a game an open cell never changes; a board drawn anew (a theme, a
    focus change) turns each picture into one picture. (xdemineur at (40, 30)
    opened a new game's area over every cell its lost game had opened: none
    was covered again, so the face click that had worked was taken for no new
    game, and the Escape that followed closed xdemineur.)"""
    both = ~np.isin(before, closed) & ~np.isin(now, closed)
    if int((both & (before != now)).sum()) < CLOSED_AGAIN:
        return False
    pairs = set(zip(before[both].tolist(), now[both].tolist(), strict=True))
    olds = [old for old, _ in pairs]
    return len(set(olds)) < len(olds)


def _wait_fresh(
    player: RestartHost, apprentice: Apprentice, end: Image, final: Reading
) -> tuple[tuple[Image, Reading] | None, bool]:
    """The fresh board a try showed (None: none within FRESH_TIMEOUT), and
    whether the try left the screen untouched (nothing drawn otherwise for
    NOTHING_AFTER s: the board is where it was, so nothing is to be checked
    or undone before the next try)."""
    before = apprentice.looks(end)
    shown = float((~np.isin(before, apprentice.covered_looks())).mean())
    started = time.monotonic()
    deadline = started + FRESH_TIMEOUT
    untouched = True
    while time.monotonic() < deadline:
        try:
            image, reading = player.window.grab_reading()
        except MsbotError as exc:
            raise PlayError(f"the board went away while msbot tried to restart: {exc}") from None
        untouched = untouched and np.array_equal(np.asarray(image), np.asarray(end))
        if untouched and time.monotonic() - started > NOTHING_AFTER:
            return None, True  # nothing on the screen changed: this try did nothing
        now = apprentice.looks(image)
        moved = float((now != before).mean())
        anew = now.shape == before.shape and _laid_anew(before, now, apprentice.closed_looks())
        closed = _closed(player, image)
        framed = (
            closed
            and player.window.located.skin.border is not None
            and not _surroundings_line(image, reading, player.window.located.geometry)
        )
        if closed and _fresh(reading, final, moved, shown, anew, framed):
            return (image, reading), False
        g = reading.geometry
        unread = len(reading.unknown) + len(reading.held)
        if 2 * unread > g.rows * g.cols or (unread and not closed):
            # Mostly unread, or unread and not closed by its border where it
            # was: perhaps the new game's board a little to the side (a label
            # beside it changed its width; zoo seed 44065001's board, 10 px
            # aside after its menu's level, read 59 of 140 cells unread, and
            # the level was left for no new game).
            follow = player.window.follow()
            if follow is not None:
                player.actuator.bind(follow, player.actuator.controls)
                continue
        time.sleep(0.05)
    return None, False


def new_board(
    player: RestartHost, final: Reading, end: Image, apprentice: Apprentice
) -> Reading | None:
    """The new game the skin's own restart showed, taken as the search takes
    one (`_wait_fresh`: pictures not learned yet, an area the clone opened by
    itself, cells still fading in), from `end`, the screen before it; None if
    none shows. The play loop reads a new game only with most of its cells
    read: zoo seed 1984962019's dialog restart, learned on game 2, started
    game 3, whose board the clone opens in part and fades in, and the search
    began again over it, clicking its cells."""
    got, _ = _wait_fresh(player, apprentice, end, final)
    return None if got is None else apprentice.still_board()


#: A line of cells is one flat colour when no channel spreads more than this
#: over it, and the surroundings' colour when its mean is this near theirs.
SURROUNDINGS_STEP = 8.0


def _surroundings_line(image: Image, reading: Reading, geo: Geometry) -> bool:
    """Whether an outer line of the board (`geo`, in `image`'s pixels) whose
    cells all read unread is one flat colour, that of the band just past it:
    the surroundings going on where a smaller board of the clone ends (zoo
    seed 761932194's menu level of 8x8 at the place of its 11x8 board, the
    three last rows the dark page, taken for pictures not learned yet because
    the learned border, that page too, closed the larger board)."""
    picture = np.asarray(image)[:, :, :3].astype(np.float32)
    height, width = picture.shape[:2]
    rows, cols = geo.rows, geo.cols
    x0, y0 = round(geo.left), round(geo.top)
    x1, y1 = round(geo.left + geo.width), round(geo.top + geo.height)
    cw, ch = round(geo.cell_w), round(geo.cell_h)
    unread = reading.unread
    lines = {
        "top": ([(0, c) for c in range(cols)], (x0, y0, x1, y0 + ch), (x0, y0 - 3, x1, y0)),
        "bottom": (
            [(rows - 1, c) for c in range(cols)],
            (x0, y1 - ch, x1, y1),
            (x0, y1, x1, y1 + 3),
        ),
        "left": ([(r, 0) for r in range(rows)], (x0, y0, x0 + cw, y1), (x0 - 3, y0, x0, y1)),
        "right": (
            [(r, cols - 1) for r in range(rows)],
            (x1 - cw, y0, x1, y1),
            (x1, y0, x1 + 3, y1),
        ),
    }
    for cells, line, past in lines.values():
        if not all(cell in unread for cell in cells):
            continue
        if min(line[0], past[0], line[1], past[1]) < 0 or max(line[2], past[2]) > width:
            continue
        if max(line[3], past[3]) > height:
            continue
        inside = picture[line[1] : line[3], line[0] : line[2]].reshape(-1, 3)
        beyond = picture[past[1] : past[3], past[0] : past[2]].reshape(-1, 3)
        flat = float((inside.max(axis=0) - inside.min(axis=0)).max()) <= SURROUNDINGS_STEP
        alike = float(np.abs(inside.mean(axis=0) - beyond.mean(axis=0)).max()) <= SURROUNDINGS_STEP
        if flat and alike:
            return True
    return False


def _closed(player: RestartHost, image: Image) -> bool:
    """Whether the board's border closes the board where it was, on every side:
    a board of another size at the same place (a menu's other level) is not
    the new game of this one."""
    return player.window.closed(image)


#: A pixel changed between two pictures of the window when one of its colour
#: values moved by more than this (`changed_parts`, `_changed_across`).
CHANGED_STEP = 40


def changed_parts(
    before: Image, after: Image, busy: np.ndarray, geo: Geometry
) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1, region coordinates) of what changed between `before`
    and `after` outside the board, leaving out `busy` pixels (a clock, the
    counter): each changed piece with its neighbours a third of a cell around
    (the words of one button), face-like ones first, then top to bottom."""
    diff = np.abs(np.asarray(before, np.int16) - np.asarray(after, np.int16)).max(axis=2)
    diff = (diff > CHANGED_STEP) & ~busy
    x0, y0 = round(geo.left) - 2, round(geo.top) - 2
    x1, y1 = round(geo.left + geo.width) + 2, round(geo.top + geo.height) + 2
    diff[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)] = False
    side = max(5, round(min(geo.cell_w, geo.cell_h) / 3))
    mask = cv2.dilate(diff.astype(np.uint8), np.ones((side, side), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    largest = LARGEST_CELLS * max(geo.cell_w, geo.cell_h, 20)
    boxes = []
    for x, y, w, h, _area in stats[1:n].tolist():
        if 6 <= w <= largest and 6 <= h <= largest:
            boxes.append((x, y, x + w, y + h))
    return sorted(boxes, key=lambda b: (not _face_like(b, geo), b[1], b[0]))


Box = tuple[int, int, int, int]


def face_tries(
    last: Image, end: Image, changes: np.ndarray | None, geo: Geometry
) -> tuple[list[Box], list[Box], list[Box]]:
    """What changed outside the board between the last picture in play and the
    end (`changed_parts`, region coordinates), the faces among it tried right
    after the keys, and the faces tried after them (`changes`: per pixel, how
    many times it changed between the game's readings)."""
    parts = changed_parts(last, end, _busy(changes, end), geo)[:4]
    # A face never changed while the game was in play (the frames are grabbed
    # once the clone is still): a part that did is a text or a counter ("Flags: 8").
    # Nor is a face a few pixels that moved (the corner of a button shifted by
    # a label beside it that grew): what changed spans a third of a cell.
    least = min(geo.cell_w, geo.cell_h) / 3
    faces = [
        box
        for box in parts
        if _face_like(box, geo)
        and not _changed_in_play(changes, box)
        and _changed_across(last, end, box, least)
    ]
    around = [
        box
        for box in _faces_around(end, geo, [p for p in parts if p not in faces])
        if not any(_overlap(box, face) for face in faces)
    ]
    faces += [box for box in around if not _changed_in_play(changes, box)]
    # A face a label beside it pushed aside in play (Tk packs "Mines: 10" and
    # the face in one row: at "Mines: 9" the face moved 4 px, and a zoo clone's
    # face was never tried): after the keys, as a face all the same. So is a
    # face-like part anywhere over the board that changed across at the end
    # (zoo seed 552157882's face over the right quarter of its board, moved in
    # play, never tried); after the keys, as a click on a label beside the
    # board is a click beside the game (the suite's seed 4001, its restart
    # Ctrl+N).
    moved = [box for box in around if box not in faces]
    moved += [
        box
        for box in parts
        if box not in faces
        and box not in moved
        and _face_like(box, geo, anywhere=True)
        and _changed_across(last, end, box, least)
    ]
    # The largest first: a face is a button, a counter's digits beside it are
    # smaller (552157882's "10", clicked before its face, was a click beside
    # the game).
    moved.sort(key=lambda b: -(b[2] - b[0]) * (b[3] - b[1]))
    return parts, faces, moved


def find_restart(player: RestartHost, final: Reading, apprentice: Apprentice) -> Reading:
    """Start a new game by the first way that works, learn it, and return the
    new game's first reading (see the module docstring)."""
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
        return apprentice.still_board()

    # 1. A window over the finished board (the apprentice may have closed it already).
    covered_over = record.overlay or (
        record.last_image is not None
        and _hides_open(apprentice, record, end)
        and apprentice.another_window_over_board() is not False
    )
    if covered_over and not record.overlay:
        player.actions += 1
        player.recorder.action(
            apprentice.escape("close the window over the board").to_json(),
            game=player.game,
            frame=player.frame_name,
        )
        end = settled(window.screen, window.region)
        tried.append("Escape")
        got, _ = _wait_fresh(player, apprentice, end, final)
        if got is not None:
            draft.restart = {"key": "Escape"}
            return learned("press Escape (a fresh board appeared)", got[1])
    # 2-3. Keys first (they click nothing on a window msbot cannot read), with a
    # face-like part (square, above the board) before the key that opens
    # windows in a browser, and the other changed parts last.
    parts: list[tuple[int, int, int, int]] = []
    faces: list[tuple[int, int, int, int]] = []
    moved_faces: list[tuple[int, int, int, int]] = []
    if record.last_image is not None:
        parts, faces, moved_faces = face_tries(record.last_image, end, record.changes, geo_region)
    # The skin's counter is no control, though it changed only at the end (zoo
    # seed 1750693854's "000", once the won board flagged every mine itself,
    # was the one part that changed at the end: clicked, a click beside the game).
    counter = window.located.skin.counter
    counter_box = None if counter is None else region_box(counter.region, geo_region)
    parts, faces, moved_faces = (_off(counter_box, b) for b in (parts, faces, moved_faces))
    # Other parts that changed are clicked only when they answer the pointer
    # (a button whose label changed, "Play Again"): a clock, a status text or a
    # counter is no control, and a click there is a click beside the game.
    others = list(
        dict.fromkeys(
            lit
            for box in parts
            if box not in faces and (lit := _hover_box(player, end, box)) is not None
        )
    )
    board_at = apprentice.looks(end)
    framed = window.framed(end)
    board = window.geometry  # on the screen
    assert board is not None
    middle = (origin.left + round(geo_region.left), origin.top + round(geo_region.top))
    browser = is_browser(actuator.mouse.window_class_at(*middle))
    late: list[str | tuple[int, int, int, int]] = [] if browser else [KEYS[-1]]
    tries: list[str | tuple[int, int, int, int] | None] = [
        *KEYS[:-1],
        *faces,
        *others,
        *late,
        *moved_faces,
        None,  # then the buttons that answer the pointer
    ]
    what = "that changed when the game ended"
    # The boxes clicked so far: the buttons looked for later leave them out. A
    # part that changed but was not clicked (not square, no hover: the eyes of
    # a face whose mouth and eyes changed at a win) leaves its button in.
    clicked: list[tuple[int, int, int, int]] = []
    found_on = end  # the picture the tries' parts were found on
    while tries:
        step = tries.pop(0)
        if step is None:
            over = _over_board(covered_over, apprentice.another_window_over_board())
            # The screen as it is now: a notice may have come after the end's grab.
            now = settled(window.screen, window.region)
            notices = _notices(record.last_image, now, geo_region)
            notices += _dialogs(player, apprentice.board_window)
            # A window the desktop names first, then blocks that changed; each
            # alone (two overlapping would join its buttons to the cells' edges).
            # In a notice, a framed part is a button too, though drawn alike
            # under the pointer (a zoo page's "Play again" in its "BOOM!"):
            # nothing in it changed in play, it came at the end.
            still = np.zeros(np.asarray(now).shape[:2], bool)
            inside = [
                b
                for n in reversed(notices)
                for b in _buttons(
                    player, now, geo_region, clicked, over, within=[n], outlined=still
                )
            ]
            busy = _busy(record.changes, end)
            if counter_box is not None:
                # The counter's digits are no button, even when they rarely changed.
                cx0, cy0, cx1, cy1 = counter_box
                busy[max(0, cy0) : max(0, cy1), max(0, cx0) : max(0, cx1)] = True
            bare: list[tuple[int, int, int, int]] = []
            framed_only: list[tuple[int, int, int, int]] = []
            around = _buttons(
                player,
                now,
                geo_region,
                clicked,
                over,
                outlined=busy,
                own=apprentice.board_window,
                bare=bare,
                framed=framed_only,
            )
            alikes = _covered_alikes(now, geo_region, window.located.skin.tiles.get(".", ()))
            around = _off_cells(around, geo_region, notices)
            unjoined = _edges(now)
            _off_board(unjoined, geo_region)
            pieces = _parts(unjoined, geo_region, 1)
            joined = list(dict.fromkeys([*inside, *around]))
            tries[:] = _split_joined(joined, alikes, pieces, lit=True)
            found_on = now
            # Then the parts beside the board drawn like its covered cells that
            # took no flag (a toolbar's buttons, which may not answer the pointer).
            tries += [
                (
                    round(geo_region.left + x0),
                    round(geo_region.top + y0),
                    round(geo_region.left + x1),
                    round(geo_region.top + y1),
                )
                for x0, y0, x1, y1 in draft.toolbar
            ]
            # Then the outlined parts that never answered the pointer (a
            # monochrome theme's buttons), after the toolbar's: a clock's LED
            # panel, stopped at the end of a game too short for it to tick
            # twice between readings, is outlined and still too (zoo seed
            # 1211107155's was clicked before its toolbar's restart).
            # A framed part holding look-alikes is those buttons, each tried at
            # its middle (zoo seed 1787445657's toolbar of four, outlined as one,
            # was clicked at its middle: the gap between two of them).
            tries += _split_joined(_off_cells(framed_only, geo_region, notices), alikes, pieces)
            # Then those a few pixels out of step with the board's lattice (its
            # grid's line there was no line of cells at all).
            tries += [
                box
                for box in alikes
                if not any(_clicks_on(t, box) for t in [*tries, *clicked] if isinstance(t, tuple))
            ]
            # Last, bare words (a label may be clicked on the way: a zoo clone's
            # toolbar restart came after a label click when they came first).
            tries += [
                b for b in bare if not any(_overlap(b, t) for t in tries if isinstance(t, tuple))
            ]
            what = "that answers the pointer (a button)"
            continue
        if isinstance(step, str):
            done = actuator.press_key(step, "learn: does this key restart the game?")
            tried.append(step)
        else:
            if not _still_shown(player, found_on, step):
                # The part is gone (a notice a try closed): under it lies the
                # board or another part, which this try never was.
                tried.append(f"no click at {step} (the part found there is gone)")
                continue
            if _digits_shown(counter, found_on, geo_region, step):
                continue  # a clock drawn as the counter is: no button
            clicked.append(step)
            x = origin.left + (step[0] + step[2]) // 2
            y = origin.top + (step[1] + step[3]) // 2
            if there := beside_the_clone(actuator.mouse, apprentice.board_window, board, x, y):
                tried.append(f"no click at ({x}, {y}) ({there} lies there)")
                continue
            actuator.bind(final.geometry, {"restart": (x, y)})
            # Some clones ignore a click that comes with the pointer (xdemineur).
            actuator.mouse.move(x, y)
            time.sleep(ENTER)
            done = actuator.click_control("restart", "learn: does this restart the game?")
            tried.append(f"a click at ({x}, {y})")
        player.actions += 1
        player.recorder.action(done.to_json(), game=player.game, frame=player.frame_name)
        got, untouched = _wait_fresh(player, apprentice, end, final)
        if got is None and untouched:
            continue  # the screen as it was at the end: the board is there
        menu = None
        if got is None and not _board_shows(player, apprentice, board_at, framed):
            # Another screen in the board's place: perhaps a menu where a
            # difficulty is chosen, whose buttons lead to a new game.
            pictures = [found_on, record.first_image]
            came_by = _step_pictures(step, pictures, _box_of(geo_region))
            found = _through_menu(
                player, apprentice, final, end, _again(player, step, pictures), came_by
            )
            if found is not None:
                got, menu = found
        if got is None:
            _back_to_board(player, apprentice, board_at, framed)
            continue
        prefix: list[dict[str, str]] = [{"key": "Escape"}] if covered_over else []
        suffix: list[dict[str, str]] = [{"click": "menu"}] if menu is not None else []
        then = ", then the menu's button" if menu is not None else ""
        draft.menu = menu
        if isinstance(step, str):
            steps = [*prefix, {"key": step}, *suffix]
            draft.restart = steps if len(steps) > 1 else steps[0]
            return learned(f"press {step}{then} (a fresh board appeared)", got[1])
        settled_now = settled(window.screen, window.region)
        draft.control = _control(
            step, geo_region, settled_now, end, record.last_image, x, y, record.outcome
        )
        steps = [*prefix, {"click": "restart"}, *suffix]
        draft.restart = steps if len(steps) > 1 else steps[0]
        return learned(
            f"click the part of the window at ({x}, {y}) {what}{then} (a fresh board appeared)",
            got[1],
        )
    draft.restart_said = f"none found (tried {', '.join(tried)})"
    apprentice.save()
    raise window.stop(
        f"msbot could not find how this clone starts a new game (tried {', '.join(tried)}): "
        "start one by hand and run again, or give --restart-key KEY"
    )


#: Digits of the counter's own a part shows, at least, to be a number display.
DISPLAY_DIGITS = 2


def _digits_shown(
    counter: Glyphs | None, image: Image, geo: Geometry, box: tuple[int, int, int, int]
) -> bool:
    """Whether the part `box` (region coordinates) shows digits drawn as the
    skin's counter draws them: a clock beside the counter, no button. A clock
    that ticked only once in a short game is not told by its changes (zoo
    seed 1757880342: its outlined LED box was clicked as a restart, a click
    beside every control); its digits are the counter's."""
    if counter is None:
        return False
    region = box_region(box, geo, 2)
    text, _ = read_text(np.asarray(image), replace(counter, region=region), geo)
    return sum(ch.isdigit() for ch in text) >= DISPLAY_DIGITS


def _off_cells(
    boxes: list[tuple[int, int, int, int]], geo: Geometry, notices: list[Notice]
) -> list[tuple[int, int, int, int]]:
    """`boxes` whose middle lies off the board's cells, or in a notice over
    them: no clone starts a new game by a click on one of its cells, and a
    part found there (a mine a lost board shows, a gap between two) with no
    notice found around it is the board's own (zoo seed 1861727602: an
    in-page "Game over" over a lost 30x16 board, joined to the mines beside
    it, was no notice; seven of its cells and gaps were clicked, never its
    "Play again"; seed 1335437593 before it)."""
    board = _box_of(geo)
    return [
        box
        for box in boxes
        if not _centre_in(board, box) or any(_centre_in(n, box) for n, _ in notices)
    ]


def _over_board(covered_over: bool, window_now: bool | None) -> bool:
    """Whether the buttons are looked for over the board too: another window
    lies over it now, as the desktop says (`window_now`), or, when the desktop
    cannot tell, one did at the end (`covered_over`). A dialog that Escape
    closed is gone (zoo seed 1335437593: its board's cells, taken for framed
    buttons over it, were clicked, never its "Reset"); a notice the clone
    draws in its own window over the board is looked in for its buttons all
    the same (`_notices`)."""
    return covered_over if window_now is None else window_now


def _board_shows(
    player: RestartHost, apprentice: Apprentice, board_at: np.ndarray, framed: bool
) -> bool:
    """Whether the board (any game of it) is where it was: half its cells or
    more show the looks they showed at the end, or half its cells or more read
    as the skin's kinds there (a new game that opened an area of its own is
    drawn otherwise cell by cell, its border too where open cells touched it:
    zoo seed 1661291106 was told a button had opened another screen, and an
    Escape was pressed). `framed`: the skin's border closed the board at the
    end; then a board it no longer closes is gone, whatever its place shows (a
    monochrome clone's menu on a black window where its black covered cells
    were: zoo seed 1677890680 took them for the board, and never chose a level)."""
    moved = player.window.follow()  # a label beside it changed its width
    if moved is not None:
        player.actuator.bind(moved, player.actuator.controls)
    image = settled(player.window.screen, player.window.region)
    if framed and not player.window.framed(image):
        return False
    now = apprentice.looks(image)
    if float((now == board_at).mean()) >= 0.5:
        return True
    window = player.window
    try:
        reading = window.reader.read(image, window.located)
    except VisionError:
        return False
    g = reading.geometry
    return bool(2 * len(reading.unknown) <= g.rows * g.cols)


#: Buttons of a menu screen tried, at most.
MENU_TRIES = 5
#: How alike (normalised correlation) a control must look to be found again.
FOUND_AGAIN = 0.9


def _box_of(geo: Geometry) -> tuple[int, int, int, int]:
    """The grid's (x0, y0, x1, y1), whole pixels."""
    return (
        round(geo.left),
        round(geo.top),
        round(geo.left + geo.width),
        round(geo.top + geo.height),
    )


def _step_pictures(
    step: str | tuple[int, int, int, int],
    pictures: list[Image | None],
    board: tuple[int, int, int, int],
) -> list[np.ndarray]:
    """The pictures of a clicked part (`_again`): cut from the first of
    `pictures`, and from the others where it lies off the `board` (x0, y0, x1,
    y1, region pixels); none for a key."""
    if isinstance(step, str):
        return []
    x0, y0, x1, y1 = step
    return [
        np.asarray(picture)[y0:y1, x0:x1]
        for n, picture in enumerate(pictures)
        if picture is not None and (n == 0 or not _overlap(step, board))
    ]


def _matches(whole: np.ndarray, parts: list[np.ndarray]) -> tuple[float, int, int]:
    """The best normalised match of any of `parts` in `whole`, and where."""
    best = (-1.0, 0, 0)
    for part in parts:
        if part.size == 0 or part.shape[0] > whole.shape[0] or part.shape[1] > whole.shape[1]:
            continue
        scores = cv2.matchTemplate(whole, part, cv2.TM_CCOEFF_NORMED)
        _, score, _, (bx, by) = cv2.minMaxLoc(scores)
        best = max(best, (float(score), bx, by))
    return best


def _again(
    player: RestartHost,
    step: str | tuple[int, int, int, int],
    pictures: list[Image | None],
) -> Callable[[], bool]:
    """A way to do `step` again (a key, or a click on the part of the window it
    was, found again by its picture: the window may have moved it, grown
    around a board of another size); False when it cannot be found.

    The part's picture is taken from the first of `pictures` (the screen the
    step was clicked on, then the game's first picture) where it lies off the
    board: a dialog's "Play again" over the board, cut from a picture of the
    game in play, is a few cells, and those were found and clicked on a board
    of another size (a zoo clone's menu level), three clicks into its game."""
    actuator, window = player.actuator, player.window
    parts = _step_pictures(step, pictures, _box_of(window.located.geometry))

    def again() -> bool:
        if isinstance(step, str):
            done = actuator.press_key(step, "learn: back to the menu")
        else:
            # Found by any of its pictures (a face shows its end's look on one
            # and its game's on the other: zoo seed 412629770's face, sad at the
            # end, smiled over the game of another size its menu gave, was not
            # found again, and that game's cells were clicked as buttons).
            x0, y0, x1, y1 = step
            best, bx, by = _matches(np.asarray(window.screen.grab(None)), parts)
            if best < FOUND_AGAIN:
                return False
            x, y = bx + (x1 - x0) // 2, by + (y1 - y0) // 2
            assert window.located is not None
            assert window.geometry is not None
            actuator.bind(window.geometry, {"again": (x, y)})
            done = actuator.click_control("again", "learn: back to the menu")
        player.actions += 1
        player.recorder.action(done.to_json(), game=player.game, frame=player.frame_name)
        time.sleep(0.3)
        return True

    return again


def _rows(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Parts that lie on one line a word's space apart joined into one (the
    words of one button's label: "Easy", "9x9,", "10 mines"), top to bottom.
    Parts further apart on that line are not one label: a window beside the
    clone's (zoo seed 559503492's decoy, its numbers on the lines of the level
    buttons) joined its menu's buttons into rows whose middles were no button."""
    out: list[list[int]] = []
    for x0, y0, x1, y1 in sorted(boxes, key=lambda b: (b[0], b[1])):
        for row in out:
            overlap = min(y1, row[3]) - max(y0, row[1])
            apart = max(x0 - row[2], row[0] - x1, 0)
            tall = max(y1 - y0, row[3] - row[1])
            if overlap > 0.5 * min(y1 - y0, row[3] - row[1]) and apart <= tall:
                row[:] = [min(x0, row[0]), min(y0, row[1]), max(x1, row[2]), max(y1, row[3])]
                break
        else:
            out.append([x0, y0, x1, y1])
    return sorted(((a, b, c, d) for a, b, c, d in out), key=lambda b: (b[1], b[0]))


def _away_point(player: RestartHost) -> tuple[int, int]:
    """A point on the screen just outside the window region, away from the
    screen's corners (a pointer there stops pyautogui)."""
    return player.window.away_point() or _rest_point(player)


def _through_menu(
    player: RestartHost,
    apprentice: Apprentice,
    final: Reading,
    end: Image,
    again: Callable[[], bool],
    came_by: list[np.ndarray],
) -> tuple[tuple[Image, Reading], Control] | None:
    """The button of the screen now in the board's place (a menu where a
    difficulty is chosen) that starts a new game of the same size: each part
    that answers the pointer, top to bottom, is clicked and judged by a fresh
    board of the same size; a board of another size is left for the menu
    again (`again`). A part showing one of `came_by` (the pictures of the
    button that opened this screen, `_step_pictures`) is no level. Returns the
    new game and the button as a control."""
    window, actuator = player.window, player.actuator
    assert window.region is not None and window.located is not None
    origin = window.region
    geo = window.located.geometry
    board = window.geometry  # on the screen
    assert board is not None
    # The pointer off the window: where the board was, a button may lie now
    # (drawn otherwise while the pointer rests on it, it would not answer it).
    actuator.mouse.move(*_away_point(player))
    shot = settled(window.screen, window.region)

    def levels(tried: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
        # The button that led here is no level (zoo seed 559503492's "Reset",
        # above its levels, was clicked first: it started a game of the level
        # shown, behind the menu, and no level was tried).
        found = _rows(_buttons(player, shot, geo, tried, over_board=True, join=3, by_rows=True))
        return [box for box in found if not _shows(shot, box, came_by)]

    boxes = levels([])

    def way_back() -> bool:
        """Whether the button that opened this screen shows again."""
        return _matches(np.asarray(window.screen.grab(None)), came_by)[0] >= FOUND_AGAIN

    tried: list[tuple[int, int, int, int]] = []
    for i in range(MENU_TRIES):
        if i and not again():
            # No way back to the menu from the game of another size the last
            # level started: it shows when that game ends (an end dialog's
            # button), so the game is ended, and the way back taken then.
            if not came_by:
                return None
            learned = apprentice.draft.geometry
            sides = toolbar_sides(apprentice.draft.toolbar, learned.width, learned.height)
            if not end_other_game(player, apprentice.board_window, way_back, i, sides):
                return None
            if not again():
                return None
        if i:
            # The pointer off the window again: the way back clicked where a
            # level may lie (zoo seed 673042908's end dialog's button, over
            # its "Hard" level, which was learned lit up under the pointer and
            # never found again by the play loop).
            actuator.mouse.move(*_away_point(player))
            shot = settled(window.screen, window.region)
        if not boxes:
            # Every button found was tried: the menu looked for again, without
            # them (one its pointer test missed, the level of this size).
            actuator.mouse.move(*_away_point(player))
            shot = settled(window.screen, window.region)
            boxes = levels(tried)
            if not boxes:
                return None
        box = boxes.pop(0)
        tried.append(box)
        x = origin.left + (box[0] + box[2]) // 2
        y = origin.top + (box[1] + box[3]) // 2
        if beside_the_clone(actuator.mouse, apprentice.board_window, board, x, y):
            continue  # the desktop or another program: no button of the clone
        actuator.bind(final.geometry, {"menu": (x, y)})
        actuator.mouse.move(x, y)
        time.sleep(ENTER)
        done = actuator.click_control("menu", "learn: does this button start a game of this size?")
        player.actions += 1
        player.recorder.action(done.to_json(), game=player.game, frame=player.frame_name)
        got, _ = _wait_fresh(player, apprentice, end, final)
        if got is not None:
            picture = np.asarray(shot)[box[1] : box[3], box[0] : box[2]].copy()
            # Looked for a pitch around where it was: a menu centred in its
            # window moves with a label's width (zoo seed 44065001's levels,
            # 10 px aside once "Mines: 19" read "Mines: 0", were not found,
            # and the play loop's restart fell back to the search).
            region = box_region(box, geo, round(max(geo.cell_w, geo.cell_h, 4)))
            evidence = (
                f"a click at ({x}, {y}) on the screen the restart led to started a new game "
                "of the same size (a fresh board appeared)"
            )
            return got, Control(region, {"playing": [picture]}, evidence)
    return None


#: Pixels around a part looked at for another part's picture (`_shows`).
SHOWS_REACH = 4


def _shows(image: Image, box: tuple[int, int, int, int], pictures: list[np.ndarray]) -> bool:
    """Whether the part `box` of `image` (region pixels, give or take
    SHOWS_REACH) shows one of `pictures` (normalised match FOUND_AGAIN)."""
    x0, y0, x1, y1 = box
    r = SHOWS_REACH
    around = np.asarray(image)[max(0, y0 - r) : y1 + r, max(0, x0 - r) : x1 + r]
    return _matches(around, pictures)[0] >= FOUND_AGAIN


def _back_to_board(
    player: RestartHost, apprentice: Apprentice, board_at: np.ndarray, framed: bool
) -> None:
    """After a try that started no game: if the board no longer shows (a button
    opened another screen of the clone), Escape, which goes back in the toolkits
    here; if it still does not show, stop rather than click into the unknown."""
    window = player.window

    def shows() -> bool:
        return _board_shows(player, apprentice, board_at, framed)

    if shows():
        return
    done = player.actuator.press_key("Escape", "learn: back to the board")
    player.actions += 1
    player.recorder.action(done.to_json(), game=player.game, frame=player.frame_name)
    time.sleep(0.3)
    if not shows():
        raise window.stop(
            "trying how this clone starts a new game left its board out of sight "
            "(a button opened another screen): start a new game by hand and run "
            "again, or give --restart-key KEY"
        )


#: At most this many buttons are tried by hovering.
BUTTONS = 6


#: Pixels of a notice's outline left out when its buttons are looked for: in
#: from a block of changed pixels (past its grown edge), and from a window's.
NOTICE_RIM = 3
DIALOG_RIM = 3
#: A notice's box (region coordinates) and the pixels of its outline.
Notice = tuple[tuple[int, int, int, int], int]


def _notices(played: Image | None, end: Image, geo: Geometry) -> list[Notice]:
    """Boxes (region coordinates) of what came over the board when the game
    ended: a block of it, two cells wide and more than a cell tall at least,
    that changed between the last board in play and the end (a "you lost"
    notice with its buttons, drawn in the window or as a window of its own);
    the mines a lost board shows change cell by cell, no such block. Each with
    the pixels of its outline to leave out when its buttons are looked for."""
    if played is None or np.asarray(played).shape != np.asarray(end).shape:
        return []
    diff = np.abs(np.asarray(played, np.int16) - np.asarray(end, np.int16)).max(axis=2) > 24
    keep = np.zeros_like(diff)
    x0, y0 = max(0, round(geo.left)), max(0, round(geo.top))
    x1, y1 = round(geo.left + geo.width), round(geo.top + geo.height)
    keep[y0:y1, x0:x1] = diff[y0:y1, x0:x1]
    for x, y, w, h in _cells_as_shown_alone(diff, end, geo):
        keep[y : y + h, x : x + w] = False
    side = max(3, round(min(geo.cell_w, geo.cell_h) / 4))
    mask = cv2.dilate(keep.astype(np.uint8), np.ones((side, side), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    found: list[Notice] = []
    for x, y, w, h, area in stats[1:n].tolist():
        big = w >= 2 * geo.cell_w and h >= 1.2 * geo.cell_h
        if big and area >= 0.5 * w * h:
            found.append(((x, y, x + w, y + h), side + NOTICE_RIM))
    return found


#: Two cells' pictures this close (mean absolute difference per channel) are
#: the same picture.
CELL_SAME = 6.0


def _cells_as_shown_alone(
    diff: np.ndarray, end: Image, geo: Geometry
) -> list[tuple[int, int, int, int]]:
    """Boxes (x, y, w, h) of the cells that changed into a picture some cell
    that changed alone shows too (no cell around it changed): the board's own
    end pictures (its mines), never a piece of a notice, which spans several
    cells. Two mines side by side are no notice, and a notice beside them is
    not joined to them (zoo seed 1861727602: a lost 30x16 board's pairs of
    mines were taken for notices and clicked, and its "Game over" joined to
    the mines around was none)."""
    picture = np.asarray(end)[:, :, :3].astype(np.float32)
    height, width = picture.shape[:2]
    w, h = round(geo.cell_w), round(geo.cell_h)
    xs = np.round(geo.left + np.arange(geo.cols) * geo.cell_w).astype(int)
    ys = np.round(geo.top + np.arange(geo.rows) * geo.cell_h).astype(int)
    cells = [
        (r, c)
        for r, y in enumerate(ys.tolist())
        for c, x in enumerate(xs.tolist())
        if x >= 0
        and y >= 0
        and x + w <= width
        and y + h <= height
        and diff[y : y + h, x : x + w].mean() > 0.1
    ]
    if not cells:
        return []
    changed = set(cells)
    pictures = np.stack([picture[ys[r] : ys[r] + h, xs[c] : xs[c] + w] for r, c in cells])
    alone = [
        i
        for i, (r, c) in enumerate(cells)
        if not any((r + a, c + b) in changed for a in (-1, 0, 1) for b in (-1, 0, 1) if a or b)
    ]
    same = np.zeros(len(cells), bool)
    for i in alone:
        same |= np.abs(pictures - pictures[i]).mean(axis=(1, 2, 3)) <= CELL_SAME
    return [(int(xs[c]), int(ys[r]), w, h) for (r, c), hit in zip(cells, same, strict=True) if hit]


def _dialogs(player: RestartHost, own: int | None) -> list[Notice]:
    """Boxes (region coordinates) of the top-level windows other than the
    board's own (`own`) that the desktop says lie over the board: a "you lost"
    dialog whose buttons start a new game."""
    window, mouse = player.window, player.actuator.mouse
    geo = window.geometry
    if own is None or geo is None or window.region is None:
        return []
    origin = window.region
    found: list[Notice] = []
    for x, y in board_points(geo):
        if mouse.window_at(x, y) in (own, None, 0):
            continue
        rect = mouse.window_rect_at(x, y)
        if rect is None:
            continue
        rx, ry, rw, rh = rect
        box = (rx - origin.left, ry - origin.top, rx + rw - origin.left, ry + rh - origin.top)
        if (box, DIALOG_RIM) not in found:
            found.append((box, DIALOG_RIM))
    return found


def _buttons(
    player: RestartHost,
    end: Image,
    geo: Geometry,
    tried: list[tuple[int, int, int, int]],
    over_board: bool = False,
    within: list[Notice] | None = None,
    join: int = 5,
    by_rows: bool = False,
    outlined: np.ndarray | None = None,
    own: int | None = None,
    bare: list[tuple[int, int, int, int]] | None = None,
    framed: list[tuple[int, int, int, int]] | None = None,
) -> list[tuple[int, int, int, int]]:
    """Parts of the window around the board that answer the pointer (drawn otherwise
    while it rests on them: a button, "Restart" on a web page), nearest the board
    first, leaving out those already tried. `over_board`: a window lies over
    the board (a "Play again" dialog): its buttons are looked for there too.
    `within`: only inside these boxes (a notice over the board: `_notices`,
    `_dialogs`), their own outline left out. `join`: pixels of edges joined into
    one part (less for buttons stacked close together: a menu's levels);
    `by_rows`: parts on one line are one (the words of one label: `_rows`).
    `outlined`: the pixels that changed in play (`_busy`): then parts closed by
    an outline that stayed still are buttons too, even if drawn alike under the
    pointer (`_outlined`). `bare`: filled with the nearest UNFRAMED parts that
    stayed still on the board's own window (`own`, as the desktop says), to be
    tried after every other candidate (a "Reset" drawn as a bare word).
    `framed`: filled with the outlined parts instead of returning them (to
    be tried later)."""
    edges = _edges(end)
    drawn = edges.copy()  # every edge, for the outlines (`_outlined`)
    if within is not None:
        inner = np.zeros_like(edges)
        for (bx0, by0, bx1, by1), rim in within:
            inner[max(0, by0 + rim) : by1 - rim, max(0, bx0 + rim) : bx1 - rim] = True
        edges &= inner
        if not within:
            return []
    elif not over_board:
        _off_board(edges, geo)
    boxes = _parts(edges, geo, join)
    if within is not None:
        # A button a few pixels inside its notice's frame joins that frame at
        # `join` (a part too tall to be a control: a zoo page's "Play again"
        # was never tried); its own outline, edges unjoined, is a part too.
        boxes += [b for b in _parts(edges, geo, 1) if b not in boxes]
    if by_rows:
        boxes = _rows(boxes)
    if within is not None:
        boxes = [part for box in boxes for part in (box, *_lower_third(box, geo))]

    def gap(box: tuple[int, int, int, int]) -> float:
        dx = max(geo.left - box[2], box[0] - (geo.left + geo.width), 0)
        dy = max(geo.top - box[3], box[1] - (geo.top + geo.height), 0)
        return float(dx + dy)

    found = []
    near = [b for b in sorted(boxes, key=gap) if not any(_overlap(b, o) for o in tried)]
    for box in near[: 3 * BUTTONS]:
        if _answers_pointer(player, end, box):
            found.append(box)
        if len(found) >= BUTTONS:
            break
    if outlined is not None:
        # Buttons drawn alike under the pointer (a monochrome theme): a part
        # closed by its own outline, whose pixels never changed in play (a
        # counter or a clock is no button), the nearest OUTLINED of them.
        still = [b for b in near if b not in found and not outlined[b[1] : b[3], b[0] : b[2]].any()]
        closed = [b for b in still if _outlined(drawn, b)][:OUTLINED]
        (found if framed is None else framed).extend(closed)
        # Buttons a monochrome theme draws as a bare word (a zoo page's
        # "Reset" was never tried): the nearest parts that stayed still, if
        # the desktop says they lie on the board's own window (never a click
        # into another program's). A label may be clicked on the way.
        origin = player.window.region if bare is not None and own is not None else None
        if bare is not None and origin is not None:
            mouse = player.actuator.mouse
            bare += [
                b
                for b in still
                if b not in closed
                and mouse.window_at(
                    origin.left + (b[0] + b[2]) // 2, origin.top + (b[1] + b[3]) // 2
                )
                == own
            ][:UNFRAMED]
    return found


def _lower_third(box: tuple[int, int, int, int], geo: Geometry) -> list[tuple[int, int, int, int]]:
    """The lower third of a part of a notice taller than a cell and a half (none
    for a smaller one): a notice's button spanning its width joins the notice's
    own outline into one part, whose middle is its message (a web page's
    "BOOM!" over its "Play again": no button found, seed 1948479867); the
    pointer in the lower third rests on it."""
    x0, y0, x1, y1 = box
    if y1 - y0 < 1.5 * geo.cell_h:
        return []
    return [(x0, y1 - (y1 - y0) // 3, x1, y1)]


def _edges(image: Image) -> np.ndarray:
    """The picture's edges (`_buttons`' parts are joined from them)."""
    return np.asarray(cv2.Canny(cv2.cvtColor(np.asarray(image), cv2.COLOR_BGR2GRAY), 50, 150) > 0)


def _off_board(edges: np.ndarray, geo: Geometry) -> None:
    """Leave out the board and its frame (half a cell around): no button."""
    frame = max(4, round(min(geo.cell_w, geo.cell_h) / 2))
    x0, y0 = round(geo.left) - frame, round(geo.top) - frame
    x1, y1 = round(geo.left + geo.width) + frame, round(geo.top + geo.height) + frame
    edges[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)] = False


def _parts(edges: np.ndarray, geo: Geometry, join: int = 5) -> list[tuple[int, int, int, int]]:
    """Boxes of the parts `edges` draw, their edges `join` pixels apart joined,
    of a control's size (a few cells at most), a part inside another not much
    taller (a word of a button's label) left to that other."""
    mask = cv2.dilate(edges.astype(np.uint8), np.ones((join, join), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    height, width = edges.shape
    boxes = []
    for x, y, w, h, _area in stats[1:n].tolist():
        inside = x > 0 and y > 0 and x + w < width and y + h < height
        if inside and 10 <= w <= 8 * geo.cell_w and 10 <= h <= 3 * geo.cell_h:
            boxes.append((x, y, x + w, y + h))

    # A panel holding several buttons leaves them be.
    def within_button(b: tuple[int, int, int, int], o: tuple[int, int, int, int]) -> bool:
        return o != b and _holds(o, b) and (o[3] - o[1]) <= 3 * (b[3] - b[1])

    return [b for b in boxes if not any(within_button(b, o) for o in boxes)]


def _holds(outer: tuple[int, int, int, int], box: tuple[int, int, int, int]) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def _centre_in(outer: tuple[int, int, int, int], box: tuple[int, int, int, int]) -> bool:
    """Whether the middle of `box` lies in `outer` (a changed part is grown by a
    third of a cell: a frown that replaced a smile reaches past the face's
    outline, whose edge near the board `_off_board` leaves out)."""
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return outer[0] <= x <= outer[2] and outer[1] <= y <= outer[3]


def _off(outer: Box | None, boxes: list[Box]) -> list[Box]:
    """`boxes` whose middle lies outside `outer` (all of them: None)."""
    return [box for box in boxes if outer is None or not _centre_in(outer, box)]


def _faces_around(
    end: Image, geo: Geometry, parts: list[tuple[int, int, int, int]]
) -> list[tuple[int, int, int, int]]:
    """The face-like parts of the window (`_face_like`) that hold a part that
    changed at the end (`parts`): a face whose eyes alone changed at a win (a
    wide, low change) is a square button all the same, though it may neither
    light up under the pointer nor show an outline on a dark window."""
    whole = _edges(end)
    edges = whole.copy()
    _off_board(edges, geo)
    found = []
    for outer in _parts(edges, geo):
        if _face_like(outer, geo) and any(_centre_in(outer, box) for box in parts):
            found.append(outer)
    # A face whose frame joins the window's edge (zoo seed 948495047's, 8 px
    # below the window's top and above the board: one part with the whole
    # window, too large for a button): the square outlined around the change.
    for box in parts:
        if not any(_centre_in(outer, box) for outer in found):
            square = _square_around(whole, box, geo)
            if square is not None and _face_like(square, geo):
                found.append(square)
    return found


def _square_around(
    edges: np.ndarray, box: tuple[int, int, int, int], geo: Geometry
) -> tuple[int, int, int, int] | None:
    """The smallest square centred on `box` whose outline edges run along
    (`_outlined`, SQUARE_SHARE of each side), up to three cells a side; None
    if there is none. A dark window's face shows its relief's light side only
    in part (zoo seed 248445157's, its frame joined to the window's top line,
    its right side 70 % drawn: never tried, no restart found)."""
    cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
    least = max(box[2] - box[0], box[3] - box[1]) + 2
    for side in range(least, round(3 * max(geo.cell_w, geo.cell_h)) + 1, 2):
        half = side // 2
        square = (cx - half, cy - half, cx - half + side, cy - half + side)
        if square[0] >= 0 and square[1] >= 0 and _outlined(edges, square, SQUARE_SHARE):
            return square
    return None


#: Share of each side of a square around a changed part that its outline must
#: draw (`_square_around`).
SQUARE_SHARE = 0.6


#: Buttons tried that do not answer the pointer, at most (`_buttons`): framed
#: by an outline, and not.
OUTLINED = 2
UNFRAMED = 2
#: Pixels from the pointer within which what lit up under it counts as its button.
HOVER_REACH = 3
#: Pixels: the least width and height of a control a person clicks.
MIN_CONTROL = 8


def _outlined(edges: np.ndarray, box: tuple[int, int, int, int], share: float = 0.8) -> bool:
    """Whether edges run along at least `share` of each side of `box`'s
    outline (within a few pixels of it): a button's frame, not a word or a
    picture."""
    x0, y0, x1, y1 = box
    if x1 - x0 < 16 or y1 - y0 < 10:
        return False
    # Grown by a few pixels: an outline's faint side may have joined the part
    # only in part (a relief drawn lighter on one side).
    grow, band = 4, 7
    x0, y0 = max(0, x0 - grow), max(0, y0 - grow)
    part = edges[y0 : y1 + grow, x0 : x1 + grow]
    inner = part[band:-band, band:-band]
    sides = [
        part[:band, band:-band].any(axis=0),
        part[-band:, band:-band].any(axis=0),
        part[band:-band, :band].any(axis=1),
        part[band:-band, -band:].any(axis=1),
    ]
    if inner.size == 0:
        return False
    return all(float(side.mean()) >= share for side in sides)


def _answers_pointer(player: RestartHost, end: Image, box: tuple[int, int, int, int]) -> bool:
    """Whether the part of the window in `box` (region coordinates) is drawn
    otherwise while the pointer rests on it, and as before once it left: a
    button (a label is not, nor a clock that changes by itself)."""
    hover = _hover(player, end, box)
    if hover is None:
        return False
    shot, back = hover
    bx0, by0, bx1, by1 = box
    return not np.array_equal(shot[by0:by1, bx0:bx1], back[by0:by1, bx0:bx1])


def _hover_box(
    player: RestartHost, end: Image, box: tuple[int, int, int, int]
) -> tuple[int, int, int, int] | None:
    """The button the pointer lights up when it rests in the middle of `box`
    (region coordinates), whole: `box` may be a sliver of it (the edge of a
    button that moved when a label beside it grew). None when nothing within
    HOVER_REACH of the pointer is drawn otherwise, or when what lit up there is
    smaller than any control a person clicks."""
    hover = _hover(player, end, box)
    if hover is None:
        return None
    shot, back = hover
    px, py = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
    lit = cv2.absdiff(shot, back).max(axis=2) > 0
    lit = cv2.dilate(lit.astype(np.uint8), np.ones((5, 5), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(lit)
    reach = HOVER_REACH
    near = labels[max(0, py - reach) : py + reach + 1, max(0, px - reach) : px + reach + 1]
    at = np.unique(near[near > 0])
    if not len(at):
        return None
    x0, y0 = int(stats[at, 0].min()), int(stats[at, 1].min())
    x1 = int((stats[at, 0] + stats[at, 2]).max())
    y1 = int((stats[at, 1] + stats[at, 3]).max())
    if min(x1 - x0, y1 - y0) < MIN_CONTROL:
        return None
    return (x0, y0, x1, y1)


def _hover(
    player: RestartHost, end: Image, box: tuple[int, int, int, int]
) -> tuple[np.ndarray, np.ndarray] | None:
    """The window with the pointer resting in the middle of `box` (region
    coordinates), and again once it left; None when `box` does not come back
    to its picture in `end` then (it changes by itself: no proof of a button)."""
    window, actuator = player.window, player.actuator
    assert window.region is not None
    origin = window.region
    actuator.mouse.move(origin.left + (box[0] + box[2]) // 2, origin.top + (box[1] + box[3]) // 2)
    time.sleep(0.15)
    shot = np.asarray(settled(window.screen, window.region))
    actuator.mouse.move(*_away_point(player))
    time.sleep(0.15)
    back = np.asarray(settled(window.screen, window.region))
    bx0, by0, bx1, by1 = box
    if not np.array_equal(back[by0:by1, bx0:bx1], np.asarray(end)[by0:by1, bx0:bx1]):
        return None
    return shot, back


#: Mean squared difference (per colour value) within which a part of the
#: window beside the board is drawn as a covered cell's inside ...
ALIKE_COVERED = 150.0
#: ... that inside: the tile less this share of its side all round (its edges
#: may meet a gap, a frame or another button).
ALIKE_INSET = 0.15
#: Such parts tried, at most.
ALIKE_TRIES = 6
#: A side of a tile shows an edge where a line along it, within the inset (or
#: two pixels out), differs from the tile's inside by more than this in a
#: channel's mean; a look-alike's side where the tile's does by half of it.
ALIKE_EDGE = 24.0
#: ... the pixels out.
ALIKE_OUT = 2


def _side_steps(picture: np.ndarray, inside: tuple[int, int, int, int]) -> np.ndarray:
    """For each inside of `ih` x `iw` pixels in `picture` (float, three
    channels; `inside` = (ih, iw, dy, dx)), at each place `cv2.matchTemplate`
    scores, the largest step (a channel's mean) between it and a line along
    each of its sides (left, top, right, bottom) within `dx` or `dy` of it (and
    `ALIKE_OUT` beyond): a (4, height - ih + 1, width - iw + 1) array, 0 for a
    line off the picture."""
    ih, iw, dy, dx = inside
    height, width = picture.shape[:2]
    whole = cv2.integral(picture)  # (height + 1, width + 1, 3)
    mean = (whole[ih:, iw:] - whole[: height - ih + 1, iw:] - whole[ih:, : width - iw + 1]) + whole[
        : height - ih + 1, : width - iw + 1
    ]
    mean /= ih * iw
    down = np.zeros((height + 1, width, 3))
    down[1:] = np.cumsum(picture, axis=0)
    columns = (down[ih:] - down[: height - ih + 1]) / ih  # a column's mean over an inside's rows
    across = np.zeros((height, width + 1, 3))
    across[:, 1:] = np.cumsum(picture, axis=1)
    rows = (across[:, iw:] - across[:, : width - iw + 1]) / iw
    hs, ws = mean.shape[:2]
    steps = np.zeros((4, hs, ws), np.float32)
    spans = (
        (-dx - ALIKE_OUT, 0),
        (-dy - ALIKE_OUT, 0),
        (iw, iw + dx + ALIKE_OUT),
        (ih, ih + dy + ALIKE_OUT),
    )
    for side, (lo, hi) in enumerate(spans):
        axis = 1 if side % 2 == 0 else 0
        lines = columns if axis == 1 else rows  # a column beside the inside, or a row
        most, least = _over_offsets(lines, lo, hi, axis, (hs, ws))
        steps[side] = np.maximum(most - mean, mean - least).max(axis=2)
    return steps


#: Off the picture, for `_over_offsets`: no line there is larger or smaller.
_FAR = 1e6


def _over_offsets(
    lines: np.ndarray, lo: int, hi: int, axis: int, shape: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """The largest and the smallest of `lines[p + k]` along `axis` for k in
    [lo, hi), at each place p of `shape` (a line off the picture left out), by a
    dilation and an erosion: one pass each, not one per offset."""
    size = hi - lo
    pad = abs(lo) + abs(hi) + 1
    widths = [(0, 0), (0, 0), (0, 0)]
    widths[axis] = (pad, pad)
    kernel = np.ones((1, size) if axis == 1 else (size, 1), np.uint8)
    out: list[np.ndarray] = []
    for far, morph in ((-_FAR, cv2.dilate), (_FAR, cv2.erode)):
        padded = np.pad(lines, widths, constant_values=far).astype(np.float32)
        got = morph(padded, kernel, anchor=(0, 0), borderType=cv2.BORDER_CONSTANT, borderValue=far)
        start = lo + pad
        got = got[:, start : start + shape[1]] if axis == 1 else got[start : start + shape[0]]
        got = got[: shape[0]] if axis == 1 else got[:, : shape[1]]
        out.append(np.where(np.abs(got) >= _FAR, np.nan, got))
    return out[0], out[1]


def _covered_alikes(
    image: Image, geo: Geometry, tiles: Sequence[np.ndarray]
) -> list[tuple[int, int, int, int]]:
    """Parts of the window beside the board drawn as its covered cells, at any
    offset, best first (x0, y0, x1, y1 in the region): a toolbar's buttons a
    few pixels out of step with the board, which the first look could not
    take for a line of its grid (a zoo page's four buttons 4 px above the
    board's pitch, one of them the restart, never tried)."""
    picture = np.asarray(image)[:, :, :3].astype(np.float32)
    height, width = picture.shape[:2]
    board = _box_of(geo)
    found: list[tuple[float, tuple[int, int, int, int]]] = []
    edges: dict[tuple[int, int, int, int], np.ndarray] = {}  # by inset: tiles share one
    for tile in tiles:
        th, tw = tile.shape[:2]
        dy, dx = round(th * ALIKE_INSET), round(tw * ALIKE_INSET)
        inner = np.asarray(tile[dy : th - dy, dx : tw - dx, :3], np.float32)
        ih, iw = inner.shape[:2]
        if ih < 4 or iw < 4 or ih > height or iw > width:
            continue
        scores = cv2.matchTemplate(picture, inner, cv2.TM_SQDIFF) / (ih * iw * 3)
        # A part is drawn as the tile only with the tile's edges: on each side
        # where the tile shows one, so must the part (a plain page the covered
        # tile's flat inside matches everywhere is no button: zoo seed
        # 885589145's white page beside its board was clicked, a column of it).
        inset = (ih, iw, dy, dx)
        needed = _side_steps(np.asarray(tile[:, :, :3], np.float32), inset)[:, dy, dx] > ALIKE_EDGE
        if not needed.any():
            continue  # a tile without edges: nothing tells its look-alike from a page
        if inset not in edges:
            edges[inset] = _side_steps(picture, inset) > ALIKE_EDGE / 2
        edged = edges[inset][needed].all(axis=0)
        ys, xs = np.nonzero((scores <= ALIKE_COVERED) & edged)
        for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
            box = (x - dx, y - dy, x - dx + tw, y - dy + th)
            if not _overlap(box, board):
                found.append((float(scores[y, x]), box))
    found.sort()
    kept: list[tuple[int, int, int, int]] = []
    for _, box in found:
        if not any(_overlap(box, k) for k in kept):
            kept.append(box)
        if len(kept) >= ALIKE_TRIES:
            break
    return kept


#: A part is gone when more than this share of its pixels changed by more than
#: GONE_STEP in a channel (the pointer is elsewhere when it is checked, so no
#: hover look of its own; a notice's grey button over a board's grey cells
#: differs by 24 in each channel).
GONE_SHARE, GONE_STEP = 0.5, 8


def _still_shown(player: RestartHost, picture: Image, box: tuple[int, int, int, int]) -> bool:
    """Whether the part `box` (region pixels) of `picture`, the screen it was found
    on, still shows there. A try clicks a part it saw: a zoo clone's "You won"
    notice closed at the click on its button, and the same button, found twice,
    was clicked again on the board's cells under it."""
    now = np.asarray(player.window.screen.grab(player.window.region))
    was = np.asarray(picture)
    if now.shape != was.shape:
        return True  # the window's region changed: the part cannot be compared
    x0, y0 = max(0, box[0]), max(0, box[1])
    x1, y1 = min(was.shape[1], box[2]), min(was.shape[0], box[3])
    if x1 <= x0 or y1 <= y0:
        return False
    step = np.abs(now[y0:y1, x0:x1].astype(np.int16) - was[y0:y1, x0:x1].astype(np.int16))
    changed = step.max(axis=2) > GONE_STEP if step.ndim == 3 else step > GONE_STEP
    return float(changed.mean()) <= GONE_SHARE


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _split_joined(
    parts: list[tuple[int, int, int, int]],
    alikes: list[tuple[int, int, int, int]],
    pieces: Sequence[tuple[int, int, int, int]] = (),
    lit: bool = False,
) -> list[tuple[int, int, int, int]]:
    """Each part, or the covered look-alikes whose middles it holds when it
    holds two or more: buttons found as one part (a toolbar's, joined) are
    tried one by one at their middles, where the part's own middle may fall
    between two of them (zoo seed 1103573187: a click in the gap between two
    toolbar buttons, beside any control). Else the `pieces` (parts of the
    picture's edges unjoined, `_parts(..., 1)`) it holds, two or more, each
    as tall as the part nearly: buttons a pixel apart (zoo seed 1787445657's
    dithered toolbar, no look-alike found in it, clicked between two). A
    label's letters are shorter than their label.

    `lit`: the parts answered the pointer resting at their middles. Such a
    part holding look-alikes is tried at its middle too, after them, when
    that middle lies off their row: what lit up there is another button
    (zoo seed 1284438350: its toolbar of five look-alikes joined to the
    window's "Restart" above them; the five were tried, the button never)."""
    out: list[tuple[int, int, int, int]] = []
    for part in parts:
        held = [box for box in alikes if _clicks_on(box, part)]
        if len(held) >= 2 and lit:
            row = (
                min(b[0] for b in held),
                min(b[1] for b in held),
                max(b[2] for b in held),
                max(b[3] for b in held),
            )
            if not _clicks_on(part, row):
                held.append(part)
        if len(held) < 2:
            tall = PIECE_TALL * (part[3] - part[1])
            held = [
                box
                for box in pieces
                if box != part
                and _holds(part, box)
                and box[3] - box[1] >= tall
                and box[2] - box[0] >= MIN_CONTROL
            ]
        out += held if len(held) >= 2 else [part]
    return list(dict.fromkeys(out))


#: Share of a joined part's height a piece of it spans, at least, to be one of
#: its buttons (`_split_joined`).
PIECE_TALL = 0.7


def _clicks_on(part: tuple[int, int, int, int], box: tuple[int, int, int, int]) -> bool:
    """Whether a try of `part` (a click at its middle) clicks in `box`: a part
    found as one (a toolbar's four buttons, joined) is clicked on one of them,
    and the others are still to try (zoo seed 924362860: its restart, the
    first of four, was never clicked)."""
    x, y = (part[0] + part[2]) // 2, (part[1] + part[3]) // 2
    return box[0] <= x < box[2] and box[1] <= y < box[3]


def _rest_point(player: RestartHost) -> tuple[int, int]:
    """Just above the board's top-left cell: on no part of the window a try clicks,
    though a button may lie there (zoo seed 1658194843's "New game" lit up under
    it; the pointer leaves to `_away_point` where a picture is compared)."""
    g = player.window.geometry
    assert g is not None
    return (round(g.left + g.cell_w / 2), round(g.top - max(3.0, g.cell_h / 3)))


#: A face off the board's middle half is at least this share of a cell's
#: longer side on each side.
FACE_SIDE = 1.0


def _face_like(box: tuple[int, int, int, int], geo: Geometry, anywhere: bool = False) -> bool:
    """A roughly square part above the board, over its middle half: where clones
    put their face button. With `anywhere`, over the rest of the board's width
    too when it is a cell's size or more (a zoo clone's face over the right
    quarter of a narrow board, beside its counter, was never tried; a counter's
    two digits are smaller, and so is a clock's digit: zoo seed 35979442's last
    digit, 13 px to its 15 px cells, stopped at the end and was clicked): such
    parts are tried after every key."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if max(w, h) > 1.6 * min(w, h) or y1 > geo.top:
        return False
    x = (x0 + x1) / 2
    if geo.left + geo.width / 4 <= x <= geo.left + 3 * geo.width / 4:
        return True
    big = min(w, h) >= FACE_SIDE * max(geo.cell_w, geo.cell_h)
    return anywhere and big and geo.left <= x <= geo.left + geo.width


def _hides_open(apprentice: Apprentice, record: GameRecord, end: Image) -> bool:
    """Whether cells open in the last board in play show otherwise now, and not as
    the board drawn anew (`Apprentice.redrawn`): a window over the board."""
    assert record.last_image is not None
    before = apprentice.looks(record.last_image)
    now = apprentice.looks(end)
    was_open = ~np.isin(before, apprentice.closed_looks())
    changed = (before != now) & was_open
    return bool(changed.any()) and not apprentice.redrawn(before, now, was_open)


def _changed_across(
    before: Image, after: Image, box: tuple[int, int, int, int], least: float
) -> bool:
    """Whether what changed between `before` and `after` inside `box` (as
    `changed_parts` counts it) spans at least `least` pixels both ways."""
    x0, y0, x1, y1 = box
    one = np.asarray(before, np.int16)[y0:y1, x0:x1]
    other = np.asarray(after, np.int16)[y0:y1, x0:x1]
    ys, xs = np.nonzero(np.abs(one - other).max(axis=2) > CHANGED_STEP)
    return bool(len(xs)) and xs.max() - xs.min() + 1 >= least and ys.max() - ys.min() + 1 >= least


def _changed_in_play(changes: np.ndarray | None, box: tuple[int, int, int, int]) -> bool:
    """Whether pixels of `box` changed between the game's readings."""
    if changes is None:
        return False
    x0, y0, x1, y1 = box
    return bool(changes[max(0, y0) : y1, max(0, x0) : x1].any())


def _busy(changes: np.ndarray | None, end: Image) -> np.ndarray:
    """Pixels that changed more than once while the game was in play: a clock, the
    counter (a button that became active once, GNOME's "Start Over", is not)."""
    if changes is None or changes.shape != end.shape[:2]:
        return np.zeros(end.shape[:2], bool)
    return np.asarray(cv2.dilate((changes >= 2).astype(np.uint8), np.ones((7, 7), np.uint8)) > 0)


def _control(
    box: tuple[int, int, int, int],
    geo: Geometry,
    now: Image,
    end: Image,
    played: Image | None,
    x: int,
    y: int,
    outcome: str,
) -> Control:
    """The clicked part as a face: a region around it relative to the board, and
    its pictures: on the fresh board and in the game just played ("playing"), and
    at the game's end when it looked otherwise then than in play ("over").

    One game's end does not prove its picture means that outcome: GNOME Mines
    shows the same "Play Again" after a win and after a loss, and a skin that
    named it "won" read every later lost board as won. So the end picture only
    says the game is over (`vision.status.OVER`); the board tells the outcome."""
    x0, y0, x1, y1 = box
    # The button around the changed part, half its size on each side (clipped to
    # the picture, and short of the board): its rim.
    grow = max(x1 - x0, y1 - y0) // 2
    height, width = np.asarray(now).shape[:2]
    gx0, gy0 = max(0, x0 - grow), max(0, y0 - grow)
    gx1, gy1 = min(width, x1 + grow), min(height, y1 + grow)
    if y1 <= geo.top:
        gy1 = min(gy1, int(geo.top))
    if y0 >= geo.top + geo.height:
        gy0 = max(gy0, int(np.ceil(geo.top + geo.height)))
    if x1 <= geo.left:
        gx1 = min(gx1, int(geo.left))
    if x0 >= geo.left + geo.width:
        gx0 = max(gx0, int(np.ceil(geo.left + geo.width)))
    region = box_region((gx0, gy0, gx1, gy1), geo, 4)
    rim = FaceRim(np.asarray(now)[gy0:gy1, gx0:gx1].copy(), (x0 - gx0, y0 - gy0, x1 - x0, y1 - y0))

    def crop(image: Image) -> np.ndarray:
        return np.asarray(image)[y0:y1, x0:x1].copy()

    def apart(a: np.ndarray, b: np.ndarray) -> float:
        return float(((a.astype(np.float32) - b.astype(np.float32)) ** 2).mean())

    playing = [crop(now)]
    if played is not None and apart(crop(played), playing[0]) > FACE_SAME:
        playing.append(crop(played))
    images = {"playing": playing}
    ended = crop(end)
    evidence = f"a click at ({x}, {y}) started a new game (a fresh board appeared)"
    if (
        geo.left < (x0 + x1) / 2 < geo.left + geo.width
        and geo.top < (y0 + y1) / 2 < geo.top + geo.height
    ):
        # A button over the board (a "Play again" in a notice drawn on it): in
        # play its place shows cells, which any covered area matches one cell
        # off (zoo seed 491725334's restart clicked a cell beside its button).
        # Only its picture at the end is its own, and nothing around it is.
        return Control(region, {OVER: [ended]}, f"{evidence}; a button over the board")
    if outcome in ENDED and all(apart(p, ended) > 4 * FACE_SAME for p in playing):
        images[OVER] = [ended]
    return Control(region, images, evidence, rim)
