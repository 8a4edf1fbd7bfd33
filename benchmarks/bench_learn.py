"""How long `msbot learn-skin` takes, and how well the learned skin reads its recordings.

For each clone with recordings, learns the skin from all its recorded frames
(images already decoded: the time is the learning, grid to names, plus
writing the skin folder) REPEAT times and prints the median CPU time of this
process (the machine is shared: wall time is printed too), then reads every
recorded frame with the learned skin and compares it with the labels (frames
ok = cells and status right). With `--mines` (each recording's mine total: the
learner needs it to find the counter) the learned counter reads every frame
too ("counter ok", against the labels) and "written" says whether it went into
the skin: only with all ten digits seen, which the recordings do not show.

    .venv/bin/python benchmarks/bench_learn.py [--repeat 5] [CLONE ...]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.errors import MsbotError
from vision.counter import parse_counter
from vision.glyphs import read_text
from vision.image_io import load_image
from vision.learn.screenshots.pipeline import learn
from vision.learn.screenshots.writer import write_skin
from vision.reader import BoardReader
from vision.skin import load_skin

RECORDINGS = Path(__file__).resolve().parent.parent / "recordings"
CLONES = ("xdemineur", "sgt-mines", "minegauler", "gnome-mines")


def frames(clone: str) -> list[tuple[Path, dict[str, object]]]:
    out = []
    for rec in sorted(RECORDINGS.glob(f"{clone}-*")):
        labels = rec / "labels.jsonl"
        if not labels.is_file():
            continue
        meta = json.loads((rec / "meta.json").read_text(encoding="utf-8"))
        for line in labels.read_text(encoding="utf-8").splitlines():
            if line.strip():
                label = json.loads(line)
                label["mines"] = meta["mines"]
                out.append((rec / "frames" / str(label["frame"]), label))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("clones", nargs="*", default=list(CLONES))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--mines", action="store_true", help="give the mine total (counter)")
    args = parser.parse_args()
    head = f"{'clone':12} {'frames':>6} {'cpu s':>6} {'wall s':>7}"
    print(f"{head} {'cells ok':>14} {'frames ok':>10} {'counter ok':>11} {'written':>7}")
    for clone in args.clones:
        labelled = frames(clone)
        if not labelled:
            print(f"{clone:12} no recordings")
            continue
        images = [load_image(p) for p, _ in labelled]
        mines = [int(label["mines"]) for _, label in labelled] if args.mines else None  # type: ignore[call-overload]
        cpu, wall = [], []
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / clone
            for _ in range(args.repeat):
                start, start_cpu = time.perf_counter(), time.process_time()
                learned = learn(images, mines=mines)
                write_skin(f"learned-{clone}", learned, out, [str(p) for p, _ in labelled])
                cpu.append(time.process_time() - start_cpu)
                wall.append(time.perf_counter() - start)
            reader = BoardReader([load_skin(out)])
            cells = ok_cells = ok_frames = ok_counter = 0
            for image, (_, label) in zip(images, labelled, strict=True):
                truth = "".join(label["board"])  # type: ignore[arg-type]
                cells += len(truth)
                try:
                    reading = reader.read_fresh(image)
                except MsbotError:
                    continue
                got = "".join(reading.board.rows)
                unknown = {(u.row, u.col) for u in reading.unknown}
                width = reading.geometry.cols
                if len(got) == len(truth):
                    ok_cells += sum(
                        a == b and divmod(i, width) not in unknown
                        for i, (a, b) in enumerate(zip(got, truth, strict=True))
                    )
                ok_frames += got == truth and not unknown and reading.status == label["status"]
                if learned.counter is not None:
                    glyphs = learned.counter.glyphs()
                    text, _ = read_text(image, glyphs, reading.geometry)
                    got_left = parse_counter(text, learned.counter.format)
                    ok_counter += got_left == label["mines_left"]
        print(
            f"{clone:12} {len(images):6} {statistics.median(cpu):6.2f} "
            f"{statistics.median(wall):7.2f} {ok_cells:6}/{cells:<7} "
            f"{ok_frames:4}/{len(images):<5} {ok_counter:5}/{len(images):<5} "
            f"{'yes' if learned.counter_written else 'no':>7}"
        )


if __name__ == "__main__":
    main()
