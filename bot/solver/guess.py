"""Guess selection beyond the lowest probability (``strength="full"``).

The lowest P(mine) only maximises surviving *this* click. Among the cells
whose safety is within `SAFETY_MARGIN` of the best, `choose_guess` looks one
step further: for each candidate and each number v it could show, the
position is re-counted (`lookahead.outlook`), which gives P(safe and shows v)
exactly, and whether the solver could then proceed for free (a certain safe
cell: "progress") or else how safe its next guess would be ("secondary
safety"). The score is

    P(safe) * sum_v P(v | safe) * (1 if progress after v else next safety after v)

i.e. the chance of surviving this click and the next one, counting a free
move as surviving. Cells whose number is already determined ("dead": one
possible v) teach nothing and are skipped unless only dead cells remain.

Each feature is switchable through `GuessOptions` so its gain can be
measured by the bench (`benchmarks/bench_strength.py`).

Knobs that are off or at their old value by default, because paired A/B runs
(same games, counting the games only one variant won) showed no gain; kept
so the experiment can be repeated:

* a wider pool (`max_candidates` 16, `safety_margin` 0.2, `max_interior` 6)
  and interior cells next to the frontier (`interior_near_frontier`): the
  look-ahead nearly always picks one of the first few candidates already
  (expert safe, 1000 games: 2 and 4 games changed; intermediate: none);
* `progress_bonus` 0.2 (extra weight on "the reveal gives a safe cell"):
  expert 400 vs 405 wins of 1000 (25 vs 30 games changed hands);
* `fifty_penalty` (long-term risk: an outcome that leaves an enclosed 50/50
  is worth half): expert 406 vs 405 of 1000, one game changed;
* larger endgame limits (1000-3000 placements): the search only runs when
  the placements of the WHOLE remaining board (interior included) are that
  few, a handful of times per hundred games, and chose the same cells;
* `safety_power` (P(safe) raised to 2, 0.5 or 0.25 in the score): intermediate
  games 0..3999 +26 -27, +15 -25, +26 -51;
* `deep_top` (three-step survival for the best 3 or 5 candidates, `deep_score`):
  intermediate games 0..3999 +35 -48 both, games 4000..7999 +35 -34 (top 3), at about
  twice the CPU per game: surviving three steps instead of two is no better a guide to
  winning; `safety_power` 1.5 / 0.75, games 0..3999: +17 -16, +9 -15;
* `opening_bonus` (extra score per unit of P(the cell shows 0 | safe)):
  intermediate games 0..3999, 0.1: +63 -90, 0.3: +87 -130, and the other way,
  -0.1: +25 -39, -0.2: +112 -153: the two-step score weighs openings right;
* `linked_tolerance` (among candidates within that fraction of the best score, the one
  with the most undecided neighbours, "linked" cells whose number can settle the most):
  intermediate games 0..3999, 1e-9: +1 -3, 0.01: +9 -12, 0.03: +114 -157 (p 0.011):
  trading score for information loses;
* `interior_distance` (interior candidates by covered neighbours, then farthest from /
  nearest to the frontier first, instead of by the chance of a zero): intermediate games
  0..7999, far +29 -33, near +180 -185;
* larger endgame limits (4000 placements, 200,000 states): intermediate games 0..11999
  +11 -3 (p 0.06, +0.07 points), expert games 0..1999 +4 -4; `avoid_dead` off and
  `fifty_penalty` on: intermediate games 0..3999 +0 -0 and +0 -1
  (`benchmarks/results/solver-paired-issue5-20261130.txt`).

The two-step score is exactly "secondary safety" (surviving this click and the best next
one given the number shown, a certain safe cell counting as surviving), interior cells
included: `tests/test_solver_strength.py` checks it against a count over every placement.
A wider pool (`safety_margin` 0.3, 24 candidates, 8 interior) changed 2 of games 0..3999
(+1 -1): the candidates are not pruned too early.

Where the games are lost (`benchmarks/loss_profile.py`, full strength,
intermediate safe, bench seed 1, 2,000 games, 464 lost): the sum of P(mine)
over the guesses of a class is its expected number of losses. Early guesses
(over 70 % of the board covered) cost 274 games, 211 of them interior
guesses at about the mine density (0.152 mean); guesses with at most 9
placements left (which the endgame search plays exactly) 135; guesses with
10^2 to 10^11 placements left 4 in all, so a larger endgame search has
nothing to win there. On intermediate (paired, games 2000..5999 of seed 1):
interior cells next to the frontier lose (+239 -296), a narrower pool
(`safety_margin` 0.05) loses 5 games, a wider one (0.15; 0.2 with 12
candidates) changes 0 and 4 games, `progress_bonus` 0.2 +44 -55,
`fifty_penalty` none, larger endgame limits +4 -2; a first click other than
the corner loses 50 to 111 of 2,000 games; when the corner shows a number,
the next guess in another corner (what the look-ahead picks) beats (0,2),
(1,2), (2,2), the edge middle (0,8) and the centre (8,8) by 24 to 85 of 4,000
games (games 0..3999), the opposite corner ties (`benchmarks/results/README.md`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.errors import InconsistentBoardError
from bot.solver.components import split
from bot.solver.constraints import Position
from bot.solver.lookahead import Base, Outlook, make_base, outlook_position, reveal
from bot.solver.probability import CountCache, compute
from bot.solver.rules import deduce

#: Candidates: safety at least (1 - SAFETY_MARGIN) x the best safety.
SAFETY_MARGIN = 0.10
#: At most this many candidates are looked at (best first), to bound the time per guess.
MAX_CANDIDATES = 8
#: Of which at most this many interior cells (they are interchangeable but for their walls).
MAX_INTERIOR = 3


@dataclass(frozen=True)
class GuessOptions:
    """Switches for the ``full`` guess features (all on by default), for ablations."""

    lookahead: bool = True
    avoid_dead: bool = True
    endgame: bool = True
    fifty_fifty: bool = True
    #: Candidate pool: within `safety_margin` of the best safety, at most `max_candidates`
    #: cells of which at most `max_interior` interior ones.
    safety_margin: float = SAFETY_MARGIN
    max_candidates: int = MAX_CANDIDATES
    max_interior: int = MAX_INTERIOR
    #: Endgame search limits (placements of the remaining mines, distinct search states).
    endgame_placements: int = 200
    endgame_nodes: int = 4000
    #: Also look at up to this many interior cells next to the frontier (their number can
    #: settle frontier cells, unlike an interior cell far away).
    interior_near_frontier: int = 0
    #: Order of the interior candidates: 0 by the chance of a zero (fewest covered neighbours,
    #: safest ones); +1 / -1 by the number of covered neighbours, then farthest from / nearest
    #: to the frontier first (a far island is independent of what is known, a near one joins it).
    interior_distance: int = 0
    #: Long-term risk: a reveal that leaves an enclosed 50/50 behind is worth half as much
    #: (that coin flip must be taken some time, whatever comes next).
    fifty_penalty: bool = False
    #: Extra score per unit of P(the reveal gives a certain safe cell).
    progress_bonus: float = 0.0
    #: The score is P(safe) ** safety_power * (next-step value): above 1 weighs surviving this
    #: click more than the approximate value of what comes next, below 1 less.
    safety_power: float = 1.0
    #: Extra score per unit of P(the cell shows 0 | safe): an opening, unlike a lone safe
    #: cell, uncovers an area at once.
    opening_bonus: float = 0.0
    #: Three-step look-ahead: the best `deep_top` candidates by the two-step score are scored
    #: again, an outcome without progress now worth the best two-step score of the position it
    #: leaves (over its `deep_candidates` safest cells) instead of its next safety alone.
    deep_top: int = 0
    deep_candidates: int = 3
    #: "Linked" tie-break: among candidates whose score is within this fraction of the best,
    #: take the one with the most undecided neighbours (its number can settle the most cells).
    linked_tolerance: float = 0.0


@dataclass(frozen=True)
class Scored:
    cell: int
    p_mine: float
    score: float
    dead: bool


def candidates(
    open_candidates: Sequence[int],
    probabilities: Sequence[float | None],
    interior: frozenset[int],
    zero_chance: dict[int, float],
    options: GuessOptions | None = None,
    neighbours: Sequence[Sequence[int]] | None = None,
) -> list[int]:
    """The cells worth a look-ahead, best first."""
    options = options or GuessOptions()
    best = min(float(probabilities[c] or 0.0) for c in open_candidates)
    limit = best + options.safety_margin * (1.0 - best) + 1e-12
    pool = [c for c in open_candidates if float(probabilities[c] or 0.0) <= limit]
    if options.interior_distance and neighbours is not None:
        distance = _frontier_distance(open_candidates, interior, neighbours)
        sign = options.interior_distance

        def key(c: int) -> tuple[float, float, int]:
            if c not in interior:
                return (float(probabilities[c] or 0.0), -zero_chance.get(c, 0.0), c)
            covered = sum(1 for n in neighbours[c] if probabilities[n] is not None)
            return (float(probabilities[c] or 0.0), covered - sign * distance[c] / 1000, c)

        pool.sort(key=key)
    else:
        pool.sort(key=lambda c: (float(probabilities[c] or 0.0), -zero_chance.get(c, 0.0), c))
    chosen: list[int] = []
    inside = 0
    for c in pool:
        if c in interior:
            if inside >= options.max_interior:
                continue
            inside += 1
        chosen.append(c)
        if len(chosen) >= options.max_candidates:
            break
    if options.interior_near_frontier and neighbours is not None:
        frontier = {c for c in open_candidates if c not in interior}
        near = [
            c
            for c in pool
            if c in interior and c not in chosen and any(n in frontier for n in neighbours[c])
        ]
        chosen += near[: options.interior_near_frontier]
    return chosen


def _frontier_distance(
    open_candidates: Sequence[int], interior: frozenset[int], neighbours: Sequence[Sequence[int]]
) -> dict[int, int]:
    """Steps (king moves over covered cells) from each interior cell to the frontier."""
    frontier = [c for c in open_candidates if c not in interior]
    distance = dict.fromkeys(frontier, 0)
    queue = list(frontier)
    for c in queue:
        for n in neighbours[c]:
            if n in interior and n not in distance:
                distance[n] = distance[c] + 1
                queue.append(n)
    far = len(neighbours)
    return {c: distance.get(c, far) for c in interior}


def score(
    base: Base,
    total: int | None,
    cell: int,
    p_mine: float,
    cache: CountCache | None = None,
    progress_bonus: float = 0.0,
    fifty_penalty: bool = False,
    safety_power: float = 1.0,
    opening_bonus: float = 0.0,
) -> Scored:
    """Two-step survival score of opening `cell` (see the module docstring)."""
    around = base.neighbours[cell]
    mines_around = sum(1 for n in around if n in base.mines)
    undecided = sum(1 for n in around if n in base.position.unknown)
    outcomes = []
    zero_weight = 0
    for v in range(mines_around, mines_around + undecided + 1):
        position = reveal(base, cell, v)
        if position is None:
            continue
        result = outlook_position(
            position, total, cache=cache, neighbours=base.neighbours if fifty_penalty else None
        )
        if result.weight:
            outcomes.append(result)
            if v == 0:
                zero_weight = result.weight
    weight = sum(o.weight for o in outcomes)
    if not weight:
        return Scored(cell, p_mine, 0.0, True)
    # Ratios first: weights are exact integers far beyond float range on big boards.
    expected = sum((o.weight / weight) * _value(o) for o in outcomes)
    if opening_bonus:
        expected += opening_bonus * (zero_weight / weight)
    if progress_bonus:
        expected += progress_bonus * sum(o.weight / weight for o in outcomes if o.progress)
    return Scored(cell, p_mine, (1.0 - p_mine) ** safety_power * expected, len(outcomes) <= 1)


def follow_up(
    base: Base, position: Position, total: int | None, cache: CountCache, width: int
) -> float:
    """Value of a position reached without progress: the best two-step score among its
    `width` safest cells (frontier cells by P(mine), then the interior cell with the
    fewest covered neighbours), 1.0 when something is certainly safe."""
    try:
        deduction = deduce(position, total)
    except InconsistentBoardError:
        return 0.0
    if deduction.safe:
        return 1.0
    frontier = frozenset(c for con in deduction.constraints for c in con.cells)
    interior = position.unknown - deduction.mines - frontier
    probs = compute(split(deduction.constraints), deduction, interior, cache=cache)
    if not probs.consistent or not probs.exact:
        return 0.0
    p: dict[int, float] = {c: float(v) for c, v in probs.frontier.items() if v < 1}
    if any(v == 0 for v in p.values()):
        return 1.0
    pool = sorted(p, key=lambda c: (p[c], c))[:width]
    if interior and probs.interior is not None and probs.interior < 1:
        if probs.interior == 0:
            return 1.0
        covered = position.unknown
        corner = min(
            interior, key=lambda c: (sum(1 for n in base.neighbours[c] if n in covered), c)
        )
        p[corner] = float(probs.interior)
        pool = sorted([*pool, corner], key=lambda c: (p[c], c))[:width]
    if not pool:
        return 1.0  # every covered cell is a mine: won
    after = make_base(
        position, deduction.constraints, frozenset(), deduction.mines, base.mines, base.neighbours
    )
    return max(score(after, total, c, p[c], cache).score for c in pool)


def deep_score(
    base: Base, total: int | None, cell: int, p_mine: float, cache: CountCache, width: int
) -> float:
    """Three-step survival of opening `cell`: like `score`, but an outcome without progress
    is worth `follow_up` of the position it leaves."""
    around = base.neighbours[cell]
    mines_around = sum(1 for n in around if n in base.mines)
    undecided = sum(1 for n in around if n in base.position.unknown)
    weighted: list[tuple[int, float]] = []
    for v in range(mines_around, mines_around + undecided + 1):
        position = reveal(base, cell, v)
        if position is None:
            continue
        result = outlook_position(position, total, cache=cache)
        if not result.weight:
            continue
        value = 1.0 if result.progress else follow_up(base, position, total, cache, width)
        weighted.append((result.weight, value))
    weight = sum(w for w, _ in weighted)
    if not weight:
        return 0.0
    return (1.0 - p_mine) * sum((w / weight) * value for w, value in weighted)


def _value(o: Outlook) -> float:
    """Chance to survive the next step after an outcome (a free move counts as surviving);
    halved when the outcome leaves an enclosed 50/50, unless that pair is the next guess."""
    value = 1.0 if o.progress else o.next_safety
    if o.fifty:
        value = 0.5 * (value if value > 0.5 + 1e-9 else 1.0)
    return value


def choose_guess(
    base: Base,
    total: int | None,
    open_candidates: Sequence[int],
    probabilities: Sequence[float | None],
    interior: frozenset[int],
    zero_chance: dict[int, float],
    options: GuessOptions = GuessOptions(),
) -> int | None:
    """The cell to guess, or None to keep the baseline choice."""
    if not options.lookahead and not options.avoid_dead:
        return None
    pool = candidates(
        open_candidates, probabilities, interior, zero_chance, options, base.neighbours
    )
    if len(pool) <= 1:
        return None
    scored = []
    cache: CountCache = {}
    for c in pool:
        p_mine = float(probabilities[c] or 0.0)
        if options.lookahead:
            scored.append(
                score(
                    base,
                    total,
                    c,
                    p_mine,
                    cache,
                    options.progress_bonus,
                    options.fifty_penalty,
                    options.safety_power,
                    options.opening_bonus,
                )
            )
        else:
            undecided = sum(1 for n in base.neighbours[c] if n in base.position.unknown)
            scored.append(Scored(c, p_mine, 0.0, undecided == 0))
    live = [s for s in scored if not s.dead] if options.avoid_dead else scored
    if not live:
        return None
    if options.lookahead and options.deep_top > 1:
        top = sorted(live, key=lambda s: (-s.score, s.p_mine, s.cell))[: options.deep_top]
        deep = {
            s.cell: deep_score(base, total, s.cell, s.p_mine, cache, options.deep_candidates)
            for s in top
        }
        best = max(top, key=lambda s: (deep[s.cell], s.score, -s.p_mine, -s.cell))
    elif options.lookahead and options.linked_tolerance > 0:
        floor = max(s.score for s in live) * (1.0 - options.linked_tolerance)
        unknown = base.position.unknown
        best = max(
            (s for s in live if s.score >= floor),
            key=lambda s: (
                sum(1 for n in base.neighbours[s.cell] if n in unknown),
                s.score,
                -s.p_mine,
                -s.cell,
            ),
        )
    elif options.lookahead:
        best = max(live, key=lambda s: (s.score, -s.p_mine, -s.cell))
    else:
        best = min(live, key=lambda s: (s.p_mine, -zero_chance.get(s.cell, 0.0), s.cell))
    return best.cell
