"""The HTML rewrites of tools/book/sphinx/reader_site.py (the browser tests check the built pages)."""

from tools.book.sphinx import reader_site as rs


def test_empty_index_header_cells_become_cells_only_in_the_table_head():
    body = (
        "<table><thead><tr><th></th><th>recall</th><th>&nbsp;</th></tr></thead>"
        "<tbody><tr><th>model</th><td>1</td></tr><tr><th></th></tr></tbody></table>"
    )
    out = rs.empty_headers_to_cells(body)
    assert "<thead><tr><td></td><th>recall</th><td></td></tr></thead>" in out
    assert "<tbody><tr><th>model</th><td>1</td></tr><tr><th></th></tr></tbody>" in out


def test_a_blank_corner_makes_the_first_column_row_headers():
    body = (
        '<table class="table"><thead><tr class="row-odd"><th class="head"><p></p></th>'
        '<th class="head"><p>ECE</p></th></tr></thead><tbody>'
        '<tr class="row-even"><td><p>Platt</p></td><td><p>0.1</p></td></tr></tbody></table>'
    )
    out = rs.empty_headers_to_cells(body)
    assert '<thead><tr class="row-odd"><td class="head"></td><th class="head"><p>ECE</p></th>' in out
    assert '<tr class="row-even"><th scope="row"><p>Platt</p></th><td><p>0.1</p></td></tr>' in out


def test_repeated_ids_get_a_suffix_and_the_first_keeps_its_id():
    out = rs.unique_ids('<div id="ex"><p id="a"></p></div><div id="ex"></div><span id="ex">')
    assert out == '<div id="ex"><p id="a"></p></div><div id="ex-2"></div><span id="ex-3">'


def test_images_link_to_themselves_unless_already_linked():
    linked = '<a class="reference internal image-reference" href="x.svg"><img alt="A" src="x.svg" /></a>'
    bare = '<img alt="B" src="../../_images/y.png" />'
    out = rs.zoomable_images(linked + bare)
    assert out.startswith(linked)
    assert out.endswith(f'<a class="ba-zoom" href="../../_images/y.png">{bare}</a>')


def test_summaries_and_citations():
    assert rs.summaries_named_by_their_text('<summary aria-label="Toggle hidden content">\n') == "<summary>\n"
    assert rs.citations_as_list_items('<div class="citation" role="doc-biblioentry">') == (
        '<div class="citation" role="listitem">'
    )


def test_thebe_and_fontawesome_are_dropped_and_the_rest_kept():
    class Asset(str):
        def __new__(cls, filename, **attributes):
            obj = super().__new__(cls, filename or "")
            obj.filename, obj.attributes = filename, attributes
            return obj

    assert rs._dropped(Asset(None, body='const THEBE_JS_URL = "https://unpkg.com/thebe"'))
    assert rs._dropped(Asset("sphinx-thebe.js", **{"async": "async"}))
    assert rs._dropped(Asset("sphinx-thebe.css?v=1"))
    assert not rs._dropped(Asset("reader-site.js", defer="defer"))
    assert not rs._dropped(Asset(None, body="window.MathJax = {}"))


def test_the_search_scripts_leave_every_page_but_the_search_page():
    head = (
        '  <script src="../../_static/doctools.js?v=1"></script>\n'
        '    <script src="../../_static/searchtools.js"></script>\n'
        '    <script src="../../_static/language_data.js"></script>\n'
        '    <script src="../../searchindex.js"></script>\n'
        "  </head>"
    )
    assert (
        rs.without_search_scripts(head)
        == '  <script src="../../_static/doctools.js?v=1"></script>\n  </head>'
    )


def test_sphinx_design_is_loaded_only_by_a_page_that_uses_it():
    def assets(body):
        context = {
            "body": body,
            "css_files": ["_static/sphinx-design.min.css?v=1", "_static/reader-site.css"],
            "script_files": ["_static/design-tabs.js?v=2", "_static/doctools.js"],
        }
        rs.on_page_context(None, "p", "page.html", context, None)
        return context["css_files"] + context["script_files"]

    assert assets("<p>text</p>") == ["_static/reader-site.css", "_static/doctools.js"]
    assert len(assets('<div class="sd-tab-set docutils">')) == 4
    assert len(assets('<div class="x sd-card">')) == 4


THEME_CSS = (
    '@font-face{font-family:"Font Awesome 6 Free";src:url(../vendor/fontawesome/webfonts/fa-solid-900.woff2) '
    'format("woff2"),url(../vendor/fontawesome/webfonts/fa-solid-900.ttf) format("truetype")}'
    '.fa-github:before{content:"\\f09b"}.fa-arrow-down-long:before,.fa-long-arrow-down:before{content:"\\f175"}'
    '.fa-0:before{content:"\\30 "}.fa-sun:before{content:"\\f185"}'
    ".admonition>.admonition-title:after{content:var(--pst-icon-admonition-note)}"
    ':root{--pst-icon-admonition-note:"\\f05a";--fa-font-solid:normal 900 1em/1 "Font Awesome 6 Free"}'
)


def test_only_the_icons_the_site_names_or_draws_are_kept():
    markup = [
        '<i class="fa-brands fa-github"></i>',
        "button.innerHTML = '<i class=\"fa-solid fa-long-arrow-down\"></i>'",
    ]
    named, chars = rs.used_icons(THEME_CSS, ['a::after{content:"\\f00e"/""}'], markup)
    assert {"fa-github", "fa-long-arrow-down", "fa-brands", "fa-solid"} <= named
    assert chars == {0xF09B, 0xF175, 0xF05A, 0xF00E}  # named icons, the theme's and the site's own CSS
    css = rs.lean_icon_css(THEME_CSS, named)
    assert ".fa-github:before" in css and ".fa-long-arrow-down:before" in css
    assert ".fa-sun" not in css and ".fa-0:before" not in css
    assert ".ttf" not in css and "Font Awesome" not in css
    assert 'font-family:"BA Icons"' in css and '1em/1 "BA Icons"' in css
    assert "--pst-icon-admonition-note" in css


def test_a_cut_icon_font_draws_only_the_kept_icons(tmp_path):
    from importlib import resources

    from fontTools.ttLib import TTFont

    source = resources.files("pydata_sphinx_theme").joinpath(
        "theme/pydata_sphinx_theme/static/vendor/fontawesome/webfonts/fa-solid-900.woff2"
    )
    font = tmp_path / "fa-solid-900.woff2"
    font.write_bytes(source.read_bytes())
    before = font.stat().st_size
    rs.cut_font(font, {0xF185, 0xF00E}, "BA Icons")
    cut = TTFont(str(font))
    assert set(cut.getBestCmap()) - {0x20} == {0xF185, 0xF00E}
    assert cut["name"].getDebugName(1) == "BA Icons"
    assert font.stat().st_size < before / 20


def test_the_rules_of_components_no_page_names_are_removed():
    pages = [
        '<div class="dropdown-menu show"><a class="dropdown-item">x</a></div><pre><span class="sd">doc</span></pre>'
    ]
    scripts = ["el.classList.add('list-group-item')"]
    unused = rs.unused_components(pages, scripts)
    assert {"carousel", "modal", "sd-", "-Color"} <= unused
    assert "list-group" not in unused  # a script names it (list-group is not a candidate anyway)
    css = (
        ".carousel{a:b}.dropdown-menu,.modal-dialog .x{c:d}"
        "@media (min-width:576px){.modal-sm{e:f}.dropdown-item:is(.active,.modal){g:h}}"
        ".sd-card{i:j}.sd{k:l}div.highlight .-Color-Red{m:n}@font-face{font-family:x}"
    )
    lean = rs.without_components(css, unused)
    # a class inside :is(), :not() does not make a selector the component's (.x:not(.modal) is no modal)
    assert lean == (
        ".dropdown-menu{c:d}@media (min-width:576px){.dropdown-item:is(.active,.modal){g:h}}"
        ".sd{k:l}@font-face{font-family:x}"
    )


def test_a_component_a_page_uses_keeps_its_rules():
    unused = rs.unused_components(['<div class="sd-tab-set"><div class="card-body">'], [])
    assert "sd-" not in unused and "card" not in unused
    assert (
        rs.without_components(".card-body{a:b}.sd-tab-set{c:d}", unused) == ".card-body{a:b}.sd-tab-set{c:d}"
    )
