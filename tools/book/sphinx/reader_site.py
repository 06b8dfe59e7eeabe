"""Sphinx extension: the reader's site works offline, on a phone and with a screen reader.

- MathJax is served with the site: the MathJax 3 build shipped by the PyPI package
  sphinx-mathjax-offline (a pinned dependency of the book), of which only what the pages load is
  copied (tex-chtml.js and its CHTML fonts) to _static/mathjax/; the chapters' amsmath (split,
  pmatrix, operatorname, ...) is in that component.
- Thebe is not used by the course (no live-code button), so its scripts are left out: sphinx-thebe
  declares its configuration twice on every page, which logged "THEBE_JS_URL has already been
  declared". The theme's Font Awesome JavaScript (1.5 MB per page) is left out too: the theme's CSS
  already draws the same icons from its web fonts.
- A favicon (static/favicon.svg), so that no page requests a missing /favicon.ico.
- static/reader-site.css and reader-site.js: the sidebar toggles that work at every width, the
  header that never covers the text, nothing wider than a phone's screen.
- The HTML of every page: pandas' empty index header cells become ordinary cells, ids that
  sphinx-exercise repeats inside exercises and solutions are made unique, and figures link to the
  image itself (tap to zoom on a phone).
"""

from __future__ import annotations

import re
import shutil
from importlib import metadata
from pathlib import Path

STATIC = Path(__file__).parent / "static"
MATHJAX_FILES = ("tex-chtml.js", "output/chtml/fonts/woff-v2")
# Scripts and style sheets of the theme and its extensions that the course's pages do not need.
DROPPED_ASSETS = ("sphinx-thebe.js", "sphinx-thebe.css", "scripts/fontawesome.js")


def mathjax_source() -> Path:
    """The MathJax 3 folder installed by sphinx-mathjax-offline."""
    try:
        dist = metadata.distribution("sphinx-mathjax-offline")
    except metadata.PackageNotFoundError as exc:
        raise RuntimeError(
            "sphinx-mathjax-offline is not installed: run `make setup` (it is in the book extra)"
        ) from exc
    path = Path(dist.locate_file("sphinx-mathjax-offline/static/mathjax"))
    if not (path / "tex-chtml.js").exists():
        raise RuntimeError(f"no MathJax in {path}")
    return path


def on_config_inited(app, config):
    config.mathjax_path = "mathjax/tex-chtml.js"

    config.html_favicon = str(STATIC / "favicon.svg")


def _dropped(asset) -> bool:
    name = str(getattr(asset, "filename", asset) or "")
    body = (getattr(asset, "attributes", None) or {}).get("body", "")
    return name.split("?")[0].endswith(DROPPED_ASSETS) or "THEBE_JS_URL" in body


_EMPTY_TH = re.compile(r"<th(\s[^>]*)?>(\s|&nbsp;|<p>\s*</p>)*</th>")
_TABLE = re.compile(r"<table\b.*?</table>", re.S)
_THEAD = re.compile(r"<thead>.*?</thead>", re.S)
_FIRST_TD = re.compile(r"(<tr\b[^>]*>\s*)<td\b([^>]*)>(.*?)</td>", re.S)
_IMG = re.compile(r'(<a\b[^>]*>\s*)?(<img\b[^>]*\bsrc="([^"]+)"[^>]*>)', re.S)


def empty_headers_to_cells(body: str) -> str:
    """A table whose head starts with an empty <th> (pandas' index column, a Markdown table with a
    blank corner) labels its rows with its first column: the empty header cell has no name for a
    screen reader, so it becomes a <td>, and the first cell of each body row a row header."""

    def table(m):
        text = m.group(0)
        head = _THEAD.search(text)
        if not head:
            return text
        first = re.search(r"<t[hd]\b", head.group(0))
        corner_empty = first and _EMPTY_TH.match(head.group(0), first.start())
        new_head = _EMPTY_TH.sub(lambda t: f"<td{t.group(1) or ''}></td>", head.group(0))
        text = text[: head.start()] + new_head + text[head.end() :]
        if corner_empty:
            start = text.find("<tbody")
            if start >= 0:
                text = text[:start] + _FIRST_TD.sub(
                    lambda r: f'{r.group(1)}<th scope="row"{r.group(2)}>{r.group(3)}</th>', text[start:]
                )
        return text

    return _TABLE.sub(table, body)


def zoomable_images(body: str) -> str:
    """Wrap every image of the page that is not already a link in a link to the image file."""

    def wrap(m):
        if m.group(1):
            return m.group(0)
        return f'<a class="ba-zoom" href="{m.group(3)}">{m.group(2)}</a>'

    return _IMG.sub(wrap, body)


_FONTAWESOME = re.compile(r"[ \t]*<script[^>]*_static/scripts/fontawesome\.js[^>]*></script>\n?")
_ID = re.compile(r'\bid="([^"]+)"')


def unique_ids(body: str) -> str:
    """Give the second and later elements with the same id a suffixed id (and keep the first)."""
    seen: dict[str, int] = {}

    def rename(m):
        ident = m.group(1)
        count = seen.get(ident, 0)
        seen[ident] = count + 1
        return m.group(0) if count == 0 else f'id="{ident}-{count + 1}"'

    return _ID.sub(rename, body)


def citations_as_list_items(body: str) -> str:
    """sphinxcontrib-bibtex puts entries of role doc-biblioentry (deprecated in DPUB-ARIA 1.1) in
    a role="list": a list's children must be list items."""
    return body.replace('role="doc-biblioentry"', 'role="listitem"')


def summaries_named_by_their_text(body: str) -> str:
    """myst-nb labels the <summary> of folded cells "Toggle hidden content" (in English) over its
    visible, localised text ("Näytä koodi"); the name must contain what the reader sees."""
    return body.replace('<summary aria-label="Toggle hidden content">', "<summary>")


def on_page_context(app, pagename, templatename, context, doctree):
    # Without a default colour mode the theme logs "Got invalid theme mode" on a first visit.
    if not context.get("default_mode"):
        context["default_mode"] = "auto"
    for key in ("script_files", "css_files"):
        if key in context:
            context[key] = [asset for asset in context[key] if not _dropped(asset)]
    body = context.get("body")
    if body:
        body = citations_as_list_items(empty_headers_to_cells(summaries_named_by_their_text(body)))
        context["body"] = unique_ids(zoomable_images(body))


def on_build_finished(app, exc):
    if exc is not None or app.builder.format != "html":
        return
    out = Path(app.outdir) / "_static"
    source = mathjax_source()
    for rel in MATHJAX_FILES:
        src, dest = source / rel, out / "mathjax" / rel
        if src.is_dir():
            shutil.copytree(src, dest, dirs_exist_ok=True)
        else:
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest)
    # The theme's layout loads fontawesome.js from a template of its own (not from script_files).
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        lean = _FONTAWESOME.sub("", text)
        if lean != text:
            page.write_text(lean, encoding="utf-8")
    # Source maps and the dropped assets are never requested by the pages.
    for path in list(out.rglob("*.map")):
        path.unlink()
    for rel in DROPPED_ASSETS:
        (out / rel).unlink(missing_ok=True)


def setup(app):
    app.connect("config-inited", on_config_inited)
    app.connect("html-page-context", on_page_context, priority=900)
    app.connect("build-finished", on_build_finished)
    if str(STATIC) not in app.config.html_static_path:
        app.config.html_static_path.append(str(STATIC))
    app.add_css_file("reader-site.css")
    app.add_js_file("reader-site.js", defer="defer")
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
