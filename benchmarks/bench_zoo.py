"""msbot against the clone zoo: random real clones it was never tuned for, judged by their truth.

    .venv/bin/python benchmarks/bench_zoo.py --clones 50 [--seed S] [--games 5]
        [--results FILE] [--keep DIR] [--jobs 2] [--frontend tk|web] [--seeds 1,2,3]

Without `--seed` a fresh random seed is drawn and printed first, so that any
run can be replayed. Clone i's seed is drawn from S (`clone_seeds`). For each
clone: a fresh Xvfb, a fresh window of the clone (`zoo.launch`), then, as a
person would, `msbot play --learn --games N --json --record DIR` with no other
help; its recording is judged against the clone's truth (`zoo.judge`).

One JSON line per clone on stdout and in `--results FILE`; a results file is
read back first and the clones it already holds are not run again (a run
stopped half way goes on where it stopped). The last line printed is a
summary over every clone of the file.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import random
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT)]

from harness.xdisplay import VirtualDisplay  # noqa: E402
from vision.reading import ENDED  # noqa: E402
from zoo.judge import judge  # noqa: E402
from zoo.launch import ZooError, launch  # noqa: E402
from zoo.spec import draw  # noqa: E402
from zoo.truth import Truth  # noqa: E402

MSBOT = [sys.executable, "-m", "bot"]
#: Seconds one clone's `msbot play --learn` may take before it is stopped.
TIMEOUT = 900


def clone_seeds(seed: int, count: int) -> list[int]:
    """The seeds of a run's clones: drawn from the run's seed."""
    rng = random.Random(seed)
    return [rng.randrange(2**31) for _ in range(count)]


def _learning_seconds(actions: list[dict[str, Any]], started: float) -> float | None:
    """Seconds from the start to msbot's first move that is not learning (the first
    look done: it plays)."""
    for action in actions:
        why = str(action.get("why", ""))
        if action.get("kind") in ("open", "flag", "chord") and not why.startswith("learn"):
            return round(float(action["time"]) - started, 1)
    return None


def _skin_pitch_fits(skins: Path, truth: Truth) -> bool | None:
    """Whether every skin written has the clone's pitch (None: no skin written)."""
    pitches_w = {xs[1][0] - xs[0][0] for _, xs, _ in truth.boxes if len(xs) > 1}
    pitches_h = {ys[1][0] - ys[0][0] for _, _, ys in truth.boxes if len(ys) > 1}
    found = None
    for manifest in skins.glob("*/skin.json"):
        pitch = json.loads(manifest.read_text()).get("pitch")
        if pitch is None:
            continue
        w, h = pitch
        ok_w = any(abs(w - p) <= 1 for p in pitches_w) if pitches_w else True
        ok_h = any(abs(h - p) <= 1 for p in pitches_h) if pitches_h else True
        found = (found is not False) and ok_w and ok_h
    return found


def run_clone(seed: int, games: int, work: Path, frontend: str | None = None) -> dict[str, Any]:
    """One zoo clone from a fresh window: `msbot play --learn`, judged."""
    spec = draw(seed, frontend)
    result: dict[str, Any] = {"seed": seed, "frontend": spec.frontend, "clone": spec.describe()}
    skins = work / "skins"
    skins.mkdir(parents=True, exist_ok=True)
    rec = work / "rec"
    with VirtualDisplay(1600, 1000, first=300 + (os.getpid() % 50) * 4, tries=200) as vd:
        try:
            running = launch(spec, vd.display, work / "clone")
        except ZooError as exc:
            result["error"] = f"the zoo clone did not start: {exc}"
            return result
        with running:
            env = dict(os.environ, DISPLAY=vd.display, MSBOT_LEARNED=str(skins))
            env.pop("MSBOT_TEMPLATES", None)
            started = time.monotonic()
            argv = [*MSBOT, "play", "--learn", "--games", str(games), "--json"]
            argv += ["--record", str(rec)]
            try:
                out = subprocess.run(
                    argv, env=env, capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT
                )
                code, stdout, stderr = out.returncode, out.stdout, out.stderr
            except subprocess.TimeoutExpired as exc:
                code = -1
                stdout = exc.stdout.decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
                stderr = f"timed out after {TIMEOUT} s"
            seconds = time.monotonic() - started
            truth = running.truth()
    lines = []
    for text in stdout.splitlines():
        if text.startswith("{"):
            with contextlib.suppress(json.JSONDecodeError):
                lines.append(json.loads(text))
    played = [g for g in lines if "outcome" in g]
    outcomes = [g["outcome"] for g in played]
    verdict = judge(truth, rec, played)
    actions = []
    if (rec / "actions.jsonl").exists():
        for text in (rec / "actions.jsonl").read_text().splitlines():
            with contextlib.suppress(json.JSONDecodeError):
                actions.append(json.loads(text))
    # "over": the game ended and its clone's window hid how (neither claimed).
    ended = sum(o in ENDED for o in outcomes)
    result.update(
        {
            "exit": code,
            "seconds": round(seconds, 1),
            "learning_seconds": _learning_seconds(actions, started),
            "games": len(outcomes),
            "won": outcomes.count("won"),
            "lost": outcomes.count("lost"),
            "stopped": outcomes.count("stopped"),
            "over": outcomes.count("over"),
            "ended": ended,
            "played": ended >= max(1, games - 1),
            "skin_pitch_fits": _skin_pitch_fits(skins, truth),
            "truth_games": [g.outcome for g in truth.games],
            "judge": verdict.to_json(),
        }
    )
    if code != 0 and stderr.strip():
        result["error"] = stderr.strip().splitlines()[-1][:400]
    return result


def _run_one(args: tuple[int, int, str | None, str | None]) -> dict[str, Any]:
    seed, games, frontend, keep = args
    with tempfile.TemporaryDirectory(prefix=f"zoo-{seed}-") as tmp:
        work = Path(keep) / str(seed) if keep else Path(tmp)
        if keep:
            shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True, exist_ok=True)
        try:
            return run_clone(seed, games, work, frontend)
        except Exception as exc:  # one clone's failure is its line, not the run's end
            return {"seed": seed, "error": f"{type(exc).__name__}: {exc}"}


def summary(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of issues 29 and 30 over every clone's line."""
    judged = [x for x in lines if "judge" in x]
    total = len(lines)

    def total_of(key: str) -> int:
        return sum(int(x["judge"][key]) for x in judged)

    learn = [x["learning_seconds"] for x in judged if x.get("learning_seconds") is not None]
    return {
        "clones": total,
        "learned_and_played": sum(1 for x in judged if x.get("played")),
        "learned": sum(1 for x in judged if x.get("learning_seconds") is not None),
        "games": sum(int(x.get("games", 0)) for x in judged),
        "ended": sum(int(x.get("ended", 0)) for x in judged),
        "won": sum(int(x.get("won", 0)) for x in judged),
        "over": sum(int(x.get("over", 0)) for x in judged),
        "sure_misreads": total_of("sure_misreads"),
        "clones_with_misreads": sum(1 for x in judged if x["judge"]["sure_misreads"]),
        "wrong_geometry_frames": total_of("wrong_geometry"),
        "wrong_geometry_skins": sum(1 for x in judged if x.get("skin_pitch_fits") is False),
        "false_won": total_of("false_won"),
        "false_lost": total_of("false_lost"),
        "clicks": total_of("clicks"),
        "clicks_outside": total_of("clicks_outside"),
        "clicks_wrong_cell": total_of("clicks_wrong_cell"),
        "median_learning_seconds": statistics.median(learn) if learn else None,
        "errors": sum(1 for x in lines if "judge" not in x),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clones", type=int, default=10)
    parser.add_argument("--seed", type=int, help="the run's seed (default: a fresh one, printed)")
    parser.add_argument("--seeds", help="these clone seeds (comma-separated) instead of --clones")
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--frontend", choices=("tk", "web"), help="only this frontend")
    parser.add_argument("--results", type=Path, help="append one line per clone; resume from it")
    parser.add_argument("--keep", type=Path, help="keep each clone's frames and truth in DIR/SEED")
    parser.add_argument("--jobs", type=int, default=1, help="clones at once (default 1)")
    args = parser.parse_args()
    if args.seeds:
        seeds = [int(v) for v in args.seeds.split(",") if v]
        print(json.dumps({"run": {"seeds": seeds}}), flush=True)
    else:
        run_seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        seeds = clone_seeds(run_seed, args.clones)
        print(json.dumps({"run": {"seed": run_seed, "clones": args.clones}}), flush=True)
    done: list[dict[str, Any]] = []
    lock = None
    if args.results is not None:
        args.results.parent.mkdir(parents=True, exist_ok=True)
        lock = open(args.results, "a+")  # noqa: SIM115 - held for the whole run
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            print(f"bench_zoo: {args.results} is being written by another run", file=sys.stderr)
            return 2
        lock.seek(0)
        for text in lock.read().splitlines():
            with contextlib.suppress(json.JSONDecodeError):
                line = json.loads(text)
                if "seed" in line and "run" not in line and "summary" not in line:
                    done.append(line)
    have = {x["seed"] for x in done}
    todo = [(s, args.games, args.frontend, str(args.keep) if args.keep else None) for s in seeds]
    todo = [t for t in todo if t[0] not in have]
    new: list[dict[str, Any]] = []
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for result in pool.map(_run_one, todo):
            new.append(result)
            text = json.dumps(result)
            print(text, flush=True)
            if lock is not None:
                lock.write(text + "\n")
                lock.flush()
    wanted = set(seeds)
    print(json.dumps({"summary": summary([x for x in done + new if x["seed"] in wanted])}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
