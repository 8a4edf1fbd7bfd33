"""The bench: board sizes, statistics, claim checking and short real runs."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from bot.bench.runner import (
    BenchError,
    BoardSpec,
    FalseClaimError,
    check_claims,
    game_seed,
    parse_board_spec,
    play_games,
    summarise,
    wilson_interval,
)
from bot.bench.simulator import Game, Rule
from bot.board import Board, Cell
from bot.cli import main
from bot.errors import InconsistentBoardError

BEGINNER = BoardSpec("beginner", 9, 9, 10)


@dataclass(frozen=True)
class FakeMove:
    action: str
    row: int
    col: int
    p_mine: float | None
    reason: str


@dataclass(frozen=True)
class FakeAnalysis:
    safe: tuple[Cell, ...]
    mines: tuple[Cell, ...]
    move: FakeMove | None


def lying_analyse(board: Board, total_mines: int, rule: Rule) -> FakeAnalysis:
    """Claims every covered cell safe: false as soon as one of them is a mine."""
    covered = tuple(cell for cell in board.cells() if board[cell] == ".")
    return FakeAnalysis(covered, (), None)


def refusing_analyse(board: Board, total_mines: int, rule: Rule) -> FakeAnalysis:
    raise InconsistentBoardError("no placement fits", [(0, 0)])


def test_a_solver_error_names_the_game_to_replay() -> None:
    with pytest.raises(
        BenchError, match=r"solver failed \(no placement fits\); game 0 \(game seed"
    ):
        summarise(play_games(BEGINNER, "safe", 3, seed=0, jobs=1, analyse=refusing_analyse))


def test_named_and_custom_boards() -> None:
    assert parse_board_spec("beginner") == BoardSpec("beginner", 9, 9, 10)
    assert parse_board_spec("Intermediate") == BoardSpec("intermediate", 16, 16, 40)
    assert parse_board_spec("expert") == BoardSpec("expert", 16, 30, 99)
    assert parse_board_spec("8x12x20") == BoardSpec("8x12x20", 8, 12, 20)
    for bad in ("huge", "9x9", "9x9x81", "0x5x1"):
        with pytest.raises(BenchError):
            parse_board_spec(bad)


def test_wilson_interval_known_values() -> None:
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson_interval(0, 20)
    assert low == 0.0
    assert high == pytest.approx(0.1611, abs=1e-4)
    assert wilson_interval(20, 20)[1] == 1.0


def test_game_seeds_depend_on_bench_seed_and_index_only() -> None:
    assert game_seed(1, 5) == game_seed(1, 5)
    seeds = {game_seed(1, i) for i in range(1000)} | {game_seed(2, i) for i in range(1000)}
    assert len(seeds) == 2000


def test_check_claims_accepts_truth_and_rejects_each_kind_of_lie() -> None:
    game = Game(9, 9, 10, "none", seed=4)
    grid = game.mine_grid()
    cells = list(game.board().cells())
    mine = next(c for c in cells if grid[c])
    safe = next(c for c in cells if not grid[c])
    board = game.board()
    check_claims(game, board, FakeAnalysis((safe,), (mine,), None), BEGINNER, "none", 3)
    with pytest.raises(FalseClaimError, match=r"called \(\d, \d\) safe but it is a mine") as e:
        check_claims(game, board, FakeAnalysis((safe, mine), (), None), BEGINNER, "none", 3)
    assert "game 3" in str(e.value)
    assert f"seed={game.seed}" in str(e.value)
    assert board.to_text() in str(e.value)
    with pytest.raises(FalseClaimError, match="a mine but it is safe"):
        check_claims(game, board, FakeAnalysis((), (safe,), None), BEGINNER, "none", 3)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_lying_solver_aborts_the_bench(jobs: int) -> None:
    # With two jobs the error crosses a process boundary and must arrive intact.
    with pytest.raises(FalseClaimError, match=r"false claim: .*game seed \d+"):
        summarise(play_games(BEGINNER, "safe", 5, seed=0, jobs=jobs, analyse=lying_analyse))


# -- with the real solver ---------------------------------------------------------


def test_small_real_bench_gives_sane_figures() -> None:
    s = summarise(play_games(BEGINNER, "safe", 20, seed=3, jobs=1))
    assert s.games == 20
    assert s.wins + s.losses == 20
    assert s.wins >= 10  # the plain solver wins about 90 % of beginner games
    assert s.win_rate_low <= s.win_rate <= s.win_rate_high
    assert s.decisions >= 20
    assert 0 < s.decision_ms_median <= s.decision_ms_p99 <= s.decision_ms_max
    assert 0 < s.decision_cpu_ms_median <= s.decision_cpu_ms_p99
    assert s.guesses_per_game >= 0
    assert s.games_per_second > 0


def test_results_do_not_depend_on_jobs() -> None:
    one = summarise(play_games(BEGINNER, "zero", 8, seed=11, jobs=1))
    two = summarise(play_games(BEGINNER, "zero", 8, seed=11, jobs=2))
    assert (one.wins, one.guesses_per_game, one.decisions) == (
        two.wins,
        two.guesses_per_game,
        two.decisions,
    )


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "--board", "6x6x4", "--rule", "none", "--games", "5", "--jobs", "1"])
    assert code == 0
    assert "win rate" in capsys.readouterr().out
    code = main(["bench", "--board", "beginner", "--games", "4", "--jobs", "1", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 4
    assert out["wins"] + out["losses"] == 4
    assert out["board"] == "beginner"


@pytest.mark.parametrize(
    "argv",
    [
        ["--board", "9x9x80", "--rule", "zero", "--games", "1"],
        ["--board", "nonsense", "--games", "1"],
        ["--games", "0"],
        ["--games", "1", "--jobs", "0"],
    ],
)
def test_cli_bad_input_is_one_clear_error(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("msbot bench: error:")
    assert "Traceback" not in err
