#!/usr/bin/env python3
"""Runs the README's commands as written, after its two set-up commands (which the test command
has just run): every fenced shell block and the Python block, in order, in an empty folder that
sees the build and the data folder where the README's paths expect them (build/, targets/). Only
the long trainings are shortened (the picture to 20 epochs, the sweep to 5). Fails on any command
that fails, or whose output file is missing.
Usage: readme_commands.py README BUILD_DIR SOURCE_DIR"""
import os
import re
import shlex
import subprocess
import sys

SETUP = {"bash tools/build.sh", "bash tools/test.sh"}  # run by the test command itself
# (pattern, replacement): shortened for the test, nothing else changed.
SHORTER = [(r"(dlca train image .*)$", r"\1 --epochs 20"),
           (r"(dlca sweep .*)$", r"\1 --epochs 5"),
           (r'target="targets/pictures/heart.png"\)', r'target="targets/pictures/heart.png", epochs=20)')]
# Files the commands say they write.
WRITTEN = ["runs/checkerboard_sync-seed23/model.json", "heart.json", "heart.gif", "cb.json",
           "page.html", "big.png", "sweeps/cb/summary.md"]


def blocks(text):
    """(language, body) of every fenced block."""
    return re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.S | re.M)


def shorter(line):
    for pattern, replacement in SHORTER:
        line = re.sub(pattern, replacement, line)
    return line


def main():
    readme, build, source = sys.argv[1:4]
    work = os.getcwd()
    os.symlink(os.path.abspath(build), os.path.join(work, "build"))
    os.symlink(os.path.join(os.path.abspath(source), "targets"), os.path.join(work, "targets"))
    env = dict(os.environ, PYTHONPATH=os.path.join(work, "build", "python"))
    ran = 0
    for language, body in blocks(open(readme).read()):
        if language == "python":
            code = shorter(body)
            print("$ python3 <<README block", flush=True)
            subprocess.run(["/usr/bin/python3", "-c", code], check=True, env=env)
            ran += 1
            continue
        for command in body.replace("\\\n", " ").splitlines():
            command = command.strip()
            if not command or command.startswith("#") or command in SETUP:
                continue
            command = shorter(command)
            print("$", command, flush=True)
            subprocess.run(shlex.split(command), check=True, env=env,
                           stdout=subprocess.DEVNULL if "train" in command else None)
            ran += 1
    missing = [f for f in WRITTEN if not os.path.exists(f)]
    if missing:
        sys.exit(f"readme_commands: the README's commands did not write {missing}")
    print(f"readme_commands: {ran} commands and blocks of the README ran; wrote {WRITTEN}")


if __name__ == "__main__":
    main()
