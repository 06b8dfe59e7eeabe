"""Typography of every word a reader sees, per language: the prose of the chapters and labs, and
every string of the catalogue (src/beyond_accuracy/data/strings/: terms, glossary, theme messages,
quizzes, the checks' hints), which no Sphinx smart quotes ever see.

In the MyST sources only the prose is touched: never the front matter, code cells and other literal
blocks, inline code and roles (``{glue:text}`…```, ``{cite:p}`…```), math (``$…$``, ``$$…$$``,
but see *math thousands*), URLs, HTML, MyST comments and targets, nor the option lines of
directives. In a catalogue string, code is left alone too: a ```code``` span, a call
(``f1_score(..., average="micro")``), a subscript (``curve["k"]``), a keyword argument
(``weights="quadratic"``) and a ``{placeholder}``; the ``en`` column of theme.csv (the gettext
msgids Sphinx looks up) and typography.csv (the marks themselves) are not prose.

Rules (``RULES`` below says which language gets which; the catalogue's strings get
:func:`string_rules`):

* **percent** – es and fi put a no-break space (U+00A0) between a number and %, "10 %" (RAE,
  Kielitoimisto); it, pt-BR and en write "10%", so a space there is removed.
* **thousands** – one separator per language, the one ``fmt`` writes (language.py's number style):
  es and fi group hand-written numbers of five digits or more in threes with a no-break space,
  "20 000" ("20.000" and a plain or narrow space become U+00A0); es writes four-digit numbers
  unseparated ("2000", RAE), fi keeps "1 000" with a no-break space. it and pt-BR use the point,
  "20.000" (a no-break/narrow-space grouping becomes a point). Years and other four-digit numbers
  are never grouped on their own; English is left alone ("20,000").
* **same grouping** (catalogue) – en, it, pt, fi: every number of four digits or more is grouped as
  ``fmt`` groups it, so that "1.000 … 800/1800" becomes "1.000 … 800/1.800" (it) and "985/1000"
  "985/1 000" (fi); years (1900–2099) are left alone.
* **math thousands** – es and fi: a thousands point inside math becomes a thin space, ``10\\,000``
  (as ``fmt``'s no-break space), not ``10.000``.
* **decimal lists** – it, es, pt, fi: a hand-written list of decimals is separated by semicolons,
  "0,9; 0,6" (with a decimal comma, "0,9, 0,6" is ambiguous).
* **heading dash** – fi: a dash in a heading is a spaced en dash, "Vaihe 1 – Lataa", not "—".
* **quotes** – one quotation style per language, the one docutils' smart quotes produce in the
  HTML (so the .ipynb students open carries the same marks): it and es «…», pt-BR “…”, fi ”…”,
  en “…” (the catalogue's ``typography.quotes``). Straight double quotes and the other styles'
  marks are rewritten.
* **apostrophes** (catalogue) – ' becomes ’ (l’area, scikit-learn’s, un po’), as Sphinx's smart
  quotes typeset the pages' straight apostrophes; the sources of the pages keep '.
* **glossary link** – es, pt, it: ``{doc}`glossary``` in mid-sentence gets an explicit lowercase
  link text (``{doc}`glosario <glossary>```), since the page title is capitalised.

    python -m tools.language.typography            # rewrite every source and catalogue table that needs it
    python -m tools.language.typography --check    # list what would change; exit 1 if anything would
    python -m tools.language.typography PATHS...   # only these files (pages or catalogue tables)

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
    "es": {"percent_space", "thousands_space", "math_thousands", "decimal_lists", "quotes", "glossary"},
    "pt": {"percent_tight", "thousands_point", "decimal_lists", "quotes", "glossary"},
    "fi": {"percent_space", "thousands_space", "math_thousands", "decimal_lists", "heading_dash", "quotes"},
}
# The thousands separator of a grouped four-digit number, per language ("same grouping"; es never
# groups four digits).
GROUP = {"en": ",", "it": ".", "pt": ".", "fi": NBSP}


def string_rules(lang: str) -> set[str]:
    """The rules a catalogue string gets: the pages' rules, but not those about MyST (headings, the
    glossary link), plus the ones only strings need (no smart quotes will see them)."""
    rules = RULES[lang] - {"heading_dash", "glossary"} | {"apostrophes"}
    return rules | ({"same_grouping"} if lang in GROUP else set())


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
    """es/fi: "20 000" with U+00A0, also from "20.000"; es four digits unseparated."""
    seps = rf"[{_SP}.]"
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


def math_thousands(text: str) -> str:
    """es/fi: inside math (``$…$``, ``$$…$$``), "10.000" becomes "10\\,000" (a thin space, as the
    number style's no-break space). Decimals there are written ``0{,}5``, so a point groups."""

    def fix(m: re.Match) -> str:
        span = m.group(0)
        if not span.startswith("$"):
            return span
        return re.sub(
            r"(?<![\d.,{])([1-9]\d{0,2})((?:\.\d{3})+)(?![\d.])",
            lambda k: k.group(1) + k.group(2).replace(".", "\\,"),
            span,
        )

    return _PROTECT.sub(fix, text)


# A number written by hand in a catalogue string: as _NUM_BEFORE/_NUM_AFTER, but a fraction's
# numbers count too ("985/1000").
_STR_BEFORE = r"(?<![\w.,\-:#'" + NBSP + NNBSP + r"])"
_STR_AFTER = r"(?![\w\-]|[.,]\d)"


def same_grouping(text: str, lang: str) -> str:
    """Catalogue strings in en, it, pt, fi: every number of four digits or more grouped as ``fmt``
    groups it (1,000 / 1.000 / 1 000), a fraction's too ("985/1.000"); years (1900–2099) excepted."""
    sep = GROUP[lang]

    def fix(m: re.Match) -> str:
        digits = m.group(1)
        if len(digits) == 4 and 1900 <= int(digits) <= 2099:
            return digits
        return _group(digits, sep)

    if lang == "en":  # "12 345" (the other languages' thousands rules see to theirs)
        text = re.sub(
            rf"{_STR_BEFORE}([1-9]\d{{0,2}}(?:[{NBSP}{NNBSP}]\d{{3}})+){_STR_AFTER}",
            lambda m: re.sub(f"[{NBSP}{NNBSP}]", ",", m.group(1)),
            text,
        )
    return re.sub(rf"{_STR_BEFORE}([1-9]\d{{3,}}){_STR_AFTER}", fix, text)


_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)|(?<=[^\W\d_])'(?=[\s.,;:!?)»”]|$)")


def apostrophes(text: str) -> str:
    """Catalogue strings: ' between letters or ending an elided word becomes ’ (l’area, po’)."""
    return _APOSTROPHE.sub("’", text)


# Code inside a catalogue string that is not in backticks (the checks' hints print as plain text).
_CODE = re.compile(
    r"""
      `[^`]*`                                              # a code span
    | \b[A-Za-z_][\w.]*\((?:[^()]|\([^()]*\))*\)         # a call: f1_score(..., average="micro")
    | \b[A-Za-z_]\w*\[[^\]\n]*\]                          # a subscript: curve["k"]
    | \b[A-Za-z_]\w*=(?:"[^"]*"|'[^']*'|[\w.\-]+)          # a keyword argument: weights="quadratic"
    | \$\{\w+\}|\{[\w.]*\}                                # a placeholder: {n}, ${resultCount}
    """,
    re.X,
)


def _mask_code(text: str, spans: list[str]) -> str:
    def repl(m: re.Match) -> str:
        spans.append(m.group(0))
        return chr(_PUA + len(spans) - 1)

    return _CODE.sub(repl, text)


def _apply(masked: str, lang: str, rules: set[str], *, title: bool) -> str:
    if "percent_space" in rules:
        masked = percent_space(masked)
    if "percent_tight" in rules:
        masked = percent_tight(masked)
    if "thousands_space" in rules:
        masked = thousands_space(masked, lang)
    if "thousands_point" in rules:
        masked = thousands_point(masked)
    if "same_grouping" in rules:
        masked = same_grouping(masked, lang)
    if "decimal_lists" in rules:
        masked = decimal_lists(masked)
    if "heading_dash" in rules and not title:
        masked = heading_dash(masked)
    if "quotes" in rules:
        masked = quotes(masked, lang)
    if "apostrophes" in rules:
        masked = apostrophes(masked)
    return masked


def fix_prose(text: str, lang: str, *, title: bool = False) -> str:
    """Apply the language's rules to a piece of prose (a run of prose lines or a title)."""
    rules = RULES[lang]
    if "glossary" in rules:
        text = glossary(text, lang)
    if "math_thousands" in rules:
        text = math_thousands(text)
    masked, spans = _mask(text)
    return _unmask(_apply(masked, lang, rules, title=title), spans)


def fix_string(text: str, lang: str) -> str:
    """Apply the language's rules (:func:`string_rules`) to one string of the catalogue."""
    rules = string_rules(lang)
    if "math_thousands" in rules:
        text = math_thousands(text)
    masked, spans = _mask(text)
    masked = _mask_code(masked, spans)
    # _unmask twice: a code span may hold an earlier placeholder
    return _unmask(_unmask(_apply(masked, lang, rules, title=True), spans), spans)


def fix_source(text: str, lang: str) -> str:
    return "".join(
        fix_prose(s.text, lang, title=s.kind == "title") if s.kind != "other" else s.text
        for s in segments(text)
    )


# --------------------------------------------------------------------------- files


# --------------------------------------------------------------------------- the catalogue

STRINGS = ROOT / "src" / "beyond_accuracy" / "data" / "strings"
NOT_PROSE = {"typography": set(LANGS), "theme": {"en"}}  # table -> columns that are not prose


def tables(root: Path = ROOT) -> list[Path]:
    """The catalogue's tables (every CSV of data/strings/)."""
    return sorted((root / STRINGS.relative_to(ROOT)).glob("*.csv"))


def fix_table(text: str, name: str) -> tuple[str, list[tuple[str, str, str, str]]]:
    """A table's text with every string fixed, and what changed: (key, lang, old, new)."""
    from beyond_accuracy.catalogue import format_table, parse_table

    table = parse_table(text, name)
    header = next(iter(text.splitlines()), "").split(",")
    changes = []
    for key, row in table.items():
        for lang in LANGS:
            if lang in NOT_PROSE.get(name, ()):
                continue
            new = fix_string(row[lang], lang)
            if new != row[lang]:
                changes.append((key, lang, row[lang], new))
                row[lang] = new
    return (format_table(header, list(table.values())) if changes else text), changes


def _excerpt(old: str, new: str, margin: int = 18) -> str:
    """Where two strings differ, with a little context: '…old… → …new…'."""
    start = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    end = 0
    while end < min(len(old), len(new)) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    a = max(start - margin, 0)

    def cut(s: str) -> str:
        piece = s[a : len(s) - max(end - margin, 0)]
        return ("…" if a else "") + piece.replace(NBSP, "⍽") + ("…" if end > margin else "")

    return f"{cut(old)!r} → {cut(new)!r}"


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
    paths = [p.resolve() for p in args.paths] or sources() + tables()
    catalogue = [p for p in paths if p.suffix == ".csv"]
    paths = [p for p in paths if p.suffix != ".csv" and language_of(p) in RULES]
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
    for p in catalogue:
        old = p.read_text(encoding="utf-8")
        new, changes = fix_table(old, p.stem)
        if not changes:
            continue
        pending += 1
        rel = p.relative_to(ROOT) if p.is_relative_to(ROOT) else p
        for key, lang, before, after in changes:
            print(
                f"{'needs typography' if args.check else 'typography'}: {rel} {key} ({lang}): {_excerpt(before, after)}"
            )
        if not args.check:
            p.write_text(new, encoding="utf-8")
    if args.check and pending:
        print(f"{pending} source(s) need typography: run `make typography`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
