"""`msbot play` end to end: real clones under Xvfb, the real mouse, the real reader.

Each test starts its own virtual display, launches a clone, runs the `msbot
play` command line in a child process (as a person would), and then checks
what happened against evidence the bot did not produce itself: the screen
afterwards, the pointer position (xdotool), and the recording re-read frame by
frame.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from bot_runs import Run, msbot_play, play
from displays import worker_display
from processes import Output

from bot.play.recorder import read_jsonl
from harness.clones import clone_spec, launch_clone, launch_window
from harness.xdisplay import VirtualDisplay, xvfb_available

ROOT = Path(__file__).resolve().parents[1]
SKINS = ROOT / "templates"

pytestmark = [
    pytest.mark.clone,
    pytest.mark.skipif(
        not (xvfb_available() and shutil.which("xdotool")), reason="needs Xvfb and xdotool"
    ),
]

reader_module = pytest.importorskip("vision.reader")


def pointer(display: VirtualDisplay) -> tuple[int, int]:
    out = subprocess.run(
        ["xdotool", "getmouselocation", "--shell"],
        env=display.env,
        capture_output=True,
        text=True,
        timeout=10,
    ).stdout
    values = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    return int(values["X"]), int(values["Y"])


GRAB = """
import sys, mss, numpy as np, cv2
with mss.MSS(display=sys.argv[1]) as m:
    shot = m.grab(m.monitors[0])
cv2.imwrite(sys.argv[2], np.asarray(shot)[:, :, :3])
"""


def screenshot(display: str) -> Any:
    """A full-screen picture taken by another process (not the code under test)."""
    from vision.image_io import load_image

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "screen.png"
        subprocess.run([sys.executable, "-c", GRAB, display, str(path)], check=True, timeout=30)
        return load_image(path)


@pytest.fixture
def display() -> Iterator[VirtualDisplay]:
    with worker_display(1600, 1000) as xd:
        yield xd


def clicks_recorded(folder: Path, games: Sequence[int] = ()) -> dict[int, int]:
    """Cell clicks per game in actions.jsonl (restarts and keys left out); each
    game in `games` is there even with no click (one stopped before its first)."""
    counts: dict[int, int] = dict.fromkeys(games, 0)
    for action in read_jsonl(folder / "actions.jsonl"):
        if action["kind"] in ("open", "flag", "chord"):
            counts[action["game"]] = counts.get(action["game"], 0) + 1
    return counts


def in_play_clicks(folder: Path) -> int:
    """Cell clicks of the game the last recorded action belongs to, 0 if that
    action is no cell click (a restart: the new game has none yet)."""
    done = read_jsonl(folder / "actions.jsonl")
    if not done or done[-1]["kind"] not in ("open", "flag", "chord"):
        return 0
    return clicks_recorded(folder)[done[-1]["game"]]


def check_recording(folder: Path, games: int) -> None:
    """Every click inside the board (or on the restart control), every loss on a
    guess, and every frame re-read to the reading the bot acted on."""
    readings = read_jsonl(folder / "readings.jsonl")
    actions = read_jsonl(folder / "actions.jsonl")
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["complete"] is True
    by_frame = {r["frame"]: r for r in readings}
    assert actions, "no action recorded"
    for action in actions:
        reading = by_frame[action["frame"]]
        g = reading["geometry"]
        if action["kind"] in ("open", "flag", "chord"):
            col = int((action["x"] - g["left"]) // g["cell_w"])
            row = int((action["y"] - g["top"]) // g["cell_h"])
            assert (row, col) == (action["row"], action["col"]), action
            assert reading["board"][row][col] in ".?" or action["kind"] == "chord", action
            # Never a cell the frame did not read (unsure cells are written as
            # covered in "board": only "unknown" says which they are).
            unsure = {(u["row"], u["col"]) for u in reading["unknown"]}
            assert (row, col) not in unsure, (action, reading["unknown"])
        else:
            assert action["kind"] in ("control", "key") and action["why"] == "restart", action
            if action["kind"] == "control":
                assert action["key"] == "restart"
    assert sum(a["why"] == "restart" for a in actions) >= games - 1
    # A loss happened on the last action of its game: it must have been a guess.
    for game in range(1, games + 1):
        final = [r for r in readings if r["game"] == game][-1]
        assert final["status"] in ("won", "lost") or complete(final), final
        if final["status"] == "lost":
            last = [a for a in actions if a["game"] == game and a["kind"] == "open"][-1]
            assert not last["why"].startswith("certain"), last
    # The recording replays: the reader makes the same reading of every saved frame.
    from vision.image_io import load_image

    for line in readings:
        if "board" not in line:
            continue
        image = load_image(folder / "frames" / line["frame"])
        left, top = line["region"][:2]
        again = read_at(image, line["skin"], line["geometry"], -left, -top)
        assert list(again.board.rows) == line["board"], line["frame"]
        assert again.status == line["status"], line["frame"]
        assert again.mines_left == line["mines_left"], line["frame"]


def complete(reading: dict[str, Any]) -> bool:
    """A won board the clone did not announce: nothing covered, counter at 0."""
    rows = "".join(reading["board"])
    return reading["mines_left"] == 0 and "." not in rows and "?" not in rows


def replay_check(folder: Path) -> None:
    """`msbot replay --check` on the recording: every frame read from scratch
    (located again, not at the recorded position) must match the live reading."""
    out = subprocess.run(
        [sys.executable, "-m", "bot", "replay", "--check", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]


def read_at(image: Any, skin: str, geometry: dict[str, Any], dx: float = 0, dy: float = 0) -> Any:
    """Read `image` with a known board position (a finished board's covered cells
    no longer form one grid, so it is not located from scratch)."""
    from vision.geometry import Geometry
    from vision.locate import Located

    reader = reader_module.BoardReader.for_skin(skin)
    g = Geometry(**geometry).shifted(dx, dy)
    return reader.read(image, Located(reader.skins[0], g, reader.banks[0]))


def final_status(display: str, folder: Path) -> str:
    """What the screen shows now, read by a fresh reader where the board was."""
    first = read_jsonl(folder / "readings.jsonl")[0]
    status: str = read_at(screenshot(display), first["skin"], first["geometry"]).status
    return status


CLONES = ["xdemineur", "sgt-mines", "gnome-mines", "minegauler"]


def needs_skin(name: str) -> str:
    """The clone's skin name; skips the test while templates/ has no such skin."""
    skin = clone_spec(name).skin
    if not (SKINS / skin / "skin.json").is_file():
        pytest.skip(f"no {skin} skin in templates/ yet")
    return skin


@pytest.mark.parametrize("name", CLONES)
def test_plays_beginner_games_to_the_end(
    name: str, display: VirtualDisplay, tmp_path: Path
) -> None:
    needs_skin(name)
    with launch_clone(name, "beginner", display):
        run = play(display.display, "--games", "4", "--record", str(tmp_path / "rec"))
        assert run.code == 0, run.stderr
        assert len(run.games) == 4
        assert all(g["outcome"] in ("won", "lost") for g in run.games), run.games
        assert not any(g["certain_loss"] for g in run.games)
        # Each game reads the board at least once after its first click (one read
        # when that click opens the whole board), and the reads are timed.
        assert all(g["reads"] >= 1 and g["read_ms_median"] > 0 for g in run.games), run.games
        assert run.summary["wins"] == sum(g["outcome"] == "won" for g in run.games)
        # Won games carry the players' statistics, all of their 3BV done (a lost
        # one may not: a clone that shows no mines at the end tells no layout).
        # GNOME Mines covers its won board: its layout is known only when the
        # last click opened no area (the board before it then holds every mine).
        for g in run.games:
            if g["outcome"] == "won" and (name != "gnome-mines" or g["3bv"] is not None):
                assert g["3bv"] >= 1 and g["3bv_solved"] == g["3bv"], g
                assert g["3bv_per_s"] > 0 and 0 < g["efficiency"] <= 1.0, g
        # The screen agrees with the last game's result.
        last = read_jsonl(tmp_path / "rec" / "readings.jsonl")[-1]
        now = final_status(display.display, tmp_path / "rec")
        assert now == run.games[-1]["outcome"] or (now == "playing" and complete(last))
        check_recording(tmp_path / "rec", 4)
        replay_check(tmp_path / "rec")


def test_plays_a_window_away_from_the_corner_beside_another_window(
    display: VirtualDisplay, tmp_path: Path
) -> None:
    other = launch_window(
        "xmessage",
        ["xmessage", "-geometry", "400x300+120+150", "another window, not a board"],
        display,
        window_class="xmessage",
    )
    try:
        with launch_clone("xdemineur", "beginner", display, position=(640, 410)):
            run = play(display.display, "--games", "2", "--record", str(tmp_path / "rec"))
            assert run.code == 0, run.stderr
            assert len(run.games) == 2
            readings = read_jsonl(tmp_path / "rec" / "readings.jsonl")
            g = readings[0]["geometry"]
            assert g["left"] > 640 and g["top"] > 410
            check_recording(tmp_path / "rec", 2)
    finally:
        other.close()


def test_dry_run_neither_moves_the_mouse_nor_changes_the_board(
    display: VirtualDisplay, tmp_path: Path
) -> None:
    with launch_clone("xdemineur", "beginner", display, position=(200, 100)):
        subprocess.run(["xdotool", "mousemove", "777", "666"], env=display.env, check=True)
        before_pointer = pointer(display)
        before = screenshot(display.display)
        out = msbot_play(display.display, "--dry-run", "--annotate", str(tmp_path), timeout=30)
        assert out.returncode == 0, out.stderr
        assert " open cell (" in out.stdout and "at screen (" in out.stdout
        assert "the mouse was not touched" in out.stdout
        assert (tmp_path / "position-0001.png").stat().st_size > 1000
        # The replay drawing: the window region enlarged under a legend panel.
        from vision.image_io import load_image

        picture = load_image(tmp_path / "position-0001.png")
        assert picture.shape[1] >= 720 and (picture[:5] == 255).all()
        assert pointer(display) == before_pointer == (777, 666)
        after = screenshot(display.display)
        # Everything but the running clock is the same picture.
        reader = reader_module.BoardReader()
        a = reader.read(before, reader.locate(before))
        b = reader.read(after, reader.locate(after))
        assert a.board == b.board and a.status == b.status == "playing"


def test_ctrl_c_stops_between_actions_and_leaves_a_complete_recording(
    display: VirtualDisplay, tmp_path: Path
) -> None:
    with launch_clone("xdemineur", "beginner", display):
        env = dict(os.environ, DISPLAY=display.display)
        folder = tmp_path / "rec"
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "play", "--games", "500", "--record", str(folder)],
            env=env,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            # Mid-game: a few clicks made (their lines are written as they are made).
            actions = folder / "actions.jsonl"
            wait_for(lambda: len(read_jsonl(actions)) >= 3, proc, "three clicks")
        except BaseException:
            proc.kill()
            proc.communicate()
            raise
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 130, err
        assert "interrupted by Ctrl+C" in out
        meta = json.loads((folder / "meta.json").read_text())
        assert meta["complete"] is True and meta["summary"]["stopped"] == "interrupted by Ctrl+C"
        # The game cut short keeps its statistics, like every finished one.
        played = [g["game"] for g in meta["games"]]
        assert {g["game"]: g["clicks"] for g in meta["games"]} == clicks_recorded(folder, played)
        assert meta["games"][-1]["outcome"] == "stopped" and meta["games"][-1]["rows"] == 9
        # Every line names a frame that is on disk, and no temporary file is left.
        for line in read_jsonl(folder / "actions.jsonl") + read_jsonl(folder / "readings.jsonl"):
            assert (folder / "frames" / line["frame"]).is_file()
        assert not list(folder.rglob("*.tmp"))


@pytest.mark.parametrize("event", ["moved", "closed"])
def test_a_board_that_moves_or_vanishes_stops_the_bot_with_the_frame_saved(
    event: str, display: VirtualDisplay, tmp_path: Path
) -> None:
    with launch_clone("xdemineur", "intermediate", display, position=(50, 40)) as clone:
        env = dict(os.environ, DISPLAY=display.display)
        folder = tmp_path / "rec"
        # --delay: one game lasts several seconds, so the stop comes mid-game.
        args = ["play", "--json", "--games", "500", "--delay", "30", "--record", str(folder)]
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot", *args],
            env=env,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        # Mid-game: the game in play has made clicks (a batch's clicks are on
        # disk once made), so the stopped game is one with clicks, not one a
        # restart had just begun.
        wait_for(lambda: in_play_clicks(folder) >= 3, proc, "three clicks of the game in play")
        if event == "moved":
            clone.move(400, 300)
        else:
            clone.close()
        gone_at = time.monotonic()  # the window is seen at its new place (or gone)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2, err
    # The reason, once, cause first.
    assert err.startswith("msbot play: error: ") and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    cause = "the board moved" if event == "moved" else "the board vanished from the screen"
    assert err.startswith(f"msbot play: error: {cause}"), err
    saved = err.split("(frame saved: ")[1].split(")")[0]
    assert Path(saved).is_file() and Path(saved).parent == folder / "frames"
    # The game cut short keeps its statistics: the clicks actions.jsonl holds.
    games = [json.loads(line) for line in out.splitlines() if '"outcome"' in line]
    stopped = games[-1]
    assert stopped["outcome"] == "stopped" and stopped["message"] in err
    assert (stopped["rows"], stopped["cols"]) == (16, 16) and stopped["clicks"] > 0
    assert stopped["seconds"] > 0
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["games"] == games
    assert {g["game"]: g["clicks"] for g in games} == clicks_recorded(folder)
    assert meta["summary"]["clicks"] == sum(clicks_recorded(folder).values())
    # Not one click once the window was seen moved or gone: each click is checked
    # against the board's corners first (`bot.play.anchors`), not only the next reading.
    # (Action times are CLOCK_MONOTONIC, the same clock in every process.)
    late = [
        a
        for a in read_jsonl(folder / "actions.jsonl")
        if a["kind"] in ("open", "flag", "chord", "control") and a["time"] > gone_at
    ]
    assert late == [], late


def watch_while_a_second_bot_plays(
    display: VirtualDisplay, games: int, delay_ms: int
) -> tuple[Run, list[dict[str, Any]]]:
    """`msbot play --dry-run --games N` watching while a second bot (the "person")
    plays N xdemineur games slowly; the person's run and the watcher's game lines."""
    with launch_clone("xdemineur", "beginner", display):
        env = dict(os.environ, DISPLAY=display.display)
        folder = Path(tempfile.mkdtemp(prefix="msbot-watcher-"))
        args = ["play", "--dry-run", "--games", str(games), "--json", "--record", str(folder)]
        watcher = subprocess.Popen(
            [sys.executable, "-m", "bot", *args],
            env=env,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            # The watcher has located the board before the person starts.
            wait_for(lambda: board_located(folder), watcher, "the watcher locating the board")
            person = play(
                display.display, "--games", str(games), "--delay", str(delay_ms), timeout=60
            )
            assert person.code == 0, person.stderr
            out, err = watcher.communicate(timeout=30)
        finally:
            if watcher.poll() is None:
                watcher.kill()
                watcher.wait()
            shutil.rmtree(folder, ignore_errors=True)
    assert watcher.returncode == 0, err
    return person, [json.loads(line) for line in out.splitlines() if '"outcome"' in line]


def test_dry_run_with_games_advises_while_someone_else_plays(
    display: VirtualDisplay, tmp_path: Path
) -> None:
    """The "person" is a second bot clicking slowly; the watcher never clicks."""
    person, games = watch_while_a_second_bot_plays(display, games=1, delay_ms=60)
    assert [g["outcome"] for g in games] == [person.games[0]["outcome"]]
    # The advice itself is in the JSON (cell, screen x/y, why), and nothing is a click.
    watched = games[0]
    assert watched["advised"] is True and watched["clicks"] == 0
    actions = [a for p in watched["positions"] for a in p["actions"]]
    assert len(actions) == watched["advised_actions"] > 0
    for action in actions:
        assert action["action"] in ("open", "flag", "chord") and action["why"]
        assert action["x"] > 0 and action["y"] > 0 and action["row"] >= 0 and action["col"] >= 0


def test_watching_a_person_who_restarts_at_once_follows_into_the_new_game(
    display: VirtualDisplay,
) -> None:
    """The "person" (a second bot) starts its next game ~50 ms after a win or a
    loss, before the watcher sees the end: that is a new game, not a misread."""
    person, games = watch_while_a_second_bot_plays(display, games=2, delay_ms=40)
    assert len(games) == 2, games
    assert games[0]["outcome"] in (person.games[0]["outcome"], "restarted")
    assert games[1]["outcome"] == person.games[1]["outcome"]


def test_dry_run_on_a_finished_game_says_so_and_returns(display: VirtualDisplay) -> None:
    with launch_clone("xdemineur", "beginner", display):
        first = play(display.display, "--games", "1")
        assert first.code == 0, first.stderr
        out = msbot_play(display.display, "--dry-run", timeout=30)
    assert out.returncode == 0, out.stderr
    outcome = first.games[0]["outcome"]
    assert f"game over ({outcome}) on screen: nothing to advise" in out.stdout


def test_a_paused_gnome_mines_is_named_in_a_dry_run_and_resumed_when_playing(
    display: VirtualDisplay,
) -> None:
    needs_skin("gnome-mines")
    with launch_clone("gnome-mines", "beginner", display, position=(100, 80)):
        # A game in progress (one click), then paused with GNOME's Pause key.
        started = play(display.display, "--max-actions", "1")
        assert started.code == 0 and started.summary["clicks"] == 1, started.stderr
        paused(display)
        out = msbot_play(display.display, "--dry-run", timeout=30)
    assert out.returncode == 2, out.stderr
    assert out.stderr.startswith("msbot play: error: no board found: gnome-mines is paused")
    assert "click its Resume button" in out.stderr and "Traceback" not in out.stderr
    # Playing (not a dry run), the bot clicks Resume itself, then goes on.
    with launch_clone("gnome-mines", "beginner", display, position=(100, 80)):
        started = play(display.display, "--max-actions", "1")
        assert started.code == 0, started.stderr
        paused(display)
        # --max-actions counts every action: the Resume click, then one cell.
        resumed = play(display.display, "--max-actions", "2")
        assert resumed.code == 0 and resumed.summary["clicks"] == 1, resumed.stderr


def paused(display: VirtualDisplay, timeout: float = 10.0) -> None:
    """Press GNOME Mines' Pause key and wait until the screen shows it (the board
    hidden behind the paused picture)."""
    before = screenshot(display.display)
    subprocess.run(["xdotool", "key", "Pause"], env=display.env, check=True)
    deadline = time.monotonic() + timeout
    while (screenshot(display.display) == before).all():
        if time.monotonic() > deadline:
            pytest.fail(f"the screen did not change within {timeout:.0f} s of the Pause key")


@contextmanager
def bot_running(display: VirtualDisplay, *args: str) -> Iterator[subprocess.Popen[str]]:
    """`msbot ARGS...` started in the background on `display`; killed (by its
    PID) if it is still running when the block ends, even on failure."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", *args],
        env=dict(os.environ, DISPLAY=display.display),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def wait_for(
    done: Any, proc: subprocess.Popen[str], what: str = "the condition", timeout: float = 30
) -> None:
    """Poll `done()` until it is true or the process ends (the caller checks
    which); fails naming `what` did not happen if `timeout` passes first."""
    deadline = time.monotonic() + timeout
    while proc.poll() is None and not done():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not happen within {timeout:.0f} s")
        time.sleep(0.02)


def board_located(folder: Path) -> bool:
    """Whether a run recording into `folder` has located its board (the skin is
    in meta.json from then on)."""
    meta = folder / "meta.json"
    return meta.exists() and "skin" in json.loads(meta.read_text())


def test_ctrl_c_while_a_watcher_waits_for_the_next_game_stops_at_once(
    display: VirtualDisplay, tmp_path: Path
) -> None:
    """A dry run with --games on a finished game waits for the person's next
    game and says "Ctrl+C to stop": one Ctrl+C must stop it there, cleanly."""
    folder = tmp_path / "rec"
    meta = folder / "meta.json"
    with launch_clone("xdemineur", "beginner", display):
        first = play(display.display, "--games", "1")
        assert first.code == 0, first.stderr
        args = ["play", "--dry-run", "--games", "2", "--record", str(folder)]
        with bot_running(display, *args) as proc:
            # Once the board is located, the watcher waits for a new game.
            output = Output(proc)
            output.wait_for("Ctrl+C to stop")
            proc.send_signal(signal.SIGINT)
            out, err = output.finish(timeout=10)
    assert proc.returncode == 130, err
    assert "Ctrl+C to stop" in out and "Traceback" not in err
    recorded = json.loads(meta.read_text())
    assert recorded["complete"] is True
    assert recorded["summary"]["stopped"] == "interrupted by Ctrl+C"


def test_a_clone_that_freezes_for_seconds_mid_game_is_waited_for_not_given_up(
    display: VirtualDisplay, tmp_path: Path
) -> None:
    """The clone is stopped (SIGSTOP), as a busy machine may stall it: its
    window keeps the old picture and the clicks queue up. The bot retries once,
    waits, and plays on when the clone comes back; the retried clicks are in the
    recording and the game's figures.

    The clone is frozen as soon as the board is located, while `--delay 500`
    holds the first click back, so the freeze falls before every click, and it
    is kept frozen until the bot has retried, then `STALL_KEPT` s more: the wait
    after the retry is what is tested. (A freeze of a fixed 8 s failed 2 runs
    in 13: a first batch of 27 certain clicks 300 ms apart outlasts it, and
    then no click ever goes unanswered long enough to be retried.) `--no-flags`:
    a flag that shows nothing is rightly not clicked again (a second right
    click on a queued one would take it away), so every click is an open."""
    folder = tmp_path / "rec"
    actions = folder / "actions.jsonl"
    with launch_clone("xdemineur", "beginner", display) as clone:
        args = ["play", "--json", "--games", "1", "--delay", "500", "--no-flags"]
        args += ["--record", str(folder)]
        with bot_running(display, *args) as proc:
            wait_for(lambda: board_located(folder), proc, "locating the board")
            os.kill(clone.pid, signal.SIGSTOP)
            frozen = time.monotonic()
            try:
                wait_for(
                    lambda: any(a["why"].startswith("retry") for a in read_jsonl(actions)),
                    proc,
                    "a retry of the clicks the frozen clone did not answer",
                    timeout=60,
                )
                assert proc.poll() is None, "the bot ended while the clone was frozen"
                time.sleep(STALL_KEPT)
                assert proc.poll() is None, "the bot gave up while the clone was frozen"
            finally:
                os.kill(clone.pid, signal.SIGCONT)
            thawed = time.monotonic()
            out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    games = [json.loads(line) for line in out.splitlines() if '"outcome"' in line]
    assert [g["outcome"] in ("won", "lost") for g in games] == [True], games
    check_recording(folder, 1)
    assert {g["game"]: g["clicks"] for g in games} == clicks_recorded(folder)
    # Every click came after the freeze (action times are CLOCK_MONOTONIC, the
    # same clock in every process); the bot clicked again (opens only), then
    # waited for the clone to come back.
    done = read_jsonl(actions)
    assert done and min(a["time"] for a in done) > frozen, "a click came before the freeze"
    retries = [a for a in done if a["why"].startswith("retry")]
    assert retries and all(a["kind"] == "open" for a in retries), retries
    assert games[0]["seconds"] > thawed - frozen - 1


#: Seconds the clone stays frozen after the bot's retry: well inside the
#: patience a stalled clone gets after it (`PlayOptions.stall_timeout`, 10 s).
STALL_KEPT = 6.0


def test_a_window_closed_while_its_game_restarts_gets_no_second_blind_click(
    display: VirtualDisplay, tmp_path: Path
) -> None:
    """The clone is frozen, so the bot's restart click goes unanswered, then
    killed while the bot waits for the new game. Its second try must not click
    where the face was (on a desktop: whatever window is there now): it stops
    and says the board vanished."""
    folder = tmp_path / "rec"
    with launch_clone("xdemineur", "beginner", display) as clone:
        first = play(display.display, "--games", "1")  # a finished game on screen
        assert first.code == 0, first.stderr
        subprocess.run(["xdotool", "mousemove", "3", "3"], env=display.env, check=True)
        os.kill(clone.pid, signal.SIGSTOP)
        with bot_running(display, "play", "--json", "--record", str(folder)) as proc:
            wait_for(
                lambda: pointer(display) != (3, 3), proc, "the restart click"
            )  # the restart click
            assert proc.poll() is None, "the bot ended before its restart click"
            os.kill(clone.pid, signal.SIGKILL)
            _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2, err
    assert err.startswith("msbot play: error: the board vanished from the screen"), err
    restarts = [a for a in read_jsonl(folder / "actions.jsonl") if a["why"] == "restart"]
    assert len(restarts) == 1, restarts


def test_ctrl_c_during_a_long_delay_stops_without_the_click_it_was_waiting_for(
    display: VirtualDisplay, tmp_path: Path
) -> None:
    """`--delay` pauses before every click; a Ctrl+C in that pause must stop the
    bot there, not after one more click."""
    folder = tmp_path / "rec"
    with launch_clone("xdemineur", "beginner", display):
        subprocess.run(["xdotool", "mousemove", "3", "3"], env=display.env, check=True)
        args = ["play", "--json", "--delay", "6000", "--record", str(folder)]
        with bot_running(display, *args) as proc:
            # Located: the bot now waits 6 s before its first click.
            wait_for(lambda: board_located(folder), proc, "locating the board")
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=30)
        assert pointer(display) == (3, 3)
    assert proc.returncode == 130, err
    games = [json.loads(line) for line in out.splitlines() if '"outcome"' in line]
    assert [(g["outcome"], g["clicks"]) for g in games] == [("stopped", 0)]
    assert clicks_recorded(folder) == {}


def test_sigterm_stops_between_actions_like_ctrl_c(display: VirtualDisplay, tmp_path: Path) -> None:
    """`timeout`, a service manager or `kill` send SIGTERM: the run must end as
    cleanly as after Ctrl+C (summary, complete recording), with exit 143."""
    folder = tmp_path / "rec"
    with launch_clone("xdemineur", "beginner", display):
        args = ["play", "--games", "500", "--delay", "20", "--record", str(folder)]
        with bot_running(display, *args) as proc:
            wait_for(lambda: len(read_jsonl(folder / "readings.jsonl")) > 3, proc, "four readings")
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=30)
    assert proc.returncode == 143, err
    assert err.strip() == "msbot play: terminated"
    assert "; stopped: terminated (SIGTERM)" in out
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["complete"] is True and meta["summary"]["stopped"] == "terminated (SIGTERM)"
    played = [g["game"] for g in meta["games"]]
    assert {g["game"]: g["clicks"] for g in meta["games"]} == clicks_recorded(folder, played)


def test_a_full_disk_under_record_stops_the_recording_not_the_games(
    display: VirtualDisplay, tmp_path: Path
) -> None:
    """Two games with --record; once the board is located, no file of the bot
    may grow past 4 kB (RLIMIT_FSIZE set on the running process: the kernel
    refuses the next frame or line as a full disk would; Python ignores
    SIGXFSZ). Both games are still played, their lines and the summary reach
    stdout, the error names the failed write once, and the recording is whole
    up to where it stopped, which meta.json says."""
    import resource

    folder = tmp_path / "rec"
    args = ["play", "--json", "--games", "2", "--record", str(folder)]
    with launch_clone("xdemineur", "beginner", display), bot_running(display, *args) as proc:
        wait_for(lambda: board_located(folder), proc, "locating the board")
        resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, (4000, 4000))
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, out + err
    assert "Traceback" not in err
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    games = [line for line in lines if "outcome" in line]
    summary = next(line["summary"] for line in lines if "summary" in line)
    assert [g["outcome"] in ("won", "lost") for g in games] == [True, True], games
    # The kernel refuses a write past the limit (EFBIG) or cuts it short there.
    refused = ("File too large", "disk full?")
    assert any(r in summary["recording_stopped"] for r in refused), summary
    error = err.strip().splitlines()
    assert len(error) == 1 and "the recording stopped after" in error[0], error
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["complete"] is False
    assert any(r in meta["recording_stopped"]["error"] for r in refused), meta
    # Every line on disk is whole (a cut write is taken back).
    for kind in ("readings", "labels", "actions"):
        path = folder / f"{kind}.jsonl"
        assert not path.exists() or path.read_bytes().endswith(b"\n") or not path.read_bytes()
    written = meta["recording_stopped"]["after_frames"]
    readings = read_jsonl(folder / "readings.jsonl")
    assert len(readings) == written
    assert all((folder / "frames" / r["frame"]).is_file() for r in readings)
