"""The bench: the solver plays many simulated games, on this machine or a cluster.

What one game is, and how each of its claims is checked, is `bot.bench.game`;
where the games are played is an engine (`bot.bench.engines`: local processes
or dask); the results file that lets a long run resume is `bot.bench.log`. This
module cuts the games into chunks, hands them to the engine, keeps the
finished chunks and summarises them. The chunks depend only on the number of
games, so a run resumed with another engine or other workers plays the
remaining games exactly as the first one would have.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bot.bench.engines import open_engine
from bot.bench.game import (
    BOARDS,
    Analyser,
    BenchError,
    BoardSpec,
    FalseClaimError,
    GameResult,
    Task,
    check_claims,
    default_strength,
    game_seed,
    load_analyser,
    parse_board_spec,
    play_game,
    solver_fingerprint,
)
from bot.bench.log import BenchLog, RunKey
from bot.bench.simulator import RULES, Game, Rule

#: Two-sided 95 % normal quantile for the Wilson interval.
Z95 = 1.959963984540054

#: The most games in one chunk: a chunk is the unit of progress, of the
#: results file and of what a killed worker loses (an expert chunk of 50 games
#: is about 2 s of CPU at full strength).
CHUNK_GAMES = 50


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


@dataclass(frozen=True)
class BenchRun:
    """Every game of a run, in index order, and how the run went."""

    spec: BoardSpec
    rule: Rule
    seed: int
    results: list[GameResult]
    #: Seconds playing, and before that starting the engine (a cluster's workers).
    wall: float
    setup: float
    resumed: int
    engine: str
    workers: int
    strength: str | None


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
    #: The engine and how many games it played at once (processes or cluster threads).
    engine: str
    jobs: int
    games: int
    wins: int
    losses: int
    win_rate: float
    win_rate_low: float
    win_rate_high: float
    guesses_per_game: float
    #: Every claim the solver made, each checked against the hidden layout.
    safe_claims: int
    mine_claims: int
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
    #: Over the games this run played (not those read back from --results).
    games_per_second: float
    wall_seconds: float
    #: Starting the engine (processes, a local cluster), not in `wall_seconds`.
    engine_start_seconds: float = 0.0
    #: Games read back from the results file instead of played again.
    resumed_games: int = 0


def summarise(run: BenchRun) -> BenchSummary:
    """Turn a run's per-game results into the bench figures (speed over the games it
    played, not those read back from its results file)."""
    results, spec, resumed, wall = run.results, run.spec, run.resumed, run.wall
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
        rule=run.rule,
        strength=run.strength,
        seed=run.seed,
        engine=run.engine,
        jobs=run.workers,
        games=games,
        wins=wins,
        losses=games - wins,
        win_rate=wins / games if games else 0.0,
        win_rate_low=low,
        win_rate_high=high,
        guesses_per_game=sum(r.guesses for r in results) / games if games else 0.0,
        safe_claims=sum(r.safe_claims for r in results),
        mine_claims=sum(r.mine_claims for r in results),
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
        games_per_second=(games - resumed) / wall if wall > 0 else 0.0,
        wall_seconds=wall,
        engine_start_seconds=run.setup,
        resumed_games=resumed,
    )


def chunk_games(games: int) -> int:
    """Games per chunk: at most `CHUNK_GAMES`, and about 40 chunks or more (progress).

    It depends on the number of games only, never on the engine or its workers,
    so that a results file resumes under any of them.
    """
    return max(1, min(CHUNK_GAMES, games // 40))


def chunks(games: int) -> Iterator[range]:
    """The game indices of each chunk, chunk 0 first (ranges: a run of 100
    million games is two million chunks, made one at a time as the engine
    takes them, never all held at once)."""
    size = chunk_games(games)
    for start in range(0, games, size):
        yield range(start, min(start + size, games))


def play_games(
    spec: BoardSpec,
    rule: Rule,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    strength: str | None = None,
    analyse: Analyser | None = None,
    on_progress: Callable[[int], None] | None = None,
    engine: str = "local",
    address: str | None = None,
    results: Path | None = None,
) -> BenchRun:
    """Play `games` games on `engine` and return each game's result
    (`summarise` turns them into the bench figures).

    `analyse` replaces the real solver (it must be picklable when the games run
    in other processes); `on_progress` is called with the number of games
    finished so far (resumed ones included); `results` is a results file
    (`bot.bench.log`): its finished chunks are not played again, and each
    chunk this run finishes is added to it at once.
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
    used = strength if analyse is not None or strength else default_strength()  # for the report
    log = None
    if results is not None:
        key = RunKey(
            spec.name,
            spec.height,
            spec.width,
            spec.mines,
            rule,
            used or "custom",
            seed,
            games,
            chunk_games(games),
            solver_fingerprint(),
        )
        log = BenchLog(results, key)
    try:
        done: dict[int, list[GameResult]] = dict(log.done) if log else {}
        resumed = sum(len(g) for g in done.values())
        tasks = (
            Task(number, spec, rule, seed, indices, strength, analyse)
            for number, indices in enumerate(chunks(games))
            if number not in done
        )
        left = -(-games // chunk_games(games)) - len(done)
        finished = resumed
        if on_progress and resumed:
            on_progress(finished)
        wall = setup = 0.0
        workers = jobs
        if left > 0:  # else every game was read back: no engine to start
            opened = time.perf_counter()
            with open_engine(engine, jobs, address) as runner:
                workers = runner.workers
                start = time.perf_counter()
                setup = start - opened
                for number, chunk in runner.play(tasks):
                    if log is not None:
                        log.append(number, chunk)
                    done[number] = chunk
                    finished += len(chunk)
                    if on_progress:
                        on_progress(finished)
                wall = time.perf_counter() - start
        ordered = [g for number in sorted(done) for g in done[number]]
        return BenchRun(spec, rule, seed, ordered, wall, setup, resumed, engine, workers, used)
    finally:
        if log is not None:
            log.close()  # another run may use the file from now on


__all__ = [
    "BOARDS",
    "Analyser",
    "BenchError",
    "BenchRun",
    "BenchSummary",
    "BoardSpec",
    "FalseClaimError",
    "GameResult",
    "check_claims",
    "chunks",
    "game_seed",
    "parse_board_spec",
    "play_game",
    "play_games",
    "summarise",
    "wilson_interval",
]
