#!/usr/bin/env bash
# The win-rate and solver-time figures in docs/benchmarks.md, exactly as measured.
#
#   benchmarks/solver_winrate.sh            # 5,000 games per board (the issue's minimum)
#   GAMES=20000 benchmarks/solver_winrate.sh
#   STRENGTH=full RUNS="expert:safe" benchmarks/solver_winrate.sh
#
# The solver-strength figures (issue 5), exactly as run for benchmarks/results/:
#   STRENGTH=full GAMES=20000 RUNS="expert:safe expert:zero" benchmarks/solver_winrate.sh
#   STRENGTH=full GAMES=10000 RUNS="beginner:safe intermediate:safe" benchmarks/solver_winrate.sh
#   ABLATION=2000 benchmarks/solver_winrate.sh   # expert safe, each full feature off, 2000 games
#
# To measure one commit while the tree is being edited, run it from an export:
#   git archive HEAD | tar -x -C /tmp/snap && cd /tmp/snap &&
#   REV=$(git -C /work/main rev-parse --short HEAD) PYTHON=/work/main/.venv/bin/python \
#       RESULTS=/work/main/benchmarks/results benchmarks/solver_winrate.sh
#
# Each run's report is also saved under $RESULTS (default benchmarks/results/). Results depend only
# on board, rule, games, seed and the solver; --jobs only changes the timings.
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES="${GAMES:-5000}"
SEED="${SEED:-1}"
JOBS="${JOBS:-2}"
STRENGTH_ARGS=()
SUFFIX=""
if [[ -n "${STRENGTH:-}" ]]; then
    STRENGTH_ARGS=(--strength "$STRENGTH")
    SUFFIX="-$STRENGTH"
fi
PYTHON="${PYTHON:-.venv/bin/python}"
# The commit measured, "+dirty" when bot/ has uncommitted changes.
if [[ -z "${REV:-}" ]]; then
    REV="$(git rev-parse --short HEAD)"
    if [[ -n "$(git status --porcelain -- bot)" ]]; then REV="$REV+dirty"; fi
fi
RESULTS="${RESULTS:-benchmarks/results}"
mkdir -p "$RESULTS"

run() {
    local board="$1" rule="$2"
    local out="$RESULTS/${board}-${rule}${SUFFIX}-${GAMES}.txt"
    echo "== msbot bench --board $board --rule $rule --games $GAMES --seed $SEED --jobs $JOBS ${STRENGTH_ARGS[*]:-}"
    {
        echo "# $(date -u +%FT%TZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)"
        echo "# git $REV"
        echo "# load before the run:$(uptime | sed 's/.*load average//')"
        echo "\$ msbot bench --board $board --rule $rule --games $GAMES --seed $SEED --jobs $JOBS ${STRENGTH_ARGS[*]:-}"
        "$PYTHON" -m bot bench --board "$board" --rule "$rule" --games "$GAMES" --seed "$SEED" \
            --jobs "$JOBS" "${STRENGTH_ARGS[@]}"
    } | tee "$out"
}

if [[ -n "${ABLATION:-}" ]]; then
    out="$RESULTS/ablation-expert-safe-${ABLATION}.txt"
    {
        echo "# $(date -u +%FT%TZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)"
        echo "# git $REV"
        echo "# load before the run:$(uptime | sed 's/.*load average//')"
        echo "\$ benchmarks/bench_strength.py --board expert --rule safe --games $ABLATION --seed $SEED --jobs $JOBS"
        PYTHONPATH="$PWD" "$PYTHON" benchmarks/bench_strength.py --board expert --rule safe \
            --games "$ABLATION" --seed "$SEED" --jobs "$JOBS"
    } | tee "$out"
    exit 0
fi

# RUNS picks some of the board:rule pairs, e.g. RUNS="expert:safe expert:zero".
for pair in ${RUNS:-beginner:safe intermediate:safe expert:safe expert:zero}; do
    run "${pair%%:*}" "${pair##*:}"
done
