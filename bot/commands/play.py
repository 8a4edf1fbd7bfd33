"""`msbot play`: play a real Minesweeper window hands-free (or advise, `--dry-run`).

On a desktop with a clone open, `msbot play` alone finds the board and plays.
Exit status: 0 when every game ended on screen (won or lost on a guess), 2
when the run stopped (no board, unreadable or contradictory screen, ignored
clicks: the message says which and where the frame was saved), 3 when a game
was lost on a move the solver called certain (a bug, reported loudly), 130
after Ctrl+C and 143 after SIGTERM (both stop between two clicks, with the
summary printed and the recording complete).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
from pathlib import Path
from typing import Any

from bot.commands import output_folder
from bot.errors import NoBoard, OpenSides, PlayError, VisionError
from bot.limits import MAX_GAMES, check_count


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "play",
        help="play a Minesweeper window on the screen hands-free",
        description="Find a Minesweeper board on the screen and play it with the mouse.",
    )
    parser.add_argument("--skin", default="auto", help="skin name, or auto (default)")
    parser.add_argument(
        "--games",
        type=int,
        metavar="N",
        help="games to play (default 1); with --dry-run: watch N games played by a person",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="read the screen and print the intended actions; never touch the mouse",
    )
    parser.add_argument("--record", metavar="DIR", help="save frames, readings and actions")
    parser.add_argument("--no-flags", action="store_true", help="never flag (unless needed)")
    parser.add_argument(
        "--strength",
        choices=("fast", "full"),
        default="full",
        help="solver strength (default full; dry-run advice too)",
    )
    parser.add_argument("--chord", action="store_true", help="chord where the skin can")
    parser.add_argument("--delay", type=float, default=0.0, metavar="MS", help="pause per click")
    parser.add_argument("--max-actions", type=int, metavar="N", help="stop after N actions")
    parser.add_argument(
        "--region",
        metavar="L,T,W,H",
        help="look only at this screen region (write --region=L,T,W,H when L is negative)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per game + summary")
    parser.add_argument(
        "--annotate", metavar="DIR", help="with --dry-run: write each advised position as a picture"
    )
    parser.add_argument("--display", help="X display to use (default: $DISPLAY)")
    parser.add_argument(
        "--learn",
        action="store_true",
        help="learn a board no skin reads from the live window and play it (the default; "
        "the skin is saved as --skin NAME, or learned-N)",
    )
    parser.add_argument(
        "--no-learn",
        action="store_true",
        help="never learn: a board no skin reads is refused, and a learned skin does not "
        "go on learning (an unknown picture stops the game)",
    )
    parser.add_argument(
        "--backend",
        choices=("pyautogui", "xtest"),
        default="pyautogui",
        help="how to click: pyautogui (default) or xtest (python-xlib, ~10x less per click)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from bot.actuator import Actuator, DryRunMouse, Mouse
    from bot.play.loop import Player, PlayOptions
    from bot.play.recorder import Recorder
    from vision.capture import Region
    from vision.capture.live import LiveScreen

    games = 1 if args.games is None else args.games
    check_count(games, MAX_GAMES, "--games")
    if args.max_actions is not None and args.max_actions < 0:
        raise PlayError("--max-actions must not be negative")
    if args.delay < 0:
        raise PlayError("--delay must not be negative")
    region = Region.parse(args.region) if args.region else None
    if args.annotate:
        check_annotate_folder(args.annotate, args.dry_run)
    options = PlayOptions(
        games=games,
        watch=args.dry_run and args.games is not None,
        dry_run=args.dry_run,
        strength=args.strength,
        flags=not args.no_flags,
        chord=args.chord,
        delay=args.delay / 1000.0,
        max_actions=args.max_actions,
        region=region,
    )
    say = (lambda text: None) if args.json else print
    screen = LiveScreen(args.display)
    mouse: Mouse
    if args.dry_run:
        mouse = DryRunMouse()
    else:
        from bot.actuator.live import live_mouse

        mouse = live_mouse(args.backend, screen)
    if args.learn and (args.dry_run or args.no_learn):
        raise PlayError("--learn clicks to learn: not with --dry-run or --no-learn")
    recorder = Recorder(
        args.record,
        {"command": sys.argv[1:], "display": screen.display, "dry_run": args.dry_run},
        taken=screen.taken,
    )
    actuator = Actuator(mouse)
    try:
        learning = (
            None
            if args.dry_run or args.no_learn
            else _learning(args, screen, options, actuator, say)
        )
        if learning is not None:
            from bot.learning.live import play_learning, start_draft

            draft, folder, fresh = learning
            where = opened_first = None
            if draft is None:
                say(
                    f"no skin reads this board: learning it live as {folder.name!r}; this "
                    "clicks and flags on it (Ctrl+C or the pointer in a screen corner stops)"
                )
                draft, where, opened_first = start_draft(
                    screen,
                    actuator,
                    folder.name,
                    options,
                    say=lambda m: say(f"  learn: {m}"),
                    recorder=recorder,
                )
            session = play_learning(
                screen,
                actuator,
                draft,
                folder,
                options,
                recorder,
                say=say,
                where=where,
                opened_first=opened_first,
            )
            if fresh or draft.notes:
                say(f"skin {folder.name!r}: kinds {' '.join(draft.kinds())} ({folder})")
        else:
            reader = make_reader(args.skin)
            player = Player(screen, reader, actuator, options, recorder, say=say)
            if args.annotate:
                player.annotate_dir = args.annotate
            session = player.run()
    finally:
        recorder.close()
        actuator.close()
        screen.close()
    if args.json:
        for game in session.games:
            print(json.dumps(game.to_json()))
        summary = session.summary()
        if recorder.failure is not None:
            summary["recording_stopped"] = recorder.failure
        print(json.dumps({"summary": summary}))
    elif args.dry_run and all(g.outcome == "stopped" for g in session.games):
        advised = sum(g.clicks for g in session.games)
        print(f"dry run: {advised} action(s) advised; the mouse was not touched")
    else:
        print(session.summary_line())
    if any(g.certain_loss for g in session.games):
        print(
            "msbot play: BUG: a game was lost on a move the solver called certain "
            "(see the recording)",
            file=sys.stderr,
        )
        return 3
    if session.interrupted:
        # The shell's convention: 128 + the signal (130 Ctrl+C, 143 SIGTERM).
        terminated = session.signal == signal.SIGTERM
        print(f"msbot play: {'terminated' if terminated else 'interrupted'}", file=sys.stderr)
        return 128 + (session.signal or signal.SIGINT)
    if session.stopped:
        print(f"msbot play: error: {session.stopped}", file=sys.stderr)
        return 2
    if recorder.failure is not None:
        print(f"msbot play: error: {recorder.stopped_note()}", file=sys.stderr)
        return 2
    return 0


def check_annotate_folder(folder: str, dry_run: bool) -> None:
    """Refuse `--annotate DIR` before anything is read or advised, not after."""
    if not dry_run:
        raise PlayError("--annotate needs --dry-run (it draws the advice of a dry run)")
    output_folder(folder, "--annotate")


def _learning(
    args: argparse.Namespace, screen: Any, options: Any, actuator: Any, say: Any
) -> tuple[Any, Path, bool] | None:
    """(draft, skin folder, new) when this run learns while playing: the skin is a
    learned one (it goes on learning), or no skin reads the board (a new skin,
    draft None: learned first; not with --no-learn). None: plain play."""
    from bot.learning.live import resume_draft
    from bot.play.hidden_board import hidden_board
    from vision.reader import BoardReader
    from vision.skin import learned_dir, load_skins

    if args.skin != "auto":
        try:
            (skin,) = load_skins([args.skin])
        except VisionError:
            if args.no_learn:
                raise
            return None, learned_dir() / args.skin, True
    else:
        reader = BoardReader()
        image = screen.grab(options.region)
        try:
            skin = reader.locate(image).skin.base
        except OpenSides as exc:
            if args.no_learn or not _nothing_over(exc, actuator, options.region):
                return None  # the play loop says which edge is hidden
            say(
                f"the {exc.skin} skin reads these cells, but not the frame around them, "
                "and no other window lies there: the clone in a theme of its own"
            )
            return None, learned_dir() / _free_name(), True
        except NoBoard:
            if args.no_learn or hidden_board(image, reader) is not None:
                # The play loop says why it finds no board, or uncovers a known
                # clone's hidden board (GNOME Mines paused: its Resume button).
                return None
            return None, learned_dir() / _free_name(), True
        except VisionError:
            return None  # a board a skin reads, paused or cut: the play loop says so
    if "names" not in (skin.manifest.get("learned") or {}):
        return None  # a built-in skin, or one learned from screenshots
    return resume_draft(skin.folder), skin.folder, False


def _nothing_over(exc: OpenSides, actuator: Any, region: Any) -> bool:
    """Whether the desktop says one window alone lies over the board a skin
    could not close and just past its open sides (no dialog, no other
    program's window): then the border is the clone's own, drawn in a theme
    the skin does not know. False when the desktop cannot tell."""
    from bot.learning.windows import board_points, windows_at
    from vision.geometry import Geometry

    geo = exc.geometry
    if not isinstance(geo, Geometry):
        return False
    if region is not None:
        geo = geo.shifted(region.left, region.top)
    seen = windows_at(actuator.mouse, board_points(geo))
    if len(seen) != 1 or None in seen or 0 in seen:
        return False
    # Just past each open side (the border's first pixels: a window may be
    # drawn tight around its board, so not farther out): that window, or bare
    # desktop, never another window.
    out = BEYOND
    mid_x, mid_y = geo.left + geo.width / 2, geo.top + geo.height / 2
    beyond = {
        "top": (mid_x, geo.top - out),
        "bottom": (mid_x, geo.top + geo.height + out),
        "left": (geo.left - out, mid_y),
        "right": (geo.left + geo.width + out, mid_y),
    }
    points = [(round(x), round(y)) for side, (x, y) in beyond.items() if side in exc.sides]
    past = windows_at(actuator.mouse, points)
    return None not in past and past <= seen | {0}


#: Pixels past an open side where `_nothing_over` asks the desktop.
BEYOND = 2


def _free_name() -> str:
    """learned-1, learned-2...: the first name no skin has."""
    from vision.skin import skin_dirs

    taken = {sub.name for base in skin_dirs() if base.is_dir() for sub in base.iterdir()}
    n = 1
    while f"learned-{n}" in taken:
        n += 1
    return f"learned-{n}"


def make_reader(skin: str) -> Any:
    """The vision reader for `--skin` (auto: detect it from the screen)."""
    from vision.reader import BoardReader

    return BoardReader.for_skin(skin)
