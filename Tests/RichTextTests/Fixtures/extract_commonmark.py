#!/usr/bin/env python3
"""Regenerate commonmark-spec.json and commonmark-inline.json.

Usage:
    python3 extract_commonmark.py SOURCE [--out-dir DIR]

SOURCE is either
  * the CommonMark spec text (spec.txt, or markdown-it-py's copy of it,
    tests/test_cmark_spec/spec.md), which is parsed here the same way the
    spec's own tools/spec_tests.py does it, or
  * the spec's published spec.json (markdown-it-py ships it as
    tests/test_cmark_spec/commonmark.json), which is read as it is.
Both give the same 652 examples for spec 0.31.2.

Writes, into DIR (default: the folder of this script):
  commonmark-spec.json    every example: {example, section, markdown, html}
  commonmark-inline.json  the inline-only subset, plus "inline_html"
                          (see README.md for the rules)

Standard library only.
"""

import argparse
import collections
import json
import re
import sys
from pathlib import Path

FENCE = "`" * 32

INLINE_SECTIONS = [
    "Backslash escapes",
    "Entity and numeric character references",
    "Code spans",
    "Emphasis and strong emphasis",
    "Links",
    "Autolinks",
    "Hard line breaks",
    "Soft line breaks",
    "Textual content",
]


def parse_spec_text(text):
    """Examples from spec.txt, as the spec's tools/spec_tests.py reads them."""
    examples = []
    state = 0  # 0: prose, 1: markdown part, 2: html part
    section = ""
    markdown_lines, html_lines = [], []
    number = 0
    header_re = re.compile(r"#+ ")
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith(FENCE + " example"):
            state = 1
        elif stripped == FENCE:
            state = 0
            number += 1
            examples.append(
                {
                    "example": number,
                    "section": section,
                    "markdown": "".join(markdown_lines).replace("\u2192", "\t"),
                    "html": "".join(html_lines).replace("\u2192", "\t"),
                }
            )
            markdown_lines, html_lines = [], []
        elif stripped == "." and state == 1:
            state = 2
        elif state == 1:
            markdown_lines.append(line)
        elif state == 2:
            html_lines.append(line)
        elif state == 0 and header_re.match(line):
            section = header_re.sub("", line, count=1).strip()
    return examples


def load_examples(path):
    text = Path(path).read_text(encoding="utf-8")
    if str(path).endswith(".json"):
        data = json.loads(text)
        return [
            {
                "example": e["example"],
                "section": e["section"],
                "markdown": e["markdown"],
                "html": e["html"],
            }
            for e in data
        ]
    return parse_spec_text(text)


# --- inline subset ---------------------------------------------------------

# Lines that start a block (or are not paragraph text) in CommonMark.
BLOCK_START = [
    ("ATX heading", re.compile(r"^ {0,3}#")),
    ("block quote", re.compile(r"^ {0,3}>")),
    ("'-' (list / thematic break / setext)", re.compile(r"^ {0,3}-")),
    ("'* ' bullet", re.compile(r"^ {0,3}\*[ \t]")),
    ("'+ ' bullet", re.compile(r"^ {0,3}\+[ \t]")),
    ("ordered list", re.compile(r"^ {0,3}\d{1,9}[.)]")),
    ("table pipe", re.compile(r"^ {0,3}\|")),
    # (an info string after a backtick fence may not hold a backtick, so
    # "```foo``" is paragraph text: a code-span test, kept)
    ("code fence", re.compile(r"^ {0,3}(`{3,}[^`]*$|~{3,})")),
    ("setext '=' underline", re.compile(r"^ {0,3}=+[ \t]*$")),
]
INDENTED_CODE = re.compile(r"^( {4}| {0,3}\t)")
# A link reference definition opens the paragraph: [label]: (label may span lines)
LINK_REF_DEF = re.compile(r"^ {0,3}\[(?:[^\[\]\\]|\\.)+\]:", re.S)
# Raw HTML: open/closing tags, comments, processing instructions, declarations, CDATA
HTML_LIKE = re.compile(
    r"</?[A-Za-z][A-Za-z0-9-]*(?=[\s/>])[^<>]*>?|<!--|<\?|<![A-Za-z]|<!\[CDATA\["
)


def reject_reason(ex):
    """None if the example fits an inline-only parser, else why not."""
    md, html = ex["markdown"], ex["html"]
    body = md[:-1] if md.endswith("\n") else md
    lines = body.split("\n")
    if not body.strip():
        return "empty"
    if any(not l.strip() for l in lines):
        return "blank line"
    if INDENTED_CODE.match(lines[0]):
        return "4-space indent"
    for i, line in enumerate(lines):
        for name, rx in BLOCK_START:
            if rx.match(line):
                return name + (" (line %d)" % (i + 1) if i else "")
    if LINK_REF_DEF.match(body):
        return "link reference definition"
    # Raw HTML: a tag-like run of the markdown that reaches the html verbatim
    # (i.e. was passed through, not escaped as text or inside a code span).
    for m in HTML_LIKE.finditer(md):
        if m.group(0) in html:
            return "raw HTML"
    if not (html.startswith("<p>") and html.endswith("</p>\n")):
        return "html is not one <p>"
    inner = html[3:-5]
    if "<p>" in inner or "</p>" in inner:
        return "html is not one <p>"
    # Anything the renderer makes that is not inline would show up as a block tag.
    if re.search(r"</?(h[1-6]|ul|ol|li|blockquote|pre|hr|table|div)\b", inner):
        return "block element in html"
    return None


def inline_subset(examples):
    out, rejected = [], collections.Counter()
    for ex in examples:
        if ex["section"] not in INLINE_SECTIONS:
            continue
        why = reject_reason(ex)
        if why:
            rejected[(ex["section"], why)] += 1
            continue
        item = dict(ex)
        item["inline_html"] = ex["html"][len("<p>") : -len("</p>\n")]
        out.append(item)
    return out, rejected


def dump(path, data):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(data, f, ensure_ascii=False, indent=2)
        f.write("\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("source", help="spec.txt / spec.md, or spec.json / commonmark.json")
    ap.add_argument("--out-dir", default=str(Path(__file__).resolve().parent))
    args = ap.parse_args(argv)

    examples = load_examples(args.source)
    if not examples:
        sys.exit("no examples found in %s" % args.source)
    numbers = [e["example"] for e in examples]
    if numbers != list(range(1, len(numbers) + 1)):
        sys.exit("examples are not numbered 1..N")
    missing = set(INLINE_SECTIONS) - {e["section"] for e in examples}
    if missing:
        sys.exit("sections not found: %s" % sorted(missing))

    inline, rejected = inline_subset(examples)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    dump(out / "commonmark-spec.json", examples)
    dump(out / "commonmark-inline.json", inline)

    print("examples: %d" % len(examples))
    print("inline subset: %d" % len(inline))
    kept = collections.Counter(e["section"] for e in inline)
    total = collections.Counter(e["section"] for e in examples)
    for s in INLINE_SECTIONS:
        print("  %-42s %3d of %3d" % (s, kept[s], total[s]))
    print("rejected (section, reason):")
    for (s, why), n in sorted(rejected.items()):
        print("  %-42s %-40s %3d" % (s, why, n))


if __name__ == "__main__":
    main()
