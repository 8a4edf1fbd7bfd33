"""Windows, macOS and Wayland, on a Linux machine: the live screen and mouse with
each platform's calls faked at the module boundary (mss, pyautogui, ctypes'
windll), and the pixel-to-point mapping at every desktop scale. What ran on a
real machine of each kind is in the README ("Platforms"); here only X11 runs
for real (tests/test_capture.py, tests/test_actuator.py)."""

from __future__ import annotations

import sys
import types
from typing import Any

import numpy as np
import pytest

from bot.actuator import Actuator
from bot.actuator.points import PointMap
from bot.errors import ActuatorError, VisionError
from vision.capture import Region
from vision.geometry import Geometry

SCALES = [1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 1.1]


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("origin", [(0, 0), (-1920, 0), (-1280, -400), (1920, 0)])
def test_every_pixel_maps_to_the_point_under_it_and_back(
    scale: float, origin: tuple[int, int]
) -> None:
    """A capture of 3840x1080 pixels over the mouse's space at `scale` pixels per
    point, its corner at `origin` points: a pixel's point covers that pixel, and
    the point's own centre pixel maps back to it."""
    mouse_size = (3840 / scale, 1080 / scale)
    points = PointMap.measure((3840, 1080), origin, mouse_size)
    assert (points.scale_x, points.scale_y) == (pytest.approx(scale), pytest.approx(scale))
    xs = np.arange(0, 3840, 7)
    for x in xs:
        mx, my = points.to_mouse(int(x), 500)
        # The point's span of pixels holds x.
        left = (mx - origin[0]) * scale
        assert left - 1e-6 <= x + 0.5 < left + scale + 1e-6
        assert points.to_mouse(*points.to_pixels(mx, my)) == (mx, my)
    assert points.to_mouse(0, 0) == (origin[0], origin[1])


def test_a_board_on_a_second_monitor_is_clicked_inside_its_cells() -> None:
    """Two monitors side by side, the left one at negative points; a board on the
    left one at 150 %: every cell's click lands in that cell."""
    points = PointMap.measure((2 * 2880, 1620), (-1920, 0), (2 * 1920, 1080))

    class Recorded:
        def __init__(self) -> None:
            self.points = points
            self.clicks: list[tuple[int, int]] = []

    board = Geometry(400.0, 300.0, 36.0, 36.0, 16, 30)
    for row in range(board.rows):
        for col in range(board.cols):
            x, y = board.cell_center(row, col)
            back = points.to_pixels(*points.to_mouse(x, y))
            assert board.cell_at(*back) == (row, col)


def test_the_actuator_refuses_a_click_that_the_mapping_would_put_beside_its_cell() -> None:
    from bot.actuator import DryRunMouse

    mouse = DryRunMouse()
    # 5 pixels per point and 4-pixel cells: some cells' centre points lie
    # mostly in the neighbour (a contrived desktop: the rule is what is tested).
    mouse.points = PointMap(5.0, 5.0, 0.0, 0.0)
    actuator = Actuator(mouse)
    actuator.bind(Geometry(0.0, 0.0, 4.0, 4.0, 4, 4))
    refused = 0
    for row in range(4):
        for col in range(4):
            try:
                actuator.open(row, col)
            except ActuatorError as exc:
                assert "beside cell" in str(exc)
                refused += 1
    assert 0 < refused < 16


def test_implausible_mappings_are_refused() -> None:
    with pytest.raises(ActuatorError, match="do not match"):
        PointMap.measure((1920, 1080), (0, 0), (192, 108))
    with pytest.raises(ActuatorError, match="cannot map"):
        PointMap.measure((0, 1080), (0, 0), (1920, 1080))


class FakeShot:
    def __init__(self, pixels: np.ndarray) -> None:
        self.height, self.width = pixels.shape[:2]
        self.bgra = pixels.tobytes()


def fake_mss(scale: int, desktop: np.ndarray, left: int, top: int) -> types.ModuleType:
    """An `mss` whose desktop is `desktop` (BGRA pixels) at `scale` pixels per
    unit, its corner at (left, top) units."""
    module = types.ModuleType("mss")
    made: list[dict[str, Any]] = []

    class MSS:
        def __init__(self, **kwargs: Any) -> None:
            made.append(kwargs)
            h, w = desktop.shape[:2]
            self.monitors = [{"left": left, "top": top, "width": w // scale, "height": h // scale}]

        def grab(self, box: dict[str, int]) -> FakeShot:
            x0, y0 = (box["left"] - left) * scale, (box["top"] - top) * scale
            part = desktop[y0 : y0 + box["height"] * scale, x0 : x0 + box["width"] * scale]
            return FakeShot(np.ascontiguousarray(part))

        def close(self) -> None:
            pass

    module.MSS = MSS  # type: ignore[attr-defined]
    module.made = made  # type: ignore[attr-defined]
    return module


def test_a_retina_capture_gives_pixels_for_pixel_regions(monkeypatch: pytest.MonkeyPatch) -> None:
    """macOS: mss counts points, a Retina grab gives two pixels per point; the
    screen's coordinates stay pixels, every region exactly its size."""
    from vision.capture.live import LiveScreen

    rng = np.random.default_rng(0)
    desktop = rng.integers(0, 255, (800, 1200, 4), dtype=np.uint8)
    monkeypatch.setitem(sys.modules, "mss", fake_mss(2, desktop, 0, 0))
    screen = LiveScreen(platform="darwin")
    assert screen.scale == 2.0 and screen.size == (1200, 800) and screen.display == ""
    for region in [Region(0, 0, 10, 10), Region(101, 33, 57, 21), Region(1199, 799, 1, 1)]:
        got = screen.grab(region)
        want = desktop[region.top : region.bottom, region.left : region.right, :3]
        assert got.shape == (region.height, region.width, 3) and np.array_equal(got, want)
    points = PointMap.measure(screen.size, screen.origin, screen.extent)
    assert (points.scale_x, points.to_mouse(101, 33)) == (2.0, (50, 16))


def test_windows_declares_dpi_awareness_before_capturing(monkeypatch: pytest.MonkeyPatch) -> None:
    import ctypes

    from vision.capture.live import LiveScreen

    calls: list[str] = []
    shcore = types.SimpleNamespace(
        SetProcessDpiAwareness=lambda level: calls.append(f"shcore {level}")
    )
    monkeypatch.setattr(ctypes, "windll", types.SimpleNamespace(shcore=shcore), raising=False)
    desktop = np.zeros((600, 800, 4), np.uint8)
    mss = fake_mss(1, desktop, -800, 0)  # a second monitor left of the primary
    monkeypatch.setitem(sys.modules, "mss", mss)
    screen = LiveScreen(platform="win32")
    assert calls == ["shcore 2"] and mss.made == [{}]  # type: ignore[attr-defined]
    assert screen.origin == (-800, 0) and screen.size == (800, 600)
    points = PointMap.measure(screen.size, screen.origin, screen.extent)
    assert points.to_mouse(0, 0) == (-800, 0)
    with pytest.raises(VisionError, match="--display is an X11 option"):
        LiveScreen(":0", platform="win32")


def test_a_wayland_session_gets_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.capture.live import LiveScreen

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    with pytest.raises(VisionError, match="Wayland session without an X display"):
        LiveScreen(platform="linux")


def test_pyautogui_clicks_at_the_mapped_points(monkeypatch: pytest.MonkeyPatch) -> None:
    """macOS at 200 %: the pixel a cell's centre is at becomes the point under it."""
    from bot.actuator.live import PyAutoGuiMouse

    clicked: list[tuple[Any, ...]] = []
    gui = types.ModuleType("pyautogui")
    gui.click = lambda x, y, button: clicked.append((x, y, button))  # type: ignore[attr-defined]
    gui.moveTo = lambda x, y: clicked.append(("move", x, y))  # type: ignore[attr-defined]
    gui.position = lambda: (50, 16)  # type: ignore[attr-defined]
    gui.FailSafeException = RuntimeError  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pyautogui", gui)
    mouse = PyAutoGuiMouse(points=PointMap(2.0, 2.0, 0.0, 0.0), platform="darwin")
    mouse.click(101, 33, "left")
    mouse.move(11, 9)
    assert clicked == [(50, 16, "left"), ("move", 5, 4)]
    assert mouse.points.to_mouse(*mouse.position()) == (50, 16)
    assert mouse.window_class_at(10, 10) == ""  # no X11 to ask


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_each_backend_clicks_every_cell_inside_it_at_every_scale(
    monkeypatch: pytest.MonkeyPatch, platform: str, scale: float
) -> None:
    """Windows and macOS backends (pyautogui faked): an expert board of 20-point
    cells captured at `scale` pixels per point on a monitor left of the primary;
    the point each cell's click goes to lies inside that cell on the mouse's
    screen. (X11 clicks for real in tests/test_actuator.py.)"""
    from bot.actuator.live import PyAutoGuiMouse

    clicked: list[tuple[int, int]] = []
    gui = types.ModuleType("pyautogui")
    gui.click = lambda x, y, button: clicked.append((x, y))  # type: ignore[attr-defined]
    gui.FailSafeException = RuntimeError  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pyautogui", gui)
    origin, points_size = (-1600, -200), (1600, 900)
    capture = (round(points_size[0] * scale), round(points_size[1] * scale))
    mouse = PyAutoGuiMouse(points=PointMap.measure(capture, origin, points_size), platform=platform)
    # The board at (100, 80) points, 30 x 16 cells of 20 points, in capture pixels.
    geo = Geometry(100 * scale, 80 * scale, 20 * scale, 20 * scale, 16, 30)
    for row in range(geo.rows):
        for col in range(geo.cols):
            mouse.click(*geo.cell_center(row, col), "left")
            x, y = clicked[-1]
            left, top = origin[0] + 100 + 20 * col, origin[1] + 80 + 20 * row
            assert left < x < left + 20 and top < y < top + 20, (row, col, x, y)
