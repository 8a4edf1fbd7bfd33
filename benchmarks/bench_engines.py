"""Throughput of the bench engines: local processes against a local dask cluster, 1 and 2 workers.

Each round plays the same seeded games once per configuration, the
configurations alternating (local 1, dask 1, local 2, dask 2, ...) so that a
shared, noisy machine slows them all alike. Reports, per configuration, the
median games per second over the rounds (playing only: starting the engine is
reported apart), the 2-worker / 1-worker ratio of each engine, and dask's
overhead against local at the same number of workers. Every configuration
must give the same wins and claim counts, or the script stops.

    .venv/bin/python benchmarks/bench_engines.py --board expert --games 300 --rounds 5
"""

from __future__ import annotations

import argparse
import statistics

from bot.bench.runner import parse_board_spec, play_games, summarise

CONFIGS = (("local", 1), ("dask", 1), ("local", 2), ("dask", 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--board", default="expert")
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--strength", default="full")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    spec = parse_board_spec(args.board)
    rates: dict[tuple[str, int], list[float]] = {c: [] for c in CONFIGS}
    starts: dict[tuple[str, int], list[float]] = {c: [] for c in CONFIGS}
    outcome = None
    for round_ in range(args.rounds):
        for config in CONFIGS if round_ % 2 == 0 else CONFIGS[::-1]:
            engine, workers = config
            s = summarise(
                play_games(
                    spec, args.rule, args.games, args.seed, workers, args.strength, engine=engine
                )
            )
            seen = (s.wins, s.decisions, s.safe_claims, s.mine_claims)
            if outcome is not None and seen != outcome:
                raise SystemExit(f"{config} played other games: {seen} != {outcome}")
            outcome = seen
            rates[config].append(s.games_per_second)
            starts[config].append(s.engine_start_seconds)
            print(
                f"round {round_ + 1} {engine:5} x{workers}: {s.games_per_second:7.2f} games/s, "
                f"start {s.engine_start_seconds:.2f} s",
                flush=True,
            )
    print(
        f"\n{args.games} {spec.name} games, rule {args.rule}, strength {args.strength}, seed "
        f"{args.seed}; {args.rounds} rounds; wins {outcome and outcome[0]} in every run"
    )
    median = {c: statistics.median(v) for c, v in rates.items()}
    for config in CONFIGS:
        print(
            f"{config[0]:5} x{config[1]}: median {median[config]:7.2f} games/s "
            f"(min {min(rates[config]):.2f}, max {max(rates[config]):.2f}), "
            f"engine start median {statistics.median(starts[config]):.2f} s"
        )
    for engine in ("local", "dask"):
        print(f"{engine}: 2 workers / 1 worker = {median[(engine, 2)] / median[(engine, 1)]:.2f}")
    for workers in (1, 2):
        ratio = median[("dask", workers)] / median[("local", workers)]
        overhead = 100 * (1 - ratio)
        print(f"dask / local at {workers} worker(s) = {ratio:.3f} (overhead {overhead:.1f} %)")


if __name__ == "__main__":
    main()
