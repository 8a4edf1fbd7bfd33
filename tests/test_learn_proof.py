"""Naming looks with proof (`vision.learn.proof`): SAT over every placement of mines.

Boards are built from a hidden layout: every cell shows a look, a number of
its own look per value. What is proven must be the truth, what is not proven
must stay unnamed, and a contradiction must be reported, never resolved.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.learn.proof import (
    Name,
    Scene,
    board_of,
    contradictions,
    prove_values,
    same_cell_names,
)

COVERED, FLAG, MINE = 0, 1, 2
NUMBER = 10  # look 10 + v shows the number v


def counts(mines: np.ndarray) -> np.ndarray:
    padded = np.pad(mines.astype(int), 1)
    rows, cols = mines.shape
    total = np.zeros((rows, cols), int)
    for dr in range(3):
        for dc in range(3):
            if (dr, dc) != (1, 1):
                total += padded[dr : dr + rows, dc : dc + cols]
    return total


def scene(mines: np.ndarray, opened: np.ndarray, *, shown: bool = False, **kw: object) -> Scene:
    """Looks of a board: opened cells show their number's look, the rest covered
    (or, `shown`, mines as MINE: a lost board)."""
    looks = np.where(opened, NUMBER + counts(mines), COVERED)
    if shown:
        looks = np.where(mines, MINE, looks)
    return Scene(looks, **kw)  # type: ignore[arg-type]


NAMES = {COVERED: Name(".", "test"), FLAG: Name("F", "test")}
NUMBERS = {NUMBER + v: "012345678" for v in range(9)}


def layout() -> np.ndarray:
    mines = np.zeros((6, 6), bool)
    mines[0, 5] = mines[4, 1] = mines[5, 5] = True
    return mines


def cascade(mines: np.ndarray, click: tuple[int, int]) -> np.ndarray:
    """The cells a click opens, as every clone opens them: a 0 opens its neighbours."""
    numbers = counts(mines)
    opened = np.zeros_like(mines)
    todo = [click]
    while todo:
        r, c = todo.pop()
        if opened[r, c] or mines[r, c]:
            continue
        opened[r, c] = True
        if numbers[r, c] == 0:
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < mines.shape[0] and 0 <= cc < mines.shape[1]:
                        todo.append((rr, cc))
    return opened


def test_an_opening_proves_the_0_and_the_numbers_at_its_edge() -> None:
    mines = layout()
    opened = cascade(mines, (0, 0))
    assert 0 < opened.sum() < mines.size - mines.sum()  # some safe cells stay covered
    s = scene(mines, opened, in_play=True, total=3, label="t")
    proof = prove_values(NAMES, NUMBERS, [s])
    truth = counts(mines)
    for look, name in proof.names.items():
        values = {int(truth[r, c]) for r, c in np.argwhere(s.looks == look)}
        assert values == {int(name.char)}  # never a wrong name
    assert proof.names[NUMBER + 0].char == "0"
    assert NUMBER + 1 in proof.names
    assert not proof.contradictions


def test_without_the_flood_rule_names_are_still_true() -> None:
    mines = layout()
    opened = cascade(mines, (0, 0))
    s = scene(mines, opened, in_play=False, total=None, label="t")
    proof = prove_values(NAMES, NUMBERS, [s])
    truth = counts(mines)
    for look, name in proof.names.items():
        values = {int(truth[r, c]) for r, c in np.argwhere(s.looks == look)}
        assert values == {int(name.char)}


def test_one_cell_with_room_for_two_values_stays_unnamed() -> None:
    # A 1 whose two covered neighbours could hold 1 or 2 mines, nothing else known.
    looks = np.array([[COVERED, COVERED], [NUMBER + 1, NUMBER]])
    s = Scene(looks, in_play=False, total=None, label="t")
    proof = prove_values(NAMES, {NUMBER + 1: "12345678"}, [s])
    assert NUMBER + 1 not in proof.names


def lost_board() -> tuple[np.ndarray, Scene, dict[int, str]]:
    """The layout's mines, a lost board of it (three openings and every mine
    shown) and the looks on trial: the numbers and the mines' picture."""
    mines = layout()
    opened = cascade(mines, (0, 0)) | cascade(mines, (5, 0)) | cascade(mines, (2, 5))
    s = scene(mines, opened | mines, shown=True, in_play=False, total=3, label="t")
    return mines, s, {**NUMBERS, MINE: "*012345678"}


def test_a_lost_board_names_its_mines_and_numbers_jointly() -> None:
    mines, s, todo = lost_board()
    proof = prove_values(NAMES, todo, [s])
    assert proof.names[MINE].char == "*"
    truth = counts(mines)
    for look, name in proof.names.items():
        if look != MINE:
            values = {int(truth[r, c]) for r, c in np.argwhere(s.looks == look)}
            assert values == {int(name.char)}


def test_a_look_named_wrongly_elsewhere_makes_a_contradiction_not_a_name() -> None:
    mines = layout()
    s = scene(mines, ~mines, shown=True, in_play=False, total=3, label="t")
    wrong = {**NAMES, MINE: Name("*", "test"), NUMBER + 1: Name("2", "a wrong name")}
    assert contradictions([s], wrong)
    proof = prove_values(wrong, {NUMBER + 0: "012345678"}, [s])
    assert NUMBER + 0 in proof.contradictions and not proof.names


def test_a_0_beside_a_covered_cell_in_play_is_a_contradiction() -> None:
    looks = np.array([[COVERED, NUMBER], [NUMBER, NUMBER]])
    s = Scene(looks, in_play=True, total=None, label="t")
    names = {**NAMES, NUMBER: Name("0", "test")}
    assert contradictions([s], names)
    # Drawn only in part (not still): no 0 rule, no contradiction.
    assert not contradictions([Scene(looks, in_play=False, total=None, label="t")], names)


def test_unnamed_looks_read_as_covered_and_open_ones_as_dashes() -> None:
    looks = np.array([[COVERED, 7, 8]])
    board = board_of(Scene(looks, in_play=True), {COVERED: "."}, open_looks=[8])
    assert board.rows == ("..-",)


@pytest.mark.parametrize("redrawn", [True, False])
def test_a_redrawn_finished_board_keeps_each_cells_value(redrawn: bool) -> None:
    before = np.array([[NUMBER + 1, NUMBER + 2], [NUMBER + 1, COVERED]])
    names = {**NAMES, NUMBER + 1: Name("1", "t"), NUMBER + 2: Name("2", "t")}
    after = np.array([[30, 31], [30, 32]]) if redrawn else np.array([[30, 30], [30, 32]])
    new, clashes = same_cell_names(before, after, names, "end")
    if redrawn:
        assert new[30].char == "1" and new[31].char == "2" and not clashes
    else:
        # One picture where a 1 and a 2 were: a window over the board, no number.
        assert 30 not in new and 30 in clashes


def test_a_solver_that_gives_up_proves_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # ace-minesweeper once lost on its second click: its 200 mines shown, the
    # rest covered; every value of the mines' picture went on trial on 200 cells
    # at once and one SAT call ran for minutes (learning hung until killed).
    # Calls now have a conflict budget; a call that runs out refutes nothing,
    # so it can only leave looks unnamed, never name one or find a contradiction.
    import vision.learn.proof as proof_module

    _, s, todo = lost_board()
    full = prove_values(NAMES, todo, [s])
    assert full.names[MINE].char == "*"
    monkeypatch.setattr(proof_module, "CONFLICTS", 1)  # gives up at its first conflict
    short = prove_values(NAMES, todo, [s])
    assert not short.contradictions
    assert set(short.names) < set(full.names)
    for look, name in short.names.items():
        assert name.char == full.names[look].char
