"""The solver on fixed positions: the design-notes board, errors, move choice, fallback."""

from __future__ import annotations

import pytest

from bot.board import Board, parse_board
from bot.errors import InconsistentBoardError
from bot.solver import analyse

#: The 24x20 board from the foundation issue (no mine total given).
DESIGN_NOTES_BOARD = """\
...201..................
...201..................
...1013.................
...1102.................
....1011123.............
..21100012...22211122...
..2000012.33212.3111....
..421002.310002.3.122...
....3224.31000112111....
........4.20000001121...
.......43.20000012.11...
.......3122211001.212...
.......202.3.10011213...
......2103.42210001.213.
......1112.43.111233202.
......2.222..311.3..212.
.............2124.4.....
............111.3.......
........................
........................
"""


def covered_frontier(board: Board) -> set[tuple[int, int]]:
    return {
        (r, c)
        for r, c in board.cells()
        if board[(r, c)] in ".?"
        and any(board.number(n) is not None for n in board.neighbours((r, c)))
    }


def test_design_notes_board() -> None:
    board = parse_board(DESIGN_NOTES_BOARD)
    result = analyse(board)
    assert len(result.safe) == 43
    assert len(result.mines) == 54
    frontier = covered_frontier(board)
    assert set(result.safe) <= frontier and set(result.mines) <= frontier
    undecided = frontier - set(result.safe) - set(result.mines)
    assert len(undecided) == 14
    for r, c in undecided:
        p = result.probabilities[r][c]
        assert p is not None and 0 < p < 1
    assert result.exact
    assert result.move is not None and result.move.reason == "certain"
    assert (result.move.row, result.move.col) in set(result.safe)


def test_flags_count_as_mines() -> None:
    result = analyse(Board(("F1.", "11.", "...")))
    assert set(result.safe) == {(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)}
    assert result.probabilities[0][0] is None


def test_wrong_flag_is_inconsistent_and_names_the_number() -> None:
    with pytest.raises(InconsistentBoardError) as info:
        analyse(Board(("FF.", "1..")))
    assert info.value.cells == [(1, 0)]


def test_contradicting_numbers_are_named() -> None:
    # The 1 says one mine among (0,0),(1,0),(1,1)... the 3 needs all three of its cells.
    board = Board(("...", "131", "000"))
    with pytest.raises(InconsistentBoardError) as info:
        analyse(board)
    assert info.value.cells
    assert "no mine placement" in str(info.value)


def test_total_that_cannot_be_met() -> None:
    with pytest.raises(InconsistentBoardError, match="total"):
        analyse(Board(("1.", "..")), total_mines=5)
    with pytest.raises(InconsistentBoardError):
        analyse(Board(("1.1", "...")), total_mines=0)


def test_first_click_per_rule() -> None:
    board = Board.covered(16, 30)
    safe = analyse(board, 99, "safe").move
    zero = analyse(board, 99, "zero").move
    none = analyse(board, 99, "none").move
    assert safe is not None and zero is not None and none is not None
    assert (safe.row, safe.col, safe.p_mine, safe.reason) == (0, 0, 0.0, "first-click")
    assert zero.reason == "first-click" and (zero.row, zero.col) != (0, 0)
    assert none.p_mine == pytest.approx(99 / 480)
    assert analyse(board, 99).probabilities[5][5] == pytest.approx(99 / 480)


def test_a_total_that_decides_every_cell_outranks_the_first_click_habit() -> None:
    """QA Q8: with every cell a mine the solver listed 4 certain mines and still
    advised opening (0, 0) as a "first-click" with P(mine) 0."""
    full = analyse(Board.covered(2, 2), 4, "safe")
    assert full.move is not None and full.move.action == "flag"
    assert full.move.reason == "certain" and full.move.p_mine == 1.0
    empty = analyse(Board.covered(2, 2), 0, "safe")
    assert empty.move is not None and empty.move.action == "open"
    assert empty.move.reason == "certain"


def test_guess_is_lowest_probability() -> None:
    # The 1 touches 3 cells, exactly one of them a mine; the other mine is
    # among the 8 interior cells: 1/8 each, below the frontier's 1/3.
    result = analyse(Board(("1...", "....", "....")), total_mines=2)
    move = result.move
    assert move is not None and move.reason == "guess"
    assert move.p_mine == pytest.approx(1 / 8)
    assert result.probabilities[0][1] == pytest.approx(1 / 3)
    assert (move.row, move.col) not in {(0, 1), (1, 0), (1, 1)}


def test_everything_left_is_a_mine_gives_a_flag() -> None:
    result = analyse(Board(("1.",)), total_mines=1)
    assert result.mines == ((0, 1),)
    assert result.move is not None and result.move.action == "flag"


def test_nothing_covered_gives_no_move() -> None:
    result = analyse(Board(("11", "1F")), total_mines=1)
    assert result.move is None and result.safe == () and result.mines == ()


def test_post_game_cells() -> None:
    # '*' and '!' count as mines, 'X' is a known non-mine without a number.
    result = analyse(Board(("*1.", "X2.", "!1.")))
    assert result.probabilities[0][0] is None and result.probabilities[1][0] is None
    assert set(result.safe) == {(0, 2), (1, 2), (2, 2)}


def test_oversized_component_falls_back_but_stays_certain() -> None:
    board = parse_board(DESIGN_NOTES_BOARD)
    exact = analyse(board)
    approx = analyse(board, budget=1)
    assert not approx.exact
    assert approx.notes and "too large" in approx.notes[0]
    assert approx.safe == exact.safe and approx.mines == exact.mines
    for row in approx.probabilities:
        for p in row:
            assert p is None or 0.0 <= p <= 1.0


#: An expert endgame (99 mines) where native cardinality alone made SAT take seconds:
#: the global count needs partial sums (a totalizer) to be refuted quickly.
EXPERT_ENDGAME = """\
..101...2.222100011101.3.32.2.
.2101232323..21212.10113.3.342
.10001111.3332.3.3232211133.2.
.10001.1123.112.22.4..1001.332
.211122211.22244322..4210223.1
..21.11.11111....11334.201.211
..332211100023543101.3.3121100
23.2.10000001.2.10012433.10000
011322000111123210001..3220000
0001.10001.101.211001344.21100
1101111123320112.21001..23.200
.211113.4..211123.11123433.200
.3..2.....33.21.4433.21..32100
..........24.313...4.2123.1011
.........3...412....221111101.
2..2..1.......112...11.1000011
"""


def test_expert_endgame_sat_agrees_with_the_count() -> None:
    result = analyse(parse_board(EXPERT_ENDGAME), 99, "zero")
    assert result.exact and not result.notes
    assert (len(result.safe), len(result.mines)) == (10, 86)
    for r, row in enumerate(result.probabilities):
        for c, p in enumerate(row):
            if p == 0.0:
                assert (r, c) in result.safe
            elif p == 1.0:
                assert (r, c) in result.mines
