"""A game's end proven by the board (`bot.play.outcome`, `bot.play.waiting.proven_won`).

KMines draws "Congratulations! You have won!" over the board the moment the
last safe cell opens; under load msbot's first picture after its clicks
already has it, and the cells under it are unreadable. The board proves the
win from what msbot knew: the cells hidden showed numbers before, or were
opened by clicks the solver called certain, and every closed cell left is a
certain mine; or, the learner's probe having found that the game takes no
more clicks, the last clicks were all certain (no mine opened). Anything less
proves nothing.
"""

from __future__ import annotations

from dataclasses import replace

from bot.board import Board
from bot.play.outcome import agreed_outcome, hidden_since, proven_outcome
from bot.play.waiting import Pending, proven_won, won_against_rules_unsure
from vision.geometry import Geometry
from vision.reading import Reading, UnknownCell

GEO = Geometry(0.0, 0.0, 20.0, 20.0, 3, 4)
#: Before the last batch: (2, 2) and (2, 3) covered; the 0 at (2, 1) makes
#: (2, 2) certainly safe, and the 2 at (1, 2) then (2, 3) the one mine left.
BEFORE = Board(("0011", "002F", "00.."))
#: After it, a notice over the middle of the board: cells (1, 1) to (2, 2) unread.
HIDDEN = [(1, 1), (1, 2), (2, 1), (2, 2)]


def _reading(rows: tuple[str, ...], unknown: list[tuple[int, int]]) -> Reading:
    cells = tuple(UnknownCell(r, c, 99.0, 0.0, "?") for r, c in unknown)
    return Reading("x", GEO, Board(rows), 1, "playing", unknown=cells)


def _pending(certain: bool) -> Pending:
    return Pending(total=2, opened=[(2, 2)], certain=certain)


def test_a_win_under_a_notice_is_proven_when_the_last_clicks_were_certain() -> None:
    # The unread cells read as covered; (2, 3) is still covered: the last mine.
    reading = _reading(("0011", "0..F", "0..."), HIDDEN)
    prev = _reading(BEFORE.rows, [])
    won = proven_won(reading, prev, _pending(certain=True))
    assert won is not None and won.status == "won"
    assert proven_outcome(reading, BEFORE, (2, 2), True, 2, ((2, 2),)) == "won"


def test_nothing_is_proven_after_a_guess_or_with_a_safe_cell_left() -> None:
    reading = _reading(("0011", "0..F", "0..."), HIDDEN)
    prev = _reading(BEFORE.rows, [])
    # A guess opened (2, 2): it may be the mine under the notice.
    assert proven_won(reading, prev, _pending(certain=False)) is None
    # A game of three mines: the closed cells cannot all be mines.
    assert proven_won(reading, prev, Pending(total=3, opened=[(2, 2)])) is None
    # Nothing opened in the batch: nothing to explain the notice by.
    assert proven_won(reading, prev, Pending(total=2)) is None


def test_a_game_that_takes_no_more_clicks_after_certain_clicks_was_won() -> None:
    # KMines during learning: the last certain click's cascade opened cells
    # under the notice, which showed covered before: the board alone proves
    # nothing, but the probe found the game over, and no certain click opens
    # a mine.
    reading = _reading(("0011", "0..F", "0..."), HIDDEN)
    before = Board(("0011", "0.2F", "0..."))
    assert proven_outcome(reading, before, (2, 2), True, 2, ((2, 2),)) is None
    assert proven_outcome(reading, before, (2, 2), True, 2, ((2, 2),), over=True) == "won"
    # After a guess the same proves nothing (the guess may have hit a mine).
    assert proven_outcome(reading, before, (2, 2), False, 2, ((2, 2),), over=True) != "won"


def test_a_guess_hidden_under_a_notice_is_a_loss_only_when_it_could_not_have_won() -> None:
    # Zoo seed 561134894: a 50/50 guess opened the last safe cell and a
    # "You won!" box came over it; the guessed cell unread was taken for a loss.
    guess = (1, 0)

    def hidden(rows: tuple[str, ...], unread: list[tuple[int, int]]) -> Reading:
        cells = tuple(UnknownCell(r, c, 99.0, 0.0, "?") for r, c in unread)
        geo = Geometry(0.0, 0.0, 20.0, 20.0, len(rows), len(rows[0]))
        return Reading("x", geo, Board(rows), None, "playing", unknown=cells)

    # One mine, in (1, 0) or (1, 1): opening (1, 0) safely leaves only the
    # mine closed, a win; the box hides which.
    before = Board(("11", ".."))
    reading = hidden(("11", ".."), [guess])
    assert proven_outcome(reading, before, guess, False, 1, (guess,)) is None
    # The game known to take no more clicks: it ended, and how is hidden.
    assert proven_outcome(reading, before, guess, False, 1, (guess,), over=True) == "over"
    # Without the total the numbers alone still allow the win.
    assert proven_outcome(reading, before, guess, False, None, (guess,)) is None
    # The same click with a safe cell left elsewhere could not have won: lost.
    before = Board(("11.", "..."))
    reading = hidden(("11.", "..."), [guess])
    assert proven_outcome(reading, before, guess, False, 1, (guess,)) == "lost"
    # Numbers that a win would break: (0, 0) says one mine, but a win would
    # leave (1, 1) and (0, 1)'s other neighbours as two.
    before = Board(("11.", "..F"))
    reading = hidden(("11.", "..F"), [guess])
    assert proven_outcome(reading, before, guess, False, None, (guess,)) == "lost"
    # Cells the box hides that were closed before may have opened in a
    # cascade (or be mines): with the safe cells hidden, nothing is proven.
    before = Board(("11.", "..."))
    reading = hidden(("11.", "..."), [guess, (0, 2), (1, 2)])
    assert proven_outcome(reading, before, guess, False, 1, (guess,)) is None
    # A guess whose cell is read is judged by what it shows, as before.
    shown = hidden(("11.", "*.F"), [])
    assert proven_outcome(shown, before, guess, False, None, (guess,)) == "lost"
    # Open with a value a learned skin has not named yet ("-") is no mine.
    opened = hidden(("1..", "-.."), [])
    assert proven_outcome(opened, before, guess, False, None, (guess,)) is None
    assert proven_outcome(opened, before, guess, False, None, (guess,), over=True) == "over"
    # Still closed, the guessed cell did not open: no mine shown (zoo seed
    # 1634120140, a guess the game ignored after its win).
    for closed in ".?F":
        ignored = hidden(("11.", closed + ".F"), [])
        assert proven_outcome(ignored, before, guess, False, None, (guess,), over=True) == "over"


def test_a_proof_stands_when_a_box_comes_over_the_board_a_moment_later() -> None:
    # Zoo seed 3002: the hit mine showed, then a "Game over" box came over the
    # board before the second look; the first picture's proof of the loss stands.
    first = _reading(("0011", "002F", "0*.."), [])
    boxed = _reading(("0011", "0..F", "0..."), HIDDEN)
    assert hidden_since("lost", None, first, boxed)
    assert hidden_since("lost", "over", first, boxed)
    # Not when a cell read in both changed (the first picture was on its way),
    # nor when the second proves the other outcome or nothing was proven.
    changed = _reading(("0012", "0..F", "0..."), HIDDEN)
    assert not hidden_since("lost", None, first, changed)
    assert not hidden_since("lost", "won", first, boxed)
    assert not hidden_since(None, None, first, boxed)


def test_a_proof_falls_when_the_cell_it_could_not_see_shows() -> None:
    # Zoo seed 1881468706: the guessed cell was still fading open, unread, and
    # the first picture proved a loss (opening it could not have won); the
    # second showed it a 0. The second knows more: the proof falls, nothing is
    # claimed, and the loop reads on (the game went on).
    guess = (2, 2)
    fading = _reading(("0011", "002F", "00.."), [guess])
    shown = _reading(("0011", "002F", "000."), [])
    assert not hidden_since("lost", None, fading, shown)
    assert not hidden_since("lost", "over", fading, shown)


def test_two_pictures_of_an_end_agree_or_the_settled_one_shows_how_it_ended() -> None:
    # Zoo seed 2113020827: the first picture caught the guessed cell before
    # its mine faded in (read covered: "over", the game took no more clicks);
    # the settled one, its "BOOM!" dialog over the board, proved the loss.
    # The two disagreed and play stopped; the settled picture says how.
    first = _reading(("0011", "002F", "0..."), [])
    settled = _reading(("0011", "0..F", "0..."), HIDDEN)
    assert agreed_outcome("over", "lost", first, settled) == "lost"
    assert agreed_outcome("over", "won", first, settled) == "won"
    assert agreed_outcome("over", "over", first, settled) == "over"
    assert agreed_outcome("lost", "lost", first, settled) == "lost"
    # A proof the settled picture shows less of only because more is hidden stands.
    assert agreed_outcome("lost", "over", _reading(("0011", "002F", "0*.."), []), settled) == "lost"
    # Won and lost disagree; so does an "over" the settled picture does not prove.
    assert agreed_outcome("won", "lost", first, settled) is None
    assert agreed_outcome("over", None, first, settled) is None


def test_a_won_board_makes_the_numbers_its_flags_contradict_unsure() -> None:
    # Every safe cell of a won game is open: its flags and covered cells are
    # mines, whoever flagged them. A 0 beside one is a cell still changing (zoo
    # seed 416153455: a flashing cell read as a 0 beside its flagged mine).
    won = Reading("x", GEO, Board(("0011", "001F", "0011")), 0, "won")
    flashing = replace(won, board=Board(("0011", "000F", "0011")))
    assert won_against_rules_unsure(won) is won  # a board that obeys the rules
    marked = won_against_rules_unsure(flashing)
    assert {(u.row, u.col) for u in marked.unknown} == {(1, 2)}
    assert not marked.certain
    # A game in play keeps its rules elsewhere (a person's flag may be wrong).
    assert won_against_rules_unsure(replace(flashing, status="playing")).certain


def test_cells_made_unsure_are_listed_once_and_unread_ones_are_left_as_they_are() -> None:
    # A 0 beside a flag and a covered cell breaks two rules: one unsure cell.
    won = Reading("x", GEO, Board(("0011", "00F.", "00.1")), 0, "won", held=frozenset({(2, 3)}))
    marked = won_against_rules_unsure(won)
    assert [(u.row, u.col) for u in marked.unknown].count((1, 1)) == 1
    again = marked.with_unsure([(1, 1), (2, 3), (0, 0)], "test")
    assert [(u.row, u.col) for u in again.unknown[len(marked.unknown) :]] == [(0, 0)]
    assert marked.with_unsure([(1, 1)], "test") is marked
