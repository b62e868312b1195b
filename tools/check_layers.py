#!/usr/bin/env python3
"""Checks that dlca's layers include only downward (docs/architecture.md, "Layers").

Each layer is a folder pair, src/LAYER/ and include/dlca/LAYER/, built as one CMake target
(dlca_LAYER). A file of a layer may include the public headers ("dlca/OTHER/...") of the layers
listed for it below, and the private headers ("LAYER/...") of its own src folder only. Every
violation is printed as FILE:LINE: what and why; the exit status is 1 when there is one.

Usage: check_layers.py [ROOT]   (ROOT: the repository, default: this script's parent folder)
"""
import pathlib
import re
import sys

# Each layer and the layers it may include, itself first. The order is the build order.
ALLOWED = {
    "core": ["core"],
    "io": ["io", "core"],
    "circuits": ["circuits", "io", "core"],
    "web": ["web", "circuits", "io", "core"],
    "cpu": ["cpu", "circuits", "core"],
    "vulkan": ["vulkan", "circuits", "io", "core"],
    "train": ["train", "web", "vulkan", "cpu", "circuits", "io", "core"],
}
# Above every layer: the programs, tests, benchmarks and the Python module include any of them.
SOURCE_SUFFIXES = {".cpp", ".hpp", ".h"}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def check(root):
    problems = []
    unknown_folders = []
    for top in (root / "src", root / "include" / "dlca"):
        for folder in sorted(p for p in top.iterdir() if p.is_dir()):
            if folder.name not in ALLOWED and not (top.name == "src" and folder.name == "apps"):
                unknown_folders.append(folder)
    for folder in unknown_folders:
        problems.append(f"{folder.relative_to(root)}: a folder that is not a layer of "
                        "tools/check_layers.py (add it to ALLOWED with the layers it may include)")
    for layer, allowed in ALLOWED.items():
        for top in (root / "src" / layer, root / "include" / "dlca" / layer):
            if not top.is_dir():
                continue
            for path in sorted(top.rglob("*")):
                if path.suffix not in SOURCE_SUFFIXES:
                    continue
                for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                    match = INCLUDE.match(line)
                    if not match:
                        continue
                    included = match.group(1)
                    parts = included.split("/")
                    where = f"{path.relative_to(root)}:{number}"
                    if parts[0] == "dlca" and len(parts) >= 3:
                        other = parts[1]
                        if other not in ALLOWED:
                            problems.append(f'{where}: includes "{included}", which is in no layer')
                        elif other not in allowed:
                            problems.append(f'{where}: includes "{included}": layer {layer} may '
                                            f'include only {", ".join(allowed)}, not {other}')
                    elif parts[0] == "dlca":
                        problems.append(f'{where}: includes "{included}", a header outside the '
                                        "layer folders")
                    elif len(parts) >= 2 and parts[0] in ALLOWED and parts[0] != layer:
                        problems.append(f'{where}: includes "{included}", a private header of '
                                        f"layer {parts[0]} (use its public headers)")
    return problems


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
    if not (root / "src").is_dir() or not (root / "include" / "dlca").is_dir():
        print(f"check_layers: {root}: not a dlca source tree (no src/ or include/dlca/)")
        return 2
    problems = check(root.resolve())
    for problem in problems:
        print(problem)
    if problems:
        print(f"check_layers: {len(problems)} include(s) run against the layers")
        return 1
    print(f"check_layers: every include of {', '.join(ALLOWED)} runs downward")
    return 0


if __name__ == "__main__":
    sys.exit(main())
