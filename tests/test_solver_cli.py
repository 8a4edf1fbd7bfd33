"""`msbot solve` end to end, in a subprocess like a user or a driver program runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from test_solver import DESIGN_NOTES_BOARD


def solve(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "solve", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_json_shape(tmp_path: Path) -> None:
    path = tmp_path / "board.txt"
    path.write_text(DESIGN_NOTES_BOARD)
    done = solve(str(path), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out) >= {"safe", "mines", "probabilities", "move", "exact"}
    assert len(out["safe"]) == 43 and len(out["mines"]) == 54
    assert all(isinstance(c, list) and len(c) == 2 for c in out["safe"] + out["mines"])
    assert len(out["probabilities"]) == 20 and all(len(row) == 24 for row in out["probabilities"])
    assert out["probabilities"][0][0] is not None and out["probabilities"][0][3] is None
    move = out["move"]
    assert move["action"] == "open" and move["p_mine"] == 0.0
    assert [move["row"], move["col"]] in out["safe"]
    assert out["exact"] is True


def test_stdin_and_human_output() -> None:
    done = solve("--mines", "1", stdin=".1.1.\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "#1*1#"
    assert "move: open row 0 col 0" in done.stdout


def test_stream_survives_a_bad_line() -> None:
    lines = [
        json.dumps({"board": ["...", ".1."], "mines": 1}),
        "this is not json",
        json.dumps({"board": ["1F", "x."]}),
        "",
        json.dumps({"board": [".1.1."], "mines": 1, "rule": "zero"}),
    ]
    done = solve("--stream", stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 5
    assert answers[0]["probabilities"][0][0] == 0.2
    assert "error" in answers[1] and "error" in answers[2]
    assert "column 1" in answers[2]["error"]
    assert "empty line" in answers[3]["error"]
    assert answers[4]["mines"] == [[0, 2]] and answers[4]["safe"] == [[0, 0], [0, 4]]


def test_malformed_file_is_one_line_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("...\n.q.\n")
    done = solve(str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "line 2, column 2" in done.stderr and "Traceback" not in done.stderr


def test_inconsistent_board_exit_2() -> None:
    done = solve("--json", stdin="FF.\n1..\n")
    assert done.returncode == 2
    assert "(1, 0)" in done.stderr and done.stderr.count("\n") == 1


def test_strength_option_and_stream_field() -> None:
    done = solve("--mines", "3", "--strength", "full", "--json", stdin=".100\n.310\nFF10\n")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["move"]["p_mine"] == 0.5
    lines = [
        json.dumps({"board": [".1.1."], "mines": 1, "strength": "full"}),
        json.dumps({"board": [".1.1."], "strength": "strong"}),
    ]
    done = solve("--stream", stdin="\n".join(lines) + "\n")
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[0]["mines"] == [[0, 2]]
    assert "strength" in answers[1]["error"]
