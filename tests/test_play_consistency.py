"""The checks a reading must pass before the play loop acts on it."""

from __future__ import annotations

from bot.board import parse_board
from bot.play.consistency import (
    counter_problems,
    looks_like_new_game,
    missing_effects,
    number_problems,
    transition_problems,
    untrusted_flags,
)

PREV = parse_board("1F2.\n112.\n001.\n")


def test_a_plausible_board_has_no_number_problems() -> None:
    assert number_problems(PREV) == []


def test_numbers_with_too_many_flags_or_too_little_room_are_named() -> None:
    too_many = parse_board("FF\n1.\n")
    assert [(p.cell, "2 flags" in p.message) for p in number_problems(too_many)] == [((1, 0), True)]
    no_room = parse_board("3.\n11\n")
    problems = number_problems(no_room)
    assert [p.cell for p in problems] == [(0, 0)]
    assert "only 1 cells" in problems[0].message


def test_a_zero_beside_a_covered_cell_is_a_frame_caught_mid_cascade() -> None:
    half_drawn = parse_board("00.\n000\n")
    assert {p.cell for p in number_problems(half_drawn)} == {(0, 1), (1, 1), (1, 2)}


def test_a_question_mark_or_a_flag_beside_a_zero_is_no_half_drawn_frame() -> None:
    # A cascade stops at a person's "?" or (wrong) flag: a legal picture.
    assert number_problems(parse_board("00?\n000\n")) == []
    assert [p.cell for p in number_problems(parse_board("00?\n00.\n"))] == [(0, 1), (1, 1)]


def test_an_untrusted_flag_counts_as_a_covered_cell() -> None:
    # A person's wrong flag beside a 0 and a 1 that already has its mine.
    board = parse_board("0F\n11\n")
    assert number_problems(board) != []
    assert number_problems(board, {(0, 1)}) == []


def test_a_clone_may_flag_the_mines_itself_once_nothing_is_left_to_open() -> None:
    before, after = parse_board("1.\n11\n"), parse_board("1F\n11\n")
    assert transition_problems(before, after, lost=False, flagged_by_bot=set()) == []
    early = transition_problems(
        parse_board("1..\n11.\n"), parse_board("1F.\n11.\n"), lost=False, flagged_by_bot=set()
    )
    assert [p.cell for p in early] == [(0, 1)]


def test_flags_the_bot_did_not_place_are_untrusted() -> None:
    board = parse_board("F1F\n11.\n")
    assert untrusted_flags(board, {(0, 0)}) == {(0, 2)}
    assert untrusted_flags(board, ()) == {(0, 0), (0, 2)}


def test_opened_cells_never_close_and_numbers_never_change() -> None:
    cur = parse_board("1F2.\n122.\n.01.\n")
    problems = transition_problems(PREV, cur, lost=False)
    assert {p.cell for p in problems} == {(1, 1), (2, 0)}


def test_opening_more_cells_is_fine() -> None:
    cur = parse_board("1F21\n1121\n0011\n")
    assert transition_problems(PREV, cur, lost=False) == []


def test_flags_only_appear_where_the_bot_flagged_and_never_vanish() -> None:
    cur = parse_board("1F2F\n112F\n001.\n")
    problems = transition_problems(PREV, cur, lost=False, flagged_by_bot={(0, 3)})
    assert [p.cell for p in problems] == [(1, 3)]
    # Watching a person play: any new flag is theirs.
    assert transition_problems(PREV, cur, lost=False, flagged_by_bot=None) == []
    gone = parse_board("1.2.\n112.\n001.\n")
    assert [p.cell for p in transition_problems(PREV, gone, lost=False)] == [(0, 1)]


def test_mines_show_only_once_the_game_is_lost() -> None:
    cur = parse_board("1X2*\n112!\n001*\n")
    assert len(transition_problems(PREV, cur, lost=False)) == 4
    assert transition_problems(PREV, cur, lost=True) == []


def test_a_board_of_another_size_is_reported() -> None:
    problems = transition_problems(PREV, parse_board("..\n..\n"), lost=False)
    assert "changed size" in problems[0].message


def test_counter_must_agree_with_the_flags() -> None:
    assert counter_problems(PREV, 9, 10) == []
    assert "counter shows 10 with 1 flags" in str(counter_problems(PREV, 10, 10)[0])
    assert counter_problems(PREV, None, 10) == []


def test_an_unsure_cell_may_be_the_flag_the_counter_counts() -> None:
    # One flag read, the counter counts two: an unsure cell may be the second
    # (a flag caught half drawn), never three, nor fewer than the one read.
    assert counter_problems(PREV, 8, 10, unsure=1) == []
    assert counter_problems(PREV, 7, 10, unsure=1)
    assert counter_problems(PREV, 10, 10, unsure=3)


def test_missing_effects_are_clicked_cells_that_did_not_change_yet() -> None:
    assert missing_effects(PREV, [(0, 3), (2, 0)], [(0, 1), (1, 3)]) == [(0, 3), (1, 3)]


def test_messages_show_plain_characters() -> None:
    cur = parse_board("1F2.\n102.\n001.\n")
    assert [str(p) for p in transition_problems(PREV, cur, lost=False)] == [
        "cell (1, 1): was '1', now '0': open cells never change"
    ]


def test_a_person_may_take_a_flag_back() -> None:
    gone = parse_board("1.2.\n112.\n001.\n")
    assert transition_problems(PREV, gone, lost=False, flags_may_vanish=True) == []


def test_a_board_covered_again_is_a_new_game_not_a_misread() -> None:
    played = parse_board("1F21\n1121\n0011\n")
    assert looks_like_new_game(played, parse_board("....\n....\n....\n"))
    # xdemineur opens an area of the new game by itself.
    assert looks_like_new_game(played, parse_board("....\n1221\n0000\n"))
    # One cell covered again is a misread, not a restart; opening more is play.
    assert not looks_like_new_game(played, parse_board("1F21\n1121\n00.1\n"))
    assert not looks_like_new_game(PREV, parse_board("1F21\n1121\n0011\n"))
    assert not looks_like_new_game(parse_board("....\n"), parse_board("..1.\n"))


def test_cells_a_box_hides_are_no_new_game() -> None:
    """A clone's "Game over" box over the board leaves its cells unread, shown
    covered: they say nothing of a new game; the same cells read covered do."""
    played = parse_board("1F21\n1121\n0011\n")
    boxed = parse_board("1F21\n1..1\n0..1\n")
    hidden = [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert looks_like_new_game(played, boxed)
    assert not looks_like_new_game(played, boxed, hidden)


def test_a_short_game_seen_only_when_over_is_a_new_game() -> None:
    """The person's next game was won between two frames: every cell open,
    but with other numbers than the game before."""
    played = parse_board("1F21\n1121\n00..\n")
    assert looks_like_new_game(played, parse_board("0111\n12F1\n1F21\n"))
    # The same game, finished: nothing closed, no number changed.
    assert not looks_like_new_game(played, parse_board("1F21\n1121\n0011\n"))
    # One number read otherwise in a board of many is a misread to report.
    assert not looks_like_new_game(played, parse_board("1F21\n1121\n01..\n"))


def test_a_won_board_is_no_contradiction_whatever_its_counter_shows() -> None:
    # A zoo clone (seed 2034610228) flags the last mine itself at the win and
    # leaves its counter at 1: every cell open or flagged, as many flags as mines.
    won = parse_board("1F2F\n1122\n0000\n")
    assert counter_problems(won, 1, 2) == []
    # Not won: a covered cell left, or more flags than the game has mines.
    assert counter_problems(parse_board("1F2F\n112.\n0000\n"), 1, 2)
    assert counter_problems(won, 1, 1)
