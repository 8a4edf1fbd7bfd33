"""`msbot learn-skin NAME SCREENSHOT... [--board L,T,W,H] [--mines N] [--out DIR] [--restart-key K]`

Learns the skin of a clone msbot has never seen from screenshots of it (a
fresh board, a game in progress, ideally a lost or won board) and writes
`templates/NAME/` (or DIR), which `msbot replay`/`msbot play --skin NAME` then
use. The learned skin is read back on every screenshot and the result is
printed, so a person sees at once whether it reads its own examples.

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
        help="learn a new clone's look from screenshots",
        description="Learn a skin (tiles, names) from screenshots of a Minesweeper clone.",
    )
    parser.add_argument("name", metavar="NAME", help="name of the new skin")
    parser.add_argument("screenshots", nargs="*", metavar="SCREENSHOT", help="PNG screenshots")
    parser.add_argument("--board", metavar="L,T,W,H", help="board rectangle in pixels")
    parser.add_argument("--mines", type=int, help="mines on the board (checks the reading)")
    parser.add_argument("--out", metavar="DIR", help="output folder (default templates/NAME)")
    parser.add_argument(
        "--force", action="store_true", help="replace a skin already in the output folder"
    )
    parser.add_argument(
        "--live",
        action="store_true",
        help="take the screenshots from the live window: clicks on it until the game is lost",
    )
    parser.add_argument("--display", help="X display for --live (default $DISPLAY)")
    parser.add_argument(
        "--save", metavar="DIR", help="with --live: also save the screenshots taken to DIR"
    )
    parser.add_argument(
        "--restart-key",
        metavar="KEY",
        help="the clone's new-game key (sgt-mines: n, minegauler: F2), written into the skin;"
        " with --live, also used to play more games when no face is learned",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from vision.image_io import load_image
    from vision.learn.grid import BoardRect
    from vision.learn.learn import learn
    from vision.learn.writer import write_skin
    from vision.skin import BUILTIN_DIR

    name = str(args.name)
    if not name or "/" in name or name.startswith("."):
        raise VisionError(f"bad skin name {name!r}")
    board = BoardRect.parse(args.board) if args.board else None
    if args.live == bool(args.screenshots):
        raise VisionError("give SCREENSHOT files or --live (one of the two)")
    if args.mines is not None and args.mines < 0:
        raise VisionError("--mines must be >= 0")
    out = Path(args.out) if args.out else BUILTIN_DIR / name
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
    if key is not None and (not key.strip() or key != key.strip()):
        raise VisionError(f"--restart-key {key!r}: give a key name such as n or F2")
    if args.live:
        images, games = _live(board, args.display, min(10, args.mines or 1), args.mines, key)
        names = [f"live-{i:02d}" for i in range(len(images))]
        if args.save:
            names = _save(images, Path(args.save))
    else:
        images = [load_image(p) for p in args.screenshots]
        names = [str(p) for p in args.screenshots]
        games = None
    learned = learn(images, board, args.mines, games)
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


#: Games --live plays (restarting with the learned face) to see more kinds of cells.
LIVE_GAMES = 3


def _live(
    board: Any, display: str | None, flags: int, mines: int | None, key: str | None = None
) -> tuple[list[Any], list[int]]:
    """Screenshots from the live screen (see `vision.learn.live`) and their game numbers.

    One lost game rarely shows every number: while the learner finds a face
    to click (or was given the new-game `key`), it restarts and loses again,
    up to LIVE_GAMES games.
    """
    import time

    from bot.actuator.xtest import XTestMouse
    from vision.capture.live import LiveScreen
    from vision.glyphs import best_hit
    from vision.learn.learn import learn
    from vision.learn.live import shoot

    screen = LiveScreen(display)
    mouse = XTestMouse(screen.display)
    try:
        shots = shoot(screen, mouse, board, flags=flags, log=lambda m: print(f"  live: {m}"))
        games = [0] * len(shots)
        for game in range(1, LIVE_GAMES):
            learned = learn(shots, board, mines, games)
            geo = learned.geometries(len(shots))[-1]
            hit = None if learned.face is None else best_hit(shots[-1], learned.face.glyphs(), geo)
            if hit is not None:
                mouse.click(hit.x, hit.y, "left")
            elif key is not None:
                mouse.key(key)
            else:
                break
            time.sleep(0.3)
            try:
                more = shoot(screen, mouse, board, seed=game, log=lambda m: print(f"  live: {m}"))
            except VisionError as exc:
                print(f"  live: game {game + 1} not played ({exc}); learning from the first")
                break
            shots += more
            games += [game] * len(more)
        return shots, games
    finally:
        mouse.close()
        screen.close()


def _save(images: list[Any], folder: Path) -> list[str]:
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    names = []
    for i, image in enumerate(images):
        path = folder / f"{i:04d}.png"
        if not cv2.imwrite(str(path), image):
            raise VisionError(f"cannot write {path}")
        names.append(str(path))
    return names


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
