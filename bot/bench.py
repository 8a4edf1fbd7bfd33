"""The bench: the solver plays many simulated games; every claim is checked.

Each decision the player asks the solver for its analysis of the visible
board, opens every certain-safe cell at once (certain cells cannot interfere
with each other) or, when there is none, the solver's chosen move. It never
flags: the simulator wins when every safe cell is open. Before anything else
counts, EVERY cell the analysis calls safe must be safe and every cell it calls
a mine must be a mine in the hidden truth; one false claim aborts the whole
bench with a `FalseClaimError` carrying what is needed to replay the position.

Games are independent and their seeds derive from the bench seed and the game
index only, so the results (wins, guesses) do not depend on how many processes
play them; only the timings do.
"""

from __future__ import annotations

import functools
import inspect
import math
import multiprocessing
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast, get_args

import numpy as np

from bot.board import UNOPENED, Board, Cell
from bot.errors import MsbotError
from bot.limits import check_board_size
from bot.simulator import RULES, Game, Rule
from bot.solver import Strength
from bot.solver import analyse as solver_analyse

#: Named boards: (rows, columns, mines).
BOARDS: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
}

#: Two-sided 95 % normal quantile for the Wilson interval.
Z95 = 1.959963984540054


class BenchError(MsbotError):
    """The bench cannot run or the solver misbehaved (no move, a move on an open cell)."""


class FalseClaimError(BenchError):
    """The solver called a mine safe or a safe cell a mine: the bench result is void."""


class MoveLike(Protocol):
    """What the bench reads of `bot.solver.Move`."""

    @property
    def action(self) -> str: ...
    @property
    def row(self) -> int: ...
    @property
    def col(self) -> int: ...
    @property
    def p_mine(self) -> float | None: ...
    @property
    def reason(self) -> str: ...


class AnalysisLike(Protocol):
    """What the bench reads of `bot.solver.Analysis`."""

    @property
    def safe(self) -> Sequence[Cell]: ...
    @property
    def mines(self) -> Sequence[Cell]: ...
    @property
    def move(self) -> MoveLike | None: ...


Analyser = Callable[[Board, int, Rule], AnalysisLike]


@dataclass(frozen=True)
class BoardSpec:
    """A board size: a name for people and its rows, columns and mines."""

    name: str
    height: int
    width: int
    mines: int


def parse_board_spec(text: str) -> BoardSpec:
    """`beginner`, `intermediate`, `expert` or `RxCxM` (rows x columns x mines)."""
    key = text.strip().lower()
    if key in BOARDS:
        h, w, m = BOARDS[key]
        return BoardSpec(key, h, w, m)
    match = re.fullmatch(r"(\d+)x(\d+)x(\d+)", key)
    if not match:
        raise BenchError(
            f"unknown board {text!r}: use beginner, intermediate, expert or RxCxM "
            "(rows x columns x mines, e.g. 16x30x99)"
        )
    h, w, m = (int(g) for g in match.groups())
    if h < 1 or w < 1 or m >= h * w:
        raise BenchError(f"board {text!r} is impossible: {m} mines on {h}x{w} cells")
    check_board_size(h, w, f"board {text!r}")
    return BoardSpec(f"{h}x{w}x{m}", h, w, m)


def game_seed(bench_seed: int, index: int) -> int:
    """The seed of game `index`: a hash of (bench seed, index), independent of --jobs."""
    state = np.random.SeedSequence([bench_seed, index]).generate_state(2, dtype=np.uint32)
    return int(state[0]) << 32 | int(state[1])


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate: honest near 0 and 1, unlike p ± z·se."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == games else min(1.0, centre + half)
    return (low, high)


def default_strength() -> str:
    """The strength `analyse` uses when none is given, for the report."""
    return str(inspect.signature(solver_analyse).parameters["strength"].default)


def load_analyser(strength: str | None = None) -> Analyser:
    """The real solver's `analyse`, with `strength` bound when asked for."""
    if strength is None:
        return solver_analyse
    if strength not in get_args(Strength):
        raise BenchError(
            f"unknown strength {strength!r} (expected one of {', '.join(get_args(Strength))})"
        )
    return functools.partial(solver_analyse, strength=cast(Strength, strength))


# -- one game -------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """How one game went; times in seconds."""

    index: int
    seed: int
    won: bool
    guesses: int
    decision_times: tuple[float, ...]
    decision_cpu_times: tuple[float, ...]
    game_time: float


def _where(spec: BoardSpec, rule: Rule, index: int, seed: int, board: Board) -> str:
    return (
        f"game {index} (game seed {seed}; replay with "
        f"bot.simulator.Game({spec.height}, {spec.width}, {spec.mines}, {rule!r}, seed={seed})), "
        f"on this board:\n{board.to_text()}"
    )


def check_claims(
    game: Game, board: Board, analysis: AnalysisLike, spec: BoardSpec, rule: Rule, index: int
) -> None:
    """Raise `FalseClaimError` unless every safe/mine claim agrees with the hidden truth.

    `board` is the position the solver analysed; the game must have its mines
    placed (claims made on the all-covered board are checked after the first
    click has placed them).
    """
    for r, c in analysis.safe:
        if game.is_mine((r, c)):
            raise FalseClaimError(
                f"false claim: the solver called {(r, c)} safe but it is a mine; "
                + _where(spec, rule, index, game.seed, board)
            )
    for r, c in analysis.mines:
        if not game.is_mine((r, c)):
            raise FalseClaimError(
                f"false claim: the solver called {(r, c)} a mine but it is safe; "
                + _where(spec, rule, index, game.seed, board)
            )


def _cells_to_open(
    board: Board, analysis: AnalysisLike, spec: BoardSpec, rule: Rule, index: int, seed: int
) -> tuple[list[Cell], bool]:
    """The cells this decision opens and whether that is a guess."""
    if analysis.safe:
        cells = [(int(r), int(c)) for r, c in analysis.safe]
        guess = False
    else:
        move = analysis.move
        if move is None or move.action != "open":
            raise BenchError(
                f"the solver offered no cell to open ({move!r}); "
                + _where(spec, rule, index, seed, board)
            )
        cells = [(int(move.row), int(move.col))]
        guess = move.reason != "certain" and move.p_mine != 0
    for cell in cells:
        if not (0 <= cell[0] < board.height and 0 <= cell[1] < board.width):
            raise BenchError(
                f"the solver chose {cell}, outside the board; "
                + _where(spec, rule, index, seed, board)
            )
        if board[cell] not in UNOPENED:
            raise BenchError(
                f"the solver chose {cell}, which is not covered; "
                + _where(spec, rule, index, seed, board)
            )
    return cells, guess


def play_game(spec: BoardSpec, rule: Rule, index: int, seed: int, analyse: Analyser) -> GameResult:
    """Play one game to its end, checking every claim of every decision."""
    start = time.perf_counter()
    game = Game(spec.height, spec.width, spec.mines, rule, seed)
    times: list[float] = []
    cpu_times: list[float] = []
    guesses = 0
    # Every decision opens at least one cell, so this bounds a misbehaving solver.
    limit = spec.height * spec.width + 1
    while game.status == "playing":
        if len(times) >= limit:
            raise BenchError(
                f"no progress after {limit} decisions; "
                + _where(spec, rule, index, seed, game.board())
            )
        board = game.board()
        t0 = time.perf_counter()
        c0 = time.thread_time()
        try:
            analysis = analyse(board, spec.mines, rule)
        except MsbotError as exc:
            # A real game's board is always consistent: this is a solver bug.
            raise BenchError(
                f"the solver failed ({exc}); " + _where(spec, rule, index, seed, board)
            ) from exc
        times.append(time.perf_counter() - t0)
        cpu_times.append(time.thread_time() - c0)
        cells, guess = _cells_to_open(board, analysis, spec, rule, index, seed)
        guesses += guess
        for cell in cells:
            if game.status == "playing":
                game.open(cell)
        # After the moves, so that the first click has placed the mines.
        check_claims(game, board, analysis, spec, rule, index)
    return GameResult(
        index=index,
        seed=seed,
        won=game.status == "won",
        guesses=guesses,
        decision_times=tuple(times),
        decision_cpu_times=tuple(cpu_times),
        game_time=time.perf_counter() - start,
    )


# -- many games -----------------------------------------------------------------


@dataclass(frozen=True)
class _Task:
    spec: BoardSpec
    rule: Rule
    bench_seed: int
    indices: tuple[int, ...]
    strength: str | None
    analyse: Analyser | None


def _play_task(task: _Task) -> list[GameResult]:
    analyse = task.analyse or load_analyser(task.strength)
    return [
        play_game(task.spec, task.rule, i, game_seed(task.bench_seed, i), analyse)
        for i in task.indices
    ]


@dataclass(frozen=True)
class BenchSummary:
    """The bench figures; times in milliseconds unless the name says seconds.

    Solver times are wall-clock (`perf_counter`) around each `analyse` call;
    the ``cpu`` ones are the CPU time of that call (`thread_time`), which other
    processes competing for the cores do not inflate.
    """

    board: str
    height: int
    width: int
    mines: int
    rule: str
    strength: str | None
    seed: int
    jobs: int
    games: int
    wins: int
    losses: int
    win_rate: float
    win_rate_low: float
    win_rate_high: float
    guesses_per_game: float
    decisions: int
    decision_ms_median: float
    decision_ms_p99: float
    decision_ms_max: float
    solver_ms_per_game_mean: float
    solver_ms_per_game_median: float
    decision_cpu_ms_median: float
    decision_cpu_ms_p99: float
    solver_cpu_ms_per_game_median: float
    game_ms_mean: float
    games_per_second: float
    wall_seconds: float


def summarise(
    results: Sequence[GameResult],
    spec: BoardSpec,
    rule: Rule,
    strength: str | None,
    seed: int,
    jobs: int,
    wall: float,
) -> BenchSummary:
    """Turn per-game results into the bench figures."""
    games = len(results)
    wins = sum(r.won for r in results)
    low, high = wilson_interval(wins, games)
    times = np.fromiter((t for r in results for t in r.decision_times), dtype=np.float64)
    per_game = np.array([sum(r.decision_times) for r in results], dtype=np.float64)
    cpu = np.fromiter((t for r in results for t in r.decision_cpu_times), dtype=np.float64)
    cpu_per_game = np.array([sum(r.decision_cpu_times) for r in results], dtype=np.float64)
    ms = 1000.0

    def stat(values: np.ndarray[Any, Any], fn: Callable[[Any], Any]) -> float:
        return float(fn(values)) * ms if values.size else 0.0

    return BenchSummary(
        board=spec.name,
        height=spec.height,
        width=spec.width,
        mines=spec.mines,
        rule=rule,
        strength=strength,
        seed=seed,
        jobs=jobs,
        games=games,
        wins=wins,
        losses=games - wins,
        win_rate=wins / games if games else 0.0,
        win_rate_low=low,
        win_rate_high=high,
        guesses_per_game=sum(r.guesses for r in results) / games if games else 0.0,
        decisions=int(times.size),
        decision_ms_median=stat(times, np.median),
        decision_ms_p99=stat(times, lambda v: np.percentile(v, 99)),
        decision_ms_max=stat(times, np.max),
        solver_ms_per_game_mean=stat(per_game, np.mean),
        solver_ms_per_game_median=stat(per_game, np.median),
        decision_cpu_ms_median=stat(cpu, np.median),
        decision_cpu_ms_p99=stat(cpu, lambda v: np.percentile(v, 99)),
        solver_cpu_ms_per_game_median=stat(cpu_per_game, np.median),
        game_ms_mean=stat(np.array([r.game_time for r in results]), np.mean),
        games_per_second=games / wall if wall > 0 else 0.0,
        wall_seconds=wall,
    )


def _chunks(games: int, jobs: int) -> Iterator[tuple[int, ...]]:
    """Small runs of game indices: enough of them to balance jobs and show progress."""
    size = max(1, min(25, games // (jobs * 20) if jobs else games))
    for start in range(0, games, size):
        yield tuple(range(start, min(start + size, games)))


def run_bench(
    spec: BoardSpec,
    rule: Rule,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    strength: str | None = None,
    analyse: Analyser | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> BenchSummary:
    """Play `games` games on `jobs` processes and summarise them.

    `analyse` replaces the real solver (it must be picklable when jobs > 1);
    `on_progress` is called with the number of games finished so far.
    """
    if rule not in RULES:
        raise BenchError(f"unknown rule {rule!r} (expected one of {', '.join(RULES)})")
    if games < 1:
        raise BenchError("--games must be at least 1")
    if jobs < 1:
        raise BenchError("--jobs must be at least 1")
    if seed < 0:
        raise BenchError("--seed must be zero or more")
    # Fail early, in this process: a game that cannot be set up (too many
    # mines for the rule), a bad strength or a missing solver.
    Game(spec.height, spec.width, spec.mines, rule, 0)
    if analyse is None:
        load_analyser(strength)
    tasks = [_Task(spec, rule, seed, idx, strength, analyse) for idx in _chunks(games, jobs)]
    start = time.perf_counter()
    results: list[GameResult] = []
    if jobs == 1:
        for task in tasks:
            results += _play_task(task)
            if on_progress:
                on_progress(len(results))
    else:
        with multiprocessing.Pool(jobs) as pool:
            for chunk in pool.imap_unordered(_play_task, tasks):
                results += chunk
                if on_progress:
                    on_progress(len(results))
    wall = time.perf_counter() - start
    results.sort(key=lambda r: r.index)
    used = strength if analyse is not None or strength else default_strength()  # for the report
    return summarise(results, spec, rule, used, seed, jobs, wall)
