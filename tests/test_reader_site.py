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


def test_mathjax_comes_from_the_installed_package():
    source = rs.mathjax_source()
    for rel in rs.MATHJAX_FILES:
        assert (source / rel).exists(), rel
