"""`msbot solve`: analyse one board (or a stream of boards) and print the next move.

The JSON forms are the interface for other programs; `--stream` keeps one
process alive so a driver pays Python's start-up once, not per position.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from bot.board import Board, parse_board
from bot.errors import MsbotError
from bot.limits import (
    MAX_JSON_DEPTH,
    MAX_LINE_CHARS,
    MAX_TEXT_BYTES,
    LimitError,
    check_board_text,
    json_depth,
    parse_json,
    read_text,
)
from bot.solver import Analysis, analyse

RULES = ("safe", "zero", "none")
STRENGTHS = ("fast", "full")

DESCRIPTION = """\
Analyse a Minesweeper board in the text format (one line per row: '.' covered,
'F' flag, '?' question mark, '0'-'8' open number; '*', '!', 'X' after a game)
and print every certainly safe cell, every certain mine, P(mine) for every
covered cell and the move the bot would make.

Flags count as mines. With --mines N (the board's total, flags included) the
probabilities are exact: every placement of the remaining mines that agrees
with the numbers is equally likely. Without --mines every placement of mines
on the covered cells that agrees with the numbers is equally likely whatever
its mine count, so a covered cell no number touches has P(mine) = 0.5; the
certain cells are exact either way.
"""

STREAM_HELP = (
    'read JSON lines {"board": ["..", ..], "mines": N, "rule": "safe", "strength": "fast"} '
    "from stdin (rule and strength optional: the command-line values by default) and write "
    'one --json object per line (a bad line gets {"error": ...})'
)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "solve",
        help="analyse a board: certain cells, probabilities, next move",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file", nargs="?", default="-", metavar="FILE|-", help="board file (- = stdin)"
    )
    parser.add_argument(
        "--mines", type=int, default=None, metavar="N", help="total mines on the board"
    )
    parser.add_argument(
        "--rule", choices=RULES, default="safe", help="first-click rule of the game (default safe)"
    )
    parser.add_argument(
        "--strength",
        choices=STRENGTHS,
        default="fast",
        help="fast: lowest-risk guess, a few ms; full: look-ahead, endgame search and 50/50 "
        "handling for guesses, tens of ms (default fast)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--stream", action="store_true", help=STREAM_HELP)
    parser.set_defaults(run=run)


def to_json(analysis: Analysis) -> dict[str, Any]:
    """The `--json` object (see `msbot solve --help`)."""
    move = analysis.move
    return {
        "safe": [list(c) for c in analysis.safe],
        "mines": [list(c) for c in analysis.mines],
        "probabilities": [list(row) for row in analysis.probabilities],
        "move": None
        if move is None
        else {
            "action": move.action,
            "row": move.row,
            "col": move.col,
            "p_mine": move.p_mine,
            "reason": move.reason,
        },
        "exact": analysis.exact,
        "notes": list(analysis.notes),
    }


def render(board: Board, analysis: Analysis) -> str:
    """The board with '#' on certainly safe and '*' on certain-mine covered cells, then the move."""
    rows = [list(row) for row in board.rows]
    for r, c in analysis.safe:
        rows[r][c] = "#"
    for r, c in analysis.mines:
        rows[r][c] = "*"
    lines = ["".join(row) for row in rows]
    lines.append(f"{len(analysis.safe)} safe (#), {len(analysis.mines)} mines (*)")
    move = analysis.move
    if move is None:
        lines.append("move: none (nothing covered)")
    else:
        lines.append(
            f"move: {move.action} row {move.row} col {move.col} "
            f"(P(mine) = {move.p_mine:.4f}, {move.reason})"
        )
    if not analysis.exact:
        lines.append("probabilities are approximate")
    lines.extend(f"note: {note}" for note in analysis.notes)
    return "\n".join(lines)


def _read(path: str) -> str:
    """The board text of FILE (or stdin for "-"), within `bot.limits`."""
    if path == "-":
        text = sys.stdin.read(MAX_TEXT_BYTES + 1)
        if len(text) > MAX_TEXT_BYTES:
            raise LimitError(f"stdin: over the limit of {MAX_TEXT_BYTES} characters")
        return text
    return read_text(Path(path))


def _stream_line(line: str, default_rule: str, default_strength: str) -> dict[str, Any]:
    if not line.strip():
        return {"error": "empty line: expected a JSON object"}
    if json_depth(line) > MAX_JSON_DEPTH:
        return {"error": f"JSON nested deeper than {MAX_JSON_DEPTH} levels: not read"}
    try:
        request = parse_json(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not JSON: {exc.msg} at column {exc.colno}"}
    except LimitError as exc:
        return {"error": f"{exc}: not read"}
    if not isinstance(request, dict) or "board" not in request:
        return {"error": 'expected an object with a "board" field'}
    rows = request["board"]
    if isinstance(rows, str):
        text = rows
    elif isinstance(rows, list) and all(isinstance(r, str) for r in rows):
        text = "\n".join(rows)
    else:
        return {"error": '"board" must be a list of row strings'}
    mines = request.get("mines")
    if mines is not None and (not isinstance(mines, int) or isinstance(mines, bool)):
        return {"error": '"mines" must be an integer or null'}
    rule = request.get("rule", default_rule)
    if rule not in RULES:
        return {"error": f'"rule" must be one of {", ".join(RULES)}'}
    strength = request.get("strength", default_strength)
    if strength not in STRENGTHS:
        return {"error": f'"strength" must be one of {", ".join(STRENGTHS)}'}
    try:
        check_board_text(text)
        return to_json(analyse(parse_board(text), mines, rule, strength=strength))
    except MsbotError as exc:
        return {"error": str(exc)}


def stream(
    source: TextIO, sink: TextIO, default_rule: str = "safe", default_strength: str = "fast"
) -> None:
    """Answer JSON lines until EOF; each answer is flushed at once.

    Every input line gets exactly one answer line, a blank one included (an
    error), so a program can pair requests and answers by order.
    """
    while True:
        line = source.readline(MAX_LINE_CHARS + 1)
        if not line:
            return
        if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
            # Skip the rest of the line without holding it, then answer it.
            while (more := source.readline(MAX_LINE_CHARS)) and not more.endswith("\n"):
                pass
            answer: dict[str, Any] = {
                "error": f"line over the limit of {MAX_LINE_CHARS} characters: not read"
            }
        else:
            answer = _stream_line(line, default_rule, default_strength)
        sink.write(json.dumps(answer) + "\n")
        sink.flush()


def run(args: argparse.Namespace) -> int:
    if args.stream:
        if args.file != "-":
            raise MsbotError("--stream reads stdin; do not give a FILE")
        stream(sys.stdin, sys.stdout, args.rule, args.strength)
        return 0
    if args.mines is not None and args.mines < 0:
        raise MsbotError("--mines must be >= 0")
    text = _read(args.file)
    check_board_text(text)
    board = parse_board(text)
    analysis = analyse(board, args.mines, args.rule, strength=args.strength)
    if args.json:
        print(json.dumps(to_json(analysis)))
    else:
        print(render(board, analysis))
    return 0
