"""Time `analyse` per decision on positions from real simulated games.

Collects every position the solver meets while playing `--games` seeded
games (the same loop as `msbot bench`, single process), then times each
analysis again `--repeat` times and prints median / p90 / p99 / max.
`--profile` prints the top of a cProfile run instead.

    .venv/bin/python benchmarks/bench_solver.py --board 16x30x99 --games 100
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time

from bot.bench.simulator import Game
from bot.board import Board
from bot.solver import analyse


def positions(height: int, width: int, mines: int, rule: str, games: int, seed: int) -> list[Board]:
    boards: list[Board] = []
    for g in range(games):
        game = Game(height, width, mines, rule, seed + g)  # type: ignore[arg-type]
        while game.status == "playing":
            board = game.board()
            boards.append(board)
            result = analyse(board, mines, rule)  # type: ignore[arg-type]
            cells = list(result.safe)
            if not cells:
                assert result.move is not None
                cells = [(result.move.row, result.move.col)]
            for cell in cells:
                if game.status == "playing":
                    game.open(cell)
    return boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--board", default="16x30x99", help="RxCxM")
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    height, width, mines = (int(x) for x in args.board.split("x"))
    boards = positions(height, width, mines, args.rule, args.games, args.seed)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for board in boards:
            analyse(board, mines, args.rule)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
        return
    times = []
    for board in boards:
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            analyse(board, mines, args.rule)
            best = min(best, time.perf_counter() - t0)
        times.append(best * 1000)
    times.sort()

    def q(f: float) -> float:
        return times[min(len(times) - 1, int(f * len(times)))]

    print(
        f"{len(times)} decisions from {args.games} games ({args.board}, {args.rule}): "
        f"median {statistics.median(times):.3f} ms, p90 {q(0.9):.3f} ms, "
        f"p99 {q(0.99):.3f} ms, max {times[-1]:.3f} ms"
    )


if __name__ == "__main__":
    main()
