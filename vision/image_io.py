"""Load screenshots from disk as BGR arrays, failing loudly instead of returning None.

`cv2.imread` returns None for a missing, non-image or corrupt file; every
caller would have to remember to check. This module turns each of those cases
into one `VisionError` that names the file and the reason.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np

from bot.errors import VisionError
from bot.limits import MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, read_regular

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def load_image(path: str | Path) -> np.ndarray:
    """The PNG at `path` as a BGR uint8 array of shape (H, W, 3).

    Only a regular file within `bot.limits`' bounds is read, and its size in
    pixels is checked from its header before decoding: a pipe, a device or a
    decompression bomb is refused at once (`VisionError`), not waited for.
    """
    path = Path(path)
    data = read_regular(path, MAX_IMAGE_BYTES, VisionError)
    if not data.startswith(PNG_MAGIC):
        raise VisionError(f"{path}: not a PNG image")
    check_png_size(data, path)
    image = _decode_quietly(np.frombuffer(data, dtype=np.uint8))
    if image is None or image.size == 0:
        raise VisionError(f"{path}: corrupt or truncated PNG")
    return to_bgr(image)


def check_png_size(data: bytes, path: Path) -> None:
    """`VisionError` if the PNG header declares more pixels than `bot.limits`
    allows (a corrupt header is left to the decoder to refuse)."""
    if len(data) < 24 or data[12:16] != b"IHDR":
        return
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if max(width, height) > MAX_IMAGE_SIDE or width * height > MAX_IMAGE_PIXELS:
        raise VisionError(
            f"{path}: a {width}x{height} image, over the limit of {MAX_IMAGE_SIDE} pixels "
            f"a side and {MAX_IMAGE_PIXELS} in all: not decoded"
        )


def _decode_quietly(raw: np.ndarray) -> np.ndarray | None:
    """`cv2.imdecode` without OpenCV's own warnings on stderr.

    libpng reports a truncated file as a "[ WARN ]" log line, and a corrupt
    one with "libpng error: ..." written straight to file descriptor 2, before
    returning None; the caller turns None into one clear message, so either
    line would only be noise ahead of it. The log level and descriptor 2 are
    restored afterwards.
    """
    logging = cv2.utils.logging
    level = logging.getLogLevel()
    logging.setLogLevel(logging.LOG_LEVEL_SILENT)
    try:
        with _fd2_silenced():
            image = cv2.imdecode(raw, cv2.IMREAD_UNCHANGED)
    finally:
        logging.setLogLevel(level)
    return None if image is None else np.asarray(image)


@contextmanager
def _fd2_silenced() -> Iterator[None]:
    """Descriptor 2 points at /dev/null inside the block (C libraries write there)."""
    try:
        saved = os.dup(2)
    except OSError:  # no stderr at all: nothing to silence
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def to_bgr(image: np.ndarray) -> np.ndarray:
    """Any 8-bit grey, BGR or BGRA array as contiguous BGR uint8."""
    if image.dtype != np.uint8:
        if image.dtype == np.uint16:
            image = (image >> 8).astype(np.uint8)
        else:
            raise VisionError(f"unsupported image type {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return np.ascontiguousarray(image)
    raise VisionError(f"unsupported image shape {image.shape}")


def save_png(path: str | Path, image: np.ndarray) -> None:
    """Write `image` as a PNG file at `path`: encoded by OpenCV, written by Python,
    which takes any path the system does (OpenCV's own `imwrite` crashed the
    process on a path that is not UTF-8). OSError when it cannot be written."""
    ok, png = cv2.imencode(".png", image)
    if not ok:
        raise OSError(f"cannot encode {path} as a PNG")
    Path(path).write_bytes(png.tobytes())
