"""Ablation of the ``full`` solver strength: win rate with each guess feature switched off.

Plays the same seeded games (`bot.bench.runner.play_games`, every safe/mine claim
checked against the hidden layout) with: fast, full, and full minus one
feature at a time, and prints one row per variant with the solver's CPU time
(not inflated by other processes on a shared machine).

    .venv/bin/python benchmarks/bench_strength.py --board expert --rule safe --games 2000 --jobs 2

The switches that are off by default are in `EXTRA_VARIANTS` (``--only "full + 50/50 penalty"``).
Two variants' intervals overlap unless they differ a lot; to decide between
them count the games only one of them won: `benchmarks/paired.py`.
"""

from __future__ import annotations

import argparse
import functools

from bot.bench.runner import parse_board_spec, play_games, summarise
from bot.solver import GuessOptions, analyse

VARIANTS = {
    "fast": None,
    "full": GuessOptions(),
    "full - endgame": GuessOptions(endgame=False),
    "full - lookahead": GuessOptions(lookahead=False),
    "full - dead-cell avoidance": GuessOptions(avoid_dead=False),
    "full - enclosed 50/50 first": GuessOptions(fifty_fifty=False),
}
#: Switches that are off by default (no gain in paired runs, see `bot.solver.guess`); run them
#: with ``--only`` to repeat the measurement.
EXTRA_VARIANTS = {
    "full + near-frontier interior": GuessOptions(interior_near_frontier=4),
    "full + wider pool": GuessOptions(max_candidates=16, max_interior=8, safety_margin=0.2),
    "full + progress bonus 0.2": GuessOptions(progress_bonus=0.2),
    "full + 50/50 penalty": GuessOptions(fifty_penalty=True),
    "full + endgame 1000/50000": GuessOptions(endgame_placements=1000, endgame_nodes=50_000),
    "full, margin 0.05": GuessOptions(safety_margin=0.05),
    "full + linked tie-break 0.03": GuessOptions(linked_tolerance=0.03),
    "full + far interior first": GuessOptions(interior_distance=1),
    "full + endgame 4000/200000": GuessOptions(endgame_placements=4000, endgame_nodes=200_000),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--board", default="expert")
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--only",
        nargs="*",
        default=list(VARIANTS),
        choices=[*VARIANTS, *EXTRA_VARIANTS],
        help="variants to run (default: the ablation rows)",
    )
    args = parser.parse_args()
    spec = parse_board_spec(args.board)
    print(f"{spec.name} {args.rule}, {args.games} games, bench seed {args.seed}")
    print(
        f"{'variant':30} {'win rate':>9} {'95 % interval':>17} {'CPU ms/decision med/p99':>25} "
        f"{'CPU ms/game median':>19}"
    )
    for name in args.only:
        options = VARIANTS[name] if name in VARIANTS else EXTRA_VARIANTS[name]
        if options is None:
            solver = functools.partial(analyse, strength="fast")
        else:
            solver = functools.partial(analyse, strength="full", guess_options=options)
        s = summarise(play_games(spec, args.rule, args.games, args.seed, args.jobs, analyse=solver))
        print(
            f"{name:30} {100 * s.win_rate:8.2f}% "
            f"{100 * s.win_rate_low:7.2f} - {100 * s.win_rate_high:5.2f}% "
            f"{s.decision_cpu_ms_median:13.3f} / {s.decision_cpu_ms_p99:9.3f} "
            f"{s.solver_cpu_ms_per_game_median:19.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
