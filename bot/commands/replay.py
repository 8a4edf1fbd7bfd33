"""`msbot replay PATH... [--skin NAME|auto] [--json] [--check] [--annotate DIR]`.

Reads saved screenshots exactly as the play loop reads the live screen, and
prints for each frame the skin, geometry, board, mine counter, status and the
solver's intended actions with their screen coordinates. PATH is a PNG or a
recording folder (`frames/*.png`, or `*.png` directly, with an optional
`labels.jsonl`: one `{"frame", "board", "mines_left", "status"}` per line).

A frame that cannot be read is reported and the others are still processed;
the exit code is then 2. With `--check`, any difference from the labels gives
exit code 1 (unless an error already made it 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

from bot.errors import InconsistentBoardError, MsbotError, VisionError

EXIT_MISMATCH = 1
EXIT_ERROR = 2


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "replay",
        help="read saved screenshots or recordings as the bot would",
        description="Read PNG screenshots or recording folders and print what the bot sees.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="PNG file or recording folder")
    parser.add_argument("--skin", default="auto", help="skin name, or auto (default)")
    parser.add_argument("--json", action="store_true", help="one JSON object per frame")
    parser.add_argument("--check", action="store_true", help="compare with labels.jsonl")
    parser.add_argument("--annotate", metavar="DIR", help="write annotated pictures to DIR")
    parser.set_defaults(run=run)


def load_labels(folder: Path) -> dict[str, dict[str, Any]]:
    """labels.jsonl of a recording folder, by frame file name (empty if none)."""
    path = folder / "labels.jsonl"
    if not path.is_file():
        return {}
    labels: dict[str, dict[str, Any]] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            labels[str(obj["frame"])] = obj
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise MsbotError(f"{path}: line {n}: not a label object ({exc})") from exc
    return labels


def frames(paths: list[str]) -> Iterator[tuple[str, Path, dict[str, Any] | None, str]]:
    """(display name, PNG path, label or None, unique short tag) for every frame.

    The tag names annotated pictures: the frame's file stem, prefixed with the
    recording folder's name when it comes from one (frames of several
    recordings share names like 0001.png).
    """
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            folder = path / "frames" if (path / "frames").is_dir() else path
            pngs = sorted(folder.glob("*.png"))
            if not pngs:
                raise MsbotError(f"{path}: no PNG frames found")
            labels = load_labels(path)
            for png in pngs:
                yield str(png), png, labels.get(png.name), f"{path.resolve().name}-{png.stem}"
        else:
            yield str(path), path, None, path.stem


def intended_actions(reading: Any, rule: str) -> tuple[list[dict[str, Any]], Any, list[str]]:
    """The solver's actions for a playable reading with screen points, the analysis, and
    why the reading is inconsistent (if no mine placement fits it)."""
    if reading.status != "playing" or reading.unknown:
        return [], None, []
    from bot.solver import Rule, analyse

    flags = reading.board.count("F")
    total = None if reading.mines_left is None else reading.mines_left + flags
    try:
        analysis = analyse(reading.board, total, cast(Rule, rule))
    except InconsistentBoardError as exc:
        where = ", ".join(f"({r}, {c})" for r, c in exc.cells)
        return [], None, [str(exc) + (f" (cells {where})" if where else "")]
    cells: list[tuple[str, tuple[int, int]]] = [("open", c) for c in analysis.safe]
    cells += [("flag", c) for c in analysis.mines]
    if not cells and analysis.move is not None:
        cells = [(analysis.move.action, (analysis.move.row, analysis.move.col))]
    actions = []
    for action, (r, c) in cells:
        x, y = reading.geometry.cell_center(r, c)
        actions.append({"action": action, "row": r, "col": c, "x": x, "y": y})
    return actions, analysis, []


def compare(reading: Any, label: dict[str, Any]) -> tuple[int, list[str]]:
    """(cells compared, mismatch descriptions) between a reading and its label."""
    problems: list[str] = []
    want = [str(r) for r in label.get("board", [])]
    got = list(reading.board.rows)
    if len(want) != len(got) or any(len(a) != len(b) for a, b in zip(want, got, strict=False)):
        size = f"{len(want)}x{len(want[0]) if want else 0}"
        return 0, [f"board size {reading.geometry.rows}x{reading.geometry.cols}, label {size}"]
    compared = 0
    unknown = {(u.row, u.col) for u in reading.unknown}
    for r, (a, b) in enumerate(zip(got, want, strict=True)):
        for c, (x, y) in enumerate(zip(a, b, strict=True)):
            compared += 1
            if (r, c) in unknown:
                problems.append(f"cell ({r}, {c}): unsure, label {y!r}")
            elif x != y:
                problems.append(f"cell ({r}, {c}): read {x!r}, label {y!r}")
    if "mines_left" in label and label["mines_left"] != reading.mines_left:
        problems.append(f"mines left: read {reading.mines_left}, label {label['mines_left']}")
    if "status" in label and label["status"] != reading.status:
        problems.append(f"status: read {reading.status}, label {label['status']}")
    return compared, problems


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.annotate import annotate
    from vision.image_io import load_image
    from vision.reader import BoardReader

    reader = BoardReader.for_skin(args.skin)
    out_dir = Path(args.annotate) if args.annotate else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    errors = mismatched = compared_total = checked = 0
    #: Where the board of each recording folder was last found: a clone may
    #: cover its finished board with a window (GNOME Mines' "Congratulations"
    #: high scores), and the board cannot move within a recording.
    last: dict[Path, Any] = {}
    for name, path, label, tag in frames(args.paths):
        try:
            image = load_image(path)
            reading = read_frame(reader, image, last, path.parent)
            actions, analysis, problems = intended_actions(
                reading, reading_rule(reader, reading.skin)
            )
        except MsbotError as exc:
            errors += 1
            if args.json:
                print(json.dumps({"frame": name, "error": str(exc)}))
            print(f"{name}: error: {exc}", file=sys.stderr)
            continue
        record = {"frame": name, **reading.to_json(), "actions": actions}
        record["controls"] = {k: list(v) for k, v in reading.controls.items()}
        if problems:
            record["inconsistent"] = problems
        if args.json:
            print(json.dumps(record))
        else:
            print_frame(record)
        if out_dir is not None:
            probs = analysis.probabilities if analysis is not None else None
            picture = annotate(image, reading, probs, actions, problems)
            cv2.imwrite(str(out_dir / (tag + ".annotated.png")), picture)
        if args.check:
            if label is None:
                print(f"{name}: no label", file=sys.stderr)
                mismatched += 1
                continue
            checked += 1
            n, diffs = compare(reading, label)
            compared_total += n
            if diffs:
                mismatched += 1
                for d in diffs:
                    print(f"{name}: MISMATCH {d}", file=sys.stderr)
    if args.check:
        print(
            f"checked {checked} frames, {compared_total} cells compared, "
            f"{mismatched} frames with mismatches, {errors} errors",
            file=sys.stderr,
        )
    if errors:
        return EXIT_ERROR
    return EXIT_MISMATCH if mismatched else 0


def read_frame(reader: Any, image: Any, last: dict[Path, Any], folder: Path) -> Any:
    """Locate and read a frame; where no board is found, a recording's frame is
    read where its board last was, but only if the screen there says the game
    is over (won/lost status text or face): anything else stays an error."""
    try:
        located = reader.locate(image)
    except VisionError:
        if folder not in last:
            raise
        reading = reader.read(image, last[folder])
        if reading.status not in ("won", "lost"):
            raise
        return reading
    last[folder] = located
    return reader.read(image, located)


def reading_rule(reader: Any, skin_name: str) -> str:
    for skin in reader.skins:
        if skin.name == skin_name:
            return str(skin.play.rule)
    raise VisionError(f"unknown skin {skin_name}")


def print_frame(record: dict[str, Any]) -> None:
    g = record["geometry"]
    print(
        f"{record['frame']}: {record['skin']} {g['rows']}x{g['cols']} at "
        f"({g['left']:.1f}, {g['top']:.1f}) pitch {g['cell_w']:.2f}x{g['cell_h']:.2f}, "
        f"mines left {record['mines_left']}, {record['status']}"
    )
    for row in record["board"]:
        print("  " + row)
    for u in record["unknown"]:
        print(f"  unsure cell ({u['row']}, {u['col']}): best {u['best']!r} score {u['score']}")
    for problem in record.get("inconsistent", []):
        print(f"  INCONSISTENT: {problem}")
    for a in record["actions"]:
        print(f"  {a['action']} ({a['row']}, {a['col']}) at x={a['x']} y={a['y']}")
