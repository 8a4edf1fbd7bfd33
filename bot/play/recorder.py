"""`--record DIR`: everything a game showed and everything the bot did, on disk.

Layout (what `msbot replay DIR` and the tests read back; the same as
`recordings/`, so `msbot replay --check DIR` compares the frames with what the
bot read live). Lines name frames by file name ("0001.png"), as in `recordings/`:

    DIR/meta.json        what was played: skin, display, options, per-game results
    DIR/frames/0001.png  every frame the bot acted on (or stopped at), BGR as grabbed
    DIR/readings.jsonl   one line per frame: its file, game number, the screen
                         region it was grabbed from ([left, top, width, height]:
                         frames are that region, not the whole screen), when it
                         was grabbed ("t", `time.monotonic()`, live screens
                         only) and the reading (`Reading.to_json`, geometry in
                         screen pixels)
    DIR/labels.jsonl     the same frames in the labels layout of `recordings/`
                         (frame, board, mines_left, status), marked "source": "bot":
                         the bot's own reading, not independently checked labels
    DIR/actions.jsonl    one line per click or key, with the frame it was based on

Frames and meta.json are written atomically (temporary file in the same
folder, then `os.replace`); the JSON-lines files are appended to, each batch of
lines in one `write` call, so no line is ever half on disk. Frames are written
before the lines naming them, so a crash, Ctrl+C or kill at any moment leaves a
complete recording of everything up to that point (clicks are written in
batches, with the next frame; see `Recorder.action`). Appending, not rewriting:
a run of hundreds of games writes tens of thousands of lines, and rewriting
the whole file for each one made every frame slower than the last.

A write that fails once the run has begun (a full disk, a file-size limit)
stops the recording, not the run: the games a person asked for are still
played and reported. Nothing more is written after the failure, so the
recording stays whole up to the last frame written, and meta.json (small,
tried once more) says where and why it stopped (`"recording_stopped"`); the
command then exits non-zero and names the failure (`Recorder.failure`).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import cv2

from bot.errors import MsbotError
from bot.limits import parse_json, read_text
from vision.capture import Image, Region
from vision.image_io import save_png
from vision.reading import Reading


class RecordingError(MsbotError):
    """The recording folder cannot be written."""


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so readers see the old file or the new one, never half.

    The temporary file is private (mode 0600); the file it becomes gets the
    mode any other new file would (0666 less the umask), so recordings and
    pictures can be shared like the rest of a person's files.
    """
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            os.fchmod(out.fileno(), 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process's umask (reading it means setting it: set it straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def append_whole(path: Path, data: bytes) -> None:
    """Append `data` to `path` (created with the usual mode) in one `write`.

    A process killed at any moment leaves all of `data` on disk or none of it:
    a signal cannot cut a write to a regular file in the middle.
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
    try:
        before = os.fstat(fd).st_size
        written = os.write(fd, data)
        if written != len(data):
            # A full disk (or a file-size limit) cut the lines: take the cut
            # part back, so that every line on disk stays whole.
            os.ftruncate(fd, before)
            raise OSError(f"only {written} of {len(data)} bytes written (disk full?)")
    finally:
        os.close(fd)


class Recorder:
    """Writes one recording folder; a no-op when `folder` is None."""

    def __init__(
        self,
        folder: str | Path | None,
        meta: Mapping[str, Any] | None = None,
        taken: Callable[[Image], float | None] | None = None,
    ) -> None:
        self.folder = Path(folder) if folder is not None else None
        #: When a frame was grabbed (`Screen.taken`), written as its line's "t".
        self.taken = taken
        self.meta: dict[str, Any] = {"format": 1, "complete": False, **(meta or {})}
        self.frames = 0
        self._pending: list[dict[str, Any]] = []
        #: Why the recording stopped (a write that failed), or None.
        self.failure: str | None = None
        #: Frames written whole, with their lines.
        self.written = 0
        if self.folder is not None:
            try:
                (self.folder / "frames").mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise RecordingError(
                    f"cannot create recording folder {self.folder}: {exc}"
                ) from exc
            lines = [self.folder / f"{kind}.jsonl" for kind in ("readings", "labels", "actions")]
            if any((self.folder / "frames").glob("*.png")) or any(p.exists() for p in lines):
                raise RecordingError(
                    f"{self.folder} already holds a recording: choose a new folder"
                )
            # Here a failure is the folder's own fault: say so before anything is played.
            text = json.dumps(self.meta, indent=2, sort_keys=True) + "\n"
            try:
                write_atomic(self.folder / "meta.json", text.encode())
            except OSError as exc:
                raise RecordingError(f"cannot write {self.folder / 'meta.json'}: {exc}") from exc

    @property
    def enabled(self) -> bool:
        return self.folder is not None and self.failure is None

    def frame(
        self,
        image: Image,
        reading: Reading | None,
        *,
        game: int,
        region: Region | None = None,
        note: str = "",
    ) -> str | None:
        """Save one frame and its reading; returns the frame's file name (in
        `frames/`), None when not recording (or no longer: `failure`)."""
        if self.folder is None or self.failure is not None:
            return None
        self.flush()
        self.frames += 1
        name = f"{self.frames:04d}.png"
        ok, png = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        if not ok:
            raise RecordingError(f"cannot encode frame {name}")
        if not self._guard(write_atomic, self.folder / "frames" / name, png.tobytes()):
            return None
        line: dict[str, Any] = {"frame": name, "game": game}
        when = self.taken(image) if self.taken is not None else None
        if when is not None:
            line["t"] = when
        if region is not None:
            line["region"] = [region.left, region.top, region.width, region.height]
        if note:
            line["note"] = note
        if reading is not None:
            line.update(reading.to_json())
            label = {
                "frame": name,
                "board": list(reading.board.rows),
                "mines_left": reading.mines_left,
                "status": reading.status,
                "source": "bot",
            }
            self._append("labels", label)
        self._append("readings", line)
        if self.failure is not None:
            return None
        self.written = self.frames
        return name

    def action(self, action: Mapping[str, Any], *, game: int, frame: str | None) -> None:
        """Record one click or key press, after it was made.

        Actions are written with the next frame, or by `flush` once a batch
        of clicks is made (before the bot waits for them to show), or `close`;
        not one by one: rewriting the file after each of an expert game's 400
        clicks doubled its time. A hard kill can lose the clicks of the batch
        being made only; every file on disk is still whole.
        """
        if self.folder is None or self.failure is not None:
            return
        self._pending.append({"game": game, "frame": frame, **action})

    def flush(self) -> None:
        """Write the actions recorded since the last frame."""
        if self.folder is None or self.failure is not None or not self._pending:
            return
        pending, self._pending = self._pending, []
        self._append("actions", *pending)

    def update_meta(self, **fields: Any) -> None:
        if self.folder is None or self.failure is not None:
            return
        self.meta.update(fields)
        self._write_meta()

    def close(self) -> None:
        """Write what is left and mark the recording complete (a recording
        without this mark ended abruptly)."""
        self.flush()
        self.update_meta(complete=True)

    def stopped_note(self) -> str:
        """What to tell the person when the recording stopped part way."""
        return (
            f"the recording stopped after {self.written} frame(s): {self.failure} "
            f"(what is in {self.folder} is whole; the games went on and are reported above)"
        )

    def _append(self, kind: str, *objs: Mapping[str, Any]) -> None:
        """Add lines to `kind`.jsonl in one `write` call: whole lines or nothing."""
        assert self.folder is not None
        text = "".join(json.dumps(obj, separators=(",", ":")) + "\n" for obj in objs)
        self._guard(append_whole, self.folder / f"{kind}.jsonl", text.encode())

    def _write_meta(self) -> None:
        assert self.folder is not None
        text = json.dumps(self.meta, indent=2, sort_keys=True) + "\n"
        self._guard(write_atomic, self.folder / "meta.json", text.encode())

    def _guard(self, write: Any, path: Path, data: bytes) -> bool:
        """Whether `write(path, data)` worked; the first failure stops the
        recording (see the module docstring) and is kept in `failure`."""
        if self.failure is not None:
            return False
        try:
            write(path, data)
            return True
        except OSError as exc:
            self._stop(f"cannot write {path}: {exc.strerror or exc}")
            return False

    def _stop(self, failure: str) -> None:
        """Stop recording after `failure`; meta.json says so if it still can."""
        assert self.folder is not None
        self.failure = failure
        self._pending.clear()
        self.meta["complete"] = False
        self.meta["recording_stopped"] = {"after_frames": self.written, "error": failure}
        text = json.dumps(self.meta, indent=2, sort_keys=True) + "\n"
        # If even this fails, the command's message on stderr is all there is.
        with contextlib.suppress(OSError):
            write_atomic(self.folder / "meta.json", text.encode())


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The objects of a JSON-lines file (empty list if it does not exist), within
    `bot.limits` (a regular file, bounded size, depth and integers)."""
    if not path.exists():
        return []
    return [parse_json(line) for line in read_text(path).splitlines() if line.strip()]


#: How a stop's message says where its frame is kept (`with_stop_frame`).
FRAME_SAVED = "(frame saved:"


def has_stop_frame(message: str) -> bool:
    """Whether a stop's message already says where its frame is kept."""
    return FRAME_SAVED in message


def with_stop_frame(
    message: str, image: Image, recorder: Recorder | None, region: Region | None
) -> str:
    """`message` with where the picture it stopped on is kept: the recording's
    frames/ folder, else a fresh temporary folder (a stop keeps its evidence)."""
    name = None
    if recorder is not None and recorder.enabled:
        name = recorder.frame(image, None, game=0, region=region, note=message)
    if name is not None and recorder is not None and recorder.folder is not None:
        return f"{message} {FRAME_SAVED} {recorder.folder / 'frames' / name})"
    path = Path(tempfile.mkdtemp(prefix="msbot-stop-")) / "frame.png"
    try:
        save_png(path, image)
    except OSError as exc:
        return f"{message} (the frame could not be saved: {exc})"
    return f"{message} {FRAME_SAVED} {path})"
