#!/usr/bin/env python3
"""Steps per second of dlca's browser page in headless Chromium (BENCHMARKS.md, "Browser page").

  bench/browser_page.py --dlca build/dlca --circuit CIRCUIT.json [--size 512] [--runs 5]
      [--fire-rate R]

Exports the circuit's page, sets a size x size periodic grid from random seed 1 and measures, with
the page's own clock: step + draw of every step, `--runs` times 300 steps (median), and the live
loop (Play at "as fast as it runs", drawing once per frame) for 3 seconds.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "browser"))
import cdp  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dlca", required=True)
    parser.add_argument("--circuit", required=True)
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--fire-rate", type=float, help="asynchronous steps at this fire rate")
    options = parser.parse_args()
    chromium = cdp.find_chromium()
    if not chromium:
        sys.exit("browser_page: no Chromium (the Debian package chromium)")
    with tempfile.TemporaryDirectory() as work:
        page_path = os.path.join(work, "page.html")
        subprocess.run([options.dlca, "export", "--circuit", options.circuit, "--html", page_path],
                       check=True, stdout=subprocess.DEVNULL)
        with cdp.Browser(chromium) as browser:
            page = browser.open("file://" + page_path)
            page.evaluate(f"dlca.resize({options.size}, {options.size}, true)")
            if options.fire_rate:
                page.evaluate(f"dlca.setMode('async', {options.fire_rate})")
            page.evaluate("dlca.reset('random', 1)")
            page.evaluate("dlca.benchmark(50)")  # warm-up: the kernel compiled and optimised
            rates = [page.evaluate("dlca.benchmark(300)") for _ in range(options.runs)]
            page.evaluate("document.getElementById('speed').value = 9")
            page.evaluate("dlca.play(true)")
            time.sleep(3.2)
            live = page.evaluate("dlca.info()")["measured"]
            page.evaluate("dlca.play(false)")
            version = browser.send("Browser.getVersion")["product"]
    mode = f"asynchronous (fire rate {options.fire_rate})" if options.fire_rate else "synchronous"
    print(f"{version}, {options.size}x{options.size} periodic grid, {mode}, "
          f"{os.path.basename(options.circuit)}")
    print("step + draw every step: median {:.0f} steps/s (runs: {})".format(
        statistics.median(rates), ", ".join(f"{r:.0f}" for r in rates)))
    print(f"live loop, Play as fast as it runs: {live:.0f} steps/s")


if __name__ == "__main__":
    main()
