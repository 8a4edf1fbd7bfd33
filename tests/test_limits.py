"""Hostile input gets one clear error in bounded time and memory (`bot.limits`):
pipes and devices named like screenshots, decompression bombs, JSON lines
nested or long enough to kill a parser, boards and counts past the limits.
The commands run in this process (`bot.cli.main`), except where the input
could block a read: there a subprocess with a timeout fails the test instead
of hanging it."""

from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from bot.commands.solve import stream
from bot.limits import (
    MAX_BOARD_CELLS,
    MAX_IMAGE_SIDE,
    MAX_INT_DIGITS,
    MAX_JSON_DEPTH,
    MAX_LINE_CHARS,
    LimitError,
    check_board_text,
    json_depth,
    read_regular,
)

ROOT = Path(__file__).resolve().parents[1]


def msbot(*args: str, stdin: str = "", timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        check=False,
    )


def png_header(width: int, height: int, depth: int = 16, colour: int = 6) -> bytes:
    """A PNG that declares `width` x `height` pixels and holds almost no data."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b""))
        + chunk(b"IEND", b"")
    )


def one_error_line(done: subprocess.CompletedProcess[str], *words: str) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    line = done.stderr.strip()
    assert len(line.splitlines()) == 1 and all(w in line for w in words), line
    return line


def in_process(capsys: pytest.CaptureFixture[str], *args: str) -> subprocess.CompletedProcess[str]:
    """`msbot ARGS` run here: its exit code and output, as a subprocess gives them."""
    code = main(list(args))
    out = capsys.readouterr()
    return subprocess.CompletedProcess(list(args), code, out.out, out.err)


def test_a_fifo_named_like_a_screenshot_is_refused_not_waited_for(tmp_path: Path) -> None:
    fifo = tmp_path / "x.png"
    os.mkfifo(fifo)
    one_error_line(msbot("replay", str(fifo)), "x.png", "not a regular file")
    # Inside a recording's frames/ folder too, beside a good frame.
    frames = tmp_path / "rec" / "frames"
    frames.mkdir(parents=True)
    os.mkfifo(frames / "0001.png")
    done = msbot("replay", str(tmp_path / "rec"))
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "not a regular file" in done.stdout + done.stderr


def test_a_link_to_a_device_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "zero.png"
    link.symlink_to("/dev/zero")
    one_error_line(msbot("replay", str(link)), "zero.png", "not a regular file")


@pytest.mark.parametrize("size", [(30000, 30000), (MAX_IMAGE_SIDE + 1, 10), (8000, 8000)])
def test_a_decompression_bomb_is_refused_from_its_header(
    tmp_path: Path, size: tuple[int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bomb.png"
    path.write_bytes(png_header(*size))
    done = in_process(capsys, "replay", str(path))
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert f"{size[0]}x{size[1]}" in done.stderr + done.stdout
    assert "over the limit" in done.stderr + done.stdout


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"." * 101)
    with pytest.raises(LimitError, match="101 bytes, over the limit of 100"):
        read_regular(path, 100)
    assert read_regular(path, 101) == b"." * 101


def test_json_depth_leaves_strings_out() -> None:
    assert json_depth('{"board": ["..", "1."]}') == 2
    assert json_depth('["[[[[", "\\"[[["]') == 1
    assert json_depth("[" * 1000) == 1000
    assert json_depth('"plain"') == 0


def test_the_stream_answers_a_deep_or_long_line_with_an_error_and_goes_on() -> None:
    good = json.dumps({"board": [".1.1."], "mines": 1})
    lines = ["[" * 100_000, "x" * (MAX_LINE_CHARS + 10), good]
    answered = io.StringIO()
    stream(io.StringIO("\n".join(lines) + "\n"), answered)
    answers = [json.loads(line) for line in answered.getvalue().splitlines()]
    assert len(answers) == 3
    assert f"deeper than {MAX_JSON_DEPTH}" in answers[0]["error"]
    assert f"over the limit of {MAX_LINE_CHARS} characters" in answers[1]["error"]
    assert "error" not in answers[2] and answers[2]["move"]["action"] == "open"


def test_the_stream_refuses_a_board_past_the_limit_for_that_line_only() -> None:
    big = json.dumps({"board": ["." * 200] * 200})
    good = json.dumps({"board": ["..1"]})
    answered = io.StringIO()
    stream(io.StringIO(big + "\n" + good + "\n"), answered)
    answers = [json.loads(line) for line in answered.getvalue().splitlines()]
    assert "200x200 cells is over the limit" in answers[0]["error"]
    assert "error" not in answers[1]


def test_solve_refuses_a_huge_board_file_unparsed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "board.txt"
    path.write_text(("." * 2000 + "\n") * 2000)
    one_error_line(in_process(capsys, "solve", str(path)), "2000x2000", str(MAX_BOARD_CELLS))
    fifo = tmp_path / "board.fifo"
    os.mkfifo(fifo)
    one_error_line(msbot("solve", str(fifo)), "not a regular file")


def test_board_text_size_is_checked_from_lines_and_their_length() -> None:
    check_board_text("\n  ...\n  .1.\n\n")  # fine
    with pytest.raises(LimitError, match="1x10001"):
        check_board_text("." * 10_001)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--board", "300x300x20000"], ["300x300", "over the limit"]),
        (["--games", "999999999999"], ["--games must be between 1 and"]),
        (["--games", "0"], ["--games must be between 1 and"]),
        (["--jobs", "1000"], ["--jobs must be between 1 and 256"]),
    ],
)
def test_bench_refuses_sizes_and_counts_past_the_limits(
    args: list[str], words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    one_error_line(in_process(capsys, "bench", *args), *words)


def test_the_stream_answers_a_huge_integer_with_an_error_and_goes_on() -> None:
    """An integer of 5,000 digits: Python's int() refuses more than 4,300 with
    a ValueError, which killed the stream; the line gets an error, the next an answer."""
    huge = '{"board": [".1.1."], "mines": 1' + "0" * 5000 + "}"
    good = json.dumps({"board": [".1.1."], "mines": 1})
    answered = io.StringIO()
    stream(io.StringIO(huge + "\n" + good + "\n"), answered)
    first, second = (json.loads(line) for line in answered.getvalue().splitlines())
    assert f"over the limit of {MAX_INT_DIGITS} digits" in first["error"]
    assert second["move"]["action"] == "open"


def _recording(tmp_path: Path, line: int, text: str, name: str = "labels.jsonl") -> Path:
    folder = tmp_path / "rec"
    source = ROOT / "recordings" / "xdemineur-beginner-1"
    (folder / "frames").mkdir(parents=True)
    for frame in (source / "frames").glob("*.png"):
        (folder / "frames" / frame.name).write_bytes(frame.read_bytes())
    lines = (source / "labels.jsonl").read_text().splitlines()
    lines[line] = text
    (folder / name).write_text("\n".join(lines) + "\n")
    return folder


@pytest.mark.parametrize("name", ["labels.jsonl", "readings.jsonl"])
@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"frame": "0000.png", "mines_left": 1' + "0" * 5000 + "}", ["5001 digits"]),
        ('{"frame": "0000.png", "x": ' + "[" * 100_000 + "]" * 100_000 + "}", ["100001 deep"]),
    ],
    ids=["huge-integer", "deep"],
)
def test_a_recording_line_past_the_limits_is_one_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str, words: list[str]
) -> None:
    folder = _recording(tmp_path, 1, text, name)
    one_error_line(in_process(capsys, "replay", "--check", str(folder)), name, "line 2", *words)


def test_a_results_file_past_the_limits_is_one_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "results.jsonl"
    args = ["bench", "--board", "4x4x2", "--games", "80", "--results", str(results)]
    assert in_process(capsys, *args).returncode == 0
    lines = results.read_text().splitlines()
    deep = "[" * 100_000 + "]" * 100_000
    results.write_text("\n".join([lines[0], deep, *lines[2:]]) + "\n")
    one_error_line(in_process(capsys, *args), "line 2 is damaged", "100000 deep")


BAD = b"\xff-not-utf8"


@pytest.mark.skipif(sys.platform != "linux", reason="file names are bytes on Linux only")
def test_paths_that_are_not_utf8_are_written_not_crashed_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """OpenCV's imwrite crashed the process (exit 139) on such a path, after part
    of a skin folder was written; printing the name raised UnicodeEncodeError
    under a strict UTF-8 locale. Now each is written as named, and printed."""
    base = os.fsencode(tmp_path)
    recording = ROOT / "recordings" / "xdemineur-beginner-1"
    frames = sorted(str(p) for p in (recording / "frames").glob("*.png"))
    annotate = os.fsdecode(base + b"/ann-" + BAD)
    skin = os.fsdecode(base + b"/skin-" + BAD)
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    for args in (
        ["replay", "--annotate", annotate, str(recording)],
        ["learn-skin", "hostile", *frames, "--mines", "10", "--out", skin],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "bot", *args],
            capture_output=True,
            env=env,
            timeout=120,
            cwd=ROOT,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        assert b"Traceback" not in done.stderr
    assert len(os.listdir(os.fsencode(annotate))) == len(frames)
    assert (Path(skin) / "skin.json").is_file() and (Path(skin) / "tiles").is_dir()


def test_bench_makes_its_chunks_as_it_plays_them() -> None:
    """A run of 100 million games is two million chunks: each is a range made
    when the engine takes it (4.3 GB were built before the first game)."""
    from bot.bench.runner import chunks

    made = chunks(100_000_000)
    first = next(made)
    assert isinstance(first, range) and len(first) == 50
    assert next(made) == range(50, 100)


def test_the_local_engine_takes_tasks_as_workers_free_up() -> None:
    """With two workers it pulls no more than its chunks in flight from an endless
    stream of tasks before the first result comes back."""
    from itertools import count

    from bot.bench.engines.local import IN_FLIGHT, LocalEngine
    from bot.bench.game import BoardSpec, Task

    taken = []

    def tasks() -> Iterator[Task]:
        for n in count():
            taken.append(n)
            yield Task(n, BoardSpec("beginner", 9, 9, 10), "safe", 1, range(n, n + 1), "fast", None)

    with LocalEngine(2) as engine:
        _, games = next(engine.play(tasks()))
    assert len(games) == 1
    assert len(taken) <= IN_FLIGHT * 2 + 1


@pytest.mark.parametrize(
    "args",
    [["bench", "--games", "abc"], ["play", "--backend", "x"], ["solve", "--nope", "-"], ["frob"]],
)
def test_a_bad_option_value_is_one_error_line(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse printed its whole usage before the error: now one line, exit 2."""
    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "error:" in err and "--help" in err, err


def test_a_fifo_named_skin_json_is_refused_not_waited_for(tmp_path: Path) -> None:
    from bot.errors import VisionError
    from vision.skin import load_skin

    os.mkfifo(tmp_path / "skin.json")
    with pytest.raises(VisionError, match="not a regular file"):
        load_skin(tmp_path)
