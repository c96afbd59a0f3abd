#!/bin/sh
# bench/own-builders-count.sh OUT — the own tiled transpose space of
# bench/plans/tuning-own-tiled.json in a fresh lab with 2, 4 and 8 builder
# processes and with none (--builders 0), one after another in one lease;
# each run's time budget by bench/budget.py.
for k in 2 4 8 0; do
  OUT=$1/b$k BIN=.gpu/bin RUNNER_ARGS="--no-catalog-traces --builders $k" bash bench/gpu.sh bench/plans/tuning-own-tiled.json > $1/b$k.log 2>&1
  python3 bench/budget.py $1/b$k "builders $k"
  rm -f $1/b$k/table.md $1/b$k/server.log
done
