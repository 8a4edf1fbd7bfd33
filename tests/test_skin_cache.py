"""Skins are loaded once per process for the same files (`vision.skin.load_skin`),
and loaded again as soon as any of their files changes: a learner rewrites its
skin while msbot plays with it."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import cv2

from vision.skin import BUILTIN_DIR, load_skin


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "xd"
    shutil.copytree(BUILTIN_DIR / "xdemineur", folder)
    return folder


def test_the_same_files_give_the_same_skin(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    assert load_skin(folder) is load_skin(folder)


def test_a_changed_manifest_is_read_again(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    first = load_skin(folder)
    manifest = json.loads((folder / "skin.json").read_text())
    manifest["max_distance"] = float(manifest.get("max_distance", 10.0)) + 1.0
    (folder / "skin.json").write_text(json.dumps(manifest))
    again = load_skin(folder)
    assert again is not first and again.max_distance == first.max_distance + 1.0


def test_a_changed_tile_is_read_again_even_with_the_same_manifest(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    first = load_skin(folder)
    tile = sorted((folder / "tiles").glob("covered*.png"))[0]
    stat = tile.stat()
    image = cv2.imread(str(tile))
    image[0, 0] = 255 - image[0, 0]
    cv2.imwrite(str(tile), image)
    os.utime(tile, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    again = load_skin(folder)
    assert again is not first
