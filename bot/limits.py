"""The documented limits on what msbot reads, and the checks that keep to them.

A command must answer any input in bounded time and memory: a FIFO named
`x.png` would block a read forever, a link to /dev/zero fill the memory, a
small PNG declare 30000 x 30000 16-bit pixels (7 GB once decoded), one JSON
line nest a hundred thousand brackets, a board of four million cells take the
solver half a minute. Each limit below is far above any real screen, board or
recording (the README lists them); past it, one clear error names the input,
the limit and what was found, before anything large is read or allocated.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import numpy as np

from bot.errors import MsbotError

#: Bytes of a screenshot file (a 7680 x 4320 PNG of noise is about 100 MB).
MAX_IMAGE_BYTES = 256 * 1024 * 1024
#: Pixels of a screenshot along either side, and in all (8K UHD is 33 million).
MAX_IMAGE_SIDE = 16384
MAX_IMAGE_PIXELS = 40_000_000
#: Bytes of a text input: a board file, a recording's JSON lines, a skin manifest.
MAX_TEXT_BYTES = 64 * 1024 * 1024
#: Characters of one `solve --stream` line, and brackets nested in it.
MAX_LINE_CHARS = 1_000_000
MAX_JSON_DEPTH = 32
#: Digits of an integer in any JSON msbot reads (Python refuses to convert more
#: than 4300, with a ValueError; no count msbot writes has more than a dozen).
MAX_INT_DIGITS = 30
#: Cells of a board given to `solve` or `bench` (expert has 480; 100 x 100 is
#: a few seconds per solve at most), and its rows or columns.
MAX_BOARD_CELLS = 10_000
MAX_BOARD_SIDE = 1_000
#: Games one `bench` or `play` run may be asked for, and `bench` processes.
MAX_GAMES = 100_000_000
MAX_JOBS = 256


class LimitError(MsbotError):
    """An input beyond one of msbot's documented limits, or not a regular file."""


def read_regular(path: Path, limit: int, error: type[MsbotError] = LimitError) -> bytes:
    """The bytes of `path`, a regular file (a symlink to one is fine) of at most
    `limit` bytes; `error` otherwise, before reading anything else.

    Refused: FIFOs and sockets (a read would wait forever), devices (/dev/zero
    never ends), folders, and files over the limit, including one that grows
    past it while being read.
    """
    try:
        info = os.stat(path)
    except FileNotFoundError as exc:
        raise error(f"{path}: no such file") from exc
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from exc
    if stat.S_ISDIR(info.st_mode):
        raise error(f"{path}: is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise error(f"{path}: not a regular file (a pipe, a device or a socket): not read")
    if info.st_size > limit:
        raise error(f"{path}: {info.st_size} bytes, over the limit of {limit} bytes")
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from exc
    if len(data) > limit:
        raise error(f"{path}: over the limit of {limit} bytes")
    return data


def read_text(path: Path, limit: int = MAX_TEXT_BYTES) -> str:
    """`read_regular` as UTF-8 text (`LimitError` or an `MsbotError` naming the file)."""
    data = read_regular(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MsbotError(f"{path} is not a text file: {exc.reason}") from exc


def check_board_size(rows: int, cols: int, what: str = "board") -> None:
    """`LimitError` for a board beyond MAX_BOARD_SIDE or MAX_BOARD_CELLS."""
    if rows > MAX_BOARD_SIDE or cols > MAX_BOARD_SIDE or rows * cols > MAX_BOARD_CELLS:
        raise LimitError(
            f"{what} of {rows}x{cols} cells is over the limit of {MAX_BOARD_CELLS} cells "
            f"({MAX_BOARD_SIDE} rows or columns at most)"
        )


def check_board_text(text: str) -> None:
    """`check_board_size` on a board text before it is parsed (rows: its lines
    with cells, columns: the longest), so that a huge one is refused unread."""
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line]
    check_board_size(len(lines), max(map(len, lines), default=0))


def check_count(value: int, limit: int, option: str) -> None:
    """`LimitError` for a count option (`--games`, `--jobs`) below 1 or over `limit`."""
    if not 1 <= value <= limit:
        raise LimitError(f"{option} must be between 1 and {limit}, not {value}")


#: A JSON string, escapes included (left out when counting brackets).
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def json_depth(text: str) -> int:
    """How deep brackets nest in a JSON text, strings left out: a cheap scan
    before `json.loads`, whose recursion a deep line would exhaust."""
    bare = np.frombuffer(_JSON_STRING.sub("", text).encode("utf-8", "replace"), np.uint8)
    steps = np.isin(bare, OPENING).astype(np.int64) - np.isin(bare, CLOSING)
    return int(np.cumsum(steps).max(initial=0))


OPENING = np.frombuffer(b"[{", np.uint8)
CLOSING = np.frombuffer(b"]}", np.uint8)


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise LimitError(
            f"an integer of {len(digits.lstrip('-'))} digits, over the limit of "
            f"{MAX_INT_DIGITS} digits"
        )
    return int(digits)


def parse_json(text: str | bytes) -> Any:
    """`json.loads` within the limits: brackets nested at most MAX_JSON_DEPTH
    deep (checked before parsing: a deep text would exhaust the parser's
    recursion), integers of at most MAX_INT_DIGITS digits. `LimitError` past
    them, `json.JSONDecodeError` (a ValueError) for text that is no JSON."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    depth = json_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise LimitError(f"JSON nested {depth} deep, over the limit of {MAX_JSON_DEPTH} levels")
    return json.loads(text, parse_int=_bounded_int)
