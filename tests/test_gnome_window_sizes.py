"""GNOME Mines at window sizes no recording and no skin tile was taken at.

GNOME Mines scales its cells with the window and renders its digits with
other hinting at each size; the reader must either read them right or say
it cannot, never misread (QA's Q2: at 26 px, 2s were read as sure 1s and
games were lost on moves the solver called certain). A real clone plays one
whole game at each size: the run must end in a win or a loss on a guess
(exit 0), not in a stop or a loss on a certain move.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from bot_runs import assert_played_to_the_end, play
from displays import worker_display

from harness.clones import RunningClone
from harness.xdisplay import VirtualDisplay

LaunchClone = Callable[..., RunningClone]

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.clone


@pytest.mark.parametrize(
    ("size", "window", "pitch"),
    [("intermediate", (560, 560), 23), ("expert", (1000, 560), 26)],
)
def test_gnome_mines_plays_a_whole_game_at_an_unrecorded_cell_size(
    virtual_display: VirtualDisplay,
    clone: LaunchClone,
    size: str,
    window: tuple[int, int],
    pitch: int,
    tmp_path: Path,
) -> None:
    clone("gnome-mines", size, position=(150, 120), window_size=window)
    run = play(virtual_display.display, "--games", "1", "--record", str(tmp_path), timeout=120)
    assert_played_to_the_end(run, 1)
    first = json.loads((tmp_path / "readings.jsonl").read_text().splitlines()[0])
    assert round(first["geometry"]["cell_w"]) == pitch  # the size meant, not a recorded one


def test_gnome_mines_plays_with_cells_of_about_150_px(tmp_path: Path) -> None:
    """A beginner board in a 1400x1420 window on a tall screen: cells of about
    150 px, where the lattice finder used to give up at about 115 px ("no
    board found")."""
    from harness.clones import launch_clone
    from harness.xdisplay import xvfb_available

    if not xvfb_available():
        pytest.skip("Xvfb is not installed")
    with (
        worker_display(1920, 1440) as xd,
        launch_clone("gnome-mines", "beginner", xd, (20, 0), window_size=(1400, 1420)),
    ):
        run = play(xd.display, "--games", "1", "--record", str(tmp_path), timeout=120)
        assert_played_to_the_end(run, 1)
    first = json.loads((tmp_path / "readings.jsonl").read_text().splitlines()[0])
    assert first["geometry"]["rows"] == 8 and first["geometry"]["cols"] == 8
    assert first["geometry"]["cell_w"] > 140
