"""Before a restart, the board must still be there (`Waiter.still_there`): never a
blind click where the board was. A restart that only presses keys clicks
nowhere, so the clone's own window still lying all over the board's place is
enough, whatever the clone draws over its cells: a zoo page (seed 916127077)
covered its small board with a "BOOM!" notice, and msbot stopped there with
"the board can no longer be read to restart the game" though its learned
restart was the Return key."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot.errors import PlayError
from bot.play.waiting import Waiter
from vision.geometry import Geometry


def _waiter(desktop: str) -> Waiter:
    geo = Geometry(0.0, 0.0, 19, 17, 7, 5)
    # Every cell unread: the notice covers them.
    unknown = [SimpleNamespace(row=r, col=c) for r in range(7) for c in range(5)]
    reading = SimpleNamespace(geometry=geo, unknown=unknown)
    window = SimpleNamespace(
        grab_reading=lambda: (None, reading),
        framed=lambda image: False,
        follow=lambda: None,
        desktop=lambda: (desktop, ""),
        with_cause=lambda text: text,
        stop=lambda text, image=None: PlayError(text),
        margin=0,
    )
    ticks = iter(range(1000))
    waiter = Waiter(
        cast(Any, window),
        cast(Any, None),
        cast(Any, None),
        cast(Any, SimpleNamespace(check=lambda: None)),
        lambda reading, image: None,
        lambda action: None,
        clock=lambda: float(next(ticks)),
    )
    return waiter


def test_a_key_restart_needs_only_the_clones_window_over_the_board() -> None:
    reading = _waiter("own").still_there(5.0, 0.1, keys_only=True)
    assert len(reading.unknown) == 35


def test_a_click_restart_still_needs_the_board_read() -> None:
    with pytest.raises(PlayError, match="can no longer be read"):
        _waiter("own").still_there(5.0, 0.1, keys_only=False)


def test_a_key_restart_is_not_sent_where_the_window_is_gone() -> None:
    with pytest.raises(PlayError, match="can no longer be read"):
        _waiter("gone").still_there(5.0, 0.1, keys_only=True)
