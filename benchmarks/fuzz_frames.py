"""Fuzzing the eyes: recorded frames mutated, read, and checked against their labels.

Every labelled frame of `recordings/` is mutated in each class below, with a
fixed seed, and read the way `msbot replay` reads a file (`load_image`, then
`BoardReader.read_fresh`). Each input must end in a reading or one clean
`MsbotError`: anything else (a traceback) is a failure, and so is anything a
reading says surely against the frame's label: another size, a cell read
surely as another kind (every sure cell is compared, whatever the unsure
ones around it: the solver acts on the sure ones), a counter or a status the
label does not show (`sure_and_wrong`). Slow inputs and the process's peak memory
are reported.

Classes: bitflip (bytes of the PNG file flipped), truncate (the file cut),
noise (Gaussian, sigma 2 and 8), jpeg (quality 50 and 90), greyscale, scale
(0.8 and 1.25, linear). `--covers` adds boxes over an edge of the board
(`cover`: each side, half a cell, one and two cells deep, over everything
beyond, as a band over the edge, or over half the side; white, black or grey):
each must end in a clean error (the border does not close that side), a
reading with unsure cells, or the labelled board exactly. `--overlays` adds
translucent boxes (white or black at 30, 50 and 70 %, over the middle half
of the board or over the whole screen) and the scales 0.9, 1.1 and 1.5; with
`--every-frame` they replace the covers.

    .venv/bin/python benchmarks/fuzz_frames.py [--per-class 3 | --all] [--seed 1] [--covers]
    .venv/bin/python benchmarks/fuzz_frames.py --every-frame   # the covers, every real frame
    .venv/bin/python benchmarks/fuzz_frames.py --all --overlays
    .venv/bin/python benchmarks/fuzz_frames.py --every-frame --overlays

One JSON line per class, then a summary line; exit 1 on any failure.
`tests/test_fuzz_frames.py` runs the same at a small size.
"""

from __future__ import annotations

import argparse
import functools
import json
import resource
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.errors import MsbotError
from vision.geometry import Geometry
from vision.image_io import load_image
from vision.reader import BoardReader
from vision.reading import Reading

RECORDINGS = Path(__file__).resolve().parent.parent / "recordings"

#: A mutation: (png bytes of the frame, its picture, a random generator) -> png bytes.
Mutation = Callable[[bytes, np.ndarray, np.random.Generator], bytes]


def _png(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".png", image)
    assert ok
    return data.tobytes()


def bitflip(data: bytes, image: np.ndarray, rng: np.random.Generator) -> bytes:
    raw = bytearray(data)
    for i in rng.integers(8, len(raw), size=3):
        raw[int(i)] ^= 1 << int(rng.integers(0, 8))
    return bytes(raw)


def truncate(data: bytes, image: np.ndarray, rng: np.random.Generator) -> bytes:
    return data[: int(rng.integers(8, len(data)))]


def noise(sigma: float) -> Mutation:
    def mutate(data: bytes, image: np.ndarray, rng: np.random.Generator) -> bytes:
        noisy = image.astype(np.float32) + rng.normal(0, sigma, image.shape)
        return _png(np.clip(noisy, 0, 255).astype(np.uint8))

    return mutate


def jpeg(quality: int) -> Mutation:
    def mutate(data: bytes, image: np.ndarray, rng: np.random.Generator) -> bytes:
        ok, enc = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        return _png(cv2.imdecode(enc, cv2.IMREAD_COLOR))

    return mutate


def greyscale(data: bytes, image: np.ndarray, rng: np.random.Generator) -> bytes:
    return _png(cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR))


def scale(factor: float) -> Mutation:
    def mutate(data: bytes, image: np.ndarray, rng: np.random.Generator) -> bytes:
        return _png(cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_LINEAR))

    return mutate


@functools.lru_cache(maxsize=4)
def _board_at(data: bytes) -> Geometry:
    """Where the uncovered frame `data` (PNG bytes) shows its board: found once
    per frame, not once per cover."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    return BoardReader().read_fresh(image).geometry


#: The colours a box over the board is drawn in: white (a notification), black
#: (the virtual desktop) and a mid grey.
COVER_COLOURS = ((255, 255, 255), (0, 0, 0), (128, 128, 128))


def cover(side: str, depth: float, shape: str) -> Mutation:
    """A box over `depth` cells of the board's `side` (1: the last row or column,
    0.5: half of it, 2: two), in a colour drawn at random from COVER_COLOURS.
    `shape`: "beyond" covers everything from there to the picture's edge;
    "band" a box from there to a cell past the board's edge, a cell wider than
    the side at both ends (a window over the edge); "half" as "beyond" over the
    far half of the side only."""

    def mutate(data: bytes, image: np.ndarray, rng: np.random.Generator) -> bytes:
        out = image.copy()
        g = _board_at(data)
        colour = COVER_COLOURS[int(rng.integers(0, len(COVER_COLOURS)))]
        height, width = out.shape[:2]
        x0, y0 = g.left, g.top
        x1, y1 = g.left + g.width, g.top + g.height
        pitch = g.cell_h if side in ("top", "bottom") else g.cell_w
        reach = depth * pitch
        # The box: along the side (a0, a1) and across it (b0, b1), in pixels.
        if side in ("top", "bottom"):
            a0, a1, limit = x0 - g.cell_w, x1 + g.cell_w, width
        else:
            a0, a1, limit = y0 - g.cell_h, y1 + g.cell_h, height
        if shape == "half":
            a0 = (x0 + x1) / 2 if side in ("top", "bottom") else (y0 + y1) / 2
        if shape != "band":
            a0, a1 = (0, limit) if shape == "beyond" else (a0, limit)
        if side == "top":
            b0, b1 = (y0 - pitch if shape == "band" else 0), y0 + reach
        elif side == "bottom":
            b0, b1 = y1 - reach, (y1 + pitch if shape == "band" else height)
        elif side == "left":
            b0, b1 = (x0 - pitch if shape == "band" else 0), x0 + reach
        else:
            b0, b1 = x1 - reach, (x1 + pitch if shape == "band" else width)
        a0, a1, b0, b1 = (max(0, round(v)) for v in (a0, a1, b0, b1))
        if side in ("top", "bottom"):
            out[b0:b1, a0:a1] = colour
        else:
            out[a0:a1, b0:b1] = colour
        return _png(out)

    return mutate


def overlay(colour: tuple[int, int, int], alpha: float, part: str) -> Mutation:
    """A translucent box (`alpha` of `colour` over the picture: a notification,
    a translucent terminal) over the middle of the board, none of its edges
    covered (`part` "middle": the middle half each way), or over the whole
    board and its surround (`part` "all": a dimmed screen)."""

    def mutate(data: bytes, image: np.ndarray, rng: np.random.Generator) -> bytes:
        out = image.astype(np.float32)
        if part == "all":
            x0, y0, x1, y1 = 0, 0, out.shape[1], out.shape[0]
        else:
            g = _board_at(data)
            x0, y0 = round(g.left + g.width / 4), round(g.top + g.height / 4)
            x1, y1 = round(g.left + 3 * g.width / 4), round(g.top + 3 * g.height / 4)
        box = out[y0:y1, x0:x1]
        out[y0:y1, x0:x1] = box * (1 - alpha) + np.array(colour, np.float32) * alpha
        return _png(out.round().clip(0, 255).astype(np.uint8))

    return mutate


CLASSES: dict[str, list[Mutation]] = {
    "bitflip": [bitflip],
    "truncate": [truncate],
    "noise": [noise(2), noise(8)],
    "jpeg": [jpeg(50), jpeg(90)],
    "greyscale": [greyscale],
    "scale": [scale(0.8), scale(1.25)],
}
#: `--overlays`: translucent boxes, light and dark, 30 to 70 %, over the
#: board's middle or the whole screen, and the scales 0.9 to 1.5.
OVERLAYS: dict[str, list[Mutation]] = {
    f"overlay-{name}": [
        overlay(colour, alpha, part) for alpha in (0.3, 0.5, 0.7) for part in ("middle", "all")
    ]
    for name, colour in (("light", (255, 255, 255)), ("dark", (0, 0, 0)))
} | {"scale-more": [scale(f) for f in (0.9, 1.1, 1.5)]}
COVERS: dict[str, list[Mutation]] = {
    f"cover-{shape}": [
        cover(side, depth, shape)
        for side in ("top", "bottom", "left", "right")
        for depth in (0.5, 1.0, 2.0)
    ]
    for shape in ("beyond", "band", "half")
}


@dataclass
class Tally:
    """What one class of inputs gave."""

    name: str
    inputs: int = 0
    read: int = 0
    clean_errors: int = 0
    unsure: int = 0
    sure_and_wrong: list[str] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)
    slowest_s: float = 0.0
    slowest: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "class": self.name,
            "inputs": self.inputs,
            "read": self.read,
            "clean_errors": self.clean_errors,
            "with_unsure_cells": self.unsure,
            "sure_and_wrong": self.sure_and_wrong,
            "crashes": self.crashes,
            "slowest_s": round(self.slowest_s, 3),
            "slowest": self.slowest,
        }


def labelled_frames() -> Iterator[tuple[Path, dict[str, object]]]:
    for folder in sorted(RECORDINGS.glob("*/")):
        labels = folder / "labels.jsonl"
        if labels.is_file():
            for line in labels.read_text().splitlines():
                if line.strip():
                    label = json.loads(line)
                    yield folder / "frames" / str(label["frame"]), label


def every_frame() -> Iterator[tuple[Path, dict[str, object]]]:
    """Every real frame the project holds (the recordings and the tests' data:
    other cell sizes, window sizes, themes), with its own reading as its label
    (for the covers: a covered board must not read as a sure board of any other
    size or cells). Frames that do not read sure uncovered are left out, and so
    are those whose reading shows no board: a finished game with every cell
    covered is how a window over the board reads (GNOME Mines' high scores),
    not what is under it."""
    reader = BoardReader()
    data = RECORDINGS.parent / "tests" / "data"
    frames = [*sorted(RECORDINGS.glob("*/frames/*.png")), *sorted(data.rglob("*.png"))]
    for frame in frames:
        try:
            reading = reader.read_fresh(load_image(frame))
        except MsbotError:
            continue
        board = reading.board
        hidden = reading.status != "playing" and board.count(".") == board.height * board.width
        if not reading.unknown and not hidden:
            yield frame, {"frame": frame.name, "board": list(reading.board.rows)}


def check(path: Path, label: dict[str, object], tally: Tally, name: str) -> None:
    """Read one mutated file as `msbot replay` would; tally what came of it."""
    started = time.perf_counter()
    try:
        reading = BoardReader().read_fresh(load_image(path))
    except MsbotError:
        tally.clean_errors += 1
        return
    except Exception as exc:  # a crash is what this script looks for
        tally.crashes.append(f"{name}: {type(exc).__name__}: {exc}"[:200])
        return
    finally:
        took = time.perf_counter() - started
        if took > tally.slowest_s:
            tally.slowest_s, tally.slowest = took, name
    tally.read += 1
    tally.unsure += bool(reading.unknown)
    tally.sure_and_wrong += [f"{name}: {w}" for w in sure_and_wrong(reading, label)]


def sure_and_wrong(reading: Reading, label: dict[str, object]) -> list[str]:
    """What `reading` says surely that its label does not: another size (a
    reading states its board's size, unsure cells or not), any cell read
    surely as another kind (the unsure ones left out, whatever the others
    read: the solver acts on the sure cells), a counter or a status the label
    does not show. A counter read as unknown (None) is no claim, nor is
    "playing" on a finished board (the play loop goes on reading: a won or a
    lost is what must be proven)."""
    want = [str(row) for row in label["board"]]  # type: ignore[attr-defined]
    rows = list(reading.board.rows)
    if (len(rows), len(rows[0])) != (len(want), len(want[0])):
        return [f"read {len(rows[0])}x{len(rows)}, label {len(want[0])}x{len(want)}"]
    unsure = reading.unread
    wrong = [
        f"cell ({r}, {c}) read {a!r}, label {b!r}"
        for r, (got, truth) in enumerate(zip(rows, want, strict=True))
        for c, (a, b) in enumerate(zip(got, truth, strict=True))
        if a != b and (r, c) not in unsure
    ]
    if "mines_left" in label and reading.mines_left not in (None, label["mines_left"]):
        wrong.append(f"counter {reading.mines_left}, label {label['mines_left']}")
    ended = reading.status in ("won", "lost")
    if "status" in label and ended and reading.status != label["status"]:
        wrong.append(f"status {reading.status}, label {label['status']}")
    return wrong


def one_per_clone() -> list[tuple[Path, dict[str, object]]]:
    """The first labelled frame of each clone's recordings (named CLONE-SIZE-N)."""
    firsts: dict[str, tuple[Path, dict[str, object]]] = {}
    for frame, label in labelled_frames():
        firsts.setdefault(frame.parent.parent.name.rsplit("-", 2)[0], (frame, label))
    return list(firsts.values())


def fuzz(
    per_class: int,
    seed: int,
    covers: bool,
    work: Path,
    picks: list[tuple[Path, dict[str, object]]] | None = None,
    plain: bool = True,
    overlays: bool = False,
) -> list[Tally]:
    """`per_class` frames (spread over every recording; 0: every labelled frame)
    per mutation of each class, or the frames `picks`; `plain` False: the covers
    only."""
    frames = list(labelled_frames())
    if picks is None:
        picks = frames
        if per_class:
            spread = np.linspace(0, len(frames) - 1, per_class).round().astype(int)
            picks = [frames[i] for i in spread]
    classes = {
        **(CLASSES if plain else {}),
        **(COVERS if covers else {}),
        **(OVERLAYS if overlays else {}),
    }
    tallies = []
    for cls, mutations in classes.items():
        tally = Tally(cls)
        rng = np.random.default_rng([seed, len(tallies)])
        for m, mutate in enumerate(mutations):
            for i, (frame, label) in enumerate(picks):
                data = frame.read_bytes()
                mutated = mutate(data, load_image(frame), rng)
                path = work / f"{cls}-{m}-{i}.png"
                path.write_bytes(mutated)
                tally.inputs += 1
                check(path, label, tally, f"{cls}[{m}] {frame.parent.parent.name}/{frame.name}")
        tallies.append(tally)
    return tallies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-class", type=int, default=3, help="frames per mutation")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--all", action="store_true", help="every labelled frame")
    parser.add_argument("--covers", action="store_true", help="also cover an edge")
    parser.add_argument(
        "--overlays", action="store_true", help="also translucent boxes and scales 0.9-1.5"
    )
    parser.add_argument(
        "--every-frame",
        action="store_true",
        help="only the covers, on every real frame (labelled by its own reading)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="msbot-fuzz-") as work:
        if args.every_frame:
            picks = list(every_frame())
            tallies = fuzz(
                0,
                args.seed,
                not args.overlays,
                Path(work),
                picks,
                plain=False,
                overlays=args.overlays,
            )
        else:
            per_class = 0 if args.all else args.per_class
            tallies = fuzz(per_class, args.seed, args.covers, Path(work), overlays=args.overlays)
    failed = False
    for tally in tallies:
        print(json.dumps(tally.to_json()), flush=True)
        failed |= bool(tally.crashes) or bool(tally.sure_and_wrong)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    summary = {
        "inputs": sum(t.inputs for t in tallies),
        "clean_errors": sum(t.clean_errors for t in tallies),
        "crashes": sum(len(t.crashes) for t in tallies),
        "sure_and_wrong": sum(len(t.sure_and_wrong) for t in tallies),
        "slowest_s": round(max(t.slowest_s for t in tallies), 3),
        "peak_mb": round(peak_mb),
    }
    print(json.dumps({"summary": summary}))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
