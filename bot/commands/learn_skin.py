"""`msbot learn-skin NAME SCREENSHOT... [--board L,T,W,H] [--mines N] [--out DIR] [--restart-key K]`

Learns the skin of a clone msbot has never seen from screenshots of it (a
fresh board, a game in progress, ideally a lost or won board) and writes
NAME in the learned skins folder (`vision.skin.learned_dir`; or DIR), which
`msbot replay`/`msbot play --skin NAME` then use. The learned skin is read
back on every screenshot and the result is printed, so a person sees at once
whether it reads its own examples.

How `play` starts the next game is learned too when the screenshots show a
face (clicked whatever it shows), or given with `--restart-key` (a clone that
restarts by a key, like sgt-mines' "n", shows nothing to learn it from). The
output's `restart:` line says which; without either, `play` stops after one
game and says why.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from bot.errors import VisionError


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "learn-skin",
        help="learn a new clone's look from its live window (or from screenshots)",
        description="Learn a skin (tiles, names, counter, restart) of a Minesweeper clone: "
        "from its live window with --live (msbot clicks and plays), or from screenshots.",
    )
    parser.add_argument("name", metavar="NAME", help="name of the new skin")
    parser.add_argument("screenshots", nargs="*", metavar="SCREENSHOT", help="PNG screenshots")
    parser.add_argument("--board", metavar="L,T,W,H", help="board rectangle in pixels")
    parser.add_argument("--mines", type=int, help="mines on the board (checks the reading)")
    parser.add_argument(
        "--out",
        metavar="DIR",
        help=(
            "output folder (default: NAME in the learned skins folder, "
            "~/.local/share/msbot/skins or $MSBOT_LEARNED)"
        ),
    )
    parser.add_argument(
        "--force", action="store_true", help="replace a skin already in the output folder"
    )
    parser.add_argument(
        "--live",
        action="store_true",
        help="learn from the live window: msbot flags, plays and restarts games by itself",
    )
    parser.add_argument(
        "--games", type=int, metavar="N", help="with --live: games to play at most (default 8)"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        metavar="S",
        help="with --live: start no new game after S seconds (default 100)",
    )
    parser.add_argument("--display", help="X display for --live (default $DISPLAY)")
    parser.add_argument(
        "--save",
        metavar="DIR",
        help="with --live: keep every frame, reading and click in DIR (a recording)",
    )
    parser.add_argument(
        "--restart-key",
        metavar="KEY",
        help="the clone's new-game key (n, F2, ctrl+n), written into the skin",
    )
    parser.add_argument(
        "--backend",
        choices=("xtest", "pyautogui"),
        default="xtest",
        help="with --live: how clicks are sent (default xtest)",
    )
    parser.set_defaults(run=run, intermixed="screenshots")


def run(args: argparse.Namespace) -> int:
    from vision.skin import BUILTIN_DIR, learned_dir

    name = str(args.name)
    if not name or "/" in name or name.startswith("."):
        raise VisionError(f"bad skin name {name!r}")
    if args.live == bool(args.screenshots):
        raise VisionError("give SCREENSHOT files or --live (one of the two)")
    if args.mines is not None and args.mines < 0:
        raise VisionError("--mines must be >= 0")
    out = Path(args.out) if args.out else learned_dir() / name
    if not args.out and (BUILTIN_DIR / name / "skin.json").exists():
        # Learned under a built-in skin's name, it would hide that skin.
        raise VisionError(
            f"{name!r} is a built-in skin's name ({BUILTIN_DIR / name} already holds a skin): "
            "choose another NAME"
        )
    _want_folder(out, "--out")
    if (out / "skin.json").exists() and not args.force:
        # A built-in skin (templates/xdemineur) is never replaced by accident.
        raise VisionError(
            f"{out} already holds a skin: choose another NAME or --out DIR, "
            "or add --force to replace it"
        )
    if args.save:
        _want_folder(Path(args.save), "--save")
    key = args.restart_key
    if key is not None:
        from bot.actuator.keys import parse_keys
        from bot.errors import ActuatorError

        try:
            parse_keys(key)
        except ActuatorError as exc:
            raise VisionError(f"--restart-key: {exc}") from None
    if args.live:
        return _run_live(args, name, out)
    if args.games is not None or args.seconds is not None:
        raise VisionError("--games and --seconds go with --live")
    return _run_screenshots(args, name, out)


#: What `learn-skin --live` plays by default: games, and seconds before no new one starts.
LIVE_GAMES = 8
LIVE_SECONDS = 100.0


def _run_live(args: argparse.Namespace, name: str, out: Path) -> int:
    import sys
    import time

    from bot.actuator import Actuator, Mouse
    from bot.learning.live import play_learning, start_draft
    from bot.play.options import PlayOptions
    from bot.play.recorder import Recorder
    from vision.capture.live import LiveScreen
    from vision.learn.grid import BoardRect

    games = LIVE_GAMES if args.games is None else args.games
    seconds = LIVE_SECONDS if args.seconds is None else args.seconds
    if games < 1 or seconds <= 0:
        raise VisionError("--games must be at least 1 and --seconds more than 0")
    board = BoardRect.parse(args.board) if args.board else None
    started = time.monotonic()
    screen = LiveScreen(args.display)
    mouse: Mouse
    from bot.actuator.live import live_mouse

    mouse = live_mouse(args.backend, screen)
    if args.restart_key:
        mouse.check_key(args.restart_key)  # before the first click, not after a game
    recorder = Recorder(
        args.save,
        {"command": ["learn-skin", *sys.argv[2:]], "display": screen.display, "learning": name},
        taken=screen.taken,
    )
    actuator = Actuator(mouse)
    say = print
    options = PlayOptions(games=games, deadline=started + seconds, leave_new_game=True)
    try:
        draft, where, opened_first = start_draft(
            screen,
            actuator,
            name,
            options,
            board=board,
            mines=args.mines,
            restart_key=args.restart_key,
            say=lambda m: say(f"  live: {m}"),
            recorder=recorder,
        )
        session = play_learning(
            screen,
            actuator,
            draft,
            out,
            options,
            recorder,
            say=lambda m: say(f"  {m}"),
            where=where,
            opened_first=opened_first,
        )
    finally:
        recorder.close()
        actuator.close()
        screen.close()
    took = time.monotonic() - started
    print(f"learned skin {name!r}: kinds {' '.join(draft.kinds())} -> {out / 'skin.json'}")
    print(f"  counter: {draft.counter_said}")
    print(f"  restart: {draft.restart_said}")
    for note in draft.notes:
        print(f"  note: {note}")
    print(f"  {session.summary_line()} in {took:.0f} s")
    if session.stopped:
        print(f"msbot learn-skin: error: {session.stopped}", file=sys.stderr)
        return 2
    if recorder.failure is not None:
        print(f"msbot learn-skin: error: {recorder.stopped_note()}", file=sys.stderr)
        return 2
    return 0


def _run_screenshots(args: argparse.Namespace, name: str, out: Path) -> int:
    from vision.image_io import load_image
    from vision.learn.grid import BoardRect
    from vision.learn.screenshots.pipeline import learn
    from vision.learn.screenshots.writer import write_skin

    board = BoardRect.parse(args.board) if args.board else None
    key = args.restart_key
    images = [load_image(p) for p in args.screenshots]
    names = [str(p) for p in args.screenshots]
    learned = learn(images, board, args.mines, None)
    if args.mines is not None:
        _check_mines(learned, names, args.mines)
    path = write_skin(name, learned, out, names, key)
    tiles = learned.tiles_by_char()
    print(f"learned skin {name!r}: kinds {' '.join(sorted(tiles))} -> {path}")
    print(f"  counter: {learned.counter_said}")
    print(f"  restart: {_restart_said(learned.face is not None, key)}")
    for note in learned.notes:
        print(f"  note: {note}")
    sizes = [(g.rows, g.cols) for g in learned.geometries(len(images))]
    return _check(path.parent, images, names, args.mines, sizes)


def _restart_said(face: bool, key: str | None) -> str:
    """How `msbot play` will start the next game with this skin."""
    if face:
        return "click the learned face" + (f", or press {key} when it is not seen" if key else "")
    if key:
        return f"press {key}"
    return "none learned (no face seen): play stops after one game; give --restart-key KEY"


def _want_folder(path: Path, option: str) -> None:
    """Refuse up front an output path that is a file (before any learning or clicking)."""
    if path.exists() and not path.is_dir():
        raise VisionError(f"{option} {path}: not a folder (an existing file)")


def _check_mines(learned: Any, names: list[str], mines: int) -> None:
    """--mines must fit every fully named board still in play; otherwise nothing is written.

    Flags count as covered here: flags put by hand or by --live may be wrong, but the
    numbers and the covered cells must leave room for exactly `mines` mines.
    """
    from bot.board import Board
    from bot.errors import MsbotError
    from bot.solver import analyse

    for board, name in zip(learned.boards(len(names)), names, strict=True):
        if board is None or any(ch in "*!X" for row in board.rows for ch in row):
            continue
        plain = Board(tuple(row.replace("F", ".").replace("?", ".") for row in board.rows))
        try:
            analyse(plain, mines)
        except MsbotError as exc:
            raise VisionError(
                f"--mines {mines} does not fit {name}: {exc}; nothing written"
            ) from exc


def _check(
    folder: Path,
    images: list[Any],
    names: list[str],
    mines: int | None,
    sizes: list[tuple[int, int]],
) -> int:
    """Read every screenshot back with the new skin; 1 if any cell stays unknown or a
    screenshot is not read at all."""
    from bot.errors import MsbotError
    from vision.reader import BoardReader
    from vision.skin import load_skin

    reader = BoardReader([load_skin(folder)])
    bad = 0
    for image, name, size in zip(images, names, sizes, strict=True):
        try:
            reading = reader.read_fresh(image)
        except MsbotError as exc:
            print(f"  {name}: not read: {exc}")
            bad += 1
            continue
        geo = reading.geometry
        extra = ""
        if mines is not None and reading.status == "playing" and not reading.unknown:
            from bot.solver import analyse

            try:
                analyse(reading.board, mines)
            except MsbotError as exc:
                # A warning, not a failure: flags placed by hand (or --live) may be wrong.
                extra = f", warning: inconsistent with {mines} mines: {exc}"
        print(
            f"  {name}: {geo.cols}x{geo.rows} board, {reading.status}, "
            f"{len(reading.unknown)} unknown cell(s){extra}"
        )
        if (geo.rows, geo.cols) != size and size[0] * size[1] > geo.rows * geo.cols:
            print(f"    the learned skin finds a smaller grid than the {size[0]}x{size[1]} learned")
            bad += 1
            continue
        bad += bool(reading.unknown)
    return 1 if bad else 0
