"""The solver against brute force: every placement of mines on small boards is enumerated.

Certain cells must be exactly the cells with probability 0 or 1 under
enumeration, and every probability must equal the enumerated fraction, with
the mine total and without it (where every consistent placement counts once,
see `bot.solver.probability`).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.board import Board
from bot.errors import InconsistentBoardError
from bot.solver import analyse

MAX_UNKNOWN = 12


def neighbours(h: int, w: int, r: int, c: int) -> list[tuple[int, int]]:
    return [
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < h and 0 <= c + dc < w
    ]


def brute_force(board: Board, total: int | None) -> dict[tuple[int, int], Fraction] | None:
    """P(mine) for every covered unflagged cell, by enumeration; None if nothing fits."""
    h, w = board.height, board.width
    unknown = [(r, c) for r in range(h) for c in range(w) if board.rows[r][c] in ".?"]
    flags = sum(row.count("F") for row in board.rows)
    numbers = [
        ((r, c), int(board.rows[r][c]))
        for r in range(h)
        for c in range(w)
        if board.rows[r][c].isdigit()
    ]
    counts = dict.fromkeys(unknown, 0)
    n_ok = 0
    sizes = range(len(unknown) + 1) if total is None else [total - flags]
    for k in sizes:
        if k < 0 or k > len(unknown):
            continue
        for chosen in combinations(unknown, k):
            mines = set(chosen)
            ok = True
            for (r, c), value in numbers:
                around = sum(
                    1 for n in neighbours(h, w, r, c) if n in mines or board.rows[n[0]][n[1]] == "F"
                )
                if around != value:
                    ok = False
                    break
            if ok:
                n_ok += 1
                for cell in chosen:
                    counts[cell] += 1
    if n_ok == 0:
        return None
    return {cell: Fraction(v, n_ok) for cell, v in counts.items()}


def check(board: Board, total: int | None) -> None:
    expected = brute_force(board, total)
    if expected is None:
        with pytest.raises(InconsistentBoardError):
            analyse(board, total)
        return
    result = analyse(board, total)
    assert result.exact
    assert set(result.safe) == {c for c, p in expected.items() if p == 0}
    assert set(result.mines) == {c for c, p in expected.items() if p == 1}
    for r in range(board.height):
        for c in range(board.width):
            p = result.probabilities[r][c]
            if (r, c) in expected:
                assert p is not None
                assert abs(p - float(expected[(r, c)])) < 1e-9, ((r, c), p, expected[(r, c)])
            else:
                assert p is None
    if not expected:
        assert result.move is None
        return
    assert result.move is not None
    if result.move.reason == "first-click":
        assert not any(ch.isdigit() for row in board.rows for ch in row)
    elif result.safe:
        assert (result.move.row, result.move.col) in set(result.safe)
        assert result.move.p_mine == 0.0
    elif result.move.action == "open":
        best = min(p for c, p in expected.items())
        assert abs(result.move.p_mine - float(best)) < 1e-9


@st.composite
def real_positions(draw: st.DrawFn) -> tuple[Board, int]:
    """A random mine layout, some safe cells opened (with their true numbers), some flags."""
    h = draw(st.integers(1, 5))
    w = draw(st.integers(2, 5))
    cells = [(r, c) for r in range(h) for c in range(w)]
    mines = set(draw(st.lists(st.sampled_from(cells), unique=True, max_size=len(cells) // 2)))
    safe_cells = [c for c in cells if c not in mines]
    opened = set(draw(st.lists(st.sampled_from(safe_cells), unique=True))) if safe_cells else set()
    flagged = set(draw(st.lists(st.sampled_from(sorted(mines)), unique=True))) if mines else set()
    rows = []
    for r in range(h):
        row = ""
        for c in range(w):
            if (r, c) in opened:
                row += str(sum(1 for n in neighbours(h, w, r, c) if n in mines))
            elif (r, c) in flagged:
                row += "F"
            else:
                row += draw(st.sampled_from(".?")) if draw(st.booleans()) else "."
        rows.append(row)
    return Board(tuple(rows)), len(mines)


@st.composite
def arbitrary_positions(draw: st.DrawFn) -> Board:
    """Any characters in any place: many of these are inconsistent."""
    h = draw(st.integers(1, 4))
    w = draw(st.integers(1, 4))
    alphabet = st.sampled_from(list("....F012345"))
    return Board(tuple("".join(draw(st.lists(alphabet, min_size=w, max_size=w))) for _ in range(h)))


def small_enough(board: Board) -> bool:
    return sum(row.count(".") + row.count("?") for row in board.rows) <= MAX_UNKNOWN


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(real_positions())
def test_real_positions_with_total(position: tuple[Board, int]) -> None:
    board, total = position
    if small_enough(board):
        check(board, total)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(real_positions())
def test_real_positions_without_total(position: tuple[Board, int]) -> None:
    board, _ = position
    if small_enough(board):
        check(board, None)


@settings(max_examples=300, deadline=None)
@given(arbitrary_positions(), st.one_of(st.none(), st.integers(0, 10)))
def test_arbitrary_positions_agree_or_are_inconsistent(board: Board, total: int | None) -> None:
    check(board, total)


def test_total_alone_clears_the_interior() -> None:
    board = Board(("1...", "...."))
    result = analyse(board, 1)
    assert set(result.safe) == {(0, 2), (0, 3), (1, 2), (1, 3)}
    assert result.mines == ()
    for cell in [(0, 1), (1, 0), (1, 1)]:
        assert result.probabilities[cell[0]][cell[1]] == pytest.approx(1 / 3)
    without = analyse(board)
    assert without.safe == () and without.mines == ()
    assert without.probabilities[0][3] == 0.5
    check(board, 1)
    check(board, None)


def test_total_alone_fills_the_interior() -> None:
    result = analyse(Board(("1...", "....")), 5)
    assert set(result.mines) == {(0, 2), (0, 3), (1, 2), (1, 3)}
    assert result.safe == ()


def test_total_alone_decides_the_frontier() -> None:
    board = Board((".1.1.",))
    result = analyse(board, 1)
    assert result.mines == ((0, 2),)
    assert result.safe == ((0, 0), (0, 4))
    without = analyse(board)
    assert without.mines == () and without.safe == ()
    check(board, 1)
    check(board, 2)
    check(board, None)
