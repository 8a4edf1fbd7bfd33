"""The older learner: a skin from screenshots, named by game logic (`learn-skin NAME SHOT...`).

Kept apart from the live learner for a person who has pictures of a clone but
cannot let msbot click it: a game on another machine or platform, frames of
a video, a recording. It reads the grid and clusters the cells as the live
learner does (`vision.learn.grid`, `vision.learn.cluster`), then names the
clusters by what the game's rules allow (`naming`, across cell sizes
`sizes`), learns a counter (`counter`, `text_counter`) and a face (`face`),
fits the tiles to the reader's cuts (`fit`) and writes the skin (`writer`);
`pipeline` runs it all. `learn-skin NAME --live` is the way to learn a clone
on this machine: its names come with proofs from msbot's own clicks.
"""
