"""Sphinx extension: a language switcher on every page, linking to the same page in every other
language of the course, and <link rel="alternate" hreflang> tags in the page head.

The site is laid out as <site>/<lang>/<pagename>.html, where pagenames of the course carry the
language as a path segment (chapters/it/01-confusion-matrix); the same page in another language
replaces that segment. Configuration (written by tools/book/build.py into each language's config): ``ba_language`` (this
site's code, as in the paths), ``ba_languages`` (codes), ``ba_site_url`` (course.site_url: the alternate links' base), ``ba_language_names`` ({code: own name}), ``ba_switcher_label`` and
``ba_search_label`` (the search button's label, which the theme does not translate into every language).
"""

from __future__ import annotations

from pathlib import Path


def _target(pagename: str, current: str, other: str) -> str:
    parts = pagename.split("/")
    return "/".join(other if p == current else p for p in parts)


def _links(app, pagename: str) -> list[dict]:
    current = app.config.ba_language or app.config.language
    up = "../" * (pagename.count("/") + 1)
    links = []
    for lang in app.config.ba_languages:
        links.append(
            {
                "lang": lang,
                "name": app.config.ba_language_names.get(lang, lang),
                "url": f"{up}{lang}/{_target(pagename, current, lang)}.html",
                "current": lang == current,
            }
        )
    return links


def on_page_context(app, pagename, templatename, context, doctree):
    links = _links(app, pagename)
    context["ba_language_links"] = links
    context["ba_switcher_label"] = app.config.ba_switcher_label
    context["ba_search_label"] = app.config.ba_search_label
    # Absolute URLs (search engines ignore relative ones), from course.site_url.
    current = app.config.ba_language or app.config.language
    base = (app.config.ba_site_url or "").rstrip("/")
    alternates = "".join(
        f'<link rel="alternate" hreflang="{link["lang"]}" '
        f'href="{base}/{link["lang"]}/{_target(pagename, current, link["lang"])}.html" />\n'
        if base
        else f'<link rel="alternate" hreflang="{link["lang"]}" href="{link["url"]}" />\n'
        for link in links
    )
    context["metatags"] = context.get("metatags", "") + alternates


def on_config_inited(app, config):
    config.templates_path.append(str(Path(__file__).parent / "templates"))
    options = dict(config.html_theme_options or {})
    start = list(options.get("article_header_start") or ["toggle-primary-sidebar.html"])
    if "language-switcher.html" not in start:
        start.append("language-switcher.html")
    options["article_header_start"] = start
    config.html_theme_options = options


def setup(app):
    app.add_config_value("ba_language", "", "html")
    app.add_config_value("ba_languages", [], "html")
    app.add_config_value("ba_site_url", "", "html")
    app.add_config_value("ba_language_names", {}, "html")
    app.add_config_value("ba_switcher_label", "Language", "html")
    app.add_config_value("ba_search_label", "Search", "html")
    app.connect("config-inited", on_config_inited)
    app.connect("html-page-context", on_page_context)
    app.add_css_file("language-switcher.css")
    app.config.html_static_path.append(str(Path(__file__).parent / "static"))
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
