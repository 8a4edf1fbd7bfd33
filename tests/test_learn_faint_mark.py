"""A "?" mark that only its own cell tells from a covered cell (zoo seed 120808624).

The clone draws covered cells with noise, and its "?" is a small glyph on that
tile: nearer a covered cell than two covered cells are to each other. The
learner took it for the covered cell back at the end of the mark cycle: it
learned a cycle without "?", took its counter flags off with one click each
(leaving ten "?" on the person's board) and read them as covered cells (18
sure misreads). Now the end of the cycle is the cell's own picture again: the
"?" is learned as the cycle's third step, and the marks all come off.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from zoo_learning import learn_and_play

from zoo.spec import draw


@pytest.mark.display
def test_a_faint_question_mark_is_learned_and_no_mark_is_left(tmp_path: Path) -> None:
    spec = draw(120808624, "web")
    assert spec.qmarks and spec.covered == "noise"
    run = learn_and_play(spec, tmp_path)
    where = run.stderr
    assert run.returncode == 0, where
    assert run.skin["play"]["question_marks"] is True, where
    assert any(name["char"] == "?" for name in run.skin["learned"]["names"]), where
    # No "?" of the learner's is left: the play loop never puts one, and the
    # clone's last board keeps any it was given (all ten stayed before).
    assert run.truth.spans and "?" not in "".join(run.truth.spans[-1].board), where
    assert run.faults == 0, where
