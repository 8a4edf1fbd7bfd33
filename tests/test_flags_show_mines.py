"""A clone that shows its mines where msbot flagged ends the game for the learner.

xbomb draws every mine as a bomb on red when a game is won, flagged ones too.
Once a lost game had named that picture a shown mine ('*'), the next won game
read "flag vanished (now '*')" on every flag and learning stopped on the
contradiction (the suite's xbomb run). Every flag msbot placed showing a mine at
once is the clone's end, which the learner's probe then confirms.
"""

from __future__ import annotations

from bot.board import Board
from bot.play.consistency import flags_show_mines

PREV = Board(("F1..", "11..", "...F"))


def test_every_flag_showing_a_mine_is_the_clones_end() -> None:
    assert flags_show_mines(PREV, Board(("*1..", "11..", "...*")), {(0, 0), (2, 3)})
    assert flags_show_mines(PREV, Board(("*11.", "11.1", "..1!")), {(0, 0), (2, 3)})


def test_a_flag_still_shown_or_no_flag_of_msbot_is_not() -> None:
    assert not flags_show_mines(PREV, Board(("*1..", "11..", "...F")), {(0, 0), (2, 3)})
    # Flags msbot did not place (a person's) say nothing.
    assert not flags_show_mines(PREV, Board(("*1..", "11..", "...*")), set())
    assert not flags_show_mines(PREV, Board(("*1...", "11...", "....*")), {(0, 0)})
