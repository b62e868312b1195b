#!/usr/bin/env python3
"""Writes the example notebooks examples/*.ipynb (without outputs) from the cells below, so that
they stay reviewable as Python. Run it after editing a cell: python3 tools/make_notebooks.py."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

CHECKERBOARD = [
    ("markdown", """# The checkerboard, end to end

Trains the paper's synchronous checkerboard with dlca's default recipe (`robust`), plots the
losses, grows the pattern on a larger grid, damages it and lets it heal, and exports the circuit
as Verilog and as a live browser page. About half a minute on 2 cores."""),
    ("code", """import dlca
import numpy as np
import matplotlib.pyplot as plt

model = dlca.train("checkerboard_sync")   # as `dlca train checkerboard`
model"""),
    ("code", """history = model.history
plt.figure(figsize=(6, 3))
plt.semilogy(history["soft_loss"], label="soft loss")
plt.semilogy(np.maximum(history["hard_loss"], 0.5), label="hard loss (wrong bits)")
plt.xlabel("epoch"); plt.legend(); plt.show()
print("hard loss", model.summary["final_hard_loss"])"""),
    ("code", """# The hard circuit on a 64x64 grid: 80 steps from random cells, a square erased, 40 more steps.
rng = np.random.default_rng(0)
start = (rng.random((64, 64, 8)) < 0.5).astype(np.uint8)
grown = model.run(start, steps=80)
damaged = grown.copy()
damaged[16:40, 16:40, :] = 0
healed = model.run(damaged, steps=40)
y, x = np.mgrid[0:64, 0:64]
pattern = (y // 2 + x // 2) % 2
for name, grid in [("grown", grown), ("damaged", damaged), ("healed", healed)]:
    print(name, "wrong cells:", int(np.sum(grid[:, :, 0] != pattern)))
fig, axes = plt.subplots(1, 3, figsize=(9, 3))
for ax, (name, grid) in zip(axes, [("grown", grown), ("damaged", damaged), ("healed", healed)]):
    ax.imshow(grid[:, :, 0], cmap="gray"); ax.set_title(name); ax.axis("off")
plt.show()"""),
    ("code", """model.export("checkerboard.v")      # Verilog; .c, .json (DigitalJS) and .html work too
model.export("checkerboard.html")   # the live page: open it in a browser
print(open("checkerboard.v").read()[:300])"""),
]

PICTURE = [
    ("markdown", """# Your own picture

Any PNG (transparent or black is empty) becomes a target: dlca picks the grid, one channel or
three and the architecture from the picture, and trains a circuit that grows it from an empty
grid. This one uses the heart of `targets/pictures` at 12x12, to finish in about a minute on 2
cores; put your own file and size in the first cell."""),
    ("code", """import os
import dlca
import matplotlib.pyplot as plt

picture = os.path.join(dlca.data_dir(), "pictures", "heart.png")   # or your own PNG
model = dlca.train("image", target=picture, size=12)
print("hard loss", model.summary["final_hard_loss"])"""),
    ("code", """# The grid after the trained steps, from an empty grid, as training grew it.
plt.figure(figsize=(3, 3))
plt.imshow(model.show(), interpolation="nearest"); plt.axis("off"); plt.show()"""),
    ("code", """model   # the live page, inline: play, step, damage it with the mouse"""),
    ("code", """model.export("picture.v")
print(open("picture.v").read()[:300])"""),
]


def notebook(cells):
    def cell(number, kind, text):
        lines = text.splitlines(keepends=True)
        if kind == "markdown":
            return {"cell_type": "markdown", "id": f"cell-{number}", "metadata": {}, "source": lines}
        return {"cell_type": "code", "execution_count": None, "id": f"cell-{number}", "metadata": {},
                "outputs": [], "source": lines}
    return {"cells": [cell(n, k, t) for n, (k, t) in enumerate(cells)],
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                        "name": "python3"},
                         "language_info": {"name": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


def main():
    folder = os.path.join(HERE, "..", "examples")
    os.makedirs(folder, exist_ok=True)
    for name, cells in [("checkerboard.ipynb", CHECKERBOARD), ("own_picture.ipynb", PICTURE)]:
        with open(os.path.join(folder, name), "w") as out:
            json.dump(notebook(cells), out, indent=1)
            out.write("\n")


if __name__ == "__main__":
    main()
