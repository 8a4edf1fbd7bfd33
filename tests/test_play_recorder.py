"""`--record DIR`: a complete, replayable recording at every moment."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bot.board import parse_board
from bot.play.recorder import Recorder, RecordingError, read_jsonl
from bot.play.window import GameWindow
from vision.capture import Region, Screen
from vision.capture.replay import ReplayScreen
from vision.geometry import Geometry
from vision.reading import Reading

READING = Reading(
    skin="xdemineur",
    geometry=Geometry(10, 20, 21, 21, 2, 3),
    board=parse_board("1F.\n11.\n"),
    mines_left=9,
    status="playing",
)


def test_frames_readings_and_actions_are_on_disk_after_every_call(tmp_path: Path) -> None:
    rec = Recorder(tmp_path / "rec", {"skin": "xdemineur"})
    image = np.full((40, 60, 3), 7, np.uint8)
    name = rec.frame(image, READING, game=1, region=Region(5, 6, 60, 40))
    rec.action({"kind": "open", "row": 0, "col": 2}, game=1, frame=name)
    rec.flush()
    # Nothing else is buffered: a crash here would leave exactly this.
    folder = tmp_path / "rec"
    assert name == "0001.png" and (folder / "frames" / name).is_file()
    assert json.loads((folder / "meta.json").read_text())["complete"] is False
    readings = read_jsonl(folder / "readings.jsonl")
    assert readings[0]["board"] == ["1F.", "11."] and readings[0]["region"] == [5, 6, 60, 40]
    labels = read_jsonl(folder / "labels.jsonl")
    assert labels == [
        {
            "frame": name,
            "board": ["1F.", "11."],
            "mines_left": 9,
            "status": "playing",
            "source": "bot",
        }
    ]
    assert read_jsonl(folder / "actions.jsonl")[0]["frame"] == name
    assert np.array_equal(ReplayScreen([folder]).grab(), image)
    assert not list(folder.rglob("*.tmp"))
    rec.frame(image, None, game=1, note="no board")
    rec.close()
    assert json.loads((folder / "meta.json").read_text())["complete"] is True
    assert len(read_jsonl(folder / "readings.jsonl")) == 2


def test_recording_is_off_without_a_folder() -> None:
    rec = Recorder(None)
    assert rec.frame(np.zeros((2, 2, 3), np.uint8), READING, game=1) is None
    rec.close()


def test_an_existing_recording_is_never_overwritten(tmp_path: Path) -> None:
    Recorder(tmp_path).frame(np.zeros((2, 2, 3), np.uint8), READING, game=1)
    with pytest.raises(RecordingError, match="already holds a recording"):
        Recorder(tmp_path)


def test_an_unwritable_folder_is_one_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(RecordingError, match="cannot create recording folder"):
        Recorder(blocker / "rec")


def test_files_get_the_usual_mode_not_the_private_one_of_a_temporary_file(
    tmp_path: Path,
) -> None:
    import os

    rec = Recorder(tmp_path / "rec", {"skin": "xdemineur"})
    rec.frame(np.full((40, 60, 3), 7, np.uint8), READING, game=1)
    rec.close()
    mask = os.umask(0o022)
    os.umask(mask)
    for path in [tmp_path / "rec" / "meta.json", tmp_path / "rec" / "frames" / "0001.png"]:
        assert path.stat().st_mode & 0o777 == 0o666 & ~mask, path


def test_lines_are_appended_not_the_whole_file_rewritten_per_frame(tmp_path: Path) -> None:
    """A run of hundreds of games writes tens of thousands of lines: rewriting
    each file for every frame made every frame slower than the last."""
    rec = Recorder(tmp_path / "rec")
    image = np.full((40, 60, 3), 7, np.uint8)
    rec.frame(image, READING, game=1)
    rec.action({"kind": "open", "row": 0, "col": 2}, game=1, frame="0001.png")
    rec.frame(image, READING, game=1)
    files = {kind: tmp_path / "rec" / f"{kind}.jsonl" for kind in ("readings", "actions")}
    inodes = {kind: path.stat().st_ino for kind, path in files.items()}
    for _ in range(3):
        rec.action({"kind": "open", "row": 1, "col": 2}, game=1, frame="0002.png")
        rec.frame(image, READING, game=1)
    assert {kind: path.stat().st_ino for kind, path in files.items()} == inodes
    assert [line["frame"] for line in read_jsonl(files["readings"])] == [
        f"000{i}.png" for i in range(1, 6)
    ]
    assert len(read_jsonl(files["actions"])) == 4


def test_a_folder_with_recording_lines_but_no_frame_is_refused(tmp_path: Path) -> None:
    (tmp_path / "rec").mkdir()
    (tmp_path / "rec" / "actions.jsonl").write_text('{"kind": "open"}\n')
    with pytest.raises(RecordingError, match="already holds a recording"):
        Recorder(tmp_path / "rec")


def test_a_write_that_fails_stops_the_recording_not_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills up after two frames: the third and everything after it is
    not written, nothing raises, what is on disk stays whole, and meta.json
    says where and why the recording stopped. (The write itself is faked here;
    tests/test_play_e2e.py fills a real file-size limit under a live game.)"""
    import errno

    import bot.play.recorder as recorder_module

    rec = Recorder(tmp_path / "rec", {"skin": "xdemineur"})
    image = np.full((40, 60, 3), 7, np.uint8)
    real = recorder_module.write_atomic
    frames_written: list[Path] = []

    def fills_up(path: Path, data: bytes) -> None:
        if path.suffix == ".png":
            if len(frames_written) == 2:
                raise OSError(errno.ENOSPC, "No space left on device")
            frames_written.append(path)
        real(path, data)

    monkeypatch.setattr(recorder_module, "write_atomic", fills_up)
    names = [rec.frame(image, READING, game=1) for _ in range(4)]
    rec.action({"kind": "open", "row": 0, "col": 2}, game=1, frame=names[-1])
    rec.close()
    assert names == ["0001.png", "0002.png", None, None]
    assert rec.failure is not None and "No space left on device" in rec.failure
    assert rec.written == 2 and "stopped after 2 frame(s)" in rec.stopped_note()
    folder = tmp_path / "rec"
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["complete"] is False
    assert meta["recording_stopped"]["after_frames"] == 2
    assert "No space left" in meta["recording_stopped"]["error"]
    assert [r["frame"] for r in read_jsonl(folder / "readings.jsonl")] == names[:2]
    assert read_jsonl(folder / "actions.jsonl") == []
    assert not list(folder.rglob("*.tmp"))


def test_an_append_cut_short_is_taken_back(tmp_path: Path) -> None:
    """A file-size limit lets 20 of 60 bytes through: the cut lines are removed,
    the file is as it was, and the failure is an OSError (the recorder's stop)."""
    import resource

    from bot.play.recorder import append_whole

    path = tmp_path / "lines.jsonl"
    path.write_bytes(b"a\n" * 10)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (40, hard))
    try:
        with pytest.raises(OSError, match="only 20 of 60 bytes"):
            append_whole(path, b"b\n" * 30)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    assert path.read_bytes() == b"a\n" * 10


def test_a_stop_keeps_the_screen_it_stopped_on_once(tmp_path: Path) -> None:
    # A learner's stop raised deep in its probing said nothing of its frame:
    # the play loop keeps the screen then (`GameWindow.keep_frame`).
    class OnePicture(Screen):
        size = (60, 40)

        def grab(self, region: Region | None = None) -> np.ndarray:
            return np.full((40, 60, 3), 9, np.uint8)

    rec = Recorder(tmp_path / "rec", {"skin": "learned-1"})
    window = GameWindow(OnePicture(), None, rec, say=lambda text: None)
    said = window.keep_frame("msbot cannot tell whether the game goes on")
    assert said.endswith(f"(frame saved: {tmp_path / 'rec' / 'frames' / '0001.png'})")
    assert (tmp_path / "rec" / "frames" / "0001.png").is_file()
    assert window.keep_frame(said) == said  # kept once
