"""The `msbot` command line: one module per sub-command under `bot.commands`.

Every sub-command module has `register(subparsers)`, which adds its parser and
sets `run`, a function `(args) -> exit code`. Expected failures are raised as
`MsbotError` and printed here as one line on stderr with exit code 2; a
traceback means a bug.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

# Before numpy is first imported: OpenBLAS's worker threads spin for a while
# after every call, burning the second core the clone and the X server need
# (GNOME Mines locate: 147 ms of process CPU for 79 ms of work; 73 ms with one
# thread; benchmarks/results/vision-all-final-20261129.txt).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from bot import __version__
from bot.errors import MsbotError

#: Sub-command modules, in the order `msbot --help` lists them.
COMMANDS = ("solve", "bench", "replay", "play", "learn_skin")


class OneLineParser(argparse.ArgumentParser):
    """An option parser whose errors are one line, as every other error of
    msbot's is (argparse prints the whole usage before it): the line names
    the command and the fault, and where the options are listed."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="msbot", description="Plays real Minesweeper windows hands-free by reading the screen."
    )
    parser.add_argument("--version", action="version", version=f"msbot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    sub.required = True
    for name in COMMANDS:
        module = importlib.import_module(f"bot.commands.{name}")
        module.register(sub)
    return parser


#: Sub-commands that read the screen or screenshots with OpenCV.
READS_IMAGES = ("replay", "play", "learn-skin")


def one_opencv_thread() -> None:
    """OpenCV runs each call on a pool of threads. A frame is read in a few
    milliseconds, and waking the pool after the pause between two clicks costs
    more CPU than it saves (`cv2.gemm` of a board: about 3 ms of process CPU
    with the pool, 0.7 ms without; benchmarks/bench_vision.py --threads 1).
    """
    import cv2

    cv2.setNumThreads(1)


def line_by_line() -> None:
    """Every line of output as soon as it is printed, even into a pipe or a file
    (`msbot play --json | jq`, a log): a game's line, or "Ctrl+C to stop" while a
    watcher waits, must not sit in a buffer until the run ends. A file name that
    is not UTF-8 (Python holds its bytes as surrogates) is printed as the bytes
    it is, not a UnicodeEncodeError, whatever the locale."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(line_buffering=True, errors="surrogateescape")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    # Options may come after a command's list of files (learn-skin NAME --mines 10
    # shot.png): what argparse left over is more of that list.
    listed = getattr(args, "intermixed", None)
    stray = [x for x in extra if x.startswith("-") and x != "-"]
    if extra and (listed is None or stray):
        parser.error(f"unrecognized arguments: {' '.join(stray or extra)}")
    if extra and listed is not None:
        getattr(args, listed).extend(extra)
    if args.command in READS_IMAGES:
        one_opencv_thread()
    line_by_line()
    try:
        code: int = args.run(args)
    except MsbotError as exc:
        print(f"msbot {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"msbot {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return code
