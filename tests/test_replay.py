"""`msbot replay` end to end through `python -m bot`, on real screenshots."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent


def replay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "replay", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
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
    assert result.returncode == 2 and "nope.png: no such file" in result.stderr
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
