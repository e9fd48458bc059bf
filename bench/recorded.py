#!/usr/bin/env python3
"""A measured ratio beside the last one recorded, and SLOWER when it lost more than a tenth.

    python3 bench/recorded.py [--readme FILE] NAME VALUE [NAME VALUE ...]

The recorded figures are the rows of the README's performance table (its
"Benchmark" section) that NAMES below give the label of: one place, the one
a reader sees and the one a person edits after a run on a quiet machine.
A row's first cell is its label, then its date and machine in parentheses
(a row without a date shares the one of the dated row above it, as the
table says); its second cell starts with the figure, `0.99×`, or says it is
not recorded. For each NAME and VALUE (a ratio just measured) it prints one
line:

    cached / vs nginx, req/s: 0.95× against 0.99× recorded (2026-11-27, 2 cores)
    SLOWER: cached / vs nginx, req/s 0.71× against 0.99× recorded (2026-11-27, 2 cores)
    cached / vs nginx, req/s: 0.95×; none recorded in README.md

SLOWER means worse by more than 10% of the recorded figure: for a ratio
where more is better (requests/s against nginx), below 0.9 times it; for
one where less is better (a render against React's floor), above 1.1 times
it. It never fails: timings on a shared machine are for reading. Try it on
a fake table with `--readme`.
"""
import re
import sys
from pathlib import Path

# name: (the label of its README row, what it is called when printed, whether more is better)
NAMES = {
    "nginx": ("cached `/` against nginx, requests/s", "cached / vs nginx, req/s", True),
    "render-v8": ("render against React's floor, worst page, V8", "render / React's floor, worst page, V8", False),
    "render-quickjs": ("render against React's floor, worst page, QuickJS", "render / React's floor, worst page, QuickJS", False),
}
SLOWER_BY = 0.10

DATED = re.compile(r"^(?P<label>.*?) \((?P<when>\d{4}-\d{2}-\d{2})(?:[,;] (?P<machine>[^)]*))?\)$")
FIGURE = re.compile(r"^(\d+(?:\.\d+)?)×")


def recorded(readme):
    """{label: (figure or None, date, machine)} of the rows of the Benchmark section's table."""
    rows, date, machine, in_section = {}, None, None, False
    for line in readme.splitlines():
        if line.startswith("## "):
            in_section = line.strip() == "## Benchmark"
            continue
        if not in_section or not line.startswith("| "):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 2:
            continue
        label = cells[0]
        dated = DATED.match(label)
        if dated:
            label, date, machine = dated["label"], dated["when"], dated["machine"]
        figure = FIGURE.match(cells[1])
        rows[label] = (float(figure[1]) if figure else None, date, machine)
    return rows


def line(name, value, rows, source):
    label, shown, more_is_better = NAMES[name]
    figure, date, machine = rows.get(label, (None, None, None))
    if figure is None:
        return f"{shown}: {value:.2f}×; none recorded in {source}"
    when = ", ".join(part for part in (date, machine) if part)
    slower = value < figure * (1 - SLOWER_BY) if more_is_better else value > figure * (1 + SLOWER_BY)
    against = f"{value:.2f}× against {figure:.2f}× recorded" + (f" ({when})" if when else "")
    return f"SLOWER: {shown} {against}" if slower else f"{shown}: {against}"


def main(args):
    readme = Path(__file__).resolve().parent.parent / "README.md"
    if args[:1] == ["--readme"]:
        readme, args = Path(args[1]), args[2:]
    if not args or len(args) % 2 or any(name not in NAMES for name in args[::2]):
        sys.exit(f"usage: recorded.py [--readme FILE] NAME VALUE [NAME VALUE ...]; names: {', '.join(NAMES)}")
    rows = recorded(readme.read_text(encoding="utf-8"))
    for name, value in zip(args[::2], args[1::2]):
        print(line(name, float(value), rows, readme.name))


if __name__ == "__main__":
    main(sys.argv[1:])
