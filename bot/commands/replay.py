"""`msbot replay PATH... [--skin NAME|auto] [--json] [--check] [--annotate DIR]`.

Reads saved screenshots exactly as the play loop reads the live screen, and
prints for each frame the skin, geometry, board, mine counter, status and the
solver's intended actions with their screen coordinates. PATH is a PNG or a
recording folder (`frames/*.png`, or `*.png` directly, with an optional
`labels.jsonl`: one `{"frame", "board", "mines_left", "status"}` per line).

A recording made by `msbot play --record` holds only the window region of
the screen; its `readings.jsonl` says where that region was, and the geometry,
actions and controls printed are then moved back to SCREEN coordinates (the
annotated pictures stay in the frame's own pixels). The frame such a
recording ends with when play stopped on an error (a `note` in readings.jsonl,
no label) is evidence, not a labelled frame: it is reported, never counted as
an error or mismatch.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, cast

from bot.commands import output_folder
from bot.errors import InconsistentBoardError, MsbotError, VisionError
from bot.limits import LimitError, parse_json, read_text

EXIT_MISMATCH = 1
EXIT_ERROR = 2

EPILOG = """\
PATH is a PNG or a recording folder (frames/*.png with labels.jsonl; a play
recording's readings.jsonl gives the screen offset of its frames, so x/y are
screen pixels). A PNG inside a recording's frames/ folder uses that
recording's labels and offset too.

exit codes:
  0  every frame read (and, with --check, equal to its label)
  1  --check only: some frame differs from its label, or has no label
  2  some frame could not be read, or bad arguments; the other frames are
     still read and reported.
The frame a play recording ends with when play stopped on an error (it has a
note in readings.jsonl and no label) is reported as evidence and never
changes the exit code."""


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "replay",
        help="read saved screenshots or recordings as the bot would",
        description="Read PNG screenshots or recording folders and print what the bot sees.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="PNG file or recording folder")
    parser.add_argument("--skin", default="auto", help="skin name, or auto (default)")
    parser.add_argument("--json", action="store_true", help="one JSON object per frame")
    parser.add_argument("--check", action="store_true", help="compare with labels.jsonl")
    parser.add_argument("--annotate", metavar="DIR", help="write annotated pictures to DIR")
    parser.set_defaults(run=run)


def _jsonl(path: Path, what: str) -> list[dict[str, Any]]:
    """The objects of a JSON-lines file of a recording (empty if there is none)."""
    if not path.is_file():
        return []
    objects = []
    text = read_text(path)
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = parse_json(line)
            str(obj["frame"])
        except (json.JSONDecodeError, KeyError, TypeError, LimitError) as exc:
            raise MsbotError(f"{path}: line {n}: not a {what} object ({exc})") from exc
        objects.append(obj)
    return objects


def load_labels(folder: Path) -> dict[str, dict[str, Any]]:
    """labels.jsonl of a recording folder, by frame file name (empty if none)."""
    return {str(obj["frame"]): obj for obj in _jsonl(folder / "labels.jsonl", "label")}


def load_readings(folder: Path) -> dict[str, dict[str, Any]]:
    """readings.jsonl of a `msbot play --record` folder, by frame file name (empty if none)."""
    return {str(obj["frame"]): obj for obj in _jsonl(folder / "readings.jsonl", "reading")}


@dataclass(frozen=True)
class Frame:
    #: How the frame is named in the output (its path as given).
    name: str
    path: Path
    label: dict[str, Any] | None
    #: Unique short name for annotated pictures.
    tag: str
    #: Screen position of the frame's top-left pixel (play recordings), else (0, 0).
    offset: tuple[int, int] = (0, 0)
    #: Why play stopped at this frame (its readings.jsonl note), "" if it did not.
    note: str = ""


def _frame(
    name: str, png: Path, tag: str, labels: dict[str, Any], readings: dict[str, Any]
) -> Frame:
    line = readings.get(png.name, {})
    region = line.get("region")
    offset = (0, 0)
    if isinstance(region, list) and len(region) == 4 and all(isinstance(v, int) for v in region):
        offset = (region[0], region[1])
    return Frame(name, png, labels.get(png.name), tag, offset, str(line.get("note", "")))


def frames(paths: list[str]) -> Iterator[Frame]:
    """Every frame to read, with its label, screen offset and play's note, if any.

    The tag names annotated pictures: the frame's file stem, prefixed with the
    recording folder's name when it comes from one (frames of several
    recordings share names like 0001.png).
    """
    from vision.capture.replay import folder_frames

    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            pngs = folder_frames(path)
            labels, readings = load_labels(path), load_readings(path)
            for png in pngs:
                tag = f"{path.resolve().name}-{png.stem}"
                yield _frame(str(png), png, tag, labels, readings)
        elif path.parent.name == "frames" and (path.parent.parent / "labels.jsonl").is_file():
            # One frame of a recording: its labels and offset still apply.
            root = path.parent.parent
            yield _frame(str(path), path, path.stem, load_labels(root), load_readings(root))
        else:
            yield Frame(str(path), path, None, path.stem)


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
    if not label.get("board"):
        return 0, ["the label has no board"]
    want = [str(r) for r in label["board"]]
    got = list(reading.board.rows)
    if len(want) != len(got) or any(len(a) != len(b) for a, b in zip(want, got, strict=False)):
        size = f"{len(want[0]) if want else 0}x{len(want)}"  # width x height, as everywhere
        return 0, [f"board size {reading.geometry.cols}x{reading.geometry.rows}, label {size}"]
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
    from vision.annotate import annotate
    from vision.image_io import load_image, save_png
    from vision.reader import BoardReader

    reader = BoardReader.for_skin(args.skin)
    out_dir = output_folder(args.annotate, "--annotate") if args.annotate else None
    errors = mismatched = compared_total = checked = evidence = 0
    #: Where the board of each recording folder was last found: a clone may
    #: cover its finished board with a window (GNOME Mines' "Congratulations"
    #: high scores), and the board cannot move within a recording.
    last: dict[Path, Any] = {}
    for frame in frames(args.paths):
        name = frame.name
        try:
            image = load_image(frame.path)
            try:
                reading = read_frame(reader, image, last, frame.path.parent)
            except VisionError as exc:
                if is_grey(image):
                    raise VisionError(f"{exc} (the picture is grey: skins match colours)") from exc
                raise
            actions, analysis, problems = intended_actions(
                reading, reading_rule(reader, reading.skin)
            )
        except MsbotError as exc:
            message = str(exc)
            # load_image's messages already start with the file's name.
            detail = message.removeprefix(f"{name}: ")
            if frame.note and frame.label is None:
                evidence += 1
                if args.json:
                    print(json.dumps({"frame": name, "error": message, "evidence": frame.note}))
                why = "" if detail in frame.note else f" ({detail})"
                print(
                    f"{name}: not read{why}; not counted: the frame play stopped at"
                    f" (its note: {frame.note})",
                    file=sys.stderr,
                )
                continue
            errors += 1
            if args.json:
                print(json.dumps({"frame": name, "error": message}))
            print(f"{name}: error: {detail}", file=sys.stderr)
            continue
        record = frame_record(name, reading, actions, frame.offset)
        if problems:
            record["inconsistent"] = problems
        if frame.note:
            record["note"] = frame.note
        if args.json:
            print(json.dumps(record))
        else:
            print_frame(record)
        if out_dir is not None:
            probs = analysis.probabilities if analysis is not None else None
            picture = annotate(image, reading, probs, actions, problems)
            target = out_dir / (frame.tag + ".annotated.png")
            try:
                save_png(target, picture)
            except OSError as exc:
                raise MsbotError(f"cannot write {target}: {exc}") from None
        if args.check:
            if frame.label is None:
                if frame.note:
                    evidence += 1
                    print(
                        f"{name}: no label (the frame play stopped at; not counted)",
                        file=sys.stderr,
                    )
                    continue
                print(f"{name}: no label", file=sys.stderr)
                mismatched += 1
                continue
            checked += 1
            n, diffs = compare(reading, frame.label)
            compared_total += n
            if diffs:
                mismatched += 1
                for d in diffs:
                    print(f"{name}: MISMATCH {d}", file=sys.stderr)
    if args.check:
        print(
            f"checked {checked} frames, {compared_total} cells compared, "
            f"{mismatched} frames with mismatches, {errors} errors"
            + (f", {evidence} frame(s) play stopped at (not counted)" if evidence else ""),
            file=sys.stderr,
        )
    if errors:
        return EXIT_ERROR
    return EXIT_MISMATCH if mismatched else 0


def frame_record(
    name: str, reading: Any, actions: list[dict[str, Any]], offset: tuple[int, int]
) -> dict[str, Any]:
    """The JSON object of one frame, in screen coordinates (frame + offset).

    Geometry values that are whole pixels are printed as integers.
    """
    dx, dy = offset
    shown = replace(
        reading,
        geometry=reading.geometry.shifted(dx, dy),
        controls={k: (x + dx, y + dy) for k, (x, y) in reading.controls.items()},
    )
    record: dict[str, Any] = {"frame": name, **shown.to_json()}
    record["geometry"] = {k: _number(v) for k, v in record["geometry"].items()}
    # Screen points from the screen grid (as play computes them), not frame
    # points plus the offset: the two can round half a pixel apart.
    points = [shown.geometry.cell_center(a["row"], a["col"]) for a in actions]
    record["actions"] = [{**a, "x": x, "y": y} for a, (x, y) in zip(actions, points, strict=True)]
    record["controls"] = {k: list(v) for k, v in shown.controls.items()}
    # A grid with unsure cells may be a grid fitted to something else (noise,
    # a box): its size is a guess like its cells, and says so.
    record["size_sure"] = not shown.unknown
    if offset != (0, 0):
        record["offset"] = list(offset)
    return record


def _number(value: float | int) -> float | int:
    """A whole number as int, anything else rounded to 1/1000 px (no 153.49999999999986)."""
    if isinstance(value, int):
        return value
    return round(value) if abs(value - round(value)) < 1e-6 else round(value, 3)


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


def is_grey(image: Any) -> bool:
    """Whether a BGR picture is a grayscale screenshot: no colour, but not one
    flat colour either (a black screen is "no board", not "grey")."""
    import numpy as np

    return (
        bool(np.array_equal(image[..., 0], image[..., 1]))
        and bool(np.array_equal(image[..., 1], image[..., 2]))
        and len(np.unique(image[..., 0])) > 1
    )


def reading_rule(reader: Any, skin_name: str) -> str:
    for skin in reader.skins:
        if skin.name == skin_name:
            return str(skin.play.rule)
    raise VisionError(f"unknown skin {skin_name}")


def print_frame(record: dict[str, Any]) -> None:
    g = record["geometry"]
    where = " on screen" if "offset" in record else ""
    size = f"{g['cols']}x{g['rows']}" + ("" if record["size_sure"] else " (size not sure)")
    print(
        f"{record['frame']}: {record['skin']} {size} at "
        f"({g['left']:.1f}, {g['top']:.1f}){where} pitch {g['cell_w']:.2f}x{g['cell_h']:.2f}, "
        f"mines left {record['mines_left']}, {record['status']}"
    )
    for row in record["board"]:
        print("  " + row)
    if record["unknown"]:
        # The board text has no letter for "unreadable": such a cell is written
        # covered, which keeps the solver sound but hides that it was not read.
        print(f"  {len(record['unknown'])} unsure cells, written '.' above:")
    for u in record["unknown"]:
        why = " (against the game's rules)" if u.get("ruled") else ""
        print(f"  unsure cell ({u['row']}, {u['col']}): best {u['best']!r} score {u['score']}{why}")
    for problem in record.get("inconsistent", []):
        print(f"  INCONSISTENT: {problem}")
    for a in record["actions"]:
        print(f"  {a['action']} ({a['row']}, {a['col']}) at x={a['x']} y={a['y']}")
