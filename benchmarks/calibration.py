"""Is anything WRONG rather than weak? Three checks of the solver's model against the truth.

A win rate below the state of the art can mean a weak guess policy or a
wrong model. These checks separate the two, on seeded bench games:

* ``layout``: the simulator's safe rule. After a first click at (0, 0), every
  other cell must be a mine with probability mines / (cells - 1) (uniform over
  the other cells); prints the per-cell frequency range and its z-scores.
* ``probability``: at every guess of the ``fast`` solver, every undecided
  cell's P(mine) is compared with the hidden layout, summed per probability
  bin (expected vs actual mines), and the guessed cell apart (a selection
  effect would show there: exact probabilities have none).
* ``reveal``: for every guess that survives, the look-ahead's distribution of
  the number the cell shows (`lookahead.reveal` + `outlook_position`
  weights) against the number it actually showed.

Bins and guesses of one game are correlated (a rare configuration puts
several low-probability cells in one bin at once), so read z-scores as rough.

    PYTHONPATH=. .venv/bin/python benchmarks/calibration.py --board intermediate --games 2000
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict

import numpy as np

from bot.bench.runner import game_seed, parse_board_spec
from bot.bench.simulator import Game
from bot.solver import analyse
from bot.solver.lookahead import base_of, outlook_position, reveal


def _z(actual: float, expected: float, variance: float) -> float:
    return (actual - expected) / math.sqrt(variance) if variance > 0 else 0.0


def layout(height: int, width: int, mines: int, games: int, seed: int) -> None:
    counts = np.zeros((height, width))
    for i in range(games):
        game = Game(height, width, mines, "safe", game_seed(seed, i))
        game.open((0, 0))
        counts += game.mine_grid()
    p = mines / (height * width - 1)
    freq = (counts / games).reshape(-1)[1:]
    z = (freq - p) / math.sqrt(p * (1 - p) / games)
    print(f"layout: {games} games, first click (0, 0); expected P(mine) {p:.4f} elsewhere")
    print(f"  per-cell frequency {freq.min():.4f} .. {freq.max():.4f}, mean {freq.mean():.4f}")
    outliers = int((abs(z) > 3).sum())
    print(f"  z-scores {z.min():.2f} .. {z.max():.2f} over {freq.size} cells (|z| > 3: {outliers})")
    print(f"  (0, 0) held a mine in {int(counts[0, 0])} games")


def probability_and_reveal(height: int, width: int, mines: int, games: int, seed: int) -> None:
    bins: dict[float, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0])
    chosen = [0, 0.0, 0.0, 0]
    predicted = [0.0] * 9
    shown = [0] * 9
    for i in range(games):
        game = Game(height, width, mines, "safe", game_seed(seed, i))
        while game.status == "playing":
            board = game.board()
            result = analyse(board, mines, "safe", strength="fast")
            if result.safe:
                for cell in result.safe:
                    if game.status == "playing":
                        game.open(cell)
                continue
            move = result.move
            assert move is not None
            cell = (move.row, move.col)
            if move.reason != "guess":
                game.open(cell)
                continue
            truth = game.mine_grid()
            for r in range(height):
                for c in range(width):
                    p = result.probabilities[r][c]
                    if p is None or p in (0.0, 1.0):
                        continue
                    entry = bins[round(p * 20) / 20]
                    entry[0] += 1
                    entry[1] += p
                    entry[2] += p * (1 - p)
                    entry[3] += int(truth[r, c])
            chosen[0] += 1
            chosen[1] += move.p_mine
            chosen[2] += move.p_mine * (1 - move.p_mine)
            chosen[3] += int(truth[cell])
            if truth[cell]:
                game.open(cell)
                continue
            base = base_of(board, mines)
            index = move.row * width + move.col
            weights = {}
            for v in range(9):
                position = reveal(base, index, v)
                if position is not None:
                    w = outlook_position(position, mines).weight
                    if w:
                        weights[v] = w
            total = sum(weights.values())
            for v, w in weights.items():
                predicted[v] += w / total
            game.open(cell)
            shown[int(game.board()[cell])] += 1
    print(f"probability: {games} games, every undecided cell at every guess (fast solver)")
    print(f"  {'P bin':>6} {'cells':>8} {'E[mines]':>10} {'mines':>7} {'z':>6}")
    for key in sorted(bins):
        n, e, var, a = bins[key]
        print(f"  {key:6.2f} {int(n):8d} {e:10.1f} {int(a):7d} {_z(a, e, var):6.2f}")
    n, e, var, a = chosen
    print(f"  guessed cells: {int(n)} guesses, E[mines] {e:.1f}, mines {int(a)}")
    print(f"  z {_z(a, e, var):.2f}")
    print("reveal: the number a surviving guess shows, predicted vs actual")
    for v in range(9):
        if predicted[v] or shown[v]:
            print(f"  {v}: predicted {predicted[v]:8.1f}  shown {shown[v]:6d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--board", default="intermediate")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--layout-games", type=int, default=40000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    spec = parse_board_spec(args.board)
    layout(spec.height, spec.width, spec.mines, args.layout_games, args.seed)
    probability_and_reveal(spec.height, spec.width, spec.mines, args.games, args.seed)


if __name__ == "__main__":
    main()
