"""Issue 15's figures: each clone learned live from a fresh window, then played.

For each clone: a fresh Xvfb display and a fresh window of the clone at its
beginner size (`--size` for another of its presets); `msbot learn-skin NAME
--live --save DIR` (no screenshot taken by hand, no --mines, no
--restart-key); then `msbot play --skin NAME --games N
--json --record DIR`. Every frame of both runs is then read again with the
final learned skin and checked for sure misreads (`vision.learn.audit`):
against the built-in skin's reading for the four clones that have one,
by the game's rules for the others (no reading may contradict its numbers, and
on a lost board every number must count the mines shown around it).

    .venv/bin/python benchmarks/bench_learn_live.py [--games 30] [--seconds 100]
        [--position X,Y] [--size beginner|intermediate|expert] [CLONE ...]

One JSON line per clone: learning seconds and exit code, the learned kinds,
whether a counter was learned, the games' outcomes, frames checked and sure
misreads found (each named with its frame).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.errors import MsbotError
from harness.clones import CLONES, launch_clone
from harness.xdisplay import VirtualDisplay
from vision.learn.audit import misreads
from vision.reading import ENDED
from vision.skin import load_skin

MSBOT = [sys.executable, "-m", "bot"]
BUILTIN = ("xdemineur", "gnome-mines", "sgt-mines", "minegauler")


def run_clone(
    name: str,
    games: int,
    seconds: float,
    work: Path,
    display: VirtualDisplay | None = None,
    position: tuple[int, int] = (40, 30),
    size: str = "beginner",
    learn_games: int | None = None,
) -> dict[str, object]:
    """Learn clone `name` live, play `games` with the skin, audit every frame
    (on `display`, a VirtualDisplay not yet started; default one of its own;
    the clone's window at `position`, its board the preset `size`; learning
    plays up to `learn_games` games, default learn-skin's, within `seconds`)."""
    skin_name = f"bench-{name}"
    out, learn_dir, play_dir = work / "skins" / skin_name, work / "learn", work / "play"
    with display or VirtualDisplay(1600, 1000, first=300, tries=50) as vd:
        env = dict(os.environ, DISPLAY=vd.display, MSBOT_TEMPLATES=str(out.parent))
        with launch_clone(name, size, vd, position=position):
            started = time.monotonic()
            learn = subprocess.run(
                [
                    *(*MSBOT, "learn-skin", skin_name, "--live", "--out", str(out)),
                    *("--save", str(learn_dir), "--seconds", str(seconds)),
                    *(("--games", str(learn_games)) if learn_games is not None else ()),
                ],
                env=env,
                capture_output=True,
                text=True,
                timeout=seconds + 300,
            )
            learn_s = time.monotonic() - started
            result: dict[str, object] = {
                "clone": name,
                "size": size,
                "position": list(position),
                "learn_seconds": round(learn_s, 1),
                "learn_exit": learn.returncode,
            }
            if learn.returncode != 0 and learn.stderr.strip():
                result["learn_error"] = learn.stderr.strip().splitlines()[-1]
            if not (out / "skin.json").exists():
                result["error"] = (learn.stderr or learn.stdout).strip().splitlines()[-1:]
                return result
            play = subprocess.run(
                [
                    *(*MSBOT, "play", "--skin", skin_name, "--games", str(games)),
                    *("--json", "--record", str(play_dir)),
                ],
                env=env,
                capture_output=True,
                text=True,
                timeout=games * 120 + 120,
            )
            lines = [json.loads(x) for x in play.stdout.splitlines() if x.startswith("{")]
            outcomes = [g["outcome"] for g in lines if "outcome" in g]
    skin = load_skin(out)
    checked, found = misreads(skin, [learn_dir, play_dir], name if name in BUILTIN else None)
    # "over": the game ended and its clone's window hid how (neither claimed).
    ended = sum(o in ENDED for o in outcomes)
    result.update(
        {
            "kinds": sorted(skin.tiles),
            "counter": skin.counter is not None,
            "counter_total": skin.counter.extra.get("total") if skin.counter else None,
            "games": len(outcomes),
            "won": outcomes.count("won"),
            "lost": outcomes.count("lost"),
            "stopped": outcomes.count("stopped"),
            "over": outcomes.count("over"),
            "ended_share": round(ended / len(outcomes), 3) if outcomes else None,
            "play_exit": play.returncode,
            "frames_checked": checked,
            "sure_misreads": len(found),
            "misread_examples": found[:5],
        }
    )
    if play.returncode != 0 and play.stderr.strip():
        result["play_error"] = play.stderr.strip().splitlines()[-1]
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clones", nargs="*", default=list(CLONES))
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=100.0)
    parser.add_argument(
        "--position", default="40,30", help="X,Y of the clone's window (default 40,30)"
    )
    parser.add_argument(
        "--size", default="beginner", help="the clones' board preset (default beginner)"
    )
    parser.add_argument(
        "--keep", type=Path, help="keep each clone's skin and frames in DIR/CLONE (diagnosis)"
    )
    args = parser.parse_args()
    x, y = (int(v) for v in args.position.split(","))
    for name in args.clones:
        with tempfile.TemporaryDirectory(prefix=f"bench-learn-{name}-") as tmp:
            work = Path(tmp) if args.keep is None else args.keep / name
            work.mkdir(parents=True, exist_ok=True)
            try:
                result = run_clone(
                    name, args.games, args.seconds, work, position=(x, y), size=args.size
                )
            except (MsbotError, subprocess.TimeoutExpired) as exc:
                result = {"clone": name, "error": str(exc)}
            if args.keep is not None:
                result["work"] = str(work)
        print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
