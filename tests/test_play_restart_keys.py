"""Before a restart, the board must still be there (`Waiter.still_there`): never a
blind click where the board was. A restart that only presses keys clicks
nowhere, so the clone's own window still lying all over the board's place is
enough, whatever the clone draws over its cells: a zoo page (seed 916127077)
covered its small board with a "BOOM!" notice, and msbot stopped there with
"the board can no longer be read to restart the game" though its learned
restart was the Return key. A restart that clicks a control may do so once the
picture shows that control, where it is now."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot.errors import PlayError
from bot.play.waiting import Waiter
from vision.geometry import Geometry


def _waiter(desktop: str, controls: dict[str, tuple[int, int]] | None = None) -> Waiter:
    geo = Geometry(0.0, 0.0, 19, 17, 7, 5)
    # Every cell unread: the notice covers them.
    unknown = [SimpleNamespace(row=r, col=c) for r in range(7) for c in range(5)]
    reading = SimpleNamespace(geometry=geo, unknown=unknown, controls=controls or {})
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
    reading = _waiter("own").still_there(5.0, 0.1, controls=[])
    assert len(reading.unknown) == 35


def test_a_click_restart_needs_the_board_read_or_its_control_seen() -> None:
    # Zoo seed 1477126833: a page's "Congratulations" box over half of its
    # board, its "Restart" button below it in view; msbot stopped there.
    with pytest.raises(PlayError, match="can no longer be read"):
        _waiter("own").still_there(5.0, 0.1)
    with pytest.raises(PlayError, match="can no longer be read"):
        _waiter("own").still_there(5.0, 0.1, controls=["restart"])
    seen = _waiter("own", {"restart": (40, 90)})
    reading = seen.still_there(5.0, 0.1, controls=["restart"])
    assert len(reading.unknown) == 35


def test_a_key_restart_is_not_sent_where_the_window_is_gone() -> None:
    with pytest.raises(PlayError, match="can no longer be read"):
        _waiter("gone").still_there(5.0, 0.1, controls=[])
    with pytest.raises(PlayError, match="can no longer be read"):
        _waiter("gone", {"restart": (40, 90)}).still_there(5.0, 0.1, controls=["restart"])


def test_a_new_game_a_few_pixels_aside_is_followed() -> None:
    """Zoo seed 1300258009: the window grew with each new game (its board 4 px
    aside) and shrank back two seconds later; the new games went unseen where
    the board had been, and the restart was made again, into the clone's level
    menu, until no restart was found. The board is followed where it is."""
    from bot.board import Board

    geo = Geometry(0.0, 0.0, 19, 17, 7, 5)
    aside = Geometry(4.0, 0.0, 19, 17, 7, 5)
    final = SimpleNamespace(board=Board(("12...",) * 7), geometry=geo)
    unknown = [SimpleNamespace(row=r, col=c) for r in range(7) for c in range(5)]
    where = {"geo": geo}
    unread = SimpleNamespace(geometry=geo, unknown=unknown, status="playing")
    fresh = SimpleNamespace(
        geometry=aside,
        unknown=[],
        status="playing",
        board=Board.covered(7, 5),
        edges_read=lambda: True,
    )

    def follow() -> Geometry | None:
        moved = where["geo"] != aside
        where["geo"] = aside
        return aside if moved else None

    window = SimpleNamespace(
        grab_reading=lambda: (None, fresh if where["geo"] == aside else unread),
        closed=lambda image: True,
        follow=follow,
        with_cause=lambda text: text,
        stop=lambda text, image=None: PlayError(text),
    )
    bound: list[Geometry] = []
    actuator = SimpleNamespace(controls={}, bind=lambda g, controls: bound.append(g))
    ticks = iter(range(1000))
    waiter = Waiter(
        cast(Any, window),
        cast(Any, actuator),
        cast(Any, SimpleNamespace(dry_run=False)),
        cast(Any, SimpleNamespace(check=lambda: None)),
        lambda reading, image: None,
        lambda action: None,
        clock=lambda: float(next(ticks)),
    )
    reading = waiter.wait_new_game(cast(Any, final), "press n", 5.0, last_try=False)
    assert reading is fresh and bound == [aside]


def test_a_restart_step_after_a_click_is_looked_for_with_the_pointer_off_the_window() -> None:
    """Zoo seed 650718506: its learned restart clicks a dialog's "Play", then a
    level of the menu that opens. The pointer, left on "Play", rested on that
    level once the menu came and lit it up; the level's picture was not found,
    and the restart was looked for again from scratch."""
    from bot.play.loop import Player

    events: list[tuple[str, object]] = []
    controls = {"restart": (444, 417), "menu": (371, 414)}

    def find_control(name: str, now: object, patience: float | None) -> dict[str, tuple[int, int]]:
        events.append(("find", name))
        return controls

    player = SimpleNamespace(
        actuator=SimpleNamespace(
            mouse=SimpleNamespace(move=lambda x, y: events.append(("move", (x, y)))),
            bind=lambda geo, found: None,
            click_control=lambda name, why: (
                events.append(("click", name)) or SimpleNamespace(to_json=lambda: {})
            ),
            press_key=lambda key, why: (
                events.append(("key", key)) or SimpleNamespace(to_json=lambda: {})
            ),
        ),
        waiter=SimpleNamespace(find_control=find_control),
        window=SimpleNamespace(away_point=lambda: (238, 226)),
        recorder=SimpleNamespace(action=lambda *a, **k: None),
        actions=0,
        game=3,
        frame_name=None,
    )
    final = SimpleNamespace(geometry=Geometry(0.0, 0.0, 20, 20, 14, 17))
    Player.restart_steps(
        cast(Any, player), ("key:Escape", "restart", "menu"), cast(Any, final), cast(Any, None)
    )
    assert events == [
        ("key", "Escape"),
        ("move", (238, 226)),  # a step after another: the pointer off the window first
        ("find", "restart"),
        ("click", "restart"),
        ("move", (238, 226)),
        ("find", "menu"),
        ("click", "menu"),
    ]
