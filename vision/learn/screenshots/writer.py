"""Write a learned skin as `templates/NAME/` (the built-in skins' format) plus a report picture.

The manifest is the same data `vision.skin.load_skin` reads for the built-in
skins, so the learned skin is used by `msbot replay` / `msbot play --skin NAME`
without any code. Thresholds are derived from the learned tiles: a cell is
accepted only well inside half the distance between two different kinds.
What the learner could not name is not written as a tile (left unknown) but
shown in the report, so a person sees what is missing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from bot.errors import VisionError
from vision.image_io import save_png
from vision.learn.screenshots.pipeline import Learned

FILE_NAMES = {".": "covered", "F": "flag", "?": "question", "*": "mine", "!": "exploded"}
FILE_NAMES["X"] = "wrong_flag"


def _file_name(ch: str, i: int) -> str:
    base = FILE_NAMES.get(ch, ch)
    return f"tiles/{base}.png" if i == 0 else f"tiles/{base}_{i + 1}.png"


def manifest(
    name: str, learned: Learned, files: dict[str, list[str]], sources: list[str]
) -> dict[str, Any]:
    tiles = learned.written or learned.tiles_by_char()
    max_d, margin = learned.limits
    pitches = learned.pitches()
    pw, ph = pitches[0]
    lo = min(min(p) for p in pitches) - 1
    hi = max(max(p) for p in pitches) + 1
    unknown = sum(
        int(np.isin(lab, [c for c in range(g.clusters.count) if c not in g.naming.names]).sum())
        for g in learned.groups
        for lab in g.labels
    )
    return {
        "name": name,
        "about": f"learned by msbot learn-skin from {len(sources)} screenshot(s)",
        "pitch": [round(pw, 3), round(ph, 3)],
        "pitch_range": [round(lo, 3), round(hi, 3)],
        "tiles": files,
        "max_distance": round(max_d, 1),
        "min_margin": round(margin, 1),
        "board_status": {"lost_if_any": "!" if "!" in tiles else "", "won_if_no_covered": True},
        "play": {"rule": "safe", "chord": None, "flag_button": "right"},
        "inset": learned.inset,
        "learned": {
            "screenshots": sources,
            "kinds": sorted(tiles),
            "unknown_cells": unknown,
            "notes": learned.notes,
        },
    }


def report_image(learned: Learned, size: int = 48) -> np.ndarray:
    """Every cluster's tile, enlarged, with its learned name (or "??") and cell count."""
    rows: list[np.ndarray] = []
    for g in learned.groups:
        counts = g.clusters.sizes()
        cells = []
        for c, tile in enumerate(g.tiles):
            big = cv2.resize(tile, (size, size), interpolation=cv2.INTER_NEAREST)
            card = np.full((size + 34, size + 16, 3), 255, np.uint8)
            card[4 : 4 + size, 8 : 8 + size] = big
            label = g.naming.names.get(c, "??")
            colour = (0, 0, 0) if c in g.naming.names else (0, 0, 255)
            cv2.putText(card, label, (8, size + 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1)
            cv2.putText(
                card,
                str(int(counts[c])),
                (8, size + 31),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.35,
                (90, 90, 90),
                1,
            )
            cells.append(card)
        per_row = 12
        while len(cells) % per_row:
            cells.append(np.full_like(cells[0], 255))
        lines = [np.hstack(cells[i : i + per_row]) for i in range(0, len(cells), per_row)]
        head = np.full((22, lines[0].shape[1], 3), 255, np.uint8)
        geo = g.geometries[0]
        text = f"pitch {geo.cell_w:.2f} x {geo.cell_h:.2f}, {len(g.frames)} frame(s)"
        text += f", {g.clusters.count} kinds"
        cv2.putText(head, text, (4, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1)
        rows.append(np.vstack([head, *lines]))
    width = max(r.shape[1] for r in rows)
    rows = [np.pad(r, ((0, 0), (0, width - r.shape[1]), (0, 0)), constant_values=255) for r in rows]
    return np.vstack(rows)


def write_skin(
    name: str, learned: Learned, out: Path, sources: list[str], restart_key: str | None = None
) -> Path:
    """Write the skin folder; returns the path of skin.json.

    `restart_key` is the clone's new-game key if the user gave it: the
    restart when no face was learned (sgt-mines' "n"), else the fallback
    when the face is not on screen."""
    tiles = learned.written or learned.tiles_by_char()
    if "." not in tiles:
        raise VisionError("could not tell which tile is the covered one: nothing written")
    try:
        (out / "tiles").mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise VisionError(f"cannot create the skin folder {out}: {exc}") from exc
    files: dict[str, list[str]] = {}
    for ch, images in tiles.items():
        files[ch] = []
        for i, img in enumerate(images):
            rel = _file_name(ch, i)
            _save(out / rel, img)
            files[ch].append(rel)
    raw = manifest(name, learned, files, sources)
    raw["learned"]["counter"] = learned.counter_said
    if learned.counter is not None and learned.counter_written:
        (out / "counter").mkdir(exist_ok=True)
        digit_files: dict[str, list[str]] = {}
        for ch, variants in sorted(learned.counter.digits.items()):
            for i, img in enumerate(variants):
                base = "slash" if ch == "/" else ch
                rel = f"counter/{base}.png" if i == 0 else f"counter/{base}_{i + 1}.png"
                _save(out / rel, img)
                digit_files.setdefault(ch, []).append(rel)
        raw["counter"] = {
            "region": [list(p) for p in learned.counter.region],
            "format": learned.counter.format,
            "threshold": round(learned.counter.threshold, 1),
            "images": digit_files,
        }
    if learned.face is not None:
        (out / "face").mkdir(exist_ok=True)
        faces: dict[str, list[str]] = {}
        for status, img in sorted(learned.face.images.items()):
            _save(out / "face" / f"{status}.png", img)
            faces[status] = [f"face/{status}.png"]
        raw["faces"] = {
            "region": [list(p) for p in learned.face.region],
            "threshold": 60,
            "images": faces,
            # Learning rarely sees every expression (--live never wins): the
            # button is found by what its known images share (vision.face_rim).
            "any_expression": True,
        }
        raw["play"]["restart"] = {"click": "restart"}
        if restart_key:
            raw["play"]["restart"]["or_key"] = restart_key
    elif restart_key:
        raw["play"]["restart"] = {"key": restart_key}
    path = out / "skin.json"
    path.write_text(json.dumps(raw, indent=2) + "\n", encoding="utf-8")
    _save(out / "report.png", report_image(learned))
    return path


def _save(path: Path, image: np.ndarray) -> None:
    try:
        save_png(path, image)
    except OSError as exc:
        raise VisionError(f"cannot write {path}: {exc}") from None
