#!/usr/bin/env python3
"""Checks what headless Chromium made of caffe-sim diff's HTML report (Scripts/diff-report.sh).

    check-diff-report.py DOM.html SCREENSHOT.png

The DOM (as the browser parsed it): the failed verdict naming the greeting, the table of keys that
differ with their values before and after and what the journal showed of each, one section per
change in the expected order with three example rows each, the changed words marked on both sides. The
screenshot: a PNG of the window's size that is not blank (its rows differ and use many colours).
Exit status 1 with the first thing that is wrong.
"""

import re
import struct
import sys
import zlib
from html.parser import HTMLParser


class Page(HTMLParser):
    """Headings, table rows and marked words, as text."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[str] = []
        self.rows: list[list[str]] = []
        self.header_rows: list[list[str]] = []
        self.marked: dict[str, list[str]] = {"del": [], "ins": []}
        self.verdict = ""
        self.stack: list[str] = []
        self.text = ""
        self.in_verdict = False

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        if tag in ("h2", "td", "th") or (tag in ("del", "ins") and "td" in self.stack):
            self.text = ""
        if tag == "tr":
            self.rows.append([])
            self.header_rows.append([])
        if tag == "div" and "verdict" in (dict(attrs).get("class") or ""):
            self.in_verdict = True

    def handle_endtag(self, tag):
        if tag == "h2":
            self.headings.append(" ".join(self.text.split()))
        elif tag == "td" and self.rows:
            self.rows[-1].append(" ".join(self.text.split()))
        elif tag == "th" and self.header_rows:
            self.header_rows[-1].append(" ".join(self.text.split()))
        elif tag in ("del", "ins") and "td" in self.stack:
            self.marked[tag].append(self.text)
        elif tag == "div":
            self.in_verdict = False
        if self.stack:
            self.stack.pop()

    def handle_data(self, data):
        self.text += data
        if self.in_verdict:
            self.verdict += data


def fail(message: str) -> None:
    print(f"check-diff-report: FAILED: {message}")
    sys.exit(1)


def check_dom(path: str) -> None:
    page = Page()
    page.feed(open(path, encoding="utf-8").read())
    if not page.verdict.startswith("FAILED") or "Localizable:Welcome, %@! [fr]" not in page.verdict:
        fail(f"the verdict does not fail on the greeting: {page.verdict!r}")
    expected = [
        r"confirmation · de · Menu:juice \[de\] — \d+ events allowed",
        r"confirmation · fr · Localizable:Welcome, %@! \[fr\] — \d+ events",
        r"receipt · de · Menu:juice \[de\] — \d+ events allowed",
    ]
    if len(page.headings) != len(expected) or not all(
        re.fullmatch(pattern, heading) for pattern, heading in zip(expected, page.headings)
    ):
        fail(f"sections {page.headings}")
    keys = {row[0]: row for row in page.header_rows if len(row) == 4 and row[0] != "key"}
    juice = keys.get("Menu:juice [de] changed allowed")
    if not juice or juice[1:3] != ["Saft", "Fruchtsaft"] or not re.fullmatch(r"\d+ outputs changed", juice[3]):
        fail(f"the keys table does not show Menu:juice [de] with its values and outputs: {sorted(keys)}")
    greeting = keys.get("Localizable:Welcome, %@! [fr] changed")
    if not greeting or "Bonjour" not in greeting[2] or not greeting[3].endswith("outputs changed"):
        fail(f"the keys table does not show the greeting: {greeting}")
    examples = [row for row in page.rows if len(row) == 4]
    if len(examples) != 9:
        fail(f"{len(examples)} example rows, not 3 per section")
    if set(page.marked["del"]) != {"Saft", "Bienvenu"} or set(page.marked["ins"]) != {"Fruchtsaft", "Bonjour"}:
        fail(f"marked words {page.marked}")
    print(
        f"check-diff-report: {path}: verdict, {len(keys)} keys with their values, {len(page.headings)} sections, "
        "9 examples, changed words marked"
    )


def check_png(path: str) -> None:
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path} is not a PNG")
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    if (width, height) != (1400, 1200) or depth != 8:
        fail(f"{path} is {width}x{height} at depth {depth}, not the 1400x1200 window")
    chunks, offset = [], 8
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if kind == b"IDAT":
            chunks.append(data[offset + 8:offset + 8 + length])
        offset += 12 + length
    pixels = zlib.decompress(b"".join(chunks))
    channels = {2: 3, 6: 4}.get(colour, 1)
    stride = 1 + width * channels
    rows = {pixels[row * stride + 1:(row + 1) * stride] for row in range(height)}
    colours = {pixels[i:i + channels] for i in range(1, min(len(pixels), 400 * stride), channels * 7)}
    if len(rows) < 100 or len(colours) < 50:
        fail(f"{path} looks blank: {len(rows)} distinct rows, {len(colours)} colours sampled")
    print(f"check-diff-report: {path}: {width}x{height}, {len(rows)} distinct rows, {len(colours)} colours sampled")


if __name__ == "__main__":
    check_dom(sys.argv[1])
    check_png(sys.argv[2])
