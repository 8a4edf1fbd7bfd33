"""Paired comparison of solver variants: the same games, counting the games only one won.

Two variants that win 78 % and 79 % of 2,000 games differ by 20 games, well
inside either interval; but on the SAME games most are won or lost by both,
and the sign of the difference is decided only by the games where they
disagree. This prints, for each variant against the first one (the
reference), its wins, the games only it won, the games only the reference won
and a two-sided sign-test p-value on those discordant games.

Every variant plays through `bot.bench.runner.play_game` (every safe/mine claim
checked against the hidden layout).

    PYTHONPATH=. .venv/bin/python benchmarks/paired.py --board intermediate --games 4000 \
        --variants full full:first=1,1 full:first=2,2 full:second=15,15

``first=r,c`` forces the first click; ``second=r,c`` forces the guess made
when the first click showed a number (exactly one cell open), to compare
where the next island is started.
"""

from __future__ import annotations

import argparse
import functools
import math
import multiprocessing
from dataclasses import dataclass, replace
from typing import Any

from bot.bench.runner import BoardSpec, game_seed, parse_board_spec, play_game
from bot.bench.simulator import Rule
from bot.board import Board
from bot.solver import Analysis, GuessOptions, Move, analyse


@dataclass(frozen=True)
class Variant:
    """A strength, guess options and optionally a forced first click."""

    strength: str
    options: GuessOptions
    first: tuple[int, int] | None = None
    #: The guess forced when exactly one cell is open (the first click showed a number).
    second: tuple[int, int] | None = None

    def __call__(self, board: Board, total: int, rule: Rule) -> Analysis:
        if self.first is not None and all(set(row) <= {"."} for row in board.rows):
            r, c = self.first
            return Analysis((), (), (), Move("open", r, c, 0.0, "first-click"), True)
        if self.second is not None and sum(ch != "." for row in board.rows for ch in row) == 1:
            r, c = self.second
            if board[(r, c)] == ".":
                return Analysis((), (), (), Move("open", r, c, 0.5, "guess"), True)
        return analyse(
            board,
            total,
            rule,
            strength=self.strength,  # type: ignore[arg-type]
            guess_options=self.options,
        )


def parse_variant(text: str) -> Variant:
    """``full`` / ``fast``, then ``:key=value;...`` GuessOptions fields, ``first=r,c`` or
    ``second=r,c``."""
    strength, _, rest = text.partition(":")
    variant = Variant(strength, GuessOptions())
    if not rest:
        return variant
    fields: dict[str, Any] = {}
    for item in rest.split(";"):
        key, _, value = item.partition("=")
        if key in ("first", "second"):
            r, c = value.split(",")
            variant = replace(variant, **{key: (int(r), int(c))})
            continue
        current = getattr(GuessOptions(), key)
        if isinstance(current, bool):
            fields[key] = value.lower() in ("1", "true", "yes")
        else:
            fields[key] = type(current)(value)
    return replace(variant, options=replace(variant.options, **fields))


def _won(spec: BoardSpec, rule: Rule, seed: int, variants: list[Variant], index: int) -> list[bool]:
    s = game_seed(seed, index)
    return [play_game(spec, rule, index, s, v).won for v in variants]


def sign_test(a: int, b: int) -> float:
    """Two-sided exact binomial p-value of a vs b discordant games under p = 1/2."""
    n = a + b
    if n == 0:
        return 1.0
    k = min(a, b)
    tail: float = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--board", default="intermediate")
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="first game index")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--variants", nargs="+", default=["full"])
    args = parser.parse_args()
    spec = parse_board_spec(args.board)
    variants = [parse_variant(v) for v in args.variants]
    play = functools.partial(_won, spec, args.rule, args.seed, variants)
    indices = range(args.start, args.start + args.games)
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(play, indices, chunksize=10)
    print(
        f"{spec.name} {args.rule}, games {args.start}..{args.start + args.games - 1}, "
        f"bench seed {args.seed}"
    )
    ref = [r[0] for r in results]
    for k, name in enumerate(args.variants):
        won = [r[k] for r in results]
        only = sum(w and not x for w, x in zip(won, ref, strict=True))
        only_ref = sum(x and not w for w, x in zip(won, ref, strict=True))
        print(
            f"{name:50} {sum(won):6d} wins {100 * sum(won) / len(won):6.2f} %  "
            f"+{only} -{only_ref}  p={sign_test(only, only_ref):.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
