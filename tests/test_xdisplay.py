"""VirtualDisplay: a real Xvfb that accepts connections, at a free number, always stopped."""

from __future__ import annotations

import pytest
from displays import worker_display
from processes import process_running
from Xlib import display as xlib_display

from harness.xdisplay import DisplayError, VirtualDisplay, display_in_use, xvfb_available

needs_xvfb = pytest.mark.skipif(not xvfb_available(), reason="Xvfb is not installed")


def screen_size(name: str) -> tuple[int, int]:
    """The root window size, asked over a real X connection."""
    conn = xlib_display.Display(name)
    try:
        screen = conn.screen()
        return screen.width_in_pixels, screen.height_in_pixels
    finally:
        conn.close()


@needs_xvfb
@pytest.mark.display
def test_display_accepts_connections_at_the_asked_size() -> None:
    with worker_display(640, 480) as xd:
        number, pid = xd.number, xd.pid
        assert number is not None and number >= 100
        assert xd.display == f":{number}"
        assert xd.env["DISPLAY"] == xd.display
        assert screen_size(xd.display) == (640, 480)
        assert display_in_use(number)
    assert pid is not None and not process_running(pid)
    assert not display_in_use(number)


@needs_xvfb
@pytest.mark.display
def test_stopped_even_when_the_body_fails() -> None:
    xd = worker_display(320, 240)
    with pytest.raises(RuntimeError), xd:
        number, pid = xd.number, xd.pid
        raise RuntimeError("test body failed")
    assert xd.pid is None
    assert number is not None and not display_in_use(number)
    assert pid is not None and not process_running(pid)


@needs_xvfb
@pytest.mark.display
def test_a_display_in_use_is_skipped() -> None:
    with worker_display(320, 240) as first:
        assert first.number is not None
        with VirtualDisplay(200, 100, first=first.number) as second:
            assert second.number is not None and second.number > first.number
            assert screen_size(second.display) == (200, 100)
            assert screen_size(first.display) == (320, 240)


@needs_xvfb
@pytest.mark.display
def test_stop_is_idempotent() -> None:
    xd = worker_display(320, 240).start()
    pid = xd.pid
    xd.stop()
    xd.stop()
    assert pid is not None and not process_running(pid)


def test_missing_xvfb_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(DisplayError, match="Xvfb is not installed"):
        worker_display(320, 240).start()


def test_display_name_before_start_is_an_error() -> None:
    with pytest.raises(DisplayError, match="not started"):
        _ = VirtualDisplay().display
