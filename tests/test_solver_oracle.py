"""The solver against an oracle it shares no code with, on boards the brute-force
tests cannot reach: the Minesweeper community's own probabilities (PyPI
ms-toollib, `cal_probability_onboard`) on every position of seeded simulated
games at intermediate and expert size, at both strengths, and every claim
against the game's hidden layout.

At each position the cells the solver calls certainly safe must be those
ms-toollib gives a chance of 0, its certain mines those given 1, and every
other covered cell's chance the same within 1e-6 wherever the solver says
its counts are exact; then the solver's claims are checked against the
layout (a safe cell holds no mine, a mine cell one), its certain cells are
played (opened, flagged), and its guess when it has none, until the game ends.
"""

from __future__ import annotations

import ms_toollib
import pytest

from bot.bench.simulator import Game
from bot.board import Board
from bot.solver import analyse

#: ms-toollib's codes for a cell of the game board.
COVERED, FLAGGED = 10, 11
SIZES = {"intermediate": (16, 16, 40), "expert": (16, 30, 99)}
GAMES = {"fast": 20, "full": 20}


def _toollib_board(board: Board) -> list[list[int]]:
    return [
        [COVERED if ch == "." else FLAGGED if ch == "F" else int(ch) for ch in row]
        for row in board.rows
    ]


def _positions(size: str, strength: str, games: int) -> tuple[int, int]:
    """Plays `games` seeded games; returns (positions compared, games won)."""
    height, width, mines = SIZES[size]
    compared = won = 0
    for seed in range(games):
        game = Game(height, width, mines, "safe", seed=1000 * seed + 7)
        game.open((height // 2, width // 2))
        while game.status == "playing":
            board = game.board()
            result = analyse(board, mines, strength=strength)  # type: ignore[arg-type]
            probs, _ = ms_toollib.cal_probability_onboard(_toollib_board(board), mines)
            where = f"{size} {strength} seed {seed}:\n{board}"
            covered = [
                (r, c) for r in range(height) for c in range(width) if board.rows[r][c] == "."
            ]
            theirs_safe = {cell for cell in covered if probs[cell[0]][cell[1]] == 0}
            theirs_mines = {cell for cell in covered if probs[cell[0]][cell[1]] == 1}
            assert set(result.safe) == theirs_safe, where
            assert set(result.mines) == theirs_mines, where
            if result.exact:
                for r, c in covered:
                    ours = result.probabilities[r][c]
                    assert ours is not None, (r, c, where)
                    assert ours == pytest.approx(probs[r][c], abs=1e-6), (r, c, where)
            # Every claim against the hidden layout.
            assert not any(game.is_mine(cell) for cell in result.safe), where
            assert all(game.is_mine(cell) for cell in result.mines), where
            compared += 1
            if result.safe or result.mines:
                for cell in result.mines:
                    game.flag(cell)
                for cell in result.safe:
                    if game.status == "playing":  # the last safe cell wins the game
                        game.open(cell)
            else:
                assert result.move is not None, where
                game.open((result.move.row, result.move.col))
        won += game.status == "won"
    return compared, won


@pytest.mark.parametrize("strength", GAMES)
@pytest.mark.parametrize("size", SIZES)
def test_the_solver_agrees_with_ms_toollib_and_the_layout(size: str, strength: str) -> None:
    compared, won = _positions(size, strength, GAMES[strength])
    # Each game gives a position per batch of certain moves or guess: the
    # comparison really ran on many positions, not on a first-click loss.
    assert compared >= 5 * GAMES[strength], compared
    assert won >= 1
