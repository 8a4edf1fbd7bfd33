"""A learned counter's total, and a counter reading that disagrees with msbot's own flags.

The web clone at 16x16/40 read "19 mines left" as 9 (a "1" drawn at a place
the counter was never learned at): learning stopped on the contradiction with
the 21 flags msbot had placed. With the total proven at the game's start and
every flag msbot's own, the mines left are known without the counter, so its
reading is set aside; any other disagreement is still a problem.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from bot.board import Board
from bot.play.consistency import counter_problems
from bot.play.skinplay import learned_total
from bot.play.waiting import Pending, Waiter


def _located(extra: dict[str, object] | None) -> Any:
    counter = None if extra is None else SimpleNamespace(extra=extra)
    return SimpleNamespace(skin=SimpleNamespace(counter=counter))


def _misread(located: Any, board: Board, pending: Pending) -> bool:
    waiter = cast(Waiter, SimpleNamespace(window=SimpleNamespace(located=located)))
    return Waiter.counter_misread(waiter, board, pending)


BOARD = Board(("F1..", "11..", "...."))


def test_the_learned_total_is_the_counters_own() -> None:
    assert learned_total(_located({"format": "left", "total": 40})) == 40
    assert learned_total(_located({"format": "left"})) is None  # a built-in counter
    assert learned_total(_located(None)) is None
    assert learned_total(None) is None


def test_a_counter_disagreeing_with_msbots_own_flags_is_the_misread() -> None:
    located = _located({"format": "left", "total": 3})
    pending = Pending(total=3, all_flagged={(0, 0)})
    assert counter_problems(BOARD, 0, 3)  # "0 left with 1 flag, but 3 mines"
    assert _misread(located, BOARD, pending)


def test_any_other_disagreement_stays_a_problem() -> None:
    located = _located({"format": "left", "total": 3})
    # A flag msbot did not place: the board may be what is wrong.
    assert not _misread(located, BOARD, Pending(total=3, all_flagged=set()))
    # A total other than the one learned.
    assert not _misread(located, BOARD, Pending(total=4, all_flagged={(0, 0)}))
    # A built-in counter (no learned total).
    assert not _misread(_located({"format": "left"}), BOARD, Pending(3, all_flagged={(0, 0)}))
