"""The headless game: seeded layouts, first-click rules, flood fill, end states."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.bench.simulator import Game, GameError, neighbour_counts
from bot.board import Board


def brute_counts(mines: np.ndarray) -> np.ndarray:
    h, w = mines.shape
    out = np.zeros((h, w), dtype=int)
    for r in range(h):
        for c in range(w):
            out[r, c] = sum(
                bool(mines[rr, cc])
                for rr in range(max(r - 1, 0), min(r + 2, h))
                for cc in range(max(c - 1, 0), min(c + 2, w))
                if (rr, cc) != (r, c)
            )
    return out


def brute_region(game: Game, start: tuple[int, int]) -> set[tuple[int, int]]:
    """The cells a click on `start` must open: zeros spread to all their neighbours."""
    mines = game.mine_grid()
    counts = brute_counts(mines)
    h, w = mines.shape
    region = {start}
    changed = True
    while changed:
        changed = False
        for r, c in list(region):
            if counts[r, c] != 0:
                continue
            for rr in range(max(r - 1, 0), min(r + 2, h)):
                for cc in range(max(c - 1, 0), min(c + 2, w)):
                    if (rr, cc) not in region:
                        region.add((rr, cc))
                        changed = True
    return region


@given(st.integers(1, 9), st.integers(1, 9), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_neighbour_counts_match_brute_force(h: int, w: int, seed: int) -> None:
    mines = np.random.default_rng(seed).random((h, w)) < 0.3
    assert (neighbour_counts(mines) == brute_counts(mines)).all()


def test_same_seed_same_layout_and_different_seed_differs() -> None:
    a = Game(16, 30, 99, "none", seed=7).mine_grid()
    b = Game(16, 30, 99, "none", seed=7).mine_grid()
    c = Game(16, 30, 99, "none", seed=8).mine_grid()
    assert (a == b).all()
    assert not (a == c).all()
    assert a.sum() == 99


def test_same_seed_and_first_click_same_game() -> None:
    boards = []
    for _ in range(2):
        game = Game(16, 16, 40, "safe", seed=123)
        game.open((5, 5))
        boards.append((game.board(), game.mine_grid().tolist()))
    assert boards[0] == boards[1]


@given(
    st.sampled_from(["safe", "zero"]),
    st.integers(0, 2**32 - 1),
    st.integers(0, 15),
    st.integers(0, 29),
)
@settings(max_examples=150, deadline=None)
def test_first_click_guarantee(rule: str, seed: int, r: int, c: int) -> None:
    # Dense boards make a mine under the click likely if the rule were not honoured.
    mines = 400 if rule == "safe" else 380
    game = Game(16, 30, mines, rule, seed)  # type: ignore[arg-type]
    opened = game.open((r, c))
    grid = game.mine_grid()
    assert grid.sum() == mines
    assert not grid[r, c]
    assert game.status in ("playing", "won")
    assert (r, c) in opened
    if rule == "zero":
        assert not grid[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2].any()
        assert game.board()[(r, c)] == "0"
        assert len(opened) >= 4


def test_none_rule_can_lose_on_the_first_click() -> None:
    game = Game(5, 5, 24, "none", seed=1)
    mine = next(cell for cell in Board.covered(5, 5).cells() if game.is_mine(cell))
    assert game.open(mine) == []
    assert game.status == "lost"


def test_safe_rule_excludes_only_the_clicked_cell() -> None:
    # 24 mines on 25 cells: the only safe cell is the one clicked.
    game = Game(5, 5, 24, "safe", seed=3)
    assert game.open((2, 2)) == [(2, 2)]
    assert game.board()[(2, 2)] == "8"
    assert game.status == "won"


@given(st.integers(0, 2**32 - 1), st.integers(0, 11), st.integers(0, 11), st.integers(0, 30))
@settings(max_examples=100, deadline=None)
def test_flood_fill_matches_brute_force(seed: int, r: int, c: int, mines: int) -> None:
    game = Game(12, 12, mines, "none", seed)
    if game.is_mine((r, c)):
        return
    expected = brute_region(game, (r, c))
    opened = game.open((r, c))
    assert len(opened) == len(set(opened))
    assert set(opened) == expected
    board = game.board()
    counts = brute_counts(game.mine_grid())
    for cell in board.cells():
        if cell in expected:
            assert board[cell] == str(counts[cell])
        else:
            # A won game shows its mines as flags.
            assert board[cell] == ("F" if game.status == "won" else ".")


def test_opening_every_safe_cell_wins_without_flags() -> None:
    game = Game(9, 9, 10, "none", seed=5)
    grid = game.mine_grid()
    for cell in Board.covered(9, 9).cells():
        if not grid[cell] and game.status == "playing":
            game.open(cell)
    assert game.status == "won"
    board = game.board()
    assert board.count("F") == 10
    assert board.count(".") == 0
    with pytest.raises(GameError):
        game.open((0, 0))


def test_board_after_a_loss_shows_mines_exploded_and_wrong_flags() -> None:
    game = Game(6, 6, 8, "none", seed=11)
    grid = game.mine_grid()
    cells = list(Board.covered(6, 6).cells())
    mines = [cell for cell in cells if grid[cell]]
    safe = [cell for cell in cells if not grid[cell]]
    good_flag, exploded = mines[0], mines[1]
    wrong_flag = safe[-1]
    game.flag(good_flag)
    game.flag(wrong_flag)
    assert game.board()[good_flag] == "F"
    assert game.open(good_flag) == []  # a flag protects its cell
    game.open(exploded)
    assert game.status == "lost"
    board = game.board()
    assert board[exploded] == "!"
    assert board[good_flag] == "F"
    assert board[wrong_flag] == "X"
    for cell in mines[2:]:
        assert board[cell] == "*"
    assert board.count("*") == len(mines) - 2
    assert board.count("!") == 1
    assert board.count("X") == 1


def test_flag_toggles_and_chord_opens_around_a_satisfied_number() -> None:
    game = Game(9, 9, 10, "none", seed=2)
    grid = game.mine_grid()
    counts = neighbour_counts(grid)
    target = next(
        cell for cell in Board.covered(9, 9).cells() if not grid[cell] and counts[cell] >= 1
    )
    game.open(target)
    around = list(Board.covered(9, 9).neighbours(target))
    assert game.chord(target) == []  # no flags yet: nothing happens
    for cell in around:
        if grid[cell]:
            game.flag(cell)
    game.flag(around[0])
    game.flag(around[0])  # toggled twice: back to how it was
    game.chord(target)
    board = game.board()
    for cell in around:
        assert board[cell] == ("F" if grid[cell] else str(counts[cell]))


def test_wrong_flag_chord_loses() -> None:
    game = Game(9, 9, 10, "none", seed=2)
    grid = game.mine_grid()
    counts = neighbour_counts(grid)
    cells = list(Board.covered(9, 9).cells())
    target = next(
        cell
        for cell in cells
        if not grid[cell]
        and counts[cell] == 1
        and any(not grid[n] for n in Board.covered(9, 9).neighbours(cell))
    )
    game.open(target)
    wrong = next(n for n in Board.covered(9, 9).neighbours(target) if not grid[n])
    game.flag(wrong)
    game.chord(target)
    assert game.status == "lost"
    assert game.board()[wrong] == "X"


@pytest.mark.parametrize(
    ("h", "w", "m", "rule"),
    [(9, 9, 81, "safe"), (3, 3, 1, "zero"), (9, 9, -1, "none"), (0, 9, 0, "none")],
)
def test_impossible_games_are_refused(h: int, w: int, m: int, rule: str) -> None:
    with pytest.raises(GameError):
        Game(h, w, m, rule, 0)  # type: ignore[arg-type]


def test_unknown_rule_and_outside_cells_are_refused() -> None:
    with pytest.raises(GameError, match="rule"):
        Game(9, 9, 10, "xp", 0)  # type: ignore[arg-type]
    game = Game(9, 9, 10, "safe", 0)
    with pytest.raises(GameError, match="outside"):
        game.open((9, 0))
    with pytest.raises(GameError, match="placed"):
        game.is_mine((0, 0))
