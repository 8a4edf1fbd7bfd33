"""HiDPI sweep: every labelled frame of the given recordings, scaled as a desktop
scaled by a compositor shows it (cv2.resize, linear and nearest), read from
scratch and compared with its label.

    .venv/bin/python benchmarks/bench_hidpi.py xdemineur-expert-1,sgt-mines-expert-1 [1.25,2.0]

One line per recording, scale and interpolation, one word per frame: `ok`
(board, counter and status as labelled, no unsure cell), `NF` (no board
found), `SIZE<r>x<c>` (a board of another size), or what differed: `wrong<n>`
(cells read surely and wrongly), `unk<n>` (unsure cells), `ctr<read>!=<label>`,
`st<read>!=<label>`. The frame is the recorded window and a 40 px margin.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2

from bot.errors import VisionError
from vision.image_io import load_image
from vision.reader import BoardReader

RECORDINGS = Path(__file__).resolve().parents[1] / "recordings"
INTERPOLATIONS = {"lin": cv2.INTER_LINEAR, "near": cv2.INTER_NEAREST}


def main() -> None:
    recordings = sys.argv[1].split(",")
    scales = (
        [float(s) for s in sys.argv[2].split(",")] if len(sys.argv) > 2 else [1.25, 1.5, 1.75, 2.0]
    )
    reader = BoardReader()
    for name in recordings:
        folder = RECORDINGS / name
        meta = json.loads((folder / "meta.json").read_text())
        labels = [json.loads(line) for line in (folder / "labels.jsonl").read_text().splitlines()]
        x, y = meta["window"]
        w, h = meta["window_size"]
        for scale in scales:
            for iname, interp in INTERPOLATIONS.items():
                words = []
                for lab in labels:
                    image = load_image(folder / "frames" / lab["frame"])
                    crop = image[max(0, y - 40) : y + h + 40, max(0, x - 40) : x + w + 40]
                    if scale != 1.0:
                        crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=interp)
                    reader.forget()
                    try:
                        reading = reader.read_fresh(crop)
                    except VisionError:
                        words.append("NF")
                        continue
                    rows = list(reading.board.rows)
                    if len(rows) != len(lab["board"]) or len(rows[0]) != len(lab["board"][0]):
                        words.append(f"SIZE{len(rows)}x{len(rows[0])}")
                        continue
                    unsure = {(u.row, u.col) for u in reading.unknown}
                    wrong = sum(
                        a != b and (r, c) not in unsure
                        for r, (ra, rb) in enumerate(zip(rows, lab["board"], strict=True))
                        for c, (a, b) in enumerate(zip(ra, rb, strict=True))
                    )
                    bad = [f"wrong{wrong}"] if wrong else []
                    bad += [f"unk{len(unsure)}"] if unsure else []
                    if reading.mines_left != lab["mines_left"]:
                        bad.append(f"ctr{reading.mines_left}!={lab['mines_left']}")
                    if reading.status != lab["status"]:
                        bad.append(f"st{reading.status}!={lab['status']}")
                    words.append("+".join(bad) or "ok")
                print(f"{name:28s} {scale:5.2f} {iname:4s} {' '.join(words)}", flush=True)


if __name__ == "__main__":
    main()
