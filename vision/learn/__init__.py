"""Learning a skin: the pure parts (pictures and facts in, names with their proofs out).

The live learner (`bot.learning`, which clicks) uses `grid` (the lattice of
tiles), `cluster` and `looks` (the catalogue of cell pictures), `flag_counter`
(the counter, from msbot's own flags), `proof` (a value named only when SAT
proves it) and `draft` (the skin being learned, written with its evidence);
`audit` checks a learned skin's readings against the game's rules. The older
learner from screenshots lives apart, in `screenshots`.
"""
