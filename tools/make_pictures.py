#!/usr/bin/env python3
"""Writes the benchmark set of user-like pictures into targets/pictures/ (or the folder given):
one-colour and multi-colour shapes of 16 to 32 pixels on a transparent background, as a newcomer
would draw them, for `dlca train image --target targets/pictures/NAME.png`:

  heart.png  24x24  red heart                       (one colour: mono)
  letter.png 16x16  white letter A                  (mono)
  arrow.png  20x20  blue arrow pointing right       (mono)
  ring.png   24x24  green ring                      (mono)
  smiley.png 24x24  yellow face, red mouth          (two colours: 8colour)
  flag.png   32x32  blue, white and red stripes     (three colours: 8colour)

Each shape is drawn from its equation on a grid of cell centres, so the files are exact and the
script is their source. Standard library only (the PNG writer of make_paper_targets.py)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_paper_targets  # noqa: E402

make_paper_targets.COLOURS["W"] = (255, 255, 255, 255)  # white: all three 8-colour channels
png = make_paper_targets.png


def draw(size, shade):
    """Rows of colour letters: shade(x, y) with x, y in [-1, 1] (y up) at each cell centre."""
    rows = []
    for row in range(size):
        y = 1 - 2 * (row + 0.5) / size
        rows.append("".join(shade(-1 + 2 * (col + 0.5) / size, y) for col in range(size)))
    return rows


def heart(x, y):
    x, y = 1.25 * x, 1.25 * y + 0.15
    return "R" if (x * x + y * y - 1) ** 3 - x * x * y ** 3 <= 0 else "."


def ring(x, y):
    return "G" if 0.45 <= (x * x + y * y) ** 0.5 <= 0.85 else "."


def arrow(x, y):
    shaft = -0.8 <= x <= 0.1 and abs(y) <= 0.22
    head = 0.1 <= x <= 0.85 and abs(y) <= 0.75 * (0.85 - x) / 0.75
    return "B" if shaft or head else "."


def smiley(x, y):
    r = (x * x + y * y) ** 0.5
    if r > 0.9:
        return "."
    if ((x - 0.33) ** 2 + (y - 0.3) ** 2) ** 0.5 < 0.14 or ((x + 0.33) ** 2 + (y - 0.3) ** 2) ** 0.5 < 0.14:
        return "."  # eyes
    if 0.38 <= ((x * x + (y - 0.05) ** 2) ** 0.5) <= 0.56 and y < -0.05:
        return "R"  # mouth
    return "Y"


def flag(x, y):
    if abs(y) > 0.65:
        return "."
    return "B" if x < -1 / 3 else "W" if x < 1 / 3 else "R"


LETTER_A = """
................
.......##.......
......####......
......####......
.....##..##.....
.....##..##.....
....##....##....
....##....##....
...##......##...
...##########...
..############..
..##........##..
.##..........##.
.##..........##.
##............##
................
""".split()

PICTURES = {
    "heart": draw(24, heart),
    "letter": [row.replace("#", "W") for row in LETTER_A],
    "arrow": draw(20, arrow),
    "ring": draw(24, ring),
    "smiley": draw(24, smiley),
    "flag": draw(32, flag),
}


def main():
    root = Path(__file__).resolve().parent.parent
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "targets" / "pictures"
    out.mkdir(parents=True, exist_ok=True)
    for name, rows in PICTURES.items():
        (out / (name + ".png")).write_bytes(png(rows))


if __name__ == "__main__":
    main()
