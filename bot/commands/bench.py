"""`msbot bench`: the solver plays simulated games; win rate and solver timings.

Examples:
    msbot bench --board expert --rule safe --games 5000 --seed 1
    msbot bench --board 16x30x99 --rule zero --games 200 --jobs 2 --json

Every safe/mine claim is checked against the hidden layout; a false claim stops
the bench with exit code 2 and the game seed and board needed to replay it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from typing import Any, TextIO

from bot.bench import BenchSummary, parse_board_spec, run_bench
from bot.limits import MAX_GAMES, MAX_JOBS, check_count
from bot.simulator import RULES


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "bench",
        help="play simulated games with the solver: win rate and solver time",
        description=(
            "Play simulated games with the solver, checking every safe/mine claim against "
            "the hidden layout, and report the win rate (Wilson 95 % interval) and solver "
            "times. Results depend only on --board, --rule, --games, --seed (and the solver), "
            "not on --jobs."
        ),
    )
    parser.add_argument(
        "--board",
        default="expert",
        help="beginner (9x9/10), intermediate (16x16/40), expert (16 rows x 30 cols/99) "
        "or RxCxM (rows x cols x mines); default expert",
    )
    parser.add_argument(
        "--rule",
        choices=RULES,
        default="safe",
        help="first click: safe (never a mine), zero (opens an area), none; default safe",
    )
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="bench seed (default 0)")
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: all cores)"
    )
    parser.add_argument("--strength", choices=("fast", "full"), help="solver strength")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


class ProgressBar:
    """A one-line progress bar on a terminal; silent when the stream is not one."""

    def __init__(self, total: int, stream: TextIO, enabled: bool) -> None:
        self.total = total
        self.stream = stream
        self.enabled = enabled
        self.start = time.perf_counter()
        self.last = 0.0

    def __call__(self, done: int) -> None:
        now = time.perf_counter()
        if not self.enabled or (now - self.last < 0.2 and done < self.total):
            return
        self.last = now
        width = 30
        filled = width * done // self.total
        rate = done / (now - self.start) if now > self.start else 0.0
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} {rate:.1f} games/s"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def format_summary(s: BenchSummary) -> str:
    """The human report: one figure per line."""
    strength = f", strength {s.strength}" if s.strength else ""
    lines = [
        f"board          {s.board} ({s.height} rows x {s.width} cols, {s.mines} mines), "
        f"rule {s.rule}{strength}",
        f"games          {s.games} (seed {s.seed}, {s.jobs} jobs)",
        f"wins           {s.wins}",
        f"win rate       {100 * s.win_rate:.2f} % "
        f"(95 % Wilson interval {100 * s.win_rate_low:.2f} - {100 * s.win_rate_high:.2f} %)",
        f"guesses/game   {s.guesses_per_game:.2f}",
        f"solver time    median {s.decision_ms_median:.3f} ms, p99 {s.decision_ms_p99:.3f} ms, "
        f"max {s.decision_ms_max:.1f} ms per decision ({s.decisions} decisions)",
        f"solver CPU     median {s.decision_cpu_ms_median:.3f} ms, "
        f"p99 {s.decision_cpu_ms_p99:.3f} ms per decision, "
        f"{s.solver_cpu_ms_per_game_median:.1f} ms per game median (CPU time)",
        f"per game       solver {s.solver_ms_per_game_mean:.1f} ms mean, "
        f"{s.solver_ms_per_game_median:.1f} ms median; whole game {s.game_ms_mean:.1f} ms mean",
        f"speed          {s.games_per_second:.1f} games/s",
        f"wall time      {s.wall_seconds:.1f} s",
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    spec = parse_board_spec(args.board)
    check_count(args.games, MAX_GAMES, "--games")
    check_count(args.jobs, MAX_JOBS, "--jobs")
    bar = ProgressBar(args.games, sys.stderr, enabled=sys.stderr.isatty() and not args.json)
    try:
        summary = run_bench(
            spec,
            args.rule,
            args.games,
            seed=args.seed,
            jobs=args.jobs,
            strength=args.strength,
            on_progress=bar,
        )
    finally:
        bar.close()
    if args.json:
        print(json.dumps(dataclasses.asdict(summary)))
    else:
        print(format_summary(summary))
    return 0
