"""Single functions of the play loop: chord planning, skin play rules, result lines."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.board import Board, parse_board
from bot.errors import PlayError
from bot.play.planning import plan_chords, plan_steps
from bot.play.results import GameResult, Session, board_complete
from bot.play.skinplay import PlayRules, located_geometry, play_rules, restart_steps
from bot.play.waiting import Streak
from bot.solver import analyse
from vision.geometry import Geometry
from vision.reading import Reading
from vision.skin import Glyphs, PlaySpec


def test_a_satisfied_number_chords_its_safe_neighbours() -> None:
    board = parse_board("F1.\n11.\n...\n")
    chords, rest = plan_chords(board, [(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)])
    # (0, 1) has its flag and two covered neighbours, both safe: one chord opens them.
    assert chords[0] == ((0, 1), ((0, 2), (1, 2)))
    opened = {c for _, cells in chords for c in cells}
    assert opened | set(rest) == {(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)}
    assert not opened & set(rest)


def test_no_chord_when_a_neighbour_is_not_known_safe() -> None:
    board = parse_board("F1.\n11.\n")
    assert plan_chords(board, [(0, 2)]) == ([], [(0, 2)])


def test_no_chord_over_a_question_mark() -> None:
    board = parse_board("F1?\n11.\n")
    assert plan_chords(board, [(0, 2), (1, 2)]) == ([], [(0, 2), (1, 2)])


def test_steps_never_touch_untrusted_flags_and_unmark_question_marks() -> None:
    # A person flagged (2, 0): the loop shows it covered to the solver, which
    # proves it safe (the mine is (1, 0)); no step may click it.
    board = parse_board("?10\n.10\n.10\n")
    analysis = analyse(board, 1)
    assert set(analysis.safe) == {(0, 0), (2, 0)} and analysis.mines == ((1, 0),)
    steps = plan_steps(board, analysis, PlayRules(), flags=True, chord=False, untouchable={(2, 0)})
    assert [(s.action, s.cell, s.unmark) for s in steps] == [
        ("flag", (1, 0), False),
        ("open", (0, 0), True),
    ]


def test_a_certain_question_mark_is_unmarked_before_it_is_opened_or_flagged() -> None:
    board = parse_board("?1.\n11.\n...\n")
    steps = plan_steps(board, analyse(board, 1), PlayRules(), flags=True, chord=False)
    by_cell = {s.cell: s for s in steps}
    assert by_cell[(0, 0)].action == "flag" and by_cell[(0, 0)].unmark
    assert not any(s.unmark for c, s in by_cell.items() if c != (0, 0))


def test_a_best_guess_under_an_untrusted_flag_gives_no_step() -> None:
    board = parse_board("...\n...\n")
    analysis = analyse(board, 3)
    assert analysis.move is not None
    guess = (analysis.move.row, analysis.move.col)
    assert (
        plan_steps(board, analysis, PlayRules(), flags=True, chord=False, untouchable={guess}) == []
    )


def test_a_restart_click_may_fall_back_to_a_key() -> None:
    assert restart_steps({"click": "restart", "or_key": "F2"}, ()) == ("restart|key:F2",)
    assert restart_steps([{"key": "Escape"}, {"click": "r"}], ()) == ("key:Escape", "r")
    with pytest.raises(PlayError, match="or_key"):
        restart_steps({"or_key": "F2"}, ())


@dataclass
class FakeLocated:
    geometry: Geometry
    skin: object
    controls: dict[str, tuple[int, int]]


@dataclass
class FakeSkin:
    play: PlaySpec


def test_skin_play_section_becomes_play_rules() -> None:
    g = Geometry(16, 81, 21, 21, 9, 12)
    spec = PlaySpec(rule="zero", chord="left+right", restart={"key": "n"}, win_requires_flags=True)
    rules = play_rules(FakeLocated(g, FakeSkin(spec), {}))
    assert (rules.rule, rules.chord, rules.restart, rules.win_requires_flags) == (
        "zero",
        "both",
        ("key:n",),
        True,
    )
    clicked = play_rules(FakeLocated(g, FakeSkin(PlaySpec(restart={"click": "face"})), {}))
    assert (clicked.chord, clicked.restart, clicked.pause) == ("none", ("face",), "stop")
    both = play_rules(
        FakeLocated(g, FakeSkin(PlaySpec(restart={"key": "Escape", "click": "r"})), {})
    )
    assert both.restart == ("key:Escape", "r")
    with pytest.raises(PlayError, match="unknown chord style"):
        play_rules(FakeLocated(g, FakeSkin(PlaySpec(chord="thumb")), {}))


def test_the_grabbed_region_covers_board_and_controls() -> None:
    g = Geometry(16, 81, 21, 21, 9, 12)
    face = Glyphs((((0.5, -14), (0, -62), (0.5, 14), (0, -34))), {}, 60.0)
    skin = FakeSkin(PlaySpec())
    skin.faces = face  # type: ignore[attr-defined]
    left, top, width, height = located_geometry(FakeLocated(g, skin, {}))
    assert left <= 16 + 126 - 14 and top <= 81 - 62
    assert left + width >= 16 + 12 * 21 and top + height >= 81 + 9 * 21


def test_summary_counts_wins_time_clicks_and_certain_losses() -> None:
    session = Session(
        [
            GameResult(1, "won", 1.0, 30, 1, 9, 12, 10),
            GameResult(2, "lost", 0.5, 10, 2, 9, 12, 10, certain_loss=True),
        ],
        skin="xdemineur",
    )
    s = session.summary()
    assert (s["games"], s["wins"], s["win_rate"], s["mean_seconds"]) == (2, 1, 0.5, 0.75)
    assert s["clicks"] == 40 and s["guesses"] == 3 and s["certain_losses"] == 1
    assert "LOSSES ON CERTAIN MOVES" in session.summary_line()
    assert session.games[0].line() == "game 1: WON 12x9/10 in 1.00 s, 30 clicks, 1 guess"


def test_a_complete_board_is_one_with_every_mine_flagged_and_counted() -> None:
    g = Geometry(0, 0, 16, 16, 2, 3)

    def reading(rows: str, left: int | None) -> Reading:
        return Reading("x", g, Board(tuple(rows.split())), left, "playing")

    assert board_complete(reading("1F1 111", 0), 1)
    assert not board_complete(reading("1F1 11.", 0), 1)
    assert not board_complete(reading("1F1 111", 1), 1)
    assert not board_complete(reading("1F1 111", 0), 2)
    assert not board_complete(reading("1F1 111", 0), None)


def test_a_game_stopped_by_an_error_keeps_its_figures_and_says_the_error_once() -> None:
    stopped = GameResult(1, "stopped", 2.4, 70, 3, 16, 30, 99, message="boom", error=True)
    session = Session(games=[stopped], stopped="boom")
    assert stopped.line() == "game 1: STOPPED 30x16/99 in 2.40 s, 70 clicks, 3 guesses"
    unknown_total = GameResult(2, "stopped", 0.0, 0, 0, 9, 9, None)
    assert unknown_total.line() == "game 2: STOPPED 9x9 in 0.00 s, 0 clicks, 0 guesses"
    line = session.summary_line()
    assert line == "no game finished, 1 stopped, 70 clicks, 3 guesses" and "boom" not in line
    assert session.summary()["clicks"] == 70
    # A won game and a stopped one: "1/1 won" alone would hide the stop (QA F5).
    won = GameResult(2, "won", 1.0, 10, 0, 9, 9, 10, read_ms=[0.9, 3.0, 1.1])
    assert (won.to_json()["reads"], won.to_json()["read_ms_median"]) == (3, 1.1)
    assert (stopped.to_json()["reads"], stopped.to_json()["read_ms_median"]) == (0, None)
    both = Session(games=[won, stopped], stopped="boom")
    assert both.summary()["stopped_games"] == 1
    # A game left for a person's new game is neither won nor lost, and said.
    left = GameResult(3, "restarted", 0.5, 4, 1, 9, 9, 10)
    three = Session(games=[won, left, stopped], stopped="boom")
    assert (three.summary()["games"], three.summary()["restarted_games"]) == (1, 1)
    assert ", 1 stopped, 1 left for a new game begun on screen, " in three.summary_line()
    assert both.summary_line().startswith("1/1 won (100 %), mean 1.00 s per game, 1 stopped, ")
    # Ctrl+C is not printed as an error: the summary says it.
    session.interrupted = True
    assert session.summary_line().endswith("; stopped: boom")


def test_a_dry_run_advises_actions_it_does_not_count_as_clicks() -> None:
    advice = {"position": 1, "actions": [{"action": "open", "row": 0, "col": 1, "x": 5, "y": 6}]}
    watched = GameResult(1, "won", 3.0, 12, 1, 9, 9, 10, advised=True, positions=[advice])
    data = watched.to_json()
    assert data["clicks"] == 0 and data["advised_actions"] == 12
    assert data["positions"] == [advice]
    session = Session(games=[watched, GameResult(2, "restarted", 1.0, 4, 0, 9, 9, 10)])
    s = session.summary()
    assert (s["games"], s["wins"], s["clicks"], s["advised_actions"]) == (1, 1, 4, 12)
    assert "12 actions advised" in session.summary_line()


def test_a_streak_of_bad_frames_needs_both_frames_and_seconds_to_give_up() -> None:
    """A clone stalled mid-redraw shows one half-drawn picture in frame after
    frame (each costs nothing to read again): many frames alone are not enough."""
    streak = Streak()
    for i in range(100):
        streak.bump(10.0 + i * 0.001)  # 100 frames in 0.1 s
    assert not streak.over(8, 1.5, 10.1)
    assert streak.over(8, 1.5, 11.6)
    streak.clear()
    streak.bump(20.0)
    assert streak.since == 20.0 and not streak.over(8, 1.5, 30.0)  # one frame only


def test_a_learners_own_work_is_taken_off_a_streak_up_to_a_bound() -> None:
    """The seconds a learner spent on its own probe clicks are no time the
    clone was waited for (zoo seed 1180790477 stopped on cells still
    flashing after a 2 s probe); at most `most` seconds in all, so a learner
    that never explains cannot hold the loop forever."""
    streak = Streak()
    for i in range(20):
        streak.bump(10.0 + i * 0.001)
    streak.discount(2.0, 6.0)  # a probe of 2 s
    assert not streak.over(8, 1.5, 12.5) and streak.over(8, 1.5, 13.6)
    streak.discount(10.0, 6.0)  # only 4 s more of the bound are left
    assert streak.since == 16.0 and streak.over(8, 1.5, 17.5)
    streak.clear()
    streak.bump(30.0)  # a new streak: the bound again
    streak.discount(1.0, 6.0)
    assert streak.since == 31.0


@pytest.mark.parametrize(("asked", "used"), [(None, "full"), ("fast", "fast"), ("full", "full")])
def test_play_asks_the_solver_for_the_strength_it_was_given(
    asked: str | None, used: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`msbot play` analyses every position at `--strength` (full by default, the
    stronger guesses): a dry run advising once on a recorded mid-game frame, with
    the solver call watched."""
    from frozen_screen import FrozenScreen

    import bot.play.loop as play_module
    from bot.actuator import Actuator, DryRunMouse
    from bot.play.loop import Player
    from bot.play.options import PlayOptions
    from vision.image_io import load_image
    from vision.reader import BoardReader

    seen: list[str] = []
    real = play_module.analyse

    def watched(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("strength", "fast"))
        return real(*args, **kwargs)

    monkeypatch.setattr(play_module, "analyse", watched)
    frame = Path(__file__).parents[1] / "recordings/xdemineur-intermediate-1/frames/0001.png"
    extra = {} if asked is None else {"strength": asked}
    options = PlayOptions(games=1, dry_run=True, **extra)  # type: ignore[arg-type]
    player = Player(
        FrozenScreen(load_image(frame)), BoardReader(), Actuator(DryRunMouse()), options
    )
    player.say = lambda _: None
    player.run()
    assert seen and set(seen) == {used}
