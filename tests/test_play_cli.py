"""`msbot play` refuses bad input with one clear line and exit 2, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--region", "3,3,3"], "bad region '3,3,3': expected L,T,W,H"),
        (["--region", "0,0,0,10"], "region 0,0,0,10 is empty"),
        (["--games", "0"], "--games must be between 1 and 100000000, not 0"),
        (["--max-actions", "-1"], "--max-actions must not be negative"),
        (["--delay", "-5"], "--delay must not be negative"),
        (["--display", ""], "no X display"),
    ],
)
def test_bad_options_give_one_clear_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("msbot play: error: ") and message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_play_help_lists_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for option in ["--skin", "--games", "--dry-run", "--record", "--no-flags", "--chord"]:
        assert option in out
    for option in ["--delay", "--max-actions", "--region", "--json", "--annotate", "--backend"]:
        assert option in out


def test_annotate_is_checked_before_the_screen_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a folder")
    # --display "" would fail next: these must be refused before it.
    for args, message in [
        (["--dry-run", "--annotate", str(a_file)], f"--annotate {a_file}: not a folder"),
        (["--annotate", str(tmp_path / "pics")], "--annotate needs --dry-run"),
    ]:
        assert main(["play", "--display", "", *args]) == 2
        err = capsys.readouterr().err
        assert err.strip() == f"msbot play: error: {message}" or message in err, err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
        assert "no X display" not in err
