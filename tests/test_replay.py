"""`msbot replay` end to end, on real screenshots.

Most tests run the command in this process (`bot.cli.main`, its stdout and
stderr captured): starting Python and OpenCV again for each would cost half a
second a run. The tests that are about the process itself (what libpng writes
to descriptor 2 on its own, a corrupt file's one line) run `python -m bot`.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

from bot.cli import main

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent


def replay_process(*args: str) -> subprocess.CompletedProcess[str]:
    """`msbot replay ARGS` as its own process."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "replay", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def replay(*args: str) -> subprocess.CompletedProcess[str]:
    """`msbot replay ARGS` in this process, reported as a finished process would be."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["replay", *args])
    return subprocess.CompletedProcess(
        ["msbot", "replay", *args], code, out.getvalue(), err.getvalue()
    )


def _recording(tmp_path: Path) -> Path:
    """A small recording: the won and lost fixtures with checked labels."""
    rec = tmp_path / "rec"
    (rec / "frames").mkdir(parents=True)
    shutil.copy(DATA / "xdemineur_won.png", rec / "frames" / "0000.png")
    shutil.copy(DATA / "xdemineur_lost.png", rec / "frames" / "0001.png")
    won = [
        "12F10012F111",
        "F211123F211F",
        "11001FF21011",
        "000012210000",
        "011100000000",
        "01F100000111",
        "0111000001F1",
        "000000011211",
        "00000001F100",
    ]
    labels = [{"frame": "0000.png", "board": won, "mines_left": 0, "status": "won"}]
    (rec / "labels.jsonl").write_text("\n".join(json.dumps(x) for x in labels) + "\n")
    return rec


def test_json_output_fields(tmp_path: Path) -> None:
    result = replay(str(DATA / "xdemineur_won.png"), "--json")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout.splitlines()[0])
    assert record["skin"] == "xdemineur"
    assert set(record["geometry"]) == {"left", "top", "cell_w", "cell_h", "rows", "cols"}
    assert record["status"] == "won" and record["mines_left"] == 0
    assert record["board"][0] == "12F10012F111"
    assert record["actions"] == []


def test_actions_have_screen_points() -> None:
    frame = ROOT / "recordings" / "xdemineur-beginner-1" / "frames" / "0000.png"
    result = replay(str(frame), "--json")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["status"] == "playing" and record["actions"]
    g = record["geometry"]
    for a in record["actions"]:
        assert a["action"] in ("open", "flag", "chord")
        assert a["x"] == round(g["left"] + (a["col"] + 0.5) * g["cell_w"])
        assert a["y"] == round(g["top"] + (a["row"] + 0.5) * g["cell_h"])
        assert record["board"][a["row"]][a["col"]] in ".?"


def test_check_passes_and_counts_cells(tmp_path: Path) -> None:
    rec = _recording(tmp_path)
    (rec / "frames" / "0001.png").unlink()
    result = replay(str(rec), "--check")
    assert result.returncode == 0, result.stderr
    assert "108 cells compared" in result.stderr


def test_check_reports_every_mismatch(tmp_path: Path) -> None:
    rec = _recording(tmp_path)
    labels = [json.loads(x) for x in (rec / "labels.jsonl").read_text().splitlines()]
    labels[0]["board"][0] = "12F10012F11F"  # one wrong cell
    labels[0]["status"] = "lost"
    (rec / "labels.jsonl").write_text("\n".join(json.dumps(x) for x in labels) + "\n")
    result = replay(str(rec), "--check")
    assert result.returncode == 1
    assert "cell (0, 11): read '1', label 'F'" in result.stderr
    assert "status: read won, label lost" in result.stderr
    assert "0001.png: no label" in result.stderr


def test_bad_frames_reported_others_processed(tmp_path: Path) -> None:
    rec = _recording(tmp_path)
    (rec / "frames" / "0002.png").write_bytes(b"not a png at all")
    (rec / "frames" / "0003.png").write_bytes((DATA / "xdemineur_won.png").read_bytes()[:500])
    shutil.copy(DATA / "two_boards.png", rec / "frames" / "0004.png")
    result = replay(str(rec), "--json")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r.get("status", "error") for r in records] == ["won", "lost", "error", "error", "error"]
    errors = [line for line in result.stderr.splitlines() if "error:" in line]
    assert len(errors) == 3
    assert "not a PNG" in errors[0] and "corrupt" in errors[1] and "2 boards" in errors[2]


def test_missing_file_and_unknown_skin() -> None:
    result = replay("nope.png")
    assert result.returncode == 2
    assert result.stderr.splitlines() == ["nope.png: error: no such file"]
    result = replay(str(DATA / "xdemineur_won.png"), "--skin", "nosuch")
    assert result.returncode == 2 and "unknown skin nosuch" in result.stderr
    assert "Traceback" not in result.stderr


def test_annotate_writes_pictures(tmp_path: Path) -> None:
    frame = ROOT / "recordings" / "xdemineur-beginner-1" / "frames" / "0000.png"
    out = tmp_path / "ann"
    result = replay(str(frame), str(DATA / "xdemineur_lost.png"), "--annotate", str(out))
    assert result.returncode == 0, result.stderr
    pictures = sorted(p.name for p in out.iterdir())
    assert pictures == ["0000.annotated.png", "xdemineur_lost.annotated.png"]


def test_tightly_cropped_board_is_read_not_a_crash(tmp_path: Path) -> None:
    """QA F24: sgt-mines cropped to its board (status text and counter cut off)."""
    import cv2

    from vision.image_io import load_image

    frame = ROOT / "recordings" / "sgt-mines-beginner-1" / "frames" / "0000.png"
    image = load_image(frame)
    cv2.imwrite(str(tmp_path / "tight.png"), image[150:340, 720:920])
    result = replay(str(tmp_path / "tight.png"), "--json")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["skin"] == "sgt-mines" and record["mines_left"] is None
    assert record["status"] == "playing" and record["actions"]


def test_annotate_onto_a_file_is_one_clear_error(tmp_path: Path) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("a file, not a folder\n")
    result = replay("--annotate", str(target), str(DATA / "xdemineur_won.png"))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"msbot replay: error: --annotate {target}: not a folder"
    ]


def test_corrupt_png_gives_only_the_clear_line(tmp_path: Path) -> None:
    path = tmp_path / "corrupt.png"
    path.write_bytes((DATA / "xdemineur_won.png").read_bytes()[:3000])
    result = replay_process(str(path))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [f"{path}: error: corrupt or truncated PNG"]


def test_a_png_with_damaged_pixel_data_gives_only_the_clear_line(tmp_path: Path) -> None:
    """Chunks intact, CRCs recomputed, the compressed pixels garbled: libpng then
    writes "libpng error: ..." to descriptor 2 itself (QA Q7)."""
    import struct
    import zlib

    data = (DATA / "xdemineur_won.png").read_bytes()
    chunks, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        chunks.append((data[at + 4 : at + 8], data[at + 8 : at + 8 + length]))
        at += 12 + length
    pixels = bytearray(zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT")))
    pixels[:: len(pixels) // 50] = b"\x09" * len(pixels[:: len(pixels) // 50])  # filters > 4
    packed = zlib.compress(bytes(pixels))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    head = [chunk(k, b) for k, b in chunks if k not in (b"IDAT", b"IEND")]
    garbled = data[:8] + b"".join(head) + chunk(b"IDAT", packed) + chunk(b"IEND", b"")
    path = tmp_path / "garbled.png"
    path.write_bytes(garbled)
    result = replay_process(str(path))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [f"{path}: error: corrupt or truncated PNG"]


def _play_recording(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    """A recording laid out as `msbot play --record` writes it: the frame is only
    the window region (cut out of a recorded full screen with numpy) and
    readings.jsonl says where that region was; the last frame is the one play
    stopped at (a note, no label)."""
    import cv2

    from vision.image_io import load_image

    screen = ROOT / "recordings" / "xdemineur-beginner-1" / "frames" / "0000.png"
    image = load_image(screen)
    region = [30, 20, 300, 300]  # left, top, width, height on the screen
    left, top, width, height = region
    rec = tmp_path / "play"
    (rec / "frames").mkdir(parents=True)
    cv2.imwrite(str(rec / "frames" / "0001.png"), image[top : top + height, left : left + width])
    cv2.imwrite(str(rec / "frames" / "0002.png"), image[:300, 1200:1500])  # no board there
    full = json.loads(replay(str(screen), "--json").stdout)
    readings = [
        {"frame": "0001.png", "game": 1, "region": region},
        {"frame": "0002.png", "game": 0, "region": region, "note": "the board disappeared"},
    ]
    labels = [{"frame": "0001.png", "board": full["board"], "mines_left": 10, "status": "playing"}]
    (rec / "readings.jsonl").write_text("\n".join(json.dumps(x) for x in readings) + "\n")
    (rec / "labels.jsonl").write_text("\n".join(json.dumps(x) for x in labels) + "\n")
    return rec, full


def test_play_recording_is_reported_in_screen_coordinates(tmp_path: Path) -> None:
    rec, full = _play_recording(tmp_path)
    result = replay(str(rec / "frames" / "0001.png"), "--json")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["offset"] == [30, 20]
    # The same numbers as reading the full screenshot.
    assert record["geometry"] == full["geometry"]
    assert record["actions"] == full["actions"] and record["actions"]
    assert record["controls"] == full["controls"]


def test_check_of_an_aborted_play_recording(tmp_path: Path) -> None:
    """QA F6: the frame play stopped at is reported, not counted as an error."""
    rec, _ = _play_recording(tmp_path)
    result = replay(str(rec), "--check")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "0002.png: not read (no Minesweeper board found" in result.stderr
    assert "the frame play stopped at (its note: the board disappeared)" in result.stderr
    assert (
        "checked 1 frames, 108 cells compared, 0 frames with mismatches, 0 errors, "
        "1 frame(s) play stopped at (not counted)" in result.stderr
    )
    # An unreadable frame WITHOUT such a note is still an error.
    lines = (rec / "readings.jsonl").read_text().splitlines()
    (rec / "readings.jsonl").write_text(lines[0] + "\n")
    result = replay(str(rec), "--check")
    assert result.returncode == 2
    assert "0002.png: error: no Minesweeper board found" in result.stderr


def test_grey_picture_and_label_without_board(tmp_path: Path) -> None:
    import cv2

    from vision.image_io import load_image

    grey = cv2.cvtColor(load_image(DATA / "xdemineur_won.png"), cv2.COLOR_BGR2GRAY)
    cv2.imwrite(str(tmp_path / "grey.png"), grey)
    result = replay(str(tmp_path / "grey.png"))
    assert result.returncode == 2
    assert "(the picture is grey: skins match colours)" in result.stderr
    cv2.imwrite(str(tmp_path / "black.png"), grey * 0)  # one flat colour: no hint
    result = replay(str(tmp_path / "black.png"))
    assert result.returncode == 2 and "picture is grey" not in result.stderr
    rec = _recording(tmp_path)
    (rec / "frames" / "0001.png").unlink()
    (rec / "labels.jsonl").write_text(json.dumps({"frame": "0000.png"}) + "\n")
    result = replay(str(rec), "--check")
    assert result.returncode == 1
    assert "0000.png: MISMATCH the label has no board" in result.stderr


def test_an_unsure_cell_is_written_covered_and_said_so(tmp_path: Path) -> None:
    """A cell the reader cannot name is never guessed: the board text writes it
    covered ('.', the solver stays sound) and the text output says so (QA F4)."""
    import cv2

    first = json.loads(replay(str(DATA / "xdemineur_won.png"), "--json").stdout)
    g = first["geometry"]
    image = cv2.imread(str(DATA / "xdemineur_won.png"))
    # Cell (4, 1) shows a 1; paint a magenta square over its middle.
    x, y = round(g["left"] + 1.5 * g["cell_w"]), round(g["top"] + 4.5 * g["cell_h"])
    image[y - 5 : y + 5, x - 5 : x + 5] = (255, 0, 255)
    frame = tmp_path / "damaged.png"
    cv2.imwrite(str(frame), image)
    result = replay(str(frame))
    lines = result.stdout.splitlines()
    assert "  0.1100000000" in lines, result.stdout
    assert "  1 unsure cells, written '.' above:" in lines, result.stdout
    assert any(line.startswith("  unsure cell (4, 1): best ") for line in lines), result.stdout
    # The grid's size is then no surer than its cells (issue 16), in both outputs.
    assert " 12x9 (size not sure) at " in lines[0], lines[0]
    assert first["size_sure"] is True
    assert json.loads(replay(str(frame), "--json").stdout)["size_sure"] is False
