"""Typography of the prose of the chapters and labs, per language.

Only the prose of the MyST sources is touched: never the front matter, code cells and other
literal blocks, inline code and roles (``{glue:text}`…```, ``{cite:p}`…```), math (``$…$``,
``$$…$$``), URLs, HTML, MyST comments and targets, nor the option lines of directives.

Rules (``RULES`` below says which language gets which):

* **percent** – es and fi put a no-break space (U+00A0) between a number and %, "10 %" (RAE,
  Kielitoimisto); it, pt-BR and en write "10%", so a space there is removed.
* **thousands** – es and fi group hand-written numbers of five digits or more in threes with a
  no-break space, "20 000" (es "20.000" and a plain or narrow space become U+00A0); es writes
  four-digit numbers unseparated ("2000", RAE), fi keeps "1 000" with a no-break space. it and
  pt-BR use the point, "20.000" (a no-break/narrow-space grouping becomes a point). Years and other
  four-digit numbers are never grouped; English is left alone ("20,000").
* **decimal lists** – it: a hand-written list of decimals is separated by semicolons, "0,9; 0,6"
  (with a decimal comma, "0,9, 0,6" is ambiguous).
* **heading dash** – fi: a dash in a heading is a spaced en dash, "Vaihe 1 – Lataa", not "—".
* **quotes** – one quotation style per language, the one docutils' smart quotes produce in the
  HTML (so the .ipynb students open carries the same marks): it and es «…», pt-BR “…”, fi ”…”,
  en “…”. Straight double quotes and the other styles' marks are rewritten; apostrophes stay '.
* **glossary link** – es, pt, it: ``{doc}`glossary``` in mid-sentence gets an explicit lowercase
  link text (``{doc}`glosario <glossary>```), since the page title is capitalised.

    python -m tools.language.typography            # rewrite every source that needs it
    python -m tools.language.typography --check    # list what would change; exit 1 if anything would
    python -m tools.language.typography PATHS...   # only these files

The rules are idempotent: running the tool twice changes nothing the second time.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from beyond_accuracy.language import quotes, term
from tools.project import KINDS, ROOT, language_of, languages

LANGS = tuple(languages())

NBSP = "\u00a0"
NNBSP = "\u202f"

# primary opening and closing quotation marks, the ones docutils' smart quotes typeset in the HTML:
# the catalogue's typography.quotes (beyond_accuracy.language.quotes), their one home
QUOTES = {lang: (quotes(lang)[0], quotes(lang)[1]) for lang in LANGS}

RULES = {
    "en": {"percent_tight", "quotes"},
    "it": {"percent_tight", "thousands_point", "decimal_lists", "quotes", "glossary"},
    "es": {"percent_space", "thousands_space", "quotes", "glossary"},
    "pt": {"percent_tight", "thousands_point", "quotes", "glossary"},
    "fi": {"percent_space", "thousands_space", "heading_dash", "quotes"},
}

# --------------------------------------------------------------------------- splitting the source

_FENCE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<mark>`{3,}|~{3,}|:{3,})\s*(?:\{(?P<name>[\w:.-]+)\})?(?P<rest>.*)$"
)
_OPTION = re.compile(r"^[ \t]*:[\w-]+:(?:\s|$)")
# directives whose body is prose; the ones in _TITLED also have a prose title as argument
_PROSE_DIRECTIVES = {
    "admonition",
    "note",
    "warning",
    "tip",
    "important",
    "caution",
    "hint",
    "attention",
    "danger",
    "error",
    "seealso",
    "exercise",
    "solution",
    "figure",
    "margin",
    "sidebar",
    "topic",
    "dropdown",
    "epigraph",
    "card",
    "tab-item",
}
_TITLED = {"admonition", "topic", "sidebar", "dropdown", "card", "tab-item"}


@dataclass
class Segment:
    kind: str  # "prose" (may be changed), "title" (a directive's title: prose on one line), "other"
    text: str


@dataclass
class _Fence:
    mark: str
    opaque: bool
    options: bool = field(default=True)  # still reading the option lines right after the opening


def segments(text: str) -> list[Segment]:
    """Split a MyST source into prose and everything else; "".join of the texts is the source."""
    out: list[Segment] = []

    def add(kind: str, s: str) -> None:
        if out and out[-1].kind == kind and kind != "title":
            out[-1].text += s
        else:
            out.append(Segment(kind, s))

    lines = text.splitlines(keepends=True)
    i = 0
    if lines and lines[0].rstrip("\r\n") == "---":  # front matter
        j = 1
        while j < len(lines) and lines[j].rstrip("\r\n") != "---":
            j += 1
        add("other", "".join(lines[: j + 1]))
        i = j + 1
    stack: list[_Fence] = []
    in_comment = False
    while i < len(lines):
        line = lines[i]
        bare = line.rstrip("\r\n")
        i += 1
        top = stack[-1] if stack else None
        if top is not None and top.opaque:
            if re.fullmatch(rf"[ \t]*{re.escape(top.mark[0])}{{{len(top.mark)},}}[ \t]*", bare):
                stack.pop()
            add("other", line)
            continue
        if in_comment:
            add("other", line)
            in_comment = "-->" not in bare
            continue
        if top is not None and top.options:
            if _OPTION.match(bare):
                add("other", line)
                continue
            top.options = False
        m = _FENCE.match(bare)
        if m:
            mark, name, rest = m["mark"], m["name"], m["rest"]
            if (
                top is not None
                and name is None
                and not rest.strip()
                and mark[0] == top.mark[0]
                and len(mark) >= len(top.mark)
            ):
                stack.pop()  # closes the directive
                add("other", line)
                continue
            if name in _PROSE_DIRECTIVES:
                stack.append(_Fence(mark, opaque=False))
                if name in _TITLED and rest.strip():
                    head = line[: m.start("rest")]
                    lead = len(rest) - len(rest.lstrip())
                    add("other", head + rest[:lead])
                    end = len(bare)
                    add("title", line[len(head) + lead : end])
                    add("other", line[end:])
                else:
                    add("other", line)
                continue
            if mark[0] == ":" and name is None:
                add("other", line)  # a stray closing colon fence
                continue
            stack.append(_Fence(mark, opaque=True))  # code, bibliography, math, raw, …
            add("other", line)
            continue
        stripped = bare.lstrip()
        if stripped.startswith("<!--"):
            add("other", line)
            in_comment = "-->" not in stripped[4:]
            continue
        if (
            stripped.startswith("%")  # MyST comment
            or stripped.startswith("+++")  # jupytext cell break
            or re.fullmatch(r"\([^()\s]+\)=", stripped)  # target
            or re.match(r"<[A-Za-z/!]", stripped)  # HTML block
            or (stripped.startswith("[") and re.match(r"\[[^\]]+\]:\s", stripped))  # link definition
        ):
            add("other", line)
            continue
        add("prose", line)
    return out


# --------------------------------------------------------------------------- masking inside prose

_PROTECT = re.compile(
    r"""
      \$\$.*?\$\$                                    # display math (masked in the run of prose)
    | (?<![\\$\w])\$(?=\S)(?:[^$\n\\]|\\.|\n(?![ \t]*\n))+?(?<=\S)\$(?![\w$])   # inline math
    | (?:\{[\w:.-]+\})?(?P<ticks>`+)(?:(?!(?P=ticks)).)+?(?P=ticks)   # inline code and roles
    | <https?://[^>]*>                               # autolink
    | \]\([^)\s]*(?:\s+"[^"]*")?\)                   # link target (with its title)
    | https?://[^\s<>)\]]+                           # bare URL
    | <!--.*?-->                                     # HTML comment
    | </?[A-Za-z][^<>]*>                             # HTML tag
    | \{\{.*?\}\}                                    # substitution
    | \[\^[^\]]+\]                                   # footnote reference
    """,
    re.X | re.S,
)
_PUA = 0xE000  # placeholders: one private-use character per protected span


def _mask(text: str) -> tuple[str, list[str]]:
    spans: list[str] = []

    def repl(m: re.Match) -> str:
        spans.append(m.group(0))
        return chr(_PUA + len(spans) - 1)

    return _PROTECT.sub(repl, text), spans


def _unmask(text: str, spans: list[str]) -> str:
    if not spans:
        return text
    return re.sub(
        f"[{chr(_PUA)}-{chr(_PUA + len(spans) - 1)}]", lambda m: spans[ord(m.group(0)) - _PUA], text
    )


# --------------------------------------------------------------------------- the rules

_SP = f" {NBSP}{NNBSP}"


def percent_space(text: str) -> str:
    return re.sub(rf"(\d)[{_SP}]?%", rf"\1{NBSP}%", text)


def percent_tight(text: str) -> str:
    return re.sub(rf"(\d)[{_SP}]%", r"\1%", text)


# a number written by hand: not part of a word, an identifier, a version or a decimal
_NUM_BEFORE = r"(?<![\w.,\-/:#'" + NBSP + NNBSP + r"])"
_NUM_AFTER = r"(?![\w\-/]|[.,]\d)"


def _group(digits: str, sep: str) -> str:
    head = len(digits) % 3 or 3
    parts = [digits[:head]] + [digits[k : k + 3] for k in range(head, len(digits), 3)]
    return sep.join(parts)


def thousands_space(text: str, lang: str) -> str:
    """es/fi: "20 000" with U+00A0; es also from "20.000"; es four digits unseparated."""
    seps = f"[{_SP}]" if lang == "fi" else rf"[{_SP}.]"
    grouped = re.compile(rf"{_NUM_BEFORE}([1-9]\d{{0,2}}(?:{seps}\d{{3}})+){_NUM_AFTER}")

    def fix_grouped(m: re.Match) -> str:
        digits = re.sub(r"\D", "", m.group(1))
        if len(digits) == 4 and lang == "es":
            return digits
        return _group(digits, NBSP)

    text = grouped.sub(fix_grouped, text)
    plain = re.compile(rf"{_NUM_BEFORE}([1-9]\d{{4,}}){_NUM_AFTER}")
    return plain.sub(lambda m: _group(m.group(1), NBSP), text)


def thousands_point(text: str) -> str:
    """it/pt: "20.000"; a grouping by a no-break or narrow space becomes a point."""
    grouped = re.compile(rf"{_NUM_BEFORE}([1-9]\d{{0,2}}(?:[{NBSP}{NNBSP}]\d{{3}})+){_NUM_AFTER}")
    return grouped.sub(lambda m: re.sub(f"[{NBSP}{NNBSP}]", ".", m.group(1)), text)


def decimal_lists(text: str) -> str:
    """it: "0,9, 0,6" -> "0,9; 0,6" (only between decimals written with a comma)."""
    return re.sub(r"(?<![\w.,])(\d+,\d+),([ \n])(?=\d+,\d+(?![\d,]\d))", r"\1;\2", text)


def heading_dash(text: str) -> str:
    def fix(m: re.Match) -> str:
        return m.group(1) + re.sub(r"[ \t]*—[ \t]*", " – ", m.group(2))

    return re.sub(r"(?m)^(#{1,6}[ \t]+)(.*)$", fix, text)


_DQ = '"“”«»„'
_OPENERS = "“«„"
_CLOSERS = "”»"


def quotes(text: str, lang: str) -> str:
    """Every double quotation mark in the language's style; pairs never cross a blank line."""
    open_, close = QUOTES[lang]
    out = []
    for para in re.split(r"(\n[ \t]*\n)", text):
        chars = list(para)
        depth = 0
        for k, c in enumerate(chars):
            if c not in _DQ:
                continue
            before = chars[k - 1] if k else " "
            after = chars[k + 1] if k + 1 < len(chars) else " "
            if c in _OPENERS:
                opening = True
            elif c == "»":
                opening = False
            else:  # " or ”: by position
                left_open = before.isspace() or before in "([{—–-/" + _DQ
                right_open = not after.isspace()
                if left_open and right_open:
                    opening = True
                elif not left_open and (after.isspace() or after in ".,;:!?)]}…—–-" or not after.isalnum()):
                    opening = False
                else:
                    opening = depth == 0
                if c == "”" and lang == "fi" and depth == 0 and not (left_open and right_open):
                    opening = False  # a lone ” in Finnish stays a closing mark
            if opening:
                chars[k] = open_
                depth += 1
            else:
                chars[k] = close
                depth = max(depth - 1, 0)
        out.append("".join(chars))
    return "".join(out)


_GLOSSARY = re.compile(r"\{doc\}`glossary`")


def glossary(text: str, lang: str) -> str:
    """{doc}`glossary` in mid-sentence: explicit lowercase link text (before masking)."""
    word = term("glossary_link", lang)

    def fix(m: re.Match) -> str:
        before = text[: m.start()]
        tail = before[-200:]
        if re.search(r"\n[ \t]*\n[ \t]*$", tail) or not tail.strip():
            return m.group(0)
        last = tail.rstrip()[-1:]
        line = before[before.rfind("\n") + 1 :]
        if re.fullmatch(r"[ \t]*(?:[-*+]|\d+[.)]|#{1,6})?[ \t]*", line):
            return m.group(0)  # start of a line item, heading or paragraph line after a break
        if last in ".!?:":
            return m.group(0)
        return f"{{doc}}`{word} <glossary>`"

    return _GLOSSARY.sub(fix, text)


def fix_prose(text: str, lang: str, *, title: bool = False) -> str:
    """Apply the language's rules to a piece of prose (a run of prose lines or a title)."""
    rules = RULES[lang]
    if "glossary" in rules:
        text = glossary(text, lang)
    masked, spans = _mask(text)
    if "percent_space" in rules:
        masked = percent_space(masked)
    if "percent_tight" in rules:
        masked = percent_tight(masked)
    if "thousands_space" in rules:
        masked = thousands_space(masked, lang)
    if "thousands_point" in rules:
        masked = thousands_point(masked)
    if "decimal_lists" in rules:
        masked = decimal_lists(masked)
    if "heading_dash" in rules and not title:
        masked = heading_dash(masked)
    if "quotes" in rules:
        masked = quotes(masked, lang)
    return _unmask(masked, spans)


def fix_source(text: str, lang: str) -> str:
    return "".join(
        fix_prose(s.text, lang, title=s.kind == "title") if s.kind != "other" else s.text
        for s in segments(text)
    )


# --------------------------------------------------------------------------- files


def sources(root: Path = ROOT, langs: tuple[str, ...] = LANGS) -> list[Path]:
    return sorted(p for kind in KINDS for lang in langs for p in (root / kind / lang).glob("*.md"))


def check(paths: list[Path]) -> list[Path]:
    """The sources that the rules would change."""
    return [
        p
        for p in paths
        if fix_source(p.read_text(encoding="utf-8"), language_of(p)) != p.read_text(encoding="utf-8")
    ]


def _changed_lines(old: str, new: str) -> int:
    a, b = old.splitlines(), new.splitlines()
    return sum(1 for x, y in zip(a, b) if x != y) + abs(len(a) - len(b))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if a source needs changes"
    )
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.paths] or sources()
    paths = [p for p in paths if language_of(p) in RULES]
    pending = 0
    for p in paths:
        old = p.read_text(encoding="utf-8")
        new = fix_source(old, language_of(p))
        if new == old:
            continue
        pending += 1
        rel = p.relative_to(ROOT) if p.is_relative_to(ROOT) else p
        n = _changed_lines(old, new)
        if args.check:
            print(f"needs typography: {rel} ({n} lines)")
        else:
            p.write_text(new, encoding="utf-8")
            print(f"typography: {rel} ({n} lines)")
    if args.check and pending:
        print(f"{pending} source(s) need typography: run `make typography`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
