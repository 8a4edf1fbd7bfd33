"""`msbot bench`: the solver plays simulated games; win rate and solver timings.

Examples:
    msbot bench --board expert --rule safe --games 5000 --seed 1
    msbot bench --board 16x30x99 --rule zero --games 200 --jobs 2 --json
    msbot bench --board expert --games 200000 --strength full --engine dask \
        --address tcp://scheduler:8786 --results expert-safe.jsonl

Every safe/mine claim is checked against the hidden layout; a false claim stops
the bench with exit code 2 and the game seed and board needed to replay it.
With --results, every finished chunk of games is written to that file at once;
running the same command again (after Ctrl+C, a reboot, a lost cluster) plays
only the games that are not in it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from bot.bench.engines import ENGINES
from bot.bench.runner import BenchSummary, parse_board_spec, play_games, summarise
from bot.bench.simulator import RULES
from bot.limits import MAX_GAMES, MAX_JOBS, check_count


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
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="processes, or workers of the local dask cluster (default: all cores)",
    )
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="local",
        help="where the games run: local processes (default) or dask "
        "(needs pip install 'msbot[cluster]')",
    )
    parser.add_argument(
        "--address",
        help="the dask scheduler to use, e.g. tcp://10.0.0.5:8786 "
        "(default: a local cluster of --jobs workers)",
    )
    parser.add_argument(
        "--results",
        type=Path,
        help="JSON-lines file of finished chunks of games; an existing file of the same run "
        "is resumed (its games are not played again)",
    )
    parser.add_argument("--strength", choices=("fast", "full"), help="solver strength")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


class ProgressBar:
    """Progress: a bar redrawn on a terminal, else a plain line every `every` seconds.

    A long run sent to a log file still says how far it is and when it ends.
    The rate and the time left count only the games this run played, not
    those read back from a results file.
    """

    def __init__(self, total: int, stream: TextIO, tty: bool, every: float = 60.0) -> None:
        self.total = total
        self.stream = stream
        self.tty = tty
        self.every = every
        self.start = time.perf_counter()
        self.last = self.start
        self.first: int | None = None

    def __call__(self, done: int) -> None:
        now = time.perf_counter()
        if self.first is None:
            self.first = done if done < self.total else 0
            self.start = now
        gap = 0.2 if self.tty else self.every
        if now - self.last < gap and done < self.total:
            return
        self.last = now
        played = done - self.first
        rate = played / (now - self.start) if now > self.start and played else 0.0
        left = (
            f", {(self.total - done) / rate / 60:.0f} min left"
            if rate and done < self.total
            else ""
        )
        if self.tty:
            width = 30
            filled = width * done // self.total
            self.stream.write(
                f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} "
                f"{rate:.1f} games/s{left}   "
            )
        else:
            self.stream.write(f"bench: {done}/{self.total} games, {rate:.1f} games/s{left}\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def format_summary(s: BenchSummary) -> str:
    """The human report: one figure per line."""
    strength = f", strength {s.strength}" if s.strength else ""
    lines = [
        f"board          {s.board} ({s.height} rows x {s.width} cols, {s.mines} mines), "
        f"rule {s.rule}{strength}",
        f"games          {s.games} (seed {s.seed}, {s.engine} engine, {s.jobs} workers"
        + (f"; {s.resumed_games} read back from the results file" if s.resumed_games else "")
        + ")",
        f"wins           {s.wins}",
        f"win rate       {100 * s.win_rate:.2f} % "
        f"(95 % Wilson interval {100 * s.win_rate_low:.2f} - {100 * s.win_rate_high:.2f} %)",
        f"guesses/game   {s.guesses_per_game:.2f}",
        f"claims checked {s.safe_claims} safe, {s.mine_claims} mines: all true",
        f"solver time    median {s.decision_ms_median:.3f} ms, p99 {s.decision_ms_p99:.3f} ms, "
        f"max {s.decision_ms_max:.1f} ms per decision ({s.decisions} decisions)",
        f"solver CPU     median {s.decision_cpu_ms_median:.3f} ms, "
        f"p99 {s.decision_cpu_ms_p99:.3f} ms per decision, "
        f"{s.solver_cpu_ms_per_game_median:.1f} ms per game median (CPU time)",
        f"per game       solver {s.solver_ms_per_game_mean:.1f} ms mean, "
        f"{s.solver_ms_per_game_median:.1f} ms median; whole game {s.game_ms_mean:.1f} ms mean",
        f"speed          {s.games_per_second:.1f} games/s",
        f"wall time      {s.wall_seconds:.1f} s (and {s.engine_start_seconds:.1f} s to start "
        f"the {s.engine} engine)",
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    spec = parse_board_spec(args.board)
    check_count(args.games, MAX_GAMES, "--games")
    check_count(args.jobs, MAX_JOBS, "--jobs")
    bar = ProgressBar(args.games, sys.stderr, tty=sys.stderr.isatty())
    try:
        played = play_games(
            spec,
            args.rule,
            args.games,
            seed=args.seed,
            jobs=args.jobs,
            strength=args.strength,
            on_progress=bar,
            engine=args.engine,
            address=args.address,
            results=args.results,
        )
    except KeyboardInterrupt:
        bar.close()
        if args.results is not None:
            print(
                f"msbot: interrupted; the finished games are in {args.results}: "
                "run the same command again to go on",
                file=sys.stderr,
            )
        raise
    bar.close()
    summary = summarise(played)
    if args.json:
        print(json.dumps(dataclasses.asdict(summary)))
    else:
        print(format_summary(summary))
    return 0
