"""strength="full": exact what-if counts, guess candidates, dead cells, unchanged certainties."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import combinations

from hypothesis import HealthCheck, assume, given, settings
from test_solver import DESIGN_NOTES_BOARD
from test_solver_bruteforce import neighbours, real_positions, small_enough

from bot.board import Board, parse_board
from bot.solver import analyse
from bot.solver.endgame import placements as endgame_placements
from bot.solver.endgame import search
from bot.solver.fifty import find_fifty_fifty
from bot.solver.guess import (
    SAFETY_MARGIN,
    GuessOptions,
    candidates,
    choose_guess,
    deep_score,
    score,
)
from bot.solver.lookahead import Base, base_of, outlook, outlook_position, reveal
from bot.solver.move import zero_chance


def all_placements(board: Board, total: int) -> tuple[list[tuple[int, int]], list[frozenset]]:
    """The covered cells and every placement of the remaining mines on them (brute force)."""
    h, w = board.height, board.width
    unknown = [(r, c) for r in range(h) for c in range(w) if board.rows[r][c] in ".?"]
    left = total - sum(row.count("F") for row in board.rows)
    if left < 0 or left > len(unknown):
        return unknown, []
    numbers = [
        ((r, c), int(ch))
        for r, row in enumerate(board.rows)
        for c, ch in enumerate(row)
        if ch.isdigit()
    ]
    found = []
    for chosen in combinations(unknown, left):
        mines = set(chosen)
        if all(
            sum(1 for n in neighbours(h, w, r, c) if n in mines or board.rows[n[0]][n[1]] == "F")
            == v
            for (r, c), v in numbers
        ):
            found.append(frozenset(chosen))
    return unknown, found


def placements(board: Board, total: int) -> int:
    """How many placements of the remaining mines fit the board (brute force)."""
    return len(all_placements(board, total)[1])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(real_positions())
def test_outlook_weights_are_exact_counts(position: tuple[Board, int]) -> None:
    board, total = position
    assume(small_enough(board))
    assert outlook(board, total).weight == placements(board, total)
    # Revealing a covered cell splits its safe placements by the number it shows.
    result = analyse(board, total)
    for r, row in enumerate(board.rows):
        for c, ch in enumerate(row):
            if ch not in ".?" or (r, c) in result.mines:
                continue
            split = sum(outlook(board.with_cell((r, c), str(v)), total).weight for v in range(9))
            # The incremental what-if (reveal on the reduced base) counts the same.
            base = base_of(board, total)
            index = r * board.width + c
            if index in base.position.unknown:
                incremental = 0
                for v in range(9):
                    hypo = reveal(base, index, v)
                    if hypo is not None:
                        incremental += outlook_position(hypo, total).weight
                assert incremental == split
            p = result.probabilities[r][c]
            assert p is not None
            expected = placements(board, total) * (1 - Fraction(p).limit_denominator(10**6))
            assert split == expected


def test_dead_cell_is_recognised() -> None:
    # One mine in (0,0)/(0,1): if (0,0) is safe it must show 1 (its only unknown
    # neighbour is then the mine), so opening it teaches nothing.
    board = Board(("..", "11"))
    scored = score(base_of(board, 1), 1, 0, 0.5)
    assert scored.dead
    assert abs(scored.score - 0.5) < 1e-12


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(real_positions())
def test_three_step_survival_is_at_most_the_two_step_one(position: tuple[Board, int]) -> None:
    # Surviving this click and the next two cannot be likelier than this click and the next;
    # both are probabilities, and they agree when every reveal leaves a certain safe cell.
    board, total = position
    assume(small_enough(board))
    result = analyse(board, total)
    base = base_of(board, total)
    for index in sorted(base.position.unknown):
        r, c = divmod(index, board.width)
        p = result.probabilities[r][c]
        assert p is not None
        if p >= 1:
            continue
        two = score(base, total, index, p, {})
        three = deep_score(base, total, index, p, {}, 3)
        assert -1e-12 <= three <= two.score + 1e-12
        assert three <= 1 - p + 1e-12


def test_opening_bonus_adds_the_chance_of_a_zero() -> None:
    # The bonus is weighted by P(the cell shows 0 | safe), here counted by brute force; next
    # to the flag a cell never shows 0 (the flag counts in its number).
    board = Board(("1F...", ".....", "....."))
    total = 3
    base = base_of(board, total)
    for r, c in [(0, 4), (2, 4), (1, 1), (1, 2), (2, 0)]:
        index = r * board.width + c
        shows = [placements(board.with_cell((r, c), str(v)), total) for v in range(9)]
        p_mine = 1 - Fraction(sum(shows), placements(board, total))
        plain = score(base, total, index, float(p_mine), {})
        bonus = score(base, total, index, float(p_mine), {}, opening_bonus=0.5)
        expected = float((1 - p_mine) * Fraction(1, 2) * Fraction(shows[0], sum(shows)))
        assert abs((bonus.score - plain.score) - expected) < 1e-12


def test_three_step_survival_of_a_dead_cell() -> None:
    # (0,0) shows 1 whenever it is safe, and then (0,1) is certainly the mine: the game is
    # won, so surviving (0,0) is all there is to it.
    board = Board(("..", "11"))
    assert abs(deep_score(base_of(board, 1), 1, 0, 0.5, {}, 3) - 0.5) < 1e-12


def test_full_keeps_certainties_and_guesses_near_the_best() -> None:
    board = parse_board(DESIGN_NOTES_BOARD)
    fast = analyse(board)
    full = analyse(board, strength="full")
    assert (full.safe, full.mines, full.probabilities) == (
        fast.safe,
        fast.mines,
        fast.probabilities,
    )
    # Remove the certain cells' cover effect: a position that needs a guess.
    guess_board = Board(("1...", "....", "....", "...."))
    move = analyse(guess_board, 3, strength="full").move
    assert move is not None and move.reason == "guess"
    probs = analyse(guess_board, 3).probabilities
    best = min(p for row in probs for p in row if p is not None)
    assert move.p_mine <= best + SAFETY_MARGIN * (1 - best) + 1e-12


def naive_open(masks: list[int], around: list[int], state: tuple[int, ...], i: int) -> float:
    """The chance to win by opening cell i now and playing perfectly after."""
    parts: dict[int, list[int]] = {}
    for s in state:
        if not masks[s] >> i & 1:
            parts.setdefault((masks[s] & around[i]).bit_count(), []).append(s)
    value = sum(len(p) * naive_win(masks, around, tuple(p)) for p in parts.values())
    return value / len(state)


def naive_win(masks: list[int], around: list[int], state: tuple[int, ...]) -> float:
    """The game value by plain recursion: any informative cell may be opened, no shortcuts."""
    if len(state) == 1:
        return 1.0
    best = 0.0
    for i in range(len(around)):
        safe_in = [s for s in state if not masks[s] >> i & 1]
        if (
            len(safe_in) == len(state)
            and len({(masks[s] & around[i]).bit_count() for s in state}) == 1
        ):
            continue  # safe everywhere with a known number: opening it changes nothing
        best = max(best, naive_open(masks, around, state, i))
    return best


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(real_positions())
def test_endgame_search_is_the_game_value(position: tuple[Board, int]) -> None:
    board, total = position
    assume(small_enough(board))
    base = base_of(board, total)
    remaining = total - base.position.known_mines
    masks = endgame_placements(base.position, remaining, 60)
    assume(masks is not None and len(masks) >= 2)
    assert masks is not None
    assert len(masks) == outlook(board, total).weight
    cells = sorted(base.position.unknown)
    index = {c: i for i, c in enumerate(cells)}
    around = [sum(1 << index[n] for n in base.neighbours[c] if n in index) for c in cells]
    choice = search(base.position, remaining, base.neighbours, placement_limit=60)
    assert choice is not None
    expected = naive_win(masks, around, tuple(range(len(masks))))
    assert abs(choice.win_chance - expected) < 1e-9
    # The chosen cell is not a certain mine, and full strength plays a cell of that win chance
    # (the search's own, or the first cell of an enclosed 50/50, which is guessed before it and
    # can be as good: e.g. 2 x 5 "../4./../.3/1." with 5 mines, both 1/6).
    assert choice.p_mine < 1
    move = analyse(board, total, strength="full").move
    assert move is not None
    if move.reason == "guess":
        cell = move.row * board.width + move.col
        state = tuple(range(len(masks)))
        assert abs(naive_open(masks, around, state, index[cell]) - expected) < 1e-9


def test_enclosed_fifty_fifty_is_found_and_guessed() -> None:
    # One mine in (0,0)/(1,0); their other neighbours are open or flagged, so no
    # number can ever tell them apart.
    board = Board((".100", ".310", "FF10"))
    base = base_of(board, 3)
    pair = find_fifty_fifty(base.position.constraints, base.position.unknown, base.neighbours)
    assert pair == (0, 4)
    move = analyse(board, 3, strength="full").move
    assert move is not None and (move.row, move.col) == (0, 0) and move.p_mine == 0.5
    # Here (0,2) touches (1,1) but not (1,0): opening it can split the pair.
    board = Board(("...", "...", "11."))
    base = base_of(board, 1)
    pair = find_fifty_fifty(base.position.constraints, base.position.unknown, base.neighbours)
    assert pair is None


def test_full_on_a_big_board_with_huge_counts() -> None:
    # Placement counts here are far beyond float range; the guess must still be scored.
    board = Board.covered(60, 60).with_cell((30, 30), "2")
    move = analyse(board, 700, strength="full").move
    assert move is not None and move.reason == "guess"
    assert move.p_mine < 0.25


def test_candidate_pool_follows_the_guess_options() -> None:
    # A 1 in the corner of an empty 6x6 board: its three neighbours are 1/3, every other
    # cell is interior (one mine among many), so the pool is interior cells only.
    board = Board(("1.....",) + ("......",) * 5)
    base = base_of(board, 4)
    result = analyse(board, 4)
    flat = [p for row in result.probabilities for p in row]
    frontier = {1, 6, 7}
    open_cells = sorted(base.position.unknown)
    interior = frozenset(c for c in open_cells if c not in frontier)
    chances = {c: zero_chance(c, flat, base.neighbours) for c in open_cells}
    pool = candidates(open_cells, flat, interior, chances)
    # Interior cells are interchangeable but for their walls: corners first, at most three.
    assert pool == [5, 30, 35]
    assert candidates(open_cells, flat, interior, chances, GuessOptions(max_interior=1)) == [5]
    near = candidates(
        open_cells, flat, interior, chances, GuessOptions(interior_near_frontier=2), base.neighbours
    )
    # Plus interior cells next to the frontier, whose number can settle it.
    assert near[:3] == pool and len(near) == 5
    assert all(any(n in frontier for n in base.neighbours[c]) for c in near[3:])


def test_outlook_sees_an_enclosed_fifty_fifty() -> None:
    # Opening (0,3) with a 0 gives the board of the 50/50 test above: one mine in
    # (0,0)/(1,0), which no later number can tell apart.
    base = base_of(Board((".10.", ".310", "FF10")), 3)
    hypo = reveal(base, 3, 0)
    assert hypo is not None
    assert outlook_position(hypo, 3, neighbours=base.neighbours).fifty
    assert not outlook_position(hypo, 3).fifty  # only looked for when asked
    # Here (0,2) touches (1,1) but not (1,0): opening it can split the pair.
    open_board = base_of(Board(("...", "...", "11.")), 1)
    assert not outlook_position(open_board.position, 1, neighbours=open_board.neighbours).fifty


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(real_positions())
def test_two_step_score_is_secondary_safety(position: tuple[Board, int]) -> None:
    # The score of a cell is the chance of surviving it AND the best next click given the number
    # it shows (a certain safe cell, or a won game, counting as surviving), counted here over
    # every placement: off-frontier cells too, whose number depends on their covered neighbours.
    board, total = position
    assume(small_enough(board))
    unknown, found = all_placements(board, total)
    # A guess is only made when no covered cell is certainly safe.
    assume(found and not any(all(x not in m for m in found) for x in unknown))
    h, w = board.height, board.width
    base = base_of(board, total)
    for cell in unknown:
        index = cell[0] * w + cell[1]
        if index not in base.position.unknown:
            continue
        groups: dict[int, list[frozenset]] = {}
        for mines in found:
            if cell not in mines:
                shown = sum(
                    1
                    for n in neighbours(h, w, *cell)
                    if n in mines or board.rows[n[0]][n[1]] == "F"
                )
                groups.setdefault(shown, []).append(mines)
        expected = Fraction(0)
        for group in groups.values():
            others = [x for x in unknown if x != cell]
            safeties = [Fraction(sum(1 for m in group if x not in m), len(group)) for x in others]
            value = max((s for s in safeties if s > 0), default=Fraction(1))
            expected += Fraction(len(group), len(found)) * value
        p_mine = 1 - Fraction(sum(len(g) for g in groups.values()), len(found))
        scored = score(base, total, index, float(p_mine), {})
        assert abs(scored.score - float(expected)) < 1e-9
        assert scored.dead == (len(groups) <= 1)


def guess_inputs(
    board: Board, total: int, frontier: set[int]
) -> tuple[Base, list[float | None], list[int], frozenset[int], dict[int, float]]:
    """What `candidates`/`choose_guess` take for a board whose frontier cells are given."""
    base = base_of(board, total)
    flat = [p for row in analyse(board, total).probabilities for p in row]
    open_cells = sorted(base.position.unknown)
    interior = frozenset(c for c in open_cells if c not in frontier)
    chances = {c: zero_chance(c, flat, base.neighbours) for c in open_cells}
    return base, flat, open_cells, interior, chances


def test_linked_tie_break_prefers_the_cell_that_touches_most() -> None:
    # Interior cells of the 6x6 board above: all equally safe; the two-step score prefers a
    # corner (likeliest to open an area), the "linked" tie-break with a tolerance that
    # admits every candidate the cell with the most undecided neighbours.
    total = 4
    base, flat, open_cells, interior, chances = guess_inputs(
        Board(("1.....",) + ("......",) * 5), total, {1, 6, 7}
    )
    wide = GuessOptions(max_interior=8, max_candidates=8)
    pool = candidates(open_cells, flat, interior, chances, wide)
    touching = {c: sum(1 for n in base.neighbours[c] if n in base.position.unknown) for c in pool}
    plain = choose_guess(base, total, open_cells, flat, interior, chances, wide)
    linked = choose_guess(
        base, total, open_cells, flat, interior, chances, replace(wide, linked_tolerance=1.0)
    )
    assert plain in {5, 30, 35}
    assert linked is not None and touching[linked] == max(touching.values()) > touching[plain]


def test_interior_candidates_far_from_or_near_the_frontier() -> None:
    # A 1 in the corner of a 4x8 board: the interior corners (0,7) and (3,7) are six steps
    # from the frontier (0,1)/(1,0)/(1,1), (3,0) two steps; all have three covered neighbours.
    base, flat, open_cells, interior, chances = guess_inputs(
        Board(("1.......",) + ("........",) * 3), 5, {1, 8, 9}
    )

    def pool(sign: int) -> list[int]:
        options = GuessOptions(max_interior=3, interior_distance=sign)
        return candidates(open_cells, flat, interior, chances, options, base.neighbours)

    assert pool(1) == [7, 31, 24]
    assert pool(-1) == [24, 7, 31]
