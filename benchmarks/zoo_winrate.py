"""Are msbot's live wins on zoo clones what its solver wins in simulation?

    .venv/bin/python benchmarks/zoo_winrate.py RESULTS.jsonl [--games 2000] [--jobs 2]

For each zoo clone of a `bench_zoo.py` results file, the simulated win rate
of its board and first-click rule (`msbot bench --board RxCxM --rule R
--games N --seed 1`, full strength, the strength `msbot play` uses) is the
chance of winning each of its games that ended (won or lost). The expected
wins pooled over every clone, with their spread (a sum of Bernoulli trials),
are set beside the wins msbot had live: a live rate inside the 95 % band
means nothing (misreads, lost restarts, timing) costs games live.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from zoo.spec import draw  # noqa: E402


def simulated(rows: int, cols: int, mines: int, rule: str, games: int, jobs: int) -> float:
    """The win rate `msbot bench` measures for this board and rule."""
    argv = [sys.executable, "-m", "bot", "bench", "--board", f"{rows}x{cols}x{mines}"]
    argv += ["--rule", rule, "--games", str(games), "--seed", "1", "--jobs", str(jobs)]
    argv += ["--strength", "full", "--json"]
    out = subprocess.run(argv, capture_output=True, text=True, check=True, cwd=HERE.parent)
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    return float(summary["wins"]) / float(summary["games"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    lines = [json.loads(x) for x in args.results.read_text().splitlines() if x.strip()]
    clones = [x for x in lines if "seed" in x and "judge" in x and x.get("ended")]
    rates: dict[tuple[int, int, int, str], float] = {}
    expected = variance = 0.0
    wins = ended = 0
    for clone in clones:
        spec = draw(int(clone["seed"]), clone.get("frontend"))
        rule = spec.first_click
        key = (spec.rows, spec.cols, spec.mines, rule)
        if key not in rates:
            rates[key] = simulated(*key, args.games, args.jobs)
        p = rates[key]
        n = int(clone["ended"])
        expected += n * p
        variance += n * p * (1 - p)
        wins += int(clone["won"])
        ended += n
    spread = 1.96 * math.sqrt(variance)
    summary = {
        "clones": len(clones),
        "games_ended": ended,
        "won": wins,
        "live_rate": round(wins / ended, 4) if ended else None,
        "expected_wins": round(expected, 1),
        "band_95": [round(expected - spread, 1), round(expected + spread, 1)],
        "expected_rate": round(expected / ended, 4) if ended else None,
        "inside": abs(wins - expected) <= spread,
        "boards_simulated": len(rates),
        "games_per_board": args.games,
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
