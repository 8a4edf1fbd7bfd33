"""`bot.learning.other_game.end_other_game`: a game of another size that a level
menu started is ended by opening its cells, until the way back to the menu
shows (zoo seeds 650718506 and 374625599: their way back is the "Play" of the
dialog a game ends with; the search stopped, "a button opened another screen")."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import cv2
import numpy as np
import pytest

from bot.learning import other_game
from bot.learning.other_game import MOST_OPENS, end_other_game
from vision.capture import Region


@pytest.fixture(autouse=True)
def _no_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(other_game, "OPEN_WAIT", 0.0)


DATA = Path(__file__).parent / "data" / "zoo" / "seed-650718506"
#: msbot's region on the screen, and the clone's 8x8 cells there (its truth):
#: x from 275, y from 262, 20 px apart, 19 px wide.
ORIGIN = (114, 68)


def _player(picture: np.ndarray) -> tuple[Any, list[tuple[int, int]]]:
    clicks: list[tuple[int, int]] = []
    bound: dict[str, Any] = {}

    def open_(r: int, c: int, why: str) -> Any:
        g = bound["geo"]
        clicks.append((round(g.left + (c + 0.5) * g.cell_w), round(g.top + (r + 0.5) * g.cell_h)))
        return SimpleNamespace(to_json=lambda: {})

    window = SimpleNamespace(
        screen=SimpleNamespace(grab=lambda region: picture),
        region=Region(ORIGIN[0], ORIGIN[1], picture.shape[1], picture.shape[0]),
    )
    actuator = SimpleNamespace(
        mouse=None,
        bind=lambda geo, controls={}: bound.update(geo=geo),
        open=open_,
    )
    recorder = SimpleNamespace(action=lambda *a, **k: None)
    player = SimpleNamespace(
        window=window, actuator=actuator, recorder=recorder, actions=0, game=2, frame_name=None
    )
    return cast(Any, player), clicks


def test_the_other_levels_fresh_board_is_opened_until_the_way_back_shows() -> None:
    picture = cv2.imread(str(DATA / "other-level.png"))
    player, clicks = _player(picture)
    asked = iter([False] * 5 + [True])
    assert end_other_game(player, None, lambda: next(asked))
    assert len(clicks) == 5 and len(set(clicks)) == 5  # five cells, each once
    for x, y in clicks:  # each in the middle of one of the clone's cells
        assert (x - 275) % 20 in range(4, 16) and 0 <= (x - 275) // 20 < 8
        assert (y - 262) % 20 in range(4, 16) and 0 <= (y - 262) // 20 < 8
    assert player.actions == 5


def test_no_fresh_board_no_click() -> None:
    """The window's grey where a board would be: nothing is opened."""
    picture = cv2.imread(str(DATA / "other-level.png"))
    blank = np.full_like(picture, picture[5, 5])
    player, clicks = _player(blank)
    assert not end_other_game(player, None, lambda: False)
    assert clicks == []


def test_a_game_that_does_not_end_is_left_after_so_many_opens() -> None:
    picture = cv2.imread(str(DATA / "other-level.png"))
    player, clicks = _player(picture)
    assert not end_other_game(player, None, lambda: False)
    assert len(clicks) == len(set(clicks)) == MOST_OPENS  # each cell once, no more


def test_the_line_of_a_toolbar_beside_the_board_is_never_opened() -> None:
    """Zoo seed 762546751: five buttons drawn like covered cells above the
    board were the grid's first row here, and every open was meant a row
    lower (a toolbar button may lie under one). Where the learner found a
    toolbar, the grid's outer line on that side is left alone."""
    learned = [(0.0, -41.0, 41.0, 0.0), (41.0, -41.0, 82.0, 0.0)]  # above a 200x100 board
    assert other_game.toolbar_sides(learned, 200, 100) == {"top"}
    assert other_game.toolbar_sides([(-30.0, 10.0, -2.0, 40.0)], 200, 100) == {"left"}
    assert other_game.toolbar_sides([(10.0, 104.0, 40.0, 130.0)], 200, 100) == {"bottom"}
    picture = cv2.imread(str(DATA / "other-level.png"))
    player, clicks = _player(picture)
    sides = frozenset({"top", "left"})
    assert not end_other_game(player, None, lambda: False, sides=sides)
    assert len(clicks) == 7 * 7  # every cell but the first row's and column's
    assert all((x - 275) // 20 >= 1 and (y - 262) // 20 >= 1 for x, y in clicks)
