"""`bot.play.threebv` against the Minesweeper community's own implementation (PyPI
ms-toollib, `cal_bbbv`), and on finished boards as the screen shows them."""

from __future__ import annotations

import json
from pathlib import Path

import ms_toollib
import numpy as np
import pytest

from bot.board import parse_board
from bot.play.threebv import layout, neighbour_counts, of_game, solved, three_bv

RECORDINGS = Path(__file__).resolve().parents[1] / "recordings"


@pytest.mark.parametrize("seed", range(4))
def test_3bv_is_ms_toollibs_on_random_layouts(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(300):
        rows, cols = int(rng.integers(1, 24)), int(rng.integers(1, 31))
        mines = rng.random((rows, cols)) < rng.uniform(0.0, 0.45)
        board = np.where(mines, -1, neighbour_counts(mines)).tolist()
        assert three_bv(mines) == ms_toollib.cal_bbbv(board), mines.astype(int)


def test_solved_3bv_counts_openings_and_lone_numbers_opened() -> None:
    # One mine in the corner: one opening (everything else) and no lone number.
    mines = np.zeros((4, 4), bool)
    mines[0, 0] = True
    assert three_bv(mines) == 1
    opened = np.zeros((4, 4), bool)
    opened[0, 1] = True  # a number on the opening's border: opens nothing else
    assert solved(mines, opened) == 0
    opened[3, 3] = True  # a zero: the whole opening
    assert solved(mines, opened) == 1
    # Mines on a diagonal: no zero at all, every number is lone.
    diagonal = np.eye(3, dtype=bool)
    assert three_bv(diagonal) == 6
    assert solved(diagonal, ~diagonal) == 6


def test_a_won_board_is_its_covered_cells_and_a_lost_one_its_shown_mines() -> None:
    won = parse_board("1F1\n111\n000")
    result = of_game(won, "won", 1)
    assert result is not None and result.total == result.solved == three_bv(layout(won, "won", 1))  # type: ignore[arg-type]
    lost = parse_board("1*1\n1..\n...")
    partial = of_game(lost, "lost", 1)
    assert partial is not None and (partial.total, partial.solved) == (3, 2)
    # A lost board that hides some mines tells no layout.
    assert of_game(parse_board("1*.\n...\n..."), "lost", 2) is None
    assert of_game(won, "playing", 1) is None


def test_finished_recorded_boards_give_their_3bv() -> None:
    """Every finished labelled frame that shows its whole layout gets a 3BV, the
    one ms-toollib gives that layout, and never more of it solved than there is
    (a lost game may have done all of it: an opening counts once its zeros are
    open, though a wrong flag kept one of its border cells shut)."""
    seen = 0
    for labels in sorted(RECORDINGS.glob("*/labels.jsonl")):
        for line in labels.read_text().splitlines():
            label = json.loads(line)
            if label["status"] not in ("won", "lost"):
                continue
            board = parse_board("\n".join(label["board"]))
            mines = layout(
                board,
                label["status"],
                None
                if label["status"] == "won"
                else int(sum(row.count(c) for row in label["board"] for c in "*!F")),
            )
            if mines is None:
                continue
            result = of_game(board, label["status"], int(mines.sum()))
            assert result is not None
            numbers = np.where(mines, -1, neighbour_counts(mines)).tolist()
            assert result.total == ms_toollib.cal_bbbv(numbers), labels.parent.name
            assert 0 <= result.solved <= result.total
            assert label["status"] == "lost" or result.solved == result.total
            seen += 1
    assert seen >= 5
