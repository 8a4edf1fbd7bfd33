"""The check made right before each click (`bot.play.click_check`), display-free on
a recorded xdemineur frame: the screen is that frame, changed by the test as
a clone, a person or another window would change it.

The live counterpart (real clones under Xvfb, real faults: a window over the
board, a person's new game, a window moved or killed) is the benchmark
`benchmarks/click_faults.py`; in the suite, `test_play_covered_edge.py`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from desktop_mouse import NoInput

from bot.board import COVERED, NUMBERS
from bot.errors import NotInPlace, PlayError
from bot.play.click_check import CHANGED, ClickCheck
from bot.play.recorder import Recorder
from bot.play.window import GameWindow
from vision.capture import Image, Region, Screen
from vision.capture._base import crop
from vision.image_io import load_image
from vision.reader import BoardReader
from vision.skin import load_skins

RECORDING = Path(__file__).resolve().parents[1] / "recordings" / "xdemineur-beginner-1"


class PaintedScreen(Screen):
    """A screen showing one picture the test may paint on between grabs."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image.copy()

    @property
    def size(self) -> tuple[int, int]:
        return self.image.shape[1], self.image.shape[0]

    def grab(self, region: Region | None = None) -> Image:
        return crop(self.image, region).copy()


class Desktop(NoInput):
    """No input is made; the desktop says window `top` lies everywhere, and
    whether the board's window is still `shown` somewhere."""

    def __init__(self, top: int | None, shown: bool | None = None) -> None:
        self.top = top
        self.shown = shown

    def move(self, x: int, y: int) -> None:
        raise AssertionError("the check never moves the pointer")

    def window_at(self, x: int, y: int) -> int | None:
        return self.top

    def window_shown(self, window: int) -> bool | None:
        return self.shown


def _setup(tmp_path: Path, top: int | None = 7) -> tuple[PaintedScreen, GameWindow, ClickCheck]:
    frame = sorted((RECORDING / "frames").glob("*.png"))[1]
    screen = PaintedScreen(load_image(frame))
    reader = BoardReader(load_skins())
    window = GameWindow(screen, reader, Recorder(tmp_path / "rec"), say=lambda text: None)
    reading = window.locate()
    assert reading.status == "playing" and reading.certain
    mouse = Desktop(top)
    check = ClickCheck(window, mouse)
    assert window.geometry is not None
    check.new_game(window.geometry)
    check.begin(*window.grab_reading())
    return screen, window, check


def _paint(screen: PaintedScreen, window: GameWindow, cell: tuple[int, int], value: int) -> None:
    """Fill the middle of `cell` on the screen with one grey level."""
    g = window.geometry
    assert g is not None
    x, y = g.cell_center(*cell)
    half = int(g.cell_w // 3)
    screen.image[y - half : y + half, x - half : x + half] = value


def _cells(window: GameWindow, check: ClickCheck) -> tuple[tuple[int, int], tuple[int, int]]:
    """A covered cell with an open number beside it, and that number."""
    assert check.basis is not None
    board = check.basis.reading.board
    for cell in board.cells():
        if board[cell] != COVERED:
            continue
        r, c = cell
        for n in board.cells():
            if max(abs(n[0] - r), abs(n[1] - c)) == 1 and board[n] in NUMBERS:
                return cell, n
    raise AssertionError("no covered cell beside a number on this frame")


def _point(window: GameWindow, cell: tuple[int, int]) -> tuple[int, int]:
    g = window.geometry
    assert g is not None
    return g.cell_center(*cell)


def test_a_board_as_planned_passes_and_a_changed_cell_or_neighbour_is_refused(
    tmp_path: Path,
) -> None:
    screen, window, check = _setup(tmp_path)
    target, _ = _cells(window, check)
    check.before(*target, *_point(window, target), "flag")  # nothing changed: allowed
    # The next click waits for that flag to show: it never does here.
    other = next(
        cell
        for cell in check.basis.reading.board.cells()  # type: ignore[union-attr]
        if check.basis is not None
        and check.basis.reading.board[cell] == COVERED
        and max(abs(cell[0] - target[0]), abs(cell[1] - target[1])) > 2
    )
    with pytest.raises(NotInPlace, match="did not show"):
        check.before(*other, *_point(window, other), "open")
    # Once it shows (the clone drew the flag), the next click goes ahead.
    _paint(screen, window, target, 255)
    check.before(*other, *_point(window, other), "open")

    # A person's new game covers the open number beside a covered cell: the
    # click there is refused, naming that neighbour.
    screen2, window2, check2 = _setup(tmp_path / "b")
    target2, number2 = _cells(window2, check2)
    _paint(screen2, window2, number2, 0)
    with pytest.raises(
        NotInPlace, match=f"open neighbour {number2}".replace("(", r"\(").replace(")", r"\)")
    ):
        check2.before(*target2, *_point(window2, target2), "open")
    # The cell itself changed (an earlier click's cascade opened it).
    screen3, window3, check3 = _setup(tmp_path / "c")
    target3, _ = _cells(window3, check3)
    _paint(screen3, window3, target3, 0)
    with pytest.raises(NotInPlace, match="the cell no longer shows"):
        check3.before(*target3, *_point(window3, target3), "open")


def test_a_change_below_the_threshold_is_no_change(tmp_path: Path) -> None:
    """The threshold is a mean: a few pixels (a pointer's trail, noise) pass."""
    screen, window, check = _setup(tmp_path)
    target, number = _cells(window, check)
    g = window.geometry
    assert g is not None
    x, y = g.cell_center(*number)
    screen.image[y, x] = 255 - screen.image[y, x]  # one pixel of the neighbour
    check.before(*target, *_point(window, target), "open")
    assert CHANGED > 0


def test_another_window_under_the_point_stops_naming_it(tmp_path: Path) -> None:
    _, window, check = _setup(tmp_path, top=7)
    target, _ = _cells(window, check)
    check.mouse = Desktop(9)  # a window mapped over the board since the game began
    with pytest.raises(PlayError, match=r"another window .* lies under cell") as caught:
        check.before(*target, *_point(window, target), "open")
    assert not isinstance(caught.value, NotInPlace)
    check.mouse = Desktop(0)  # the clone's window is gone: the bare desktop
    gone = "the board vanished from the screen: no window lies under cell"
    with pytest.raises(PlayError, match=gone):
        check.before(*target, *_point(window, target), "open")
    check.mouse = Desktop(0, shown=False)  # closed or minimised: the desktop says so
    with pytest.raises(PlayError, match=gone):
        check.before(*target, *_point(window, target), "open")
    # Its window still on the screen, elsewhere: moved (caught mid-move, before it
    # drew itself at its new place, the pixels could not tell it from closed).
    check.mouse = Desktop(0, shown=True)
    moved = r"the board moved: its window no longer lies under cell"
    with pytest.raises(PlayError, match=moved):
        check.before(*target, *_point(window, target), "open")
    check.mouse = Desktop(None)  # a desktop that cannot say: the pixels judge alone
    check.before(*target, *_point(window, target), "open")


def test_clicks_outside_a_batch_are_checked_for_their_window_only(tmp_path: Path) -> None:
    screen, window, check = _setup(tmp_path)
    target, number = _cells(window, check)
    check.end()
    _paint(screen, window, number, 0)
    check.before(*target, *_point(window, target), "open")  # a retry, a learner's probe
    check.mouse = Desktop(9)
    with pytest.raises(PlayError, match="another window"):
        check.before(*target, *_point(window, target), "open")


def test_an_edge_no_window_hides_is_not_said_hidden_by_one(tmp_path: Path) -> None:
    # The board's border no longer closes its left side, and the desktop says
    # the board's own window lies all over it: the stop names no other window.
    screen, window, check = _setup(tmp_path, top=7)
    window.desktop = check.at_board
    g = window.geometry
    assert g is not None
    left, top = int(g.left), int(g.top)
    screen.image[top : top + int(g.height), left - 12 : left - 1] = 128  # a box the clone drew
    said = window.diagnose()
    assert said.startswith("the board could not be located again: its border does not close")
    assert "no other window lies over it" in said and "left" in said
    check.mouse = Desktop(9)  # another window's, at every point of the board
    assert window.diagnose().startswith("another window (id 0x9) lies over the board")


class SplitDesktop(Desktop):
    """Window `top` over the board's middle (x inside `span`), the board's own
    window (7) elsewhere; `clients` says which program made each window."""

    def __init__(self, top: int, span: tuple[int, int], clients: dict[int, int | None]) -> None:
        super().__init__(top)
        self.span = span
        self.clients = clients

    def window_at(self, x: int, y: int) -> int | None:
        return self.top if self.span[0] <= x < self.span[1] else 7

    def client_at(self, x: int, y: int) -> int | None:
        top = self.window_at(x, y)
        return None if top is None else self.clients[top]


def test_a_dialog_over_the_board_is_the_clones_own_only_when_its_program_made_it(
    tmp_path: Path,
) -> None:
    # Zoo seed 1241272897: the clone's "You won" dialog (its button the learned
    # restart) over the board's middle stopped the run ("another window lies
    # over the board") once learning was done.
    _, window, check = _setup(tmp_path, top=7)
    g = window.geometry
    assert g is not None
    middle = (int(g.left + g.width / 3), int(g.left + 2 * g.width / 3))
    check.mouse = SplitDesktop(9, middle, {7: 0x400000, 9: 0x400000})
    assert check.own_dialog_over()
    check.mouse = SplitDesktop(9, middle, {7: 0x400000, 9: 0x600000})  # another program's
    assert not check.own_dialog_over()
    check.mouse = SplitDesktop(9, middle, {7: 0x400000, 9: None})  # the desktop cannot say
    assert not check.own_dialog_over()
    check.mouse = SplitDesktop(7, middle, {7: 0x400000})  # nothing over the board
    assert not check.own_dialog_over()
    # Zoo seed 735280737: its "Congratulations" dialog over the whole of a small
    # board was "another window over the board", and the run stopped.
    whole = (0, 10**6)
    check.mouse = SplitDesktop(9, middle, {7: 0x400000, 9: 0x400000})
    assert check.own_dialog_over()  # the board's program seen, as before the dialog grew
    check.mouse = SplitDesktop(9, whole, {7: 0x400000, 9: 0x400000})
    assert check.own_dialog_over()
    check.mouse = SplitDesktop(9, whole, {7: 0x400000, 9: 0x600000})  # another program's
    assert not check.own_dialog_over()
    _, window, unknown = _setup(tmp_path / "unknown", top=7)  # no program ever said
    unknown.mouse = SplitDesktop(9, whole, {7: 0x400000, 9: 0x400000})
    assert not unknown.own_dialog_over()


def test_the_clones_own_window_under_a_cell_is_not_named_another(tmp_path: Path) -> None:
    # Zoo seed 1394987744 (the 40-clone run with seed 131062500): the clone's
    # own end-of-game dialog under the next click stopped the run as "another
    # window ... not the board's": a wrong cause. It is named the clone's, and
    # refuses the click without a stop (`NotInPlace`): the loop reads the
    # screen again, which shows the end (KMines' "You have won!", come up
    # within a batch of certain clicks under load, stopped its learning).
    _, window, check = _setup(tmp_path, top=7)
    target, _ = _cells(window, check)
    x, y = _point(window, target)
    check.own_client = 0x400000
    check.mouse = SplitDesktop(9, (x, x + 1), {7: 0x400000, 9: 0x400000})
    with pytest.raises(NotInPlace, match=r"^a window of the clone itself .* lies under cell"):
        check.before(*target, x, y, "open")
    check.mouse = SplitDesktop(9, (x, x + 1), {7: 0x400000, 9: 0x600000})  # another program's
    with pytest.raises(PlayError, match=r"^another window .* lies under cell") as stop:
        check.before(*target, x, y, "open")
    assert not isinstance(stop.value, NotInPlace)
