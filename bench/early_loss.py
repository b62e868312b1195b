#!/usr/bin/env python3
"""Does an early soft loss predict when a run solves? (issue 32, lever 4; results/log/training.md,
"Does an early loss predict a solve?"). Trains single-start checkerboard runs with robust's input-wise
gates, no repair, stopped at the first hard loss 0, for seeds FIRST..LAST, and writes each run's
per-epoch soft and hard loss and first-zero epoch as JSON.

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/early_loss.py FIRST LAST OUT.json"""
import json
import sys

import dlca


def main():
    first, last, out_path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    out = {}
    for seed in range(first, last + 1):
        soft, hard = [], []

        def record(epoch, soft_loss, hard_loss, active_gates):
            soft.append(soft_loss)
            hard.append(hard_loss)
            return True

        dlca.train("checkerboard_sync", recipe="robust", starts=1, repair=False, seed=seed,
                   epochs=1000, stop_when_solved=1, threads=1, callback=record)
        first_zero = next((i for i, h in enumerate(hard) if h == 0), None)
        out[seed] = {"soft": soft, "hard": hard, "first_zero": first_zero}
        print(seed, first_zero, flush=True)
    with open(out_path, "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
