"""`msbot play` refuses bad input with one clear line and exit 2, never a traceback."""

from __future__ import annotations

import pytest

from bot.cli import main


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--region", "3,3,3"], "bad region '3,3,3': expected L,T,W,H"),
        (["--region", "0,0,0,10"], "region 0,0,0,10 is empty"),
        (["--games", "0"], "--games must be at least 1"),
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
