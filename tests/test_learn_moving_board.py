"""A board that moves in its window while msbot learns it (zoo seed 1653660532).

The clone's "Flags: N" label beside the board widens at the tenth flag: its
window grows by 8 px and the board, centred, moves with it. The learner's
tenth counter flag did that, the move was taken for toolkit buttons sized by
their text, the learning stopped, and its ten probe flags stayed on the
person's board. Now the flag that moved the board comes off again (the label
and the board come back), the counter is tried with the nine before it, and
learning and play go on; the clone's own truth says no probe flag was left
when the first cell was opened.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from zoo_learning import learn_and_play

from zoo.spec import draw


@pytest.mark.display
def test_a_counter_flag_that_moves_the_board_comes_off_and_learning_goes_on(
    tmp_path: Path,
) -> None:
    spec = draw(1653660532, "tk")
    assert spec.counter == "flags"
    run = learn_and_play(spec, tmp_path)
    where = run.stderr
    assert run.returncode == 0, where
    assert any("counter flags stopped at 9" in note for note in run.skin["learned"]["notes"]), where
    # Every probe flag came off before the first cell was opened (a number,
    # or the mine this clone may put under the first click).
    opened = next(span for span in run.truth.spans if set("".join(span.board)) - set(".F?"))
    before = [span for span in run.truth.spans if span.start < opened.start]
    assert before and all("F" not in "".join(span.board) for span in before[-1:]), where
    assert run.faults == 0, where
