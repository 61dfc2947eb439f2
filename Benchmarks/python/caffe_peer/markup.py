"""Inline Markdown with Apple's ``^[text](key: value)`` attributes, compiled once per catalog string,
and the three forms of a rendered text: plain, attributed runs and HTML.

The parser covers what catalog strings use: ``**strong**``, ``*em*``/``_em_``, ``~~del~~``,
code spans, ``[links](url "title")``, ``<autolinks>``, backslash escapes, entities and
``^[…](json5)`` (brackets binding like link brackets), with CommonMark's delimiter rules — enough
for ``**…！***[…](…)…*``. Format specifiers become slots before parsing, so argument text is never
read as Markdown.

Runs and HTML follow the Swift ``StyledOutput`` and ``HTMLRenderer``: presentation attributes only
(``rainbow``, ``foregroundColor``, ``dateField``; agreement keys are spent), neighbours with equal
attributes merged, values as JSON text, HTML escaped with ``data-`` attributes.
"""

from __future__ import annotations

import html.entities
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

#: Attribute keys that style output; the rest are instructions.
PRESENTATION_KEYS = frozenset({"rainbow", "foregroundColor", "dateField"})
AGREEMENT_KEYS = frozenset(
    {"inflect", "inflectionAlternative", "agreeWithArgument", "agreeWithConcept", "referentConcept", "morphology"}
)
SAFE_SCHEMES = frozenset({"http", "https", "mailto", "tel"})
#: Where a rendered document goes inside a larger string (as in the Swift core).
PLACEHOLDER = "\ufffc"
#: Where per-order plain text goes in a text rendered once.
HOLE = "\ue000"
FSI, PDI = "\u2068", "\u2069"
#: Slot markers: the n-th format specifier of a template is chr(SLOT_BASE + n) while parsing.
SLOT_BASE = 0xF0000

# An attribute set of a run, hashable: ((key, json_text), ...) sorted by key.
Attrs = tuple[tuple[str, str], ...]
NO_ATTRS: Attrs = ()


# MARK: Document tree


@dataclass(slots=True)
class Elem:
    """An element of the tree: ``em``, ``strong``, ``del``, ``code``, ``link`` or ``attrs``."""

    kind: str
    children: list[Node]
    destination: str = ""
    title: str | None = None
    attributes: dict[str, object] | None = None


Node = str | Elem


def plain_text(nodes: Sequence[Node]) -> str:
    return "".join(node if isinstance(node, str) else plain_text(node.children) for node in nodes)


# MARK: JSON (values of attributes, as the Swift JSONValue writes them)


def json_text(value: object) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value == value and abs(value) != float("inf"):
            return str(int(value)) if value == int(value) and abs(value) < 1e15 else repr(value)
        return "null"
    if isinstance(value, str):
        return _json_string(value)
    if isinstance(value, list):
        return "[" + ",".join(json_text(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(_json_string(key) + ":" + json_text(value[key]) for key in sorted(value)) + "}"
    raise TypeError(f"not a JSON value: {value!r}")


_JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def _json_string(text: str) -> str:
    out = []
    for char in text:
        escaped = _JSON_ESCAPES.get(char)
        if escaped is None and ord(char) < 0x20:
            escaped = f"\\u{ord(char):04x}"
        out.append(escaped or char)
    return '"' + "".join(out) + '"'


def json_description(value: object) -> str:
    """A value as the HTML ``data-`` attribute shows it: strings bare, others as JSON."""
    return value if isinstance(value, str) else json_text(value)


class JSON5Error(ValueError):
    pass


def parse_json5_object(body: str) -> dict[str, object]:
    """The body of ``^[…](body)``: JSON5 with an implied top-level object."""
    text = body.strip()
    parser = _JSON5(text if text.startswith("{") else "{" + body + "\n}")
    value = parser.value()
    parser.space()
    if parser.index != len(parser.text) or not isinstance(value, dict):
        raise JSON5Error("not a JSON5 object")
    return value


class _JSON5:
    _NUMBER = re.compile(r"[+-]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|Infinity|NaN)")
    _IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")

    def __init__(self, text: str) -> None:
        self.text = text
        self.index = 0

    def space(self) -> None:
        text = self.text
        while self.index < len(text):
            char = text[self.index]
            if char.isspace():
                self.index += 1
            elif text.startswith("//", self.index):
                end = text.find("\n", self.index)
                self.index = len(text) if end < 0 else end + 1
            elif text.startswith("/*", self.index):
                end = text.find("*/", self.index + 2)
                if end < 0:
                    raise JSON5Error("unclosed comment")
                self.index = end + 2
            else:
                break

    def value(self) -> object:
        self.space()
        if self.index >= len(self.text):
            raise JSON5Error("unexpected end")
        char = self.text[self.index]
        if char == "{":
            return self._object()
        if char == "[":
            return self._array()
        if char in "'\"":
            return self._string()
        for word, value in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, self.index):
                self.index += len(word)
                return value
        match = self._NUMBER.match(self.text, self.index)
        if match:
            self.index = match.end()
            literal = match.group()
            if "x" in literal.lower():
                return int(literal, 16)
            if "Infinity" in literal or "NaN" in literal:
                return float(literal.replace("Infinity", "inf"))
            number = float(literal)
            return int(number) if re.fullmatch(r"[+-]?\d+", literal) else number
        raise JSON5Error(f"unexpected {char!r}")

    def _string(self) -> str:
        quote = self.text[self.index]
        self.index += 1
        out = []
        while self.index < len(self.text):
            char = self.text[self.index]
            self.index += 1
            if char == quote:
                return "".join(out)
            if char == "\\":
                escape = self.text[self.index]
                self.index += 1
                if escape == "u":
                    out.append(chr(int(self.text[self.index : self.index + 4], 16)))
                    self.index += 4
                elif escape == "\n":
                    continue
                else:
                    out.append({"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "0": "\0"}.get(escape, escape))
            else:
                out.append(char)
        raise JSON5Error("unclosed string")

    def _object(self) -> dict[str, object]:
        self.index += 1
        result: dict[str, object] = {}
        while True:
            self.space()
            if self.text.startswith("}", self.index):
                self.index += 1
                return result
            if self.index < len(self.text) and self.text[self.index] in "'\"":
                key = self._string()
            else:
                match = self._IDENTIFIER.match(self.text, self.index)
                if not match:
                    raise JSON5Error("expected a key")
                key = match.group()
                self.index = match.end()
            self.space()
            if not self.text.startswith(":", self.index):
                raise JSON5Error("expected ':'")
            self.index += 1
            result[key] = self.value()
            self.space()
            if self.text.startswith(",", self.index):
                self.index += 1
            elif not self.text.startswith("}", self.index):
                raise JSON5Error("expected ',' or '}'")

    def _array(self) -> list[object]:
        self.index += 1
        result: list[object] = []
        while True:
            self.space()
            if self.text.startswith("]", self.index):
                self.index += 1
                return result
            result.append(self.value())
            self.space()
            if self.text.startswith(",", self.index):
                self.index += 1
            elif not self.text.startswith("]", self.index):
                raise JSON5Error("expected ',' or ']'")


# MARK: Inline parser


def _is_whitespace(char: str) -> bool:
    return char in "\t\n\f\r " or unicodedata.category(char) == "Zs"


def _is_punctuation(char: str) -> bool:
    if char.isascii():
        return char in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
    return unicodedata.category(char)[0] in "PS"


class _Delim:
    __slots__ = ("char", "count", "length", "can_open", "can_close")

    def __init__(self, char: str, count: int, can_open: bool, can_close: bool) -> None:
        self.char = char
        self.count = count
        self.length = count
        self.can_open = can_open
        self.can_close = can_close


class _Bracket:
    __slots__ = ("position", "is_attribute", "active")

    def __init__(self, position: int, is_attribute: bool) -> None:
        self.position = position
        self.is_attribute = is_attribute
        self.active = True


_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>")
_EMAIL = re.compile(
    r"<([a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*)>"
)
_ENTITY = re.compile(r"&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([A-Za-z][A-Za-z0-9]{1,31}));")


def parse_inline(text: str) -> list[Node]:
    """Parses inline Markdown into a tree."""
    out: list[object] = []  # str, Elem, _Delim
    brackets: list[_Bracket] = []
    index = 0
    pending: list[str] = []

    def flush() -> None:
        if pending:
            out.append("".join(pending))
            pending.clear()

    length = len(text)
    while index < length:
        char = text[index]
        if char == "\\" and index + 1 < length and text[index + 1].isascii() and _is_punctuation(text[index + 1]):
            pending.append(text[index + 1])
            index += 2
        elif char == "&" and (match := _ENTITY.match(text, index)):
            pending.append(_entity(match))
            index = match.end()
        elif char == "`":
            run = 0
            while index + run < length and text[index + run] == "`":
                run += 1
            close = re.compile(r"(?<!`)" + "`" * run + r"(?!`)").search(text, index + run)
            if close is None:
                pending.append("`" * run)
                index += run
            else:
                code = text[index + run : close.start()].replace("\n", " ")
                if len(code) > 1 and code[0] == " " and code[-1] == " " and code.strip(" "):
                    code = code[1:-1]
                flush()
                out.append(Elem("code", [code]))
                index = close.end()
        elif char in "*_~":
            run = 1
            while index + run < length and text[index + run] == char:
                run += 1
            if char == "~" and run != 2:
                pending.append(char * run)
                index += run
                continue
            before = text[index - 1] if index > 0 else " "
            after = text[index + run] if index + run < length else " "
            left = not _is_whitespace(after) and (
                not _is_punctuation(after) or _is_whitespace(before) or _is_punctuation(before)
            )
            right = not _is_whitespace(before) and (
                not _is_punctuation(before) or _is_whitespace(after) or _is_punctuation(after)
            )
            if char == "_":
                can_open = left and (not right or _is_punctuation(before))
                can_close = right and (not left or _is_punctuation(after))
            else:
                can_open, can_close = left, right
            flush()
            out.append(_Delim(char, run, can_open, can_close))
            index += run
        elif char == "[" or (char == "^" and index + 1 < length and text[index + 1] == "["):
            flush()
            attribute = char == "^"
            brackets.append(_Bracket(len(out), attribute))
            out.append("^[" if attribute else "[")
            index += 2 if attribute else 1
        elif char == "]" and brackets:
            flush()
            opener = brackets.pop()
            closed = None
            if opener.active:
                closed = _attribute_body(text, index + 1) if opener.is_attribute else _inline_link(text, index + 1)
            if closed is None:
                out.append("]")
                index += 1
                continue
            payload, end = closed
            if opener.is_attribute:
                try:
                    element = Elem("attrs", [], attributes=parse_json5_object(payload))
                except JSON5Error:
                    out.append("]")
                    index += 1
                    continue
            else:
                destination, title = payload
                element = Elem("link", [], destination=destination, title=title)
                for earlier in brackets:
                    if not earlier.is_attribute:
                        earlier.active = False
            _process_emphasis(out, opener.position + 1)
            element.children = _nodes(out[opener.position + 1 :])
            del out[opener.position :]
            out.append(element)
            index = end
        elif char == "<" and ((match := _AUTOLINK.match(text, index)) or (match := _EMAIL.match(text, index))):
            flush()
            target = match.group(1)
            destination = target if match.re is _AUTOLINK else "mailto:" + target
            out.append(Elem("link", [target], destination=destination))
            index = match.end()
        else:
            pending.append(char)
            index += 1
    flush()
    _process_emphasis(out, 0)
    return _nodes(out)


def _entity(match: re.Match[str]) -> str:
    hexadecimal, decimal, name = match.groups()
    if hexadecimal or decimal:
        code = int(hexadecimal, 16) if hexadecimal else int(decimal)
        return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"
    return html.entities.html5.get(name + ";", match.group(0))


def _attribute_body(text: str, start: int) -> tuple[str, int] | None:
    if start >= len(text) or text[start] != "(":
        return None
    depth = 0
    index = start
    quote = None
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if quote:
            if char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return text[start + 1 : index], index + 1
        index += 1
    return None


_LINK_TAIL = re.compile(
    r"""\(\s*(?:<([^<>\n]*)>|((?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*))"""
    r"""(?:\s+("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\)))?\s*\)""",
    re.S,
)


def _inline_link(text: str, start: int) -> tuple[tuple[str, str | None], int] | None:
    match = _LINK_TAIL.match(text, start)
    if match is None:
        return None
    destination = match.group(1) if match.group(1) is not None else match.group(2) or ""
    destination = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", destination)
    title = match.group(3)
    if title is not None:
        title = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", title[1:-1])
    return (destination, title), match.end()


def _process_emphasis(out: list[object], bottom: int) -> None:
    """CommonMark's "process emphasis" over ``out[bottom:]``, in place."""
    current = bottom
    while current < len(out):
        closer = out[current]
        if not (isinstance(closer, _Delim) and closer.can_close and closer.char in "*_~"):
            current += 1
            continue
        opener_index = None
        for candidate in range(current - 1, bottom - 1, -1):
            opener = out[candidate]
            if not (isinstance(opener, _Delim) and opener.char == closer.char and opener.can_open):
                continue
            if closer.char != "~" and (opener.can_close or closer.can_open):
                if (opener.length + closer.length) % 3 == 0 and not (opener.length % 3 == 0 and closer.length % 3 == 0):
                    continue
            if closer.char == "~" and opener.count != closer.count:
                continue
            opener_index = candidate
            break
        if opener_index is None:
            if not closer.can_open:
                out[current] = closer.char * closer.count
            current += 1
            continue
        opener = out[opener_index]
        if closer.char == "~":
            used, kind = 2, "del"
        else:
            used = 2 if opener.count >= 2 and closer.count >= 2 else 1
            kind = "strong" if used == 2 else "em"
        opener.count -= used
        closer.count -= used
        element = Elem(kind, _nodes(out[opener_index + 1 : current]))
        out[opener_index + 1 : current] = [element]
        current = opener_index + 2
        if opener.count == 0:
            del out[opener_index]
            current -= 1
        if closer.count == 0:
            del out[current]


def _nodes(items: Iterable[object]) -> list[Node]:
    """Items left after emphasis as nodes: delimiters become text, neighbouring texts join."""
    nodes: list[Node] = []
    for item in items:
        if isinstance(item, _Delim):
            item = item.char * item.count
        if isinstance(item, str):
            if not item:
                continue
            if nodes and isinstance(nodes[-1], str):
                nodes[-1] += item
                continue
        nodes.append(item)  # type: ignore[arg-type]
    return nodes


# MARK: Styled text: plain, runs, HTML


class Styled:
    """A text in the wire's three forms. ``runs`` are ``(text, attrs)`` with presentation
    attributes only, neighbours merged; ``html`` is the inline HTML fragment. ``is_plain`` says
    there is no styling at all (one run without attributes, or none), the common case that
    joining and filling take a short way through."""

    __slots__ = ("plain", "runs", "html", "is_plain")

    def __init__(
        self, plain: str, runs: tuple[tuple[str, Attrs], ...], html: str, is_plain: bool | None = None
    ) -> None:
        self.plain = plain
        self.runs = runs
        self.html = html
        self.is_plain = all(not attrs for _, attrs in runs) if is_plain is None else is_plain

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Styled) and (self.plain, self.runs, self.html) == (other.plain, other.runs, other.html)

    def __repr__(self) -> str:
        return f"Styled({self.plain!r}, {self.runs!r}, {self.html!r})"

    @staticmethod
    def unstyled(text: str) -> Styled:
        return Styled(text, ((text, NO_ATTRS),) if text else (), escape(text), True)

    def fill(self, text: str) -> Styled:
        """This text with ``text`` in its hole (see :data:`HOLE`)."""
        html = self.html.replace(HOLE, escape(text))
        if self.is_plain:
            plain = self.plain.replace(HOLE, text)
            return Styled(plain, ((plain, NO_ATTRS),) if plain else (), html, True)
        runs = tuple((run.replace(HOLE, text), attrs) for run, attrs in self.runs)
        return Styled(self.plain.replace(HOLE, text), tuple(run for run in runs if run[0]), html)


def styled(nodes: Sequence[Node]) -> Styled:
    """The three forms of a document."""
    runs: list[list] = []
    _flatten(nodes, (), None, (), runs)
    return Styled(
        "".join(text for _, text in runs),
        tuple((text, attrs) for attrs, text in runs),
        render_html(nodes),
    )


_INTENT_ORDER = ("stronglyEmphasized", "emphasized", "code", "strikethrough")
_INTENT_OF = {"strong": "stronglyEmphasized", "em": "emphasized", "code": "code", "del": "strikethrough"}


def _run_attrs(intents: tuple[str, ...], link: str | None, attributes: tuple[tuple[str, str], ...]) -> Attrs:
    pairs = list(attributes)
    if intents:
        names = [name for name in _INTENT_ORDER if name in intents]
        pairs.append(("inlinePresentationIntent", json_text(names)))
    if link is not None:
        pairs.append(("link", json_text(link)))
    return tuple(sorted(pairs))


def _flatten(
    nodes: Sequence[Node], intents: tuple[str, ...], link: str | None, attributes: tuple, runs: list[list]
) -> None:
    for node in nodes:
        if isinstance(node, str):
            if not node:
                continue
            attrs = _run_attrs(intents, link, attributes)
            if runs and runs[-1][0] == attrs:
                runs[-1][1] += node
            else:
                runs.append([attrs, node])
            continue
        kind = node.kind
        if kind == "code":
            _flatten(node.children, intents + ("code",), link, attributes, runs)
        elif kind in _INTENT_OF:
            _flatten(node.children, intents + (_INTENT_OF[kind],), link, attributes, runs)
        elif kind == "link":
            _flatten(node.children, intents, node.destination, attributes, runs)
        else:
            merged = dict(attributes)
            for key, value in (node.attributes or {}).items():
                if key in PRESENTATION_KEYS:
                    merged[key] = json_text(value)
            _flatten(node.children, intents, link, tuple(sorted(merged.items())), runs)


def escape(text: str) -> str:
    """Escapes ``& < > "`` for HTML text and attribute values."""
    if "&" in text or "<" in text or ">" in text or '"' in text:
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    return text


_HREF_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.+!*(),%#@?=;:/$~")


def escape_href(destination: str) -> str:
    out = []
    for byte in destination.encode("utf-8"):
        char = chr(byte)
        if char == "&":
            out.append("&amp;")
        elif char == "'":
            out.append("&#x27;")
        elif char in _HREF_SAFE:
            out.append(char)
        else:
            out.append(f"%{byte:02X}")
    return "".join(out)


def _is_allowed(destination: str) -> bool:
    stripped = destination.lstrip(" ")
    scheme, colon, _ = stripped.partition(":")
    if not colon or any(char in scheme for char in "/?#"):
        return True
    return scheme.lower() in SAFE_SCHEMES


def _data_name(key: str) -> str:
    out = []
    for char in key:
        if "A" <= char <= "Z":
            out.append("-" + char.lower())
        elif (char.isascii() and char.isalnum()) or char in "-_.":
            out.append(char)
        else:
            out.append("_")
    return "".join(out)


def render_html(nodes: Sequence[Node]) -> str:
    out: list[str] = []
    _html(nodes, out)
    return "".join(out)


_TAGS = {"em": "em", "strong": "strong", "del": "del"}


def _html(nodes: Sequence[Node], out: list[str]) -> None:
    for node in nodes:
        if isinstance(node, str):
            out.append(escape(node))
            continue
        kind = node.kind
        if kind in _TAGS:
            out.append(f"<{_TAGS[kind]}>")
            _html(node.children, out)
            out.append(f"</{_TAGS[kind]}>")
        elif kind == "code":
            out.append("<code>" + escape(plain_text(node.children)) + "</code>")
        elif kind == "link":
            if not _is_allowed(node.destination):
                _html(node.children, out)
                continue
            out.append('<a href="' + escape_href(node.destination) + '"')
            if node.title is not None:
                out.append(' title="' + escape(node.title) + '"')
            out.append(">")
            _html(node.children, out)
            out.append("</a>")
        else:
            shown = sorted((key, value) for key, value in (node.attributes or {}).items() if key in PRESENTATION_KEYS)
            if not shown:
                _html(node.children, out)
                continue
            out.append("<span")
            for key, value in shown:
                out.append(" data-" + _data_name(key) + '="' + escape(json_description(value)) + '"')
            out.append(">")
            _html(node.children, out)
            out.append("</span>")


def join_styled(pieces: Sequence[Styled], separator: str = "\n") -> tuple[str, list[tuple[str, Attrs]]]:
    """Pieces joined by ``separator`` (unstyled): the plain text and the runs, neighbours with
    equal attributes merged across the seams (the Swift ``StyledTextBuilder``)."""
    plain = separator.join([piece.plain for piece in pieces])
    runs: list[tuple[str, Attrs]] = []
    if all(piece.is_plain for piece in pieces):
        if plain:
            runs.append((plain, NO_ATTRS))
        return plain, runs
    pending: list[str] = []  # unstyled text not yet in a run
    for index, piece in enumerate(pieces):
        if index and separator:
            pending.append(separator)
        if piece.is_plain:
            pending.append(piece.plain)
            continue
        for text, attrs in piece.runs:
            if not attrs:
                pending.append(text)
                continue
            if pending:
                joined = "".join(pending)
                pending.clear()
                if joined:
                    runs.append((joined, NO_ATTRS))
            if runs and runs[-1][1] == attrs:
                runs[-1] = (runs[-1][0] + text, attrs)
            else:
                runs.append((text, attrs))
    joined = "".join(pending)
    if joined:
        runs.append((joined, NO_ATTRS))
    return plain, runs


# MARK: Templates


_SPECIFIER = re.compile(
    r"%(?:(\d+)\$)?([-+ #0']*)(\d+|\*)?(?:\.(\d+|\*))?(hh|h|ll|l|q|z|t|j|L)?([@dDiuUxXoOfFeEgGaAcCsSp%])"
)


@dataclass(frozen=True, slots=True)
class Slot:
    """A format specifier of a template: which argument (0-based) and its conversion."""

    argument: int
    conversion: str
    precision: int | None


def find_specifiers(source: str) -> tuple[str, list[Slot]]:
    """The source with each specifier replaced by its slot marker, and the slots in order.
    ``%%`` becomes ``%``; non-positional specifiers take the next argument."""
    slots: list[Slot] = []
    next_argument = 0
    out: list[str] = []
    position = 0
    for match in _SPECIFIER.finditer(source):
        out.append(source[position : match.start()])
        position = match.end()
        if match.group(6) == "%":
            out.append("%")
            continue
        if match.group(1):
            argument = int(match.group(1)) - 1
        else:
            argument = next_argument
            next_argument += 1
        precision = int(match.group(4)) if match.group(4) and match.group(4) != "*" else None
        out.append(chr(SLOT_BASE + len(slots)))
        slots.append(Slot(argument, match.group(6), precision))
    out.append(source[position:])
    return "".join(out), slots


#: Substitutes the slots of a text node: slot index -> list of nodes.
Fill = Callable[[int], list[Node]]


def substitute(nodes: Sequence[Node], fill: Fill) -> list[Node]:
    """The tree with every slot marker replaced by ``fill(slot)`` (texts merged)."""
    result: list[Node] = []

    def add(node: Node) -> None:
        if isinstance(node, str):
            if not node:
                return
            if result and isinstance(result[-1], str):
                result[-1] += node
                return
        result.append(node)

    for node in nodes:
        if isinstance(node, str):
            start = 0
            for index, char in enumerate(node):
                if ord(char) >= SLOT_BASE:
                    add(node[start:index])
                    for inserted in fill(ord(char) - SLOT_BASE):
                        add(inserted)
                    start = index + 1
            add(node[start:])
        else:
            add(
                Elem(
                    node.kind,
                    substitute(node.children, fill),
                    node.destination,
                    node.title,
                    node.attributes,
                )
            )
    return result


def slots_in(nodes: Sequence[Node]) -> list[int]:
    """The slot indices in a tree, in text order."""
    found: list[int] = []
    for node in nodes:
        if isinstance(node, str):
            found.extend(ord(char) - SLOT_BASE for char in node if ord(char) >= SLOT_BASE)
        else:
            found.extend(slots_in(node.children))
    return found
