#!/usr/bin/env python3
"""Screenshots a page written by `dlca export --html` in headless Chromium (the picture in the
README and docs/circuits.md).

  tools/page_screenshot.py PAGE.html OUT.png [--steps N] [--reset random|seed|target|clear]
      [--seed S] [--damage] [--after N]

Runs N steps from the reset (default: the page's own start), optionally erases a band across the
grid with the mouse and runs --after more steps, then saves the browser window as PNG.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "browser"))
import cdp  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page")
    parser.add_argument("out")
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--reset", choices=["random", "seed", "target", "clear"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--damage", action="store_true", help="erase a band with the mouse")
    parser.add_argument("--after", type=int, default=0, help="steps after the damage")
    parser.add_argument("--window", default="1280x1000", help="browser window, WxH")
    options = parser.parse_args()
    if not os.path.exists(options.page):
        sys.exit(f"page_screenshot: {options.page}: no such file")
    chromium = cdp.find_chromium()
    if not chromium:
        sys.exit("page_screenshot: no Chromium (the Debian package chromium)")
    width, height = (int(v) for v in options.window.split("x"))
    with cdp.Browser(chromium, width, height) as browser:
        page = browser.open("file://" + os.path.abspath(options.page))
        if options.reset:
            page.evaluate(f"dlca.reset({options.reset!r}, {options.seed})")
        page.evaluate(f"dlca.run({options.steps})")
        if options.damage:
            box = page.evaluate("(() => { const r = document.getElementById('grid')"
                                ".getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()")
            left, top, w, h = box
            page.evaluate("document.getElementById('radius').value = 3")
            page.drag([(left + w * f, top + h * (0.3 + 0.4 * f)) for f in (0.25, 0.4, 0.55, 0.7)])
            page.evaluate(f"dlca.run({options.after})")
        with open(options.out + ".tmp", "wb") as f:
            f.write(page.screenshot())
        os.replace(options.out + ".tmp", options.out)
        print(page.evaluate("JSON.stringify(dlca.info())"))


if __name__ == "__main__":
    main()
