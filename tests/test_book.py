"""The whole site builds without a single Sphinx warning (-W -n --keep-going), in every language,
with a working language switcher, localised search, launch and download buttons that open the
published student notebooks, and the chapters' worked solutions (the labs are the student editions)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import nbformat
import pytest
from bs4 import BeautifulSoup
from site_html import html_of, pages

from beyond_accuracy import term
from tools.editions.derive import lab_page_notebook, student_notebook
from tools.project import ROOT, install_spec, languages, notebooks_branch, repository_url


def resolve(page: Path, href: str) -> Path:
    return (page.parent / unquote(href.split("#")[0])).resolve()


def test_landing_page_links_every_language(site):
    html = (site / "index.html").read_text(encoding="utf-8")
    for lang in languages():
        hrefs = re.findall(rf'<a href="([^"]+)" hreflang="{lang}"', html)
        assert hrefs and resolve(site / "index.html", hrefs[0]).exists(), f"landing link to {lang} is broken"
        assert term("language_name", lang) in html


@pytest.mark.parametrize("lang", languages())
def test_switcher_reaches_the_same_page_in_every_language(site, lang):
    for page in pages(site, lang, index=False):
        html = page.read_text(encoding="utf-8")
        assert 'class="ba-language-switcher"' in html, f"{page} has no language switcher"
        for other in languages():
            if other == lang:
                continue
            links = re.findall(rf'<a class="ba-language" href="([^"]+)" hreflang="{other}"', html)
            assert links, f"{page.relative_to(site)} has no link to {other}"
            target = resolve(page, links[0])
            assert target.exists(), f"{page.relative_to(site)} links to a missing {other} page"
            expected = str(page.relative_to(site / lang)).replace(f"/{lang}/", f"/{other}/")
            assert target == (site / other / expected).resolve()
            assert f'<link rel="alternate" hreflang="{other}"' in html


@pytest.mark.parametrize("lang", languages())
def test_pages_speak_the_language(site, lang):
    chapter = next((site / lang / "chapters" / lang).glob("01-*.html"))
    html = chapter.read_text(encoding="utf-8")
    assert re.search(rf'<html lang="{lang}(-[A-Z]+)?"', html), "the page does not declare its language"
    assert f'placeholder="{term("search_placeholder", lang)}"' in html
    options = (site / lang / "_static" / "documentation_options.js").read_text(encoding="utf-8")
    assert re.search(rf"LANGUAGE: '{lang}([-_][A-Z]+)?'", options)
    glossary = (site / lang / "chapters" / lang / "glossary.html").read_text(encoding="utf-8")
    assert term("confusion_matrix", lang) in glossary


GLUE_ROLE = re.compile(r"\{glue(?::text)?\}`([^`]+)`")
WORD_BEFORE = re.compile(r"([^\W\d_]{3,})[\s(:=]*$")  # a word right before a role: "recall {glue...}"
BLOCKS = ("p", "li", "td", "th", "dd", "dt", "div", "figcaption", "caption")


def glued_values(nb) -> dict[str, str]:
    values = {}
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if "scrapbook" in out.get("metadata", {}):
                text = out["data"]["application/papermill.record/text/plain"]
                values[out["metadata"]["scrapbook"]["name"]] = ast.literal_eval(text)  # a str repr
    return values


def text_before(span) -> str:
    """The page's text right before ``span``, within its paragraph (or list item, cell...)."""
    text, node = "", span
    while len(text) < 60:
        previous = node.previous_sibling
        while previous is None and node.parent is not None and node.parent.name not in BLOCKS:
            node = node.parent
            previous = node.previous_sibling
        if previous is None:
            break
        text = previous.get_text() + text
        node = previous
    return text


def glue_placement_problems(nb, soup) -> list[str]:
    """Each {glue} role of the prose, in order, against the page's pasted values, in order: the
    n-th role shows its own value, and the word the source puts right before the role is right
    before the value on the page."""
    values = glued_values(nb)
    prose = "\n\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    roles = list(GLUE_ROLE.finditer(prose))
    spans = soup.select("span.pasted-text")
    problems = []
    if len(roles) != len(spans):
        problems.append(f"{len(roles)} glue roles in the prose, {len(spans)} pasted values on the page")
    for role, span in zip(roles, spans):
        name = role.group(1).split(":")[0]
        if span.get_text() != values.get(name):
            problems.append(f"{name}: the page shows {span.get_text()!r} where {values.get(name)!r} belongs")
            continue
        word = WORD_BEFORE.search(prose[: role.start()][-80:])
        if word and not re.search(re.escape(word.group(1)) + r"[\s(:=]*$", text_before(span)):
            problems.append(f"{name}: {values[name]!r} is not after {word.group(1)!r} on the page")
    return problems


@pytest.mark.parametrize("lang", languages())
def test_glued_numbers_reach_the_page(site, lang, tmp_path):
    """Every value glued in a notebook appears, localised, where its role is in the prose."""
    pasted = 0
    for kind in ("chapters", "labs"):
        for nb_path in sorted((ROOT / kind / lang).glob("*.ipynb")):
            page = site / lang / kind / lang / f"{nb_path.stem}.html"
            if kind == "labs":  # the site shows the lab as students get it (what the build staged)
                nb_path = lab_page_notebook(nb_path, tmp_path / f"{lang}-{nb_path.name}")
            nb = nbformat.read(nb_path, as_version=4)
            problems = glue_placement_problems(nb, html_of(page))
            assert not problems, f"{kind}/{lang}/{nb_path.name}: {problems[:5]}"
            pasted += len(html_of(page).select("span.pasted-text"))
    assert pasted > 1000


def test_a_glued_value_missing_from_its_place_is_seen():
    """The check itself, on a typed page: a value shown elsewhere on the page is not enough."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell(
            "Recall equals {glue:text}`recall` and {glue:text}`n` patients were sick."
        ),
        nbformat.v4.new_code_cell("glue(...)"),
    ]
    for name, text in (("recall", "0.700"), ("n", "7")):
        nb.cells[1].outputs.append(
            nbformat.v4.new_output(
                "display_data",
                data={"application/papermill.record/text/plain": repr(text)},
                metadata={"scrapbook": {"name": name}},
            )
        )

    def page(first, second, tail=""):
        return BeautifulSoup(
            f'<main><p>Recall equals <span class="pasted-text">{first}</span> and '
            f'<span class="pasted-text">{second}</span> patients were sick.</p><p>{tail}</p></main>',
            "html.parser",
        )

    assert glue_placement_problems(nb, page("0.700", "7")) == []
    assert glue_placement_problems(nb, page("0.700", "", tail="Table 7")) == [
        "n: the page shows '' where '7' belongs"
    ]
    assert glue_placement_problems(nb, page("7", "0.700")) == [
        "recall: the page shows '7' where '0.700' belongs",
        "n: the page shows '0.700' where '7' belongs",
    ]
    moved = BeautifulSoup(
        '<p>Recall is high.</p><p>Precision <span class="pasted-text">0.700</span> and '
        '<span class="pasted-text">7</span> patients were sick.</p>',
        "html.parser",
    )
    assert glue_placement_problems(nb, moved) == ["recall: '0.700' is not after 'equals' on the page"]


BUTTONS = {
    "colab": re.compile(
        r'https://colab\.research\.google\.com/github/([^/"]+/[^/"]+)/blob/([^/"]+)/([^"]+\.ipynb)'
    ),
    "binder": re.compile(
        r'https://mybinder\.org/v2/gh/([^/"]+/[^/"]+)/([^/?"]+)\?urlpath=lab/tree/([^"]+\.ipynb)'
    ),
}


def test_every_button_opens_the_student_notebook(site, tmp_path):
    """The Colab, Binder and download buttons of every chapter and lab in every language lead to
    the published student notebook (what the notebooks branch holds), at the path they name, and
    that file is what tools/editions/derive.py derives from the chapter or lab."""
    built, which = site, "reader"
    publish = built.parent / "publish"
    repo = urlparse(repository_url()).path.strip("/")
    notebook_pages = 0
    for lang in languages():
        for kind in ("chapters", "labs"):
            for src in sorted((ROOT / kind / lang).glob("*.ipynb")):
                page = built / lang / kind / lang / f"{src.stem}.html"
                html = page.read_text(encoding="utf-8")
                notebook_pages += 1
                path = f"{kind}/{lang}/{src.name}"
                for name, pattern in BUTTONS.items():
                    found = pattern.findall(html)
                    assert found, f"{which} {path}: no {name} button"
                    for owner_repo, branch, target in found:
                        assert (owner_repo, branch, target) == (repo, notebooks_branch(), path), (
                            f"{which} {path}: the {name} button opens {owner_repo}@{branch}:{target}"
                        )
                downloads = set(re.findall(r'href="((?:\.\./)*_sources/[^"]+\.ipynb)"', html))
                assert downloads, f"{which} {path}: no download button"
                published = publish / path
                expected = student_notebook(src, tmp_path / path).read_bytes()
                assert published.read_bytes() == expected, f"{path}: the published notebook is stale"
                for href in downloads:
                    assert resolve(page, href).read_bytes() == expected, f"{which} {path}: download {href}"
    assert notebook_pages == len(list(ROOT.glob("*/*/*.ipynb"))) >= 10 * len(languages())
    requirements = (publish / "requirements.txt").read_text(encoding="utf-8")
    assert install_spec() in requirements.splitlines(), "Binder would not install the pinned release"


def test_chapters_keep_their_worked_solutions(site):
    """Self-study: the chapters' exercises keep their {solution} blocks on the site (the labs'
    pages are the student editions: tests/test_reader_site.py)."""
    for lang in languages():
        assert any(
            'class="solution' in p.read_text(encoding="utf-8")
            for p in (site / lang / "chapters" / lang).glob("*.html")
        ), f"the {lang} chapters show no worked solution"


def test_student_notebooks_keep_checks_and_drop_solutions(editions):
    for original_path in sorted(ROOT.glob("labs/*/*.ipynb")):
        path = editions / "publish" / "labs" / original_path.parent.name / original_path.name
        original = nbformat.read(original_path, as_version=4)
        student = nbformat.read(path, as_version=4)
        solutions = [c.source for c in original.cells if "solution" in c.metadata.get("tags", [])]
        assert solutions, f"{path.name} has no solution cells to remove"
        text = "\n".join(c.source for c in student.cells)
        for source in solutions:
            assert source not in text
        assert "check." in text and "= ..." in text
        assert "{solution}" not in text


@pytest.mark.parametrize("lang", languages())
def test_pages_have_a_description_and_absolute_alternates(site, lang):
    """Every book page has a meta description (its first paragraph, in its language) and links to
    its other languages with absolute URLs under course.site_url (search engines ignore relative
    hreflang links)."""
    from tools.project import site_url

    problems = []
    for page in pages(site, lang):
        soup = html_of(page)
        if 'http-equiv="refresh"' in page.read_text(encoding="utf-8")[:2000].lower():
            continue  # <lang>/index.html: a redirect to the language's landing page
        meta = soup.find("meta", attrs={"name": "description"})
        if meta is None or len(meta.get("content", "")) < 40:
            problems.append(f"{page.name}: no meta description")
        links = soup.find_all("link", rel="alternate", hreflang=True)
        if len(links) != len(languages()) or not all(
            link["href"].startswith(site_url() + f"/{link['hreflang']}/") for link in links
        ):
            problems.append(f"{page.name}: alternates {[link['href'] for link in links]}")
    assert not problems, problems[:10]
