"""A screen showing one picture forever, for tests of what a finished game does:
it ignores every click, and a restart never shows a new game."""

from __future__ import annotations

import numpy as np

from vision.capture._base import Region, Screen


class FrozenScreen(Screen):
    def __init__(self, image: np.ndarray) -> None:
        self.image = image

    @property
    def size(self) -> tuple[int, int]:
        return self.image.shape[1], self.image.shape[0]

    def grab(self, region: Region | None = None) -> np.ndarray:
        if region is None:
            return self.image.copy()
        return self.image[
            region.top : region.top + region.height, region.left : region.left + region.width
        ].copy()
