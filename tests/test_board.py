"""The board text format: parsing, round-trip and errors that name line and column."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.board import ALPHABET, Board, parse_board
from bot.errors import BoardFormatError

rows_strategy = st.integers(1, 12).flatmap(
    lambda w: st.lists(
        st.text(alphabet=sorted(ALPHABET), min_size=w, max_size=w), min_size=1, max_size=12
    )
)


@given(rows_strategy)
def test_round_trip(rows: list[str]) -> None:
    board = Board(tuple(rows))
    assert parse_board(board.to_text()) == board
    assert board.to_text().splitlines() == rows


def test_surrounding_blank_lines_and_trailing_spaces_are_ignored() -> None:
    board = parse_board("\n\n..1  \n.F2\n\n")
    assert board.rows == ("..1", ".F2")
    assert board[(1, 1)] == "F"
    assert board.number((0, 2)) == 1
    assert board.number((0, 0)) is None


def test_a_shared_indent_is_ignored_as_replay_prints_boards() -> None:
    assert parse_board("  ..1\n  .F2\n").rows == ("..1", ".F2")
    assert parse_board("\t..1\n\t.F2").rows == ("..1", ".F2")


def test_an_indent_not_shared_by_every_row_is_an_error() -> None:
    with pytest.raises(BoardFormatError) as info:
        parse_board("  ..1\n.F2.\n")
    assert info.value.line == 1


@pytest.mark.parametrize(
    ("text", "line", "col"),
    [
        ("...\n.a.\n", 2, 2),
        ("  ...\n  .a.\n", 2, 4),
        ("...\n....\n", 2, None),
        ("...\n\n...\n", 2, None),
        ("..9\n", 1, 3),
    ],
)
def test_errors_name_line_and_column(text: str, line: int, col: int | None) -> None:
    with pytest.raises(BoardFormatError) as info:
        parse_board(text)
    assert info.value.line == line
    assert info.value.col == col
    assert f"line {line}" in str(info.value)


def test_empty_board_is_an_error() -> None:
    with pytest.raises(BoardFormatError, match="empty"):
        parse_board("\n \n")


def test_neighbours_at_corner_and_middle() -> None:
    board = Board.covered(3, 4)
    assert sorted(board.neighbours((0, 0))) == [(0, 1), (1, 0), (1, 1)]
    assert len(list(board.neighbours((1, 1)))) == 8
    assert board.with_cell((2, 3), "F")[(2, 3)] == "F"
    assert board.count("F") == 0
