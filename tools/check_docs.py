#!/usr/bin/env python3
"""Checks the documentation (docs/development.md, "The test suite"): README.md has at most 150
lines, and every relative link in README.md and docs/*.md points to a file inside the repository
that exists, and to a heading of it when the link names one (`file.md#heading`, GitHub's anchors).

Usage: check_docs.py [REPO_ROOT]. Prints one line per problem and exits 1, else prints
"docs checked: N files, M links" and exits 0."""
import os
import re
import sys

MAX_README_LINES = 150
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose_lines(text, keep_code=False):
    """The numbered lines of a markdown text outside fenced code blocks; inline code removed
    unless keep_code (a heading keeps its words)."""
    inside = False
    for number, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line):
            inside = not inside
        elif not inside:
            yield number, line if keep_code else re.sub(r"`[^`]*`", "", line)


def anchors(path):
    """GitHub's anchors of a markdown file's headings: lower case, punctuation dropped, spaces as
    hyphens, a repeated one numbered -1, -2, ..."""
    seen = {}
    with open(path, encoding="utf-8") as f:
        for _, line in prose_lines(f.read(), keep_code=True):
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
                seen[slug] = seen.get(slug, -1) + 1
                yield slug if seen[slug] == 0 else f"{slug}-{seen[slug]}"


def main():
    root = os.path.realpath(sys.argv[1] if len(sys.argv) > 1 else
                            os.path.join(os.path.dirname(__file__), ".."))
    problems = []
    readme = os.path.join(root, "README.md")
    with open(readme, encoding="utf-8") as f:
        lines = f.read().count("\n")
    if lines > MAX_README_LINES:
        problems.append(f"README.md: {lines} lines, more than {MAX_README_LINES}")
    docs = os.path.join(root, "docs")
    files = [readme] + sorted(os.path.join(docs, name) for name in os.listdir(docs)
                              if name.endswith(".md"))
    links = 0
    for path in files:
        shown = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for number, line in prose_lines(text):
            for target in LINK.findall(line):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:, ...
                    continue
                links += 1
                where = f"{shown}:{number}: link {target}"
                file_part, _, anchor = target.partition("#")
                linked = os.path.realpath(os.path.join(os.path.dirname(path), file_part)) \
                    if file_part else path
                if os.path.commonpath([linked, root]) != root:
                    problems.append(f"{where} leaves the repository")
                elif not os.path.exists(linked):
                    problems.append(f"{where}: no such file")
                elif anchor and linked.endswith(".md") and anchor not in set(anchors(linked)):
                    problems.append(f"{where}: no heading #{anchor} in "
                                    f"{os.path.relpath(linked, root)}")
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"docs checked: {len(files)} files, {links} links")
    return 0


if __name__ == "__main__":
    sys.exit(main())
