"""dlca's browser page in headless Chromium, against `dlca run` (docs/circuits.md, "The circuit in
the browser").

Usage: test_page.py CASE --dlca PATH --work DIR [--circuit FILE] [--model FILE]
  match   the page and `dlca run` give the same state after synchronous steps (and asynchronous
          ones: the page draws dlca's fire masks), for the start `dlca run --seed S` uses
  mouse   a drag with the mouse erases (or draws) cells; a checkerboard model heals back to error 0
  hostile a circuit whose file name looks like markup is shown as text, with no page error
  image_error  a colour image model trained on channel 0 alone: the page's error counts that
          channel, as `dlca run` does (it counted every plane of the target); --target PNG
Prints "DLCA_TEST_SKIPPED: reason" (tests/README.md) where Chromium, Python's PIL or the circuit
file is not there.
"""

import argparse
import base64
import io
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

try:
    from PIL import Image
except ImportError:  # the package python3-pil
    Image = None


def skip(reason):
    print("DLCA_TEST_SKIPPED: " + reason)
    sys.exit(0)


def fail(message):
    print("FAILED: " + message)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)
    print("ok: " + message)


def run(args):
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def pixels(png_bytes):
    image = Image.open(io.BytesIO(png_bytes)).convert("RGB")
    return image.size, list(image.getdata())


def page_picture(page, show):
    url = page.evaluate(f"dlca.pictureDataUrl({show!r})")
    return pixels(base64.b64decode(url.split(",", 1)[1]))


def export_page(options, source, html):
    run([options.dlca, "export", "--model" if options.model else "--circuit", source, "--html", html])
    return "file://" + os.path.abspath(html)


def compare_with_run(options, page, source_flag, source, steps, seed, height, width, periodic,
                     fire_rate=None):
    """Runs `steps` steps in the page and in `dlca run` from seed's random start; same pictures."""
    show = "rgb" if page.evaluate("dlca.info()")["channels"] >= 3 else "0"
    page.evaluate(f"dlca.resize({height}, {width}, {'true' if periodic else 'false'})")
    page.evaluate("dlca.setMode('async', %r)" % fire_rate if fire_rate else "dlca.setMode('sync')")
    page.evaluate(f"dlca.reset('random', {seed})")
    info = page.evaluate(f"dlca.run({steps})")
    mine = page_picture(page, show)
    png = os.path.join(options.work, f"run_{seed}_{height}x{width}.png")
    args = [options.dlca, "run", source_flag, source, "--seed", str(seed), "--steps", str(steps),
            "--height", str(height), "--width", str(width), "--png", png, "--quiet",
            "--periodic" if periodic else "--zero-boundary"]
    if show == "rgb":
        args.append("--rgb")
    if fire_rate:
        args += ["--async", "--fire-rate", str(fire_rate)]
    run(args)
    with open(png, "rb") as f:
        theirs = pixels(f.read())
    mode = f"asynchronous (fire rate {fire_rate})" if fire_rate else "synchronous"
    differing = sum(a != b for a, b in zip(mine[1], theirs[1]))
    check(mine[0] == theirs[0] and differing == 0,
          f"{width}x{height} {'periodic' if periodic else 'zero boundary'}, {steps} {mode} steps "
          f"from seed {seed}: the page's {show} equals dlca run's ({differing} pixels differ, "
          f"{info['alive']} live cells)")


def canvas_box(page):
    return page.evaluate("(() => { const r = document.getElementById('grid')"
                         ".getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()")


def not_blank(page, what):
    shot = page.screenshot()
    (width, height), data = pixels(shot)
    colours = len(set(data[:: max(1, len(data) // 20000)]))
    check(width > 200 and height > 200 and colours > 20,
          f"the screenshot of {what} is not blank ({width}x{height}, {colours} colours sampled)")


def case_match(options, browser):
    source_flag, source = ("--model", options.model) if options.model else ("--circuit", options.circuit)
    url = export_page(options, source, os.path.join(options.work, "page.html"))
    page = browser.open(url)
    default = page.evaluate("dlca.info()")
    compare_with_run(options, page, source_flag, source, 100, 3, default["height"], default["width"],
                     default["periodic"])
    compare_with_run(options, page, source_flag, source, 100, 11, 45, 70, not default["periodic"])
    compare_with_run(options, page, source_flag, source, 40, 5, 37, 33, default["periodic"],
                     fire_rate=0.37)
    not_blank(page, "the page")
    check(page.console_errors() == [], f"no page errors ({page.console_errors()})")


def case_mouse(options, browser):
    source = options.model or options.circuit
    url = export_page(options, source, os.path.join(options.work, "page.html"))
    page = browser.open(url)
    task = page.evaluate("dlca.info()")
    if options.model:  # a checkerboard model: grow, damage with the mouse, heal
        page.evaluate("dlca.resize(48, 48)")
        page.evaluate("dlca.reset('random', 2)")
        grown = page.evaluate("dlca.run(100)")
        check(grown["error"] == 0, f"the checkerboard grows from random (error {grown['error']})")
    else:
        page.evaluate(f"dlca.resize({task['height']}, {task['width']})")
        page.evaluate("dlca.reset('random', 2)")
    before = page.evaluate("dlca.info()")
    left, top, width, height = canvas_box(page)
    y = top + height * 0.5
    page.drag([(left + width * f, y) for f in (0.3, 0.4, 0.5, 0.6, 0.7)])
    after = page.evaluate("dlca.info()")
    check(after["alive"] < before["alive"],
          f"an erasing drag across the grid removed live cells ({before['alive']} -> {after['alive']})")
    if options.model:
        check(after["error"] > 0, f"the damage shows as error {after['error']}")
        healed = page.evaluate("dlca.run(100)")
        check(healed["error"] == 0, f"100 steps after the damage the error is back to 0 "
                                    f"({healed['error']})")
    # Drawing mode puts live cells where the mouse goes.
    page.evaluate("document.querySelector('input[name=tool][value=draw]').click()")
    page.evaluate("dlca.reset('clear')")
    page.drag([(left + width * 0.5, top + height * f) for f in (0.2, 0.5, 0.8)])
    drawn = page.evaluate("dlca.info()")
    check(drawn["alive"] > 0, f"a drawing drag on a clear grid made {drawn['alive']} live cells")
    # Play runs steps on its own.
    page.evaluate("dlca.reset('random', 4)")
    page.evaluate("dlca.play(true)")
    page.evaluate("new Promise((done) => setTimeout(done, 1500))")
    playing = page.evaluate("dlca.info()")
    page.evaluate("dlca.play(false)")
    check(playing["step"] > 0, f"Play advanced the grid by {playing['step']} steps in 1.5 s")
    not_blank(page, "the page")
    check(page.console_errors() == [], f"no page errors ({page.console_errors()})")


def case_hostile(options, browser):
    odd = os.path.join(options.work, "<!--<script>alert(1)<script>.json")
    shutil.copyfile(options.circuit, odd)
    url = export_page(options, odd, os.path.join(options.work, "hostile.html"))
    page = browser.open(url)
    title = page.evaluate("document.getElementById('source').textContent")
    check(title == os.path.basename(odd), f"the file's name is shown as text: {title!r}")
    check(page.evaluate("document.querySelectorAll('script').length") == 2,
          "the page has only its own two script elements")
    check(page.console_errors() == [], f"no page errors ({page.console_errors()})")


def case_image_error(options, browser):
    model = os.path.join(options.work, "image.json")
    run([options.dlca, "train", "image", "--target", options.target, "--colours", "8colour",
         "--size", "16", "--channels", "8", "--steps", "2", "--epochs", "3", "--threads", "1",
         "--loss-channels", "0", "--quiet", "--save", model])
    options.model = model  # export_page exports a model
    page = browser.open(export_page(options, model, os.path.join(options.work, "image.html")))
    opened = page.evaluate("dlca.info()")["step"]
    check(opened == 2, f"an image model's page opens at its trained step 2 (step {opened})")
    page.evaluate("dlca.reset('seed')")
    mine = page.evaluate("dlca.run(2)")["error"]
    out = subprocess.run([options.dlca, "run", "--model", model, "--init", "seed", "--steps", "2"],
                         check=True, capture_output=True, text=True).stdout
    line = [l for l in out.splitlines() if l.startswith("error against")][-1]
    theirs = int(line.rsplit(":", 1)[1])
    check("the channel trained: 0" in line and mine == theirs,
          f"the page's error on the channel trained ({mine}) equals dlca run's ({line})")
    check(page.console_errors() == [], f"no page errors ({page.console_errors()})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case", choices=["match", "mouse", "hostile", "image_error"])
    parser.add_argument("--dlca", required=True, help="the dlca program")
    parser.add_argument("--work", required=True, help="a folder for the files made")
    parser.add_argument("--circuit", help="a DigitalJS circuit")
    parser.add_argument("--model", help="a model file")
    parser.add_argument("--target", help="a colour PNG to train on (image_error)")
    options = parser.parse_args()
    if not options.circuit and not options.model and not options.target:
        parser.error("give --circuit, --model or --target")
    if options.circuit and not os.path.exists(options.circuit):
        skip(f"{options.circuit} is not there")
    chromium = cdp.find_chromium()
    if not chromium:
        skip("no Chromium (the Debian package chromium; tools/install_deps.sh installs it)")
    if Image is None:
        skip("Python's PIL is missing (the Debian package python3-pil)")
    os.makedirs(options.work, exist_ok=True)
    with cdp.Browser(chromium) as browser:
        {"match": case_match, "mouse": case_mouse, "hostile": case_hostile,
         "image_error": case_image_error}[options.case](options, browser)


if __name__ == "__main__":
    main()
