"""Learning a clone msbot has never seen, live, from what its own clicks do.

`vision.learn` is pure (pictures and the facts of what was clicked in,
names with their proofs out); this package holds the loops that click to
learn, beside the play loop, and clicks only through the `Actuator`:

* `bot.learning.first_look`: a fresh board: its grid, the covered tile, a
  tile drawn otherwise under the pointer, the right-click cycle (flag, "?"),
  and the mine counter, from flags placed and taken off one by one;
* `bot.learning.apprentice`: the play loop's partner while it plays with a
  skin still being learned: a picture never seen, on a cell msbot opened
  while the game went on, is an open cell of a value not known yet, named
  as soon as a value is proven, and saved into the skin with its proof;
* `bot.learning.hooks`: the two above as the play loop meets them, through
  its one small interface (`bot.play.learner.Learner`);
* `bot.learning.restart`: how the clone starts a new game, found by trying
  what clones use (a face or button that changed when the game ended, F2,
  Ctrl+N, N, S) until a fresh board shows;
* `bot.learning.settle`: waiting for the screen to show what a click did.
"""
