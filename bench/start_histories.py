#!/usr/bin/env python3
"""Where each start of an unsolved multi-start run stood (results/log/training.md, "Can a repair
close the pictures' last cells?"): for every candidate a checkpoint holds (`dlca train --save`, or a
sweep's models/ folder), its start seed, its hard and soft loss every EVERY epochs from FROM on, and
its lowest hard loss with the epoch it was measured at (train the start seed for exactly that many
epochs, with `--starts 1` and the run's schedule given explicitly, to get those parameters back).

Usage: bench/start_histories.py [--every N] [--from EPOCH] MODEL.json [MODEL.json ...]
"""
import argparse
import json
import sys


def describe(path, every, first):
    with open(path) as f:
        model = json.load(f)
    multi = model.get("multi_start") or {}
    candidates = multi.get("candidates") or []
    if not candidates:
        training = model.get("training")
        if training is None:
            return [f"{path}: a final model, no training history (save a checkpoint)"]
        chosen = multi.get("chosen", 0)
        candidates = [{"start": chosen, "seed": model["config"]["seed"], "training": training}]
        header = (f"{path}: start {chosen} of {multi['starts']} kept, the only history stored"
                  if multi else f"{path}: one run")
    else:
        chosen = multi.get("chosen")
        header = f"{path}: {len(candidates)} starts, start {chosen} kept"
    lines = [header]
    for index, candidate in enumerate(candidates):
        history = candidate["training"]["history"]
        hard, soft = history["hard_loss"], history["soft_loss"]
        name = f"  start {candidate.get('start', index)} (seed {candidate['seed']})"
        if not hard:
            lines.append(f"{name}: no epochs trained")
            continue
        lowest = min(hard)
        lines.append(f"{name}: lowest hard loss {lowest:g} at epoch {hard.index(lowest)}, "
                     f"last {hard[-1]:g}")
        epochs = range(first, len(hard), every)
        measured = candidate["training"].get("measured")
        if measured is not None:
            lines.append(f"    then hard loss {measured['hard_loss']:g} at epoch {len(hard)}: the "
                         "parameters kept (a run stopped when solved)")
        lines.append("    epoch " + " ".join(f"{e:>7}" for e in epochs))
        lines.append("    hard  " + " ".join(f"{hard[e]:>7g}" for e in epochs))
        lines.append("    soft  " + " ".join(f"{soft[e]:>7.3g}" for e in epochs))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="+", metavar="MODEL.json")
    parser.add_argument("--every", type=int, default=250, help="epochs between columns")
    parser.add_argument("--from", dest="first", type=int, default=0, help="first epoch shown")
    args = parser.parse_args()
    if args.every < 1 or args.first < 0:
        sys.exit("start_histories.py: --every must be at least 1 and --from at least 0")
    status = 0
    for path in args.models:
        try:
            print("\n".join(describe(path, args.every, args.first)))
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"start_histories.py: {path}: {e}", file=sys.stderr)
            status = 1
    sys.exit(status)


if __name__ == "__main__":
    main()
