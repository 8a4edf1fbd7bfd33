#!/usr/bin/env bash
# The win-rate and solver-time figures in the README, exactly as measured.
#
#   benchmarks/solver_winrate.sh            # 5,000 games per board (the issue's minimum)
#   GAMES=20000 benchmarks/solver_winrate.sh
#   STRENGTH=full benchmarks/solver_winrate.sh
#
# Each run's report is also saved under benchmarks/results/. Results depend only
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
MSBOT="${MSBOT:-.venv/bin/msbot}"
mkdir -p benchmarks/results

run() {
    local board="$1" rule="$2"
    local out="benchmarks/results/${board}-${rule}${SUFFIX}-${GAMES}.txt"
    echo "== msbot bench --board $board --rule $rule --games $GAMES --seed $SEED --jobs $JOBS ${STRENGTH_ARGS[*]:-}"
    {
        echo "# $(date -u +%FT%TZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)"
        echo "# git $(git rev-parse --short HEAD)"
        echo "\$ msbot bench --board $board --rule $rule --games $GAMES --seed $SEED --jobs $JOBS ${STRENGTH_ARGS[*]:-}"
        "$MSBOT" bench --board "$board" --rule "$rule" --games "$GAMES" --seed "$SEED" \
            --jobs "$JOBS" "${STRENGTH_ARGS[@]}"
    } | tee "$out"
}

run beginner safe
run intermediate safe
run expert safe
run expert zero
