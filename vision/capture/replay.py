"""A recording played back as a screen: the play loop and `msbot replay` read
saved frames exactly as they read the live display.

The frames are a recording folder (`frames/*.png`, else `*.png` in it) or PNG
files, in name order. `grab` returns the current frame; `advance` moves to the
next one, so a caller decides when "time passes".
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bot.errors import VisionError
from vision.capture._base import Image, Region, Screen, crop, freeze


def folder_frames(path: Path) -> list[Path]:
    """The PNG frames of a recording folder (`frames/*.png`, else `*.png`), in name order."""
    folder = path / "frames" if (path / "frames").is_dir() else path
    pngs = sorted(folder.glob("*.png"))
    if not pngs:
        raise VisionError(f"{path}: no PNG frames in this folder")
    return pngs


def frame_paths(paths: Sequence[str | Path]) -> list[Path]:
    """The PNG files named by `paths` (files or recording folders), in order."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(folder_frames(path))
        elif path.exists():
            found.append(path)
        else:
            raise VisionError(f"{path}: no such file or folder")
    if not found:
        raise VisionError("no frames given")
    return found


class ReplayScreen(Screen):
    """Saved frames as a screen; frames are loaded when first shown."""

    def __init__(self, paths: Sequence[str | Path]) -> None:
        self.paths = frame_paths(paths)
        self.index = 0
        self._cache: tuple[int, Image] | None = None

    @property
    def current(self) -> Path:
        return self.paths[self.index]

    def _image(self) -> Image:
        if self._cache is None or self._cache[0] != self.index:
            from vision.image_io import load_image

            self._cache = (self.index, freeze(load_image(self.current)))
        return self._cache[1]

    @property
    def size(self) -> tuple[int, int]:
        height, width = self._image().shape[:2]
        return (int(width), int(height))

    def grab(self, region: Region | None = None) -> Image:
        return crop(self._image(), region)

    def advance(self) -> bool:
        """Show the next frame; False (and stay) when this was the last."""
        if self.index + 1 >= len(self.paths):
            return False
        self.index += 1
        return True
