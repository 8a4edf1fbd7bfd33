"""Where the solver loses: every guess of a bench run, classified, with its risk.

Plays the same seeded games as `msbot bench` (same game seeds, every
safe/mine claim checked by `bot.bench.runner.check_claims`) and, for every guess,
records the guess number in the game, the guessed cell's P(mine), whether it
is an enclosed 50/50, a frontier or an interior cell, how much of the board is
still covered and how many mine placements fit the board. The sum of P(mine)
over the guesses of a class is the expected number of games lost there (less
noisy than counting the actual losses, which it also prints).

    PYTHONPATH=. .venv/bin/python benchmarks/loss_profile.py --board intermediate --games 2000
"""

from __future__ import annotations

import argparse
import functools
import math
import multiprocessing
from collections import defaultdict
from dataclasses import dataclass, replace

from bot.bench.runner import BoardSpec, check_claims, game_seed, parse_board_spec
from bot.bench.simulator import Game, Rule
from bot.board import Board
from bot.solver import GuessOptions, Strength, analyse
from bot.solver.components import split
from bot.solver.constraints import extract, neighbour_table
from bot.solver.fifty import find_fifty_fifty
from bot.solver.lookahead import base_of
from bot.solver.probability import compute
from bot.solver.rules import deduce


@dataclass(frozen=True)
class Guess:
    game: int
    number: int
    p_mine: float
    fifty: bool
    interior: bool
    covered: float
    log10_placements: float
    lost: bool


def _describe(board: Board, total: int, cell: tuple[int, int]) -> tuple[bool, bool, float, float]:
    position = extract(board)
    deduction = deduce(position, total)
    frontier = frozenset(c for con in deduction.constraints for c in con.cells)
    interior = position.unknown - deduction.safe - deduction.mines - frontier
    probs = compute(split(deduction.constraints), deduction, interior)
    table = neighbour_table(board.height, board.width)
    base = base_of(board, total)
    fifty = find_fifty_fifty(base.position.constraints, base.position.unknown, table) is not None
    index = cell[0] * board.width + cell[1]
    covered = len(position.unknown) / (board.height * board.width)
    log_w = math.log10(probs.weight) if probs.weight else float("nan")
    return fifty, index in interior, covered, log_w


def _play(spec: BoardSpec, rule: Rule, seed: int, strength: Strength, index: int) -> list[Guess]:
    game = Game(spec.height, spec.width, spec.mines, rule, game_seed(seed, index))
    solver = functools.partial(analyse, strength=strength, guess_options=GuessOptions())
    guesses: list[Guess] = []
    while game.status == "playing":
        board = game.board()
        analysis = solver(board, spec.mines, rule)
        if analysis.safe:
            cells = [(int(r), int(c)) for r, c in analysis.safe]
        else:
            move = analysis.move
            assert move is not None
            cells = [(move.row, move.col)]
            if move.reason == "guess" and move.p_mine > 0:
                fifty, interior, covered, log_w = _describe(board, spec.mines, cells[0])
                guesses.append(
                    Guess(
                        index, len(guesses) + 1, move.p_mine, fifty, interior, covered, log_w, False
                    )
                )
        for cell in cells:
            if game.status == "playing":
                game.open(cell)
        check_claims(game, board, analysis, spec, rule, index)
        if str(game.status) == "lost" and guesses and not analysis.safe:
            last = guesses[-1]
            guesses[-1] = replace(last, lost=True)
    return guesses


def _bucket(g: Guess) -> str:
    if g.fifty:
        return "enclosed 50/50"
    if g.covered > 0.7:
        where = "early (>70 % covered)"
    elif g.covered > 0.3:
        where = "middle"
    else:
        where = "late (<30 % covered)"
    return f"{where}, {'interior' if g.interior else 'frontier'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--board", default="intermediate")
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--strength", default="full", choices=["fast", "full"])
    args = parser.parse_args()
    spec = parse_board_spec(args.board)
    play = functools.partial(_play, spec, args.rule, args.seed, args.strength)
    with multiprocessing.Pool(args.jobs) as pool:
        games = pool.map(play, range(args.games), chunksize=20)
    losses = sum(any(g.lost for g in gs) for gs in games)
    print(
        f"{spec.name} {args.rule} {args.strength}: {args.games} games, "
        f"{args.games - losses} won ({100 * (1 - losses / args.games):.2f} %)"
    )
    rows: dict[str, list[Guess]] = defaultdict(list)
    by_number: dict[str, list[Guess]] = defaultdict(list)
    by_placements: dict[str, list[Guess]] = defaultdict(list)
    for gs in games:
        for g in gs:
            rows[_bucket(g)].append(g)
            by_number[str(min(g.number, 6)) + ("+" if g.number >= 6 else "")].append(g)
            if math.isnan(g.log10_placements):
                key = "inexact"
            else:
                key = f"1e{min(int(g.log10_placements), 12):>2}" + (
                    "+" if g.log10_placements >= 12 else ""
                )
            by_placements[key].append(g)
    for title, table in (
        ("class", rows),
        ("guess number", by_number),
        ("placements (whole board)", by_placements),
    ):
        print(f"\n{title:32} {'guesses':>8} {'mean P':>7} {'E[losses]':>10} {'losses':>7}")
        for key in sorted(table):
            gs = table[key]
            risk = sum(g.p_mine for g in gs)
            print(
                f"{key:32} {len(gs):8d} {risk / len(gs):7.3f} {risk:10.1f} "
                f"{sum(g.lost for g in gs):7d}"
            )


if __name__ == "__main__":
    main()
