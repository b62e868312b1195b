#!/usr/bin/env python3
"""Runs an example notebook (examples/*.ipynb) with nbclient in an empty folder, as the test
command does: fails on any cell's error, and unless every EXPECTED text occurs in the notebook's
outputs. Prints ctest's skip marker (tests/README.md) where nbclient or ipykernel is missing.
Usage: run_notebook.py NOTEBOOK [--timeout S] EXPECTED..."""
import argparse
import os
import sys


def outputs_text(notebook):
    texts = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if "text" in output:
                texts.append(output["text"])
            for value in output.get("data", {}).values():
                if isinstance(value, str):
                    texts.append(value)
    return "\n".join(texts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook")
    parser.add_argument("expected", nargs="*")
    parser.add_argument("--timeout", type=int, default=900, help="seconds a cell may take")
    options = parser.parse_args()
    try:
        import nbformat
        from nbclient import NotebookClient
        import ipykernel  # noqa: F401 (the kernel nbclient starts)
    except ImportError as missing:
        print(f"DLCA_TEST_SKIPPED: {missing} (Debian's python3-nbclient, python3-ipykernel)")
        return 0
    notebook = nbformat.read(options.notebook, as_version=4)
    client = NotebookClient(notebook, timeout=options.timeout, kernel_name="python3",
                            resources={"metadata": {"path": os.getcwd()}})
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    text = outputs_text(notebook)
    missing = [e for e in options.expected if e not in text]
    if missing:
        print(text)
        sys.exit(f"run_notebook: {options.notebook}: no {missing} in the outputs")
    nbformat.write(notebook, "executed.ipynb")
    print(f"run_notebook: {os.path.basename(options.notebook)} ran, outputs show {options.expected}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
