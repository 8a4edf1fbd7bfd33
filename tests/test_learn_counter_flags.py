"""The mine counter learned from msbot's own flags (`vision.learn.flag_counter`).

Real frames of eight clones (`tests/data/flag-counter/<clone>/`): a fresh board,
then one frame after each of ten flags placed one by one and one after each was
taken off again, taken by `learn-skin --live`. Red, yellow and green LEDs, a
7-segment display with leading zeros and a clock ticking beside it (xdemineur),
"UXB : 10", "Mines: 0/10" with a clock on the same line (KMines), "0/10" in
GNOME Mines' small anti-aliased font, "Marked: 0 / 10", and a web page's
"10 mines left". No total is given: the counter must tell it.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import numpy as np
import pytest

from vision.counter import parse_counter
from vision.geometry import Geometry
from vision.glyphs import read_text
from vision.image_io import load_image
from vision.learn import flag_counter
from vision.learn.flag_counter import learn_flag_counter

DATA = Path(__file__).parent / "data" / "flag-counter"

EXPECTED = {
    "ace-minesweeper": ("left", 200),
    "gnome-mines": ("marked/total", 10),
    # 16x16: "0/40" to "10/40", centred, the "/" touching the digits beside it, so
    # one "/" was two pictures and no reading fitted (no counter learned).
    "gnome-mines-16x16": ("marked/total", 40),
    "kmines": ("marked/total", 10),
    "minegauler": ("left", 10),
    "sgt-mines": ("marked/total", 10),
    "web-mines": ("left", 10),
    "xbomb": ("left", 10),
    # The window small in its grab: the line's commonest grey was the black
    # desktop's, and the white "UXB : 10" box became one glyph (no counter).
    "xbomb-on-black": ("left", 10),
    "xdemineur": ("left", 10),
    # 16x16, its timer ticking between frames of other flag counts: the span of
    # both LEDs had the window's grey as its commonest, and the counter's black
    # LED box became one glyph (no counter).
    "xdemineur-16x16-clock": ("left", 40),
    # A page's clock above the board ticking between frames of other flag
    # counts, its LED counter below: both lines were taken for one, "not one
    # line of digits" (no counter). Each line is now tried alone.
    "zoo-web-clock-above": ("left", 10),
}


def _frames(clone: str) -> tuple[list[np.ndarray], list[int], Geometry]:
    folder = DATA / clone
    files = sorted(folder.glob("*flags.png"))
    flags = [int(f.name.split("-")[1][:2]) for f in files]
    geo = Geometry(**json.loads((folder / "board.json").read_text())["geometry"])
    return [load_image(f) for f in files], flags, geo


@pytest.mark.parametrize("clone", sorted(EXPECTED))
def test_the_counter_is_learned_without_being_told_the_total(clone: str) -> None:
    images, flags, geo = _frames(clone)
    counter, said = learn_flag_counter(images, flags, geo)
    assert counter is not None, said
    assert (counter.format, counter.total) == EXPECTED[clone]
    assert set("0123456789") <= set(counter.digits)
    # What the reader will read with it: every frame's mines left.
    for image, f in zip(images, flags, strict=True):
        text, _ = read_text(image, counter.glyphs(), geo)
        spaced = counter.spaced
        assert parse_counter(text, counter.format, spaced=spaced) == counter.total - f


@pytest.mark.parametrize("clone", ["kmines", "xdemineur"])
def test_the_right_total_given_is_taken_and_a_wrong_one_refused(clone: str) -> None:
    images, flags, geo = _frames(clone)
    fmt, total = EXPECTED[clone]
    counter, _ = learn_flag_counter(images, flags, geo, total)
    assert counter is not None and (counter.format, counter.total) == (fmt, total)
    wrong, said = learn_flag_counter(images, flags, geo, total + 7)
    assert wrong is None and "no reading" in said


def test_flag_counts_that_do_not_match_the_frames_learn_nothing() -> None:
    images, flags, geo = _frames("minegauler")
    # The frames in another order than their flags: no display counts like that.
    shuffled = flags[1:] + flags[:1]
    counter, _ = learn_flag_counter(images, shuffled, geo)
    assert counter is None


def test_a_window_without_a_counter_learns_none() -> None:
    images, flags, geo = _frames("minegauler")
    # The same picture every time: nothing changed with the flags.
    counter, said = learn_flag_counter([images[0]] * len(flags), flags, geo)
    assert counter is None and "no part of the window changed" in said


def test_too_few_digits_shown_learns_none() -> None:
    images, flags, geo = _frames("xbomb")
    # Four flags only: the last digit shows 10, 9, 8, 7, 6: digits missing.
    keep = [i for i, f in enumerate(flags) if f <= 4]
    counter, said = learn_flag_counter([images[i] for i in keep], [flags[i] for i in keep], geo)
    assert counter is None
    assert said  # the sentence says why nothing was learned


def test_a_search_past_its_time_learns_no_counter_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Zoo seed 357133173: with 0 to 10 flags and back, one line's glyphs gave
    # the search for a reading more starts to try than it could (minutes, at
    # 100 % of a core, before the first click). A line not read in time may
    # read as a counter: none is learned, and the message says how to give it.
    monkeypatch.setattr(flag_counter, "SEARCH_SECONDS", 1.0)
    images, flags, geo = _frames("zoo-357133173-slow")
    counter, said = learn_flag_counter(images, flags, geo)
    assert counter is None
    assert said.endswith(flag_counter.GAVE_UP)
    # Given the total, the search is short and finds it.
    counter, said = learn_flag_counter(images, flags, geo, 99)
    assert counter is not None, said
    assert (counter.format, counter.total) == ("left", 99)


def test_a_display_of_the_flags_placed_is_no_count_of_mines_left() -> None:
    """Zoo seed 1653660532 counts the flags placed ("Flags: 9"). With 0 to 9 flags
    its digits read backwards are also 9 to 0 mines left of 9: the learner took
    that, "the only reading", on a board of 10 mines, and lost a game to the
    wrong total. Both fit the frames: no counter is learned."""
    images, flags, geo = _frames("zoo-flags-placed")
    assert max(flags) == 9
    counter, said = learn_flag_counter(images, flags, geo)
    assert counter is None
    assert "several readings fit" in said and "flags placed" in said
    # Told the total, the display is still no count of mines left.
    counter, said = learn_flag_counter(images, flags, geo, total=10)
    assert counter is None, said


@pytest.mark.parametrize(("at_step", "clicks"), [(0, 1), (0, 2), (1, 2)])
def test_a_counter_flag_whose_taking_off_moves_the_board_is_followed(
    monkeypatch: pytest.MonkeyPatch, at_step: int, clicks: int
) -> None:
    """Zoo seed 1412585592: its "10/99" label narrowed as the tenth counter
    flag came off, the board moved 9 px, and the learning stopped with its
    probe flags on the board. The step that moved it hands the cycle's other
    steps to `_counter_flag_back` (the flag off where the board is now, until
    it is back), with the picture before that flag came."""
    from bot.learning import first_look
    from bot.learning.first_look import BoardMoved

    before, last, after = (np.full((4, 4, 3), v, np.uint8) for v in (1, 2, 3))
    clicked: list[int] = []

    def right_click(r: int, c: int, shot: np.ndarray, why: str) -> np.ndarray:
        clicked.append(len(clicked))
        if len(clicked) - 1 == at_step:
            raise BoardMoved("moved", -9, 0, after, cast(Any, looker), (3, 4), before)
        return shot

    handed: list[tuple[int, np.ndarray]] = []
    monkeypatch.setattr(
        first_look,
        "_counter_flag_back",
        lambda looker, r, c, moved, steps, names, was: handed.append((steps, was)),
    )
    monkeypatch.setattr(first_look, "settled", lambda screen, region: after)
    looker = SimpleNamespace(right_click=right_click, screen=None, region=None)
    shot, answered = first_look._counter_flag_off(cast(Any, looker), 3, 4, last, before, clicks, {})
    assert answered and shot is after and len(clicked) == at_step + 1
    ((steps, was),) = handed
    # `steps` - 1 clicks are left to it: those the cycle had not made yet.
    assert steps - 1 == clicks - at_step - 1 and was is before
