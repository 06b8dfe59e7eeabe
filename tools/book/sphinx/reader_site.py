"""Sphinx extension: the reader's site works offline, on a phone and with a screen reader, and is light.

- The math is MathML, rendered when the site is built (mathml.py beside this file): no page loads a
  script to typeset it.
- Thebe is not used by the course (no live-code button), so its scripts are left out: sphinx-thebe
  declares its configuration twice on every page, which logged "THEBE_JS_URL has already been
  declared". The theme's Font Awesome JavaScript (1.5 MB per page) is left out too: the theme's CSS
  already draws the same icons from its web fonts.
- What a page does not use it does not load: the search index and Sphinx's search scripts (the
  theme puts them on every page for a search-as-you-type the course does not switch on) only on
  the search page; sphinx-design's style sheet and script only on a page that uses one of its
  components.
- Font Awesome: its web fonts hold about 2,000 icons and the theme's style sheet a rule for each; the
  pages show about twenty. After the build the fonts are cut down to the icons that the pages, the
  scripts and the style sheets of the site use, and the rules of the other icons are removed
  (``lean_icons``); the cut fonts are renamed "BA Icons", as the SIL Open Font License asks of a
  modified font, with the licence beside them.
- A favicon (static/favicon.svg), so that no page requests a missing /favicon.ico.
- static/reader-site.css and reader-site.js: the sidebar toggles that work at every width, the
  header that never covers the text, nothing wider than a phone's screen, the scrolling box (with
  its cue) of a formula or an output table wider than the column, and on a phone the section bar:
  the current section's title always on screen, a button that opens the page's contents and the
  language switcher (tests/browser/test_section_bar.py).
- The HTML of every page: pandas' empty index header cells become ordinary cells, ids that
  sphinx-exercise repeats inside exercises and solutions are made unique, and figures link to the
  image itself (tap to zoom on a phone).
"""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).parent / "static"
OFL = Path(__file__).parent / "fonts" / "OFL-1.1.txt"
# Scripts and style sheets of the theme and its extensions that the course's pages do not need.
DROPPED_ASSETS = ("sphinx-thebe.js", "sphinx-thebe.css", "scripts/fontawesome.js")
# sphinx-design's assets, for the pages that use one of its components (class "sd-...").
DESIGN_ASSETS = ("sphinx-design.min.css", "design-tabs.js")
_USES_DESIGN = re.compile(r'class="(?:[^"]*\s)?sd-')


def on_config_inited(app, config):
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


# A figure drawn again for a phone's column (tools/book/figures.py: <NAME>.phone.svg beside
# <NAME>.svg) is shown below this width, in a <picture>: its text stays at least 9 CSS px high.
PHONE_MEDIA = "(max-width: 599.98px)"
PHONE_SUFFIX = ".phone.svg"
_SVG_IMG = re.compile(r'<img\b[^>]*\bsrc="([^"]*?_images/)([^"/]+)\.svg"[^>]*>')


def phone_figures(app, body: str) -> str:
    """Each figure of the page that has a phone layout in the sources is a <picture> whose source
    for narrow screens is that layout (copied next to the figure in _images at the end of the
    build)."""

    def picture(m):
        if _phone_variant(app, m.group(2)) is None:
            return m.group(0)
        return (
            f'<picture><source media="{PHONE_MEDIA}" srcset="{m.group(1)}{m.group(2)}{PHONE_SUFFIX}">'
            f"{m.group(0)}</picture>"
        )

    return _SVG_IMG.sub(picture, body)


def _phone_variant(app, name: str) -> Path | None:
    """The phone layout in the sources of the figure copied to _images/<name>.svg, if any."""
    sources = {dest: src for src, dest in getattr(app.builder, "images", {}).items()}
    src = sources.get(name + ".svg")
    variant = Path(app.srcdir, src).with_name(name + PHONE_SUFFIX) if src else None
    return variant if variant is not None and variant.exists() else None


_PHONE_SRCSET = re.compile(r'srcset="[^"]*?_images/([^"/]+)' + re.escape(PHONE_SUFFIX) + '"')


def copy_phone_figures(app, outdir: Path, pages: list[str]) -> None:
    """Copy the phone layouts the pages show (phone_figures) into _images."""
    for name in sorted({n for page in pages for n in _PHONE_SRCSET.findall(page)}):
        variant = _phone_variant(app, name)
        if variant is not None:
            (outdir / "_images" / (name + PHONE_SUFFIX)).write_bytes(variant.read_bytes())


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


def _asset_name(asset) -> str:
    return str(getattr(asset, "filename", asset) or "").split("?")[0]


_FIRST_P = re.compile(r"<p>(.*?)</p>", re.S)
_TAG = re.compile(r"<[^>]+>")


def meta_description(body: str, most: int = 160) -> str:
    """The page's first paragraph of prose as plain text, cut at a word within ``most`` characters
    (with an ellipsis), escaped for an attribute: the page's meta description."""
    import html

    for m in _FIRST_P.finditer(body):
        text = " ".join(html.unescape(_TAG.sub("", m.group(1))).split())
        if len(text) >= 40:
            if len(text) > most:
                text = text[: most - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
            return html.escape(text, quote=True)
    return ""


def on_page_context(app, pagename, templatename, context, doctree):
    # Without a default colour mode the theme logs "Got invalid theme mode" on a first visit.
    if not context.get("default_mode"):
        context["default_mode"] = "auto"
    uses_design = bool(_USES_DESIGN.search(context.get("body") or ""))
    for key in ("script_files", "css_files"):
        if key in context:
            context[key] = [
                asset
                for asset in context[key]
                if not _dropped(asset) and (uses_design or not _asset_name(asset).endswith(DESIGN_ASSETS))
            ]
    body = context.get("body")
    description = meta_description(body or "")
    if description and 'name="description"' not in context.get("metatags", ""):
        context["metatags"] = (
            context.get("metatags", "") + f'<meta name="description" content="{description}" />\n'
        )
    if body:
        body = citations_as_list_items(empty_headers_to_cells(summaries_named_by_their_text(body)))
        body = unique_ids(zoomable_images(body))
        context["body"] = phone_figures(app, body)


_SEARCH_SCRIPTS = re.compile(
    r'[ \t]*<script src="[^"]*(?:_static/searchtools\.js|_static/language_data\.js|searchindex\.js)"></script>\n?'
)


def without_search_scripts(page: str) -> str:
    """A page other than the search page without the search index and Sphinx's search scripts."""
    return _SEARCH_SCRIPTS.sub("", page)


# --- Font Awesome, cut down to the icons the site uses -------------------------------------------

_ICON_RULE = re.compile(r'((?:\.fa-[a-z0-9-]+:(?:before|after),?)+)\{content:"((?:\\[0-9a-f]+ ?|[^"\\])+)"\}')
_ICON_CLASS = re.compile(r"\bfa-[a-z0-9]+(?:-[a-z0-9]+)*")
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{2,6}) ?")
_FONT_FAMILIES = {"Font Awesome 6 Free": "BA Icons", "Font Awesome 6 Brands": "BA Icons Brands"}
_TTF_SOURCE = re.compile(r',url\([^)]*fa-[a-z]+-[0-9]+\.ttf\) format\("truetype"\)')


def _code_points(css_string: str) -> set[int]:
    """The characters of a CSS string's content (escapes like \\f09b and literal characters)."""
    out = {int(h, 16) for h in _CSS_ESCAPE.findall(css_string)}
    out |= {ord(c) for c in _CSS_ESCAPE.sub("", css_string) if c not in " \\"}
    return out


def icon_rules(css: str) -> list[tuple[str, set[str], set[int]]]:
    """The icon rules of Font Awesome's style sheet: (rule, its icon classes, the characters it draws)."""
    return [
        (m.group(0), set(re.findall(r"fa-[a-z0-9-]+", m.group(1))), _code_points(m.group(2)))
        for m in _ICON_RULE.finditer(css)
    ]


def used_icons(theme_css: str, other_css: list[str], markup: list[str]) -> tuple[set[str], set[int]]:
    """(the icon classes the markup and scripts name, the characters the site draws with Font
    Awesome's fonts): those of the named icons' rules, and every character that a style sheet's
    other rules put in a ``content`` or a custom property (the theme's admonition and link icons,
    the figures' magnifier)."""
    named = set()
    for text in markup:
        named.update(_ICON_CLASS.findall(text))
    chars = set()
    for _, classes, drawn in icon_rules(theme_css):
        if classes & named:
            chars |= drawn
    for css in [_ICON_RULE.sub("", theme_css), *other_css]:
        for value in re.findall(r'(?:content|--[\w-]+)\s*:\s*"((?:\\.|[^"\\])*)"', css):
            chars |= {c for c in _code_points(value) if c >= 0xE000}  # Font Awesome's are private use
    return named, chars


def lean_icon_css(theme_css: str, named: set[str]) -> str:
    """The theme's style sheet with only the rules of the named icons, the fonts renamed and their
    .ttf fallbacks gone (every browser that draws MathML reads WOFF2)."""
    css = _ICON_RULE.sub(
        lambda m: m.group(0) if set(re.findall(r"fa-[a-z0-9-]+", m.group(1))) & named else "", theme_css
    )
    return rename_icon_fonts(_TTF_SOURCE.sub("", css))


def rename_icon_fonts(css: str) -> str:
    for old, new in _FONT_FAMILIES.items():
        css = css.replace(f'"{old}"', f'"{new}"').replace(old.replace(" ", "\\ "), new.replace(" ", "\\ "))
        css = css.replace(old, new)
    return css


def cut_font(path: Path, chars: set[int], family: str) -> None:
    """Cut a WOFF2 font down to ``chars`` (in place) and rename it ``family``."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.notdef_outline = True
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    font = TTFont(str(path), recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(chars | {0x20}))
    subsetter.subset(font)
    style = font["name"].getDebugName(2) or "Regular"
    for ident, value in (
        (1, family),
        (3, f"{family} {style}"),
        (4, f"{family} {style}"),
        (6, family.replace(" ", "") + "-" + style),
    ):
        font["name"].setName(value, ident, 3, 1, 0x409)
    font.flavor = "woff2"
    font.save(str(path))


def lean_icons(out: Path, pages: list[str]) -> None:
    """Cut Font Awesome down to the icons of the built site in ``out`` (its _static)."""
    static = out / "_static"
    theme = static / "styles" / "pydata-sphinx-theme.css"
    fonts = static / "vendor" / "fontawesome" / "webfonts"
    if not theme.exists() or not fonts.exists():
        return
    theme_css = theme.read_text(encoding="utf-8")
    others = [p for p in static.rglob("*.css") if p != theme]
    scripts = [p.read_text(encoding="utf-8") for p in static.rglob("*.js")]
    named, chars = used_icons(theme_css, [p.read_text(encoding="utf-8") for p in others], pages + scripts)
    theme.write_text(lean_icon_css(theme_css, named), encoding="utf-8")
    for path in others:
        text = path.read_text(encoding="utf-8")
        renamed = rename_icon_fonts(text)
        if renamed != text:
            path.write_text(renamed, encoding="utf-8")
    for font in fonts.glob("*.woff2"):
        family = "BA Icons Brands" if "brands" in font.name else "BA Icons"
        cut_font(font, chars, family)
    for font in fonts.glob("*.ttf"):
        font.unlink()
    (fonts / "LICENSE.txt").write_text(
        "The fonts of this folder are Font Awesome Free 6's web fonts (Copyright (c) Font Awesome,\n"
        "Fonticons, Inc.), cut down to the icons this site uses and renamed BA Icons, as the licence\n"
        "below asks of a modified font (tools/book/sphinx/reader_site.py does it after the build).\n"
        "The icons' designs are under CC BY 4.0 (https://fontawesome.com/license/free).\n\n"
        + OFL.read_text(encoding="utf-8"),
        encoding="utf-8",
    )


# --- style rules of components no page uses ------------------------------------------------------

# Components whose style rules the theme's and myst-nb's style sheets carry for every site: Bootstrap's
# (the theme is built on it), sphinx-design's and the ANSI colours of notebook outputs. A
# component's rules are removed from a built site when no page and no script of that site (Bootstrap's
# own script aside, which names them all) names one of its classes: a name ending in "-" is a
# prefix (sd-tab-set...), another name a class or the start of one (carousel, carousel-item...).
UNUSED_CANDIDATES = (
    "accordion", "alert", "badge", "breadcrumb", "btn-group", "card", "carousel", "focus-ring",
    "form-check", "form-floating", "form-range", "form-select", "form-switch", "icon-link",
    "img-thumbnail", "initialism", "input-group", "link-underline", "list-inline", "list-unstyled",
    "modal", "nav-pills", "nav-tabs", "offcanvas", "pagination", "placeholder", "popover", "ratio",
    "spinner-border", "spinner-grow", "stretched-link", "toast", "sd-", "-Color", "-BG",
)  # fmt: skip
PURGED_STYLESHEETS = ("styles/pydata-sphinx-theme.css", "mystnb.*.css")
_CLASS_ATTR = re.compile(r'class="([^"]*)"')
_SELECTOR_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
_GROUP_RULES = {"media", "supports", "layer", "container"}


def _names(component: str, token: str) -> bool:
    if component.endswith("-"):
        return token.startswith(component)
    return token == component or token.startswith(component + "-")


def unused_components(pages: list[str], scripts: list[str]) -> set[str]:
    """The components of UNUSED_CANDIDATES that no page's class attribute and no script names."""
    tokens = set()
    for page in pages:
        for value in _CLASS_ATTR.findall(page):
            tokens.update(value.split())
    for script in scripts:
        tokens.update(re.findall(r"[\w-]+", script))
    return {c for c in UNUSED_CANDIDATES if not any(_names(c, t) for t in tokens)}


def _split_selectors(selectors: str) -> list[str]:
    """A selector list split at its top-level commas (not those inside :is(...), :not(...))."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(selectors):
        depth += char in "([" and 1 or char in ")]" and -1 or 0
        if char == "," and depth == 0:
            parts.append(selectors[start:i])
            start = i + 1
    return [*parts, selectors[start:]]


def _outside_parentheses(selector: str) -> str:
    """A selector without what is inside :not(...), :is(...), :has(...) and [...]: a class there
    does not make an element of the component (.x:not(.modal) matches no modal)."""
    out, depth = [], 0
    for char in selector:
        depth += char in "([" and 1 or 0
        if depth == 0:
            out.append(char)
        depth -= char in ")]" and 1 or 0
    return "".join(out)


def _names_any(selector: str, components: set[str]) -> bool:
    classes = _SELECTOR_CLASS.findall(_outside_parentheses(selector))
    return any(_names(c, cls) for cls in classes for c in components)


def without_components(css: str, components: set[str]) -> str:
    """The style sheet without the selectors that name a class of ``components`` (a rule whose
    selectors all do is removed), inside @media, @supports and @layer blocks too."""
    import tinycss2

    def walk(text):
        out = []
        for node in tinycss2.parse_stylesheet(text, skip_comments=False, skip_whitespace=False):
            if node.type == "qualified-rule":
                selectors = _split_selectors(tinycss2.serialize(node.prelude))
                kept = [s for s in selectors if not _names_any(s, components)]
                if len(kept) == len(selectors):
                    out.append(node.serialize())
                elif kept:
                    out.append(",".join(kept) + "{" + tinycss2.serialize(node.content) + "}")
            elif (
                node.type == "at-rule" and node.lower_at_keyword in _GROUP_RULES and node.content is not None
            ):
                inner = walk(tinycss2.serialize(node.content))
                if inner.strip():
                    out.append(f"@{node.at_keyword}{tinycss2.serialize(node.prelude)}{{{inner}}}")
            else:
                out.append(node.serialize())
        return "".join(out)

    return walk(css) if components else css


def lean_stylesheets(out: Path, pages: list[str]) -> set[str]:
    """Remove the rules of the components no page or script of the built site in ``out`` uses from
    the theme's and myst-nb's style sheets; returns the components removed."""
    static = out / "_static"
    # Bootstrap's script names every component, sphinx-design's its own (loaded only where used)
    scripts = [
        p.read_text(encoding="utf-8")
        for p in static.rglob("*.js")
        if p.name not in ("bootstrap.js", "design-tabs.js")
    ]
    unused = unused_components(pages, scripts)
    for pattern in PURGED_STYLESHEETS:
        for sheet in static.glob(pattern):
            css = sheet.read_text(encoding="utf-8")
            lean = without_components(css, unused)
            if lean != css:
                sheet.write_text(lean, encoding="utf-8")
    return unused


# English that sphinx-book-theme's layout writes without gettext: the attribute as written, and the
# message of the catalogue's theme table that translates its value.
HARD_CODED = {'<nav aria-label="Page">': "Page"}


def hard_coded_words() -> dict[str, str]:
    """{markup with a hard-coded English word: the same markup in the build's language}, the words
    translated by Sphinx's translator (localisation.py lays the catalogue's theme table over it)."""
    from sphinx.locale import _

    return {markup: markup.replace(f'"{word}"', f'"{_(word)}"') for markup, word in HARD_CODED.items()}


_BUTTON_LOGO = re.compile(r'(<span class="btn__icon-container">\s*<img )alt="[^"]*"')


def decorative_button_logos(page: str) -> str:
    """A launch button's logo is decorative (alt=""): the button's text names the service beside
    it, and sphinx-book-theme's alt ("Colab logo", from its macros/buttons.html, which its
    components import by a relative path that templates_path cannot override) was English on every
    page."""
    return _BUTTON_LOGO.sub(r'\1alt=""', page)


def on_build_finished(app, exc):
    if exc is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    out = outdir / "_static"
    pages = {}
    hard_coded = hard_coded_words()
    for page in outdir.rglob("*.html"):
        if "_static" in page.relative_to(outdir).parts:
            continue
        text = page.read_text(encoding="utf-8")
        # The theme's layout loads fontawesome.js from a template of its own (not from script_files),
        # and the search scripts on every page.
        lean = _FONTAWESOME.sub("", text)
        for english, translated in hard_coded.items():
            lean = lean.replace(english, translated)
        lean = decorative_button_logos(lean)
        if page.relative_to(outdir).as_posix() != "search.html":
            lean = without_search_scripts(lean)
        if lean != text:
            page.write_text(lean, encoding="utf-8")
        pages[page] = lean
    copy_phone_figures(app, outdir, list(pages.values()))
    lean_icons(outdir, list(pages.values()))
    lean_stylesheets(outdir, list(pages.values()))
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
