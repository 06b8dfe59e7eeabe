"""The catalogue: every word of the course that is not a page, in one format and one place.

Every string a reader, student or instructor sees outside the chapters and labs — the terminology
and the site's words, the glossary's definitions, the theme's messages, the quizzes, the checks'
hints and the quotation marks — is a row of a CSV table in ``data/strings/``. Every table has the
same columns: ``key``, one column per language (``en it es pt fi``, the order of
:data:`~beyond_accuracy.language.LANGUAGES`) and optionally ``kind`` and ``note`` (for whoever
edits the table: what the string is, where it appears; never shown). A translator edits these
tables and nothing else: no Python, no JSON.

The tables and the first part of their keys:

===================  ================================  ==================================================
table                keys                              what
===================  ================================  ==================================================
``terms.csv``        ``precision``, ``check_correct``  terminology (``kind`` term), labels of figures and
                                                       explorers (label), the site's and tools' words (ui)
``glossary.csv``     ``glossary.<term>``               the glossary's definition of each term of terms.csv
``theme.csv``        ``theme.<message>``               Sphinx's and the theme's messages; ``en`` is the
                                                       English message (the gettext msgid) itself
``quiz.csv``         ``quiz.<question id>.…``          the chapters' quizzes (their structure: data/quizzes)
``lab1.csv`` …       ``lab1.<exercise>.…``             the checks of each lab: skill, hint, and per mistake
                                                       its ``about`` and ``hint``
``typography.csv``   ``typography.quotes``             each language's quotation marks
===================  ================================  ==================================================

Every key is unique in the whole catalogue, and a table's keys start with its name and a dot
(``terms.csv``'s keys have no dot). :func:`tables` reads and validates every table (``ValueError``
naming the table, row and problem): the columns, unique keys, a non-empty text in every language,
and the same ``{placeholders}`` and ``%s`` in every language of a row.

    from beyond_accuracy.catalogue import text, localised
    text("lab1.counts.hint", "it")        # one language
    localised("lab1.counts.hint")["fi"]   # {lang: text}, as the checks' exercises hold them
"""

from __future__ import annotations

import csv
import io
import re
import string
from collections.abc import Iterator, Mapping
from functools import cache
from importlib import resources

from .language import LANGUAGES, _check_language, get_language

FOLDER = "data/strings"
KEY = "key"
METADATA = ("kind", "note")
UNPREFIXED = "terms"  # the one table whose keys carry no prefix (the terminology table)
_KEY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.:-]*")


def _folder():
    return resources.files("beyond_accuracy").joinpath(FOLDER)


def table_names() -> list[str]:
    """The names of the catalogue's tables (the CSV files of data/strings/, without ``.csv``)."""
    return sorted(p.name[: -len(".csv")] for p in _folder().iterdir() if p.name.endswith(".csv"))


def _fields(s: str) -> str:
    """The ``{placeholders}`` and ``%s`` of a string, as text to compare and to show."""
    try:
        names = sorted(f for _, f, _, _ in string.Formatter().parse(s) if f is not None)
    except ValueError:
        names = ["<unbalanced { or }>"]
    return " ".join([f"{{{n}}}" for n in names] + ["%s"] * s.count("%s")) or "none"


def parse_table(text: str, name: str) -> dict[str, dict[str, str]]:
    """Read and validate one table (the text of ``<name>.csv``): ``{key: row}``, in file order,
    each row a dict of the table's columns. Raises ``ValueError`` on the first problem found."""
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows:
        raise ValueError(f"catalogue table {name}.csv is empty: it needs a header row")
    header = rows[0]
    if not header or header[0] != KEY:
        raise ValueError(f"catalogue table {name}.csv: the first column must be {KEY!r}, not {header[:1]}")
    missing = [lang for lang in LANGUAGES if lang not in header]
    if missing:
        raise ValueError(f"catalogue table {name}.csv lacks the language column(s) {', '.join(missing)}")
    stray = [c for c in header[1:] if c not in LANGUAGES and c not in METADATA]
    if stray:
        raise ValueError(
            f"catalogue table {name}.csv has stray column(s) {', '.join(map(repr, stray))}; "
            f"allowed: {KEY}, {', '.join(LANGUAGES)}, {', '.join(METADATA)}"
        )
    if len(set(header)) != len(header):
        raise ValueError(f"catalogue table {name}.csv repeats a column: {header}")
    out: dict[str, dict[str, str]] = {}
    for number, cells in enumerate(rows[1:], start=2):
        where = f"catalogue table {name}.csv, line {number}"
        if len(cells) != len(header):
            raise ValueError(f"{where}: {len(cells)} cells for {len(header)} columns")
        row = dict(zip(header, cells))
        key = row[KEY]
        if not _KEY.fullmatch(key):
            raise ValueError(
                f"{where}: the key {key!r} is empty or has characters other than A-Z a-z 0-9 _ . : -"
            )
        if name == UNPREFIXED:
            if "." in key:
                raise ValueError(
                    f"{where}: the key {key!r} of {name}.csv has a dot (only prefixed tables' keys do)"
                )
        elif not key.startswith(name + "."):
            raise ValueError(f"{where}: the key {key!r} does not start with the table's name, {name + '.'!r}")
        if key in out:
            raise ValueError(f"{where}: the key {key!r} is already used on an earlier line")
        empty = [lang for lang in LANGUAGES if not row[lang].strip()]
        if empty:
            raise ValueError(f"{where}: the key {key!r} has no text in {', '.join(empty)}")
        reference = _fields(row[LANGUAGES[0]])
        for lang in LANGUAGES[1:]:
            if _fields(row[lang]) != reference:
                raise ValueError(
                    f"{where}: the key {key!r} has the placeholders {_fields(row[lang])} in {lang} "
                    f"but {reference} in {LANGUAGES[0]}"
                )
        out[key] = row
    return out


@cache
def tables() -> dict[str, dict[str, dict[str, str]]]:
    """Every table of the catalogue, read and validated: ``{table name: {key: row}}``."""
    found: dict[str, dict[str, dict[str, str]]] = {}
    owner: dict[str, str] = {}
    for name in table_names():
        table = parse_table(_folder().joinpath(f"{name}.csv").read_text(encoding="utf-8"), name)
        for key in table:
            if key in owner:
                raise ValueError(f"the key {key!r} is in both {owner[key]}.csv and {name}.csv")
            owner[key] = name
        found[name] = table
    return found


@cache
def _index() -> dict[str, dict[str, str]]:
    return {key: row for table in tables().values() for key, row in table.items()}


def keys(prefix: str = "") -> list[str]:
    """The catalogue's keys that start with ``prefix``, table by table in file order."""
    return [key for key in _index() if key.startswith(prefix)]


def entry(key: str) -> dict[str, str]:
    """The row of ``key``: its texts by language and its metadata (a copy)."""
    try:
        return dict(_index()[key])
    except KeyError:
        raise ValueError(f"unknown key {key!r}: it is in no table of the catalogue (data/strings/)") from None


def text(key: str, lang: str | None = None) -> str:
    """The text of ``key`` in ``lang`` (by default the active language)."""
    lang = _check_language(lang or get_language())
    row = _index().get(key)
    return row[lang] if row is not None else entry(key)[lang]


class Localised(Mapping):
    """The texts of one key, ``{lang: text}`` (read-only); ``.key`` says which key they are."""

    __slots__ = ("key", "_texts")

    def __init__(self, key: str):
        row = entry(key)
        self.key = key
        self._texts = {lang: row[lang] for lang in LANGUAGES}

    def __getitem__(self, lang: str) -> str:
        return self._texts[lang]

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)

    def __repr__(self) -> str:
        return f"localised({self.key!r})"


def localised(key: str) -> Localised:
    """The texts of ``key`` in every language (what an exercise's ``hint`` holds)."""
    return Localised(key)


def format_table(header: list[str], rows: list[dict[str, str]]) -> str:
    """A table as the catalogue stores it (csv's minimal quoting, ``\\n`` line ends)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([row[c] for c in header] for row in rows)
    return out.getvalue()
