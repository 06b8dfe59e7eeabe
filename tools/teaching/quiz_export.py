"""The chapters' quizzes for a learning management system: Moodle XML, GIFT and QTI 1.2 (Canvas).

Every chapter's quiz, in every language, from the same definitions the pages use
(``beyond_accuracy.explorers.quiz``: data/quizzes/*.json and the catalogue's quiz.csv): each
question with its options in their order, the right one worth full marks, and each option's
feedback, the one the reader sees on the page after choosing it.

- **Moodle XML** (``<chapter>.moodle.xml``; Moodle: Question bank → Import → Moodle XML format): a
  ``category`` question (``$course$/top/Beyond Accuracy/<chapter's title>``), then a ``multichoice``
  question (``single``, options in the page's order) or a ``truefalse`` one (answers ``true`` and
  ``false``, as Moodle's importer matches them) per question; option feedback in each
  ``<answer>``; the page's "Right." and "Not quite." as the combined feedback. Texts are HTML: a
  quiz text's `code` spans become ``<code>``, everything else is escaped.
- **GIFT** (``<chapter>.gift.txt``; Moodle: Import → GIFT format): ``$CATEGORY:`` as above, then per
  question ``::<id>::[html]<prompt>{…}``: ``=right#feedback`` and ``~wrong#feedback`` for a choice,
  ``{TRUE#feedback if wrong#feedback if right}`` (or ``FALSE``) for a true/false statement. The
  characters GIFT reserves (``~ = # { } :`` and the backslash) are escaped with a backslash in
  every text, as Moodle's own GIFT export does (question/format/gift/format.php, ``repchar``), and a
  line break is written ``\\n``; code survives as ``<code>`` in the ``[html]`` text format. The
  quiz texts hold no math (the page renders none): a ``$`` is kept as it is.
- **QTI 1.2** (``<chapter>.qti.zip``; Canvas: Import course content → QTI .zip file): an IMS
  content package (``imsmanifest.xml`` and the assessment), items of Canvas's
  ``multiple_choice_question`` or ``true_false_question`` type, a ``respcondition`` per option
  that shows its ``itemfeedback``, and the right option setting SCORE to 100.

tests/test_quiz_export.py reads every export back (the XML parsed and checked for what Moodle's
importer requires, the GIFT with a small parser written from Moodle's format, the QTI package
unzipped and parsed) and finds every question, right answer and feedback in every language.

    python -m tools.teaching.quiz_export            # every language -> _build/quizzes/<lang>/
"""

from __future__ import annotations

import argparse
import html
import io
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

from beyond_accuracy.explorers.quiz import chapters, questions
from beyond_accuracy.language import term
from tools.editions.derive import doc_title
from tools.project import BUILD, ROOT, config, languages

QUIZZES = BUILD / "quizzes"
FORMATS = {"moodle": ".moodle.xml", "gift": ".gift.txt", "qti": ".qti.zip"}
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def text_html(text: str) -> str:
    """A quiz text as HTML, as the page shows it: `code` spans as <code>, the rest escaped."""
    parts = text.split("`")
    return "".join(
        f"<code>{html.escape(p, quote=False)}</code>" if i % 2 else html.escape(p, quote=False)
        for i, p in enumerate(parts)
    )


def category(chapter: str, lang: str) -> str:
    """The question bank category of a chapter's quiz: the course, then the chapter's title."""
    title = doc_title(f"chapters/{lang}/{chapter}").replace("/", "-")
    return f"$course$/top/{config()['title']}/{title}"


def _quiz(chapter: str, lang: str) -> list[dict]:
    found = questions(chapter, lang)
    for q in found:
        if sum(o["correct"] for o in q["options"]) != 1:
            raise ValueError(f"{chapter} {q['id']}: one option must be right")
    return found


# --------------------------------------------------------------------------------------------
# Moodle XML


def _text(parent: ET.Element, tag: str, text: str, fmt: str | None = "html") -> ET.Element:
    element = ET.SubElement(parent, tag, {"format": fmt} if fmt else {})
    ET.SubElement(element, "text").text = text
    return element


def moodle_xml(chapter: str, lang: str) -> str:
    """A chapter's quiz as Moodle XML."""
    root = ET.Element("quiz")
    cat = ET.SubElement(root, "question", {"type": "category"})
    _text(cat, "category", category(chapter, lang), fmt=None)
    for q in _quiz(chapter, lang):
        kind = "multichoice" if q["kind"] == "choice" else "truefalse"
        question = ET.SubElement(root, "question", {"type": kind})
        _text(question, "name", q["id"], fmt=None)
        _text(question, "questiontext", f"<p>{text_html(q['prompt'])}</p>")
        _text(question, "generalfeedback", "")
        ET.SubElement(question, "defaultgrade").text = "1"
        ET.SubElement(question, "penalty").text = "1" if kind == "truefalse" else "0.3333333"
        ET.SubElement(question, "hidden").text = "0"
        ET.SubElement(question, "idnumber").text = f"{q['id']}-{lang}"
        if kind == "multichoice":
            ET.SubElement(question, "single").text = "true"
            ET.SubElement(question, "shuffleanswers").text = "false"  # the options' order is the page's
            ET.SubElement(question, "answernumbering").text = "abc"
            ET.SubElement(question, "showstandardinstruction").text = "0"
            _text(question, "correctfeedback", f"<p>{html.escape(term('quiz_right', lang))}</p>")
            _text(question, "partiallycorrectfeedback", "")
            _text(question, "incorrectfeedback", f"<p>{html.escape(term('quiz_wrong', lang))}</p>")
            for option in q["options"]:
                answer = ET.SubElement(
                    question, "answer", {"fraction": "100" if option["correct"] else "0", "format": "html"}
                )
                ET.SubElement(answer, "text").text = text_html(option["text"])
                _text(answer, "feedback", f"<p>{text_html(option['feedback'])}</p>")
        else:
            # the structure's true/false options hold value True then False (quiz.problems checks it)
            for option, value in zip(q["options"], ("true", "false")):
                answer = ET.SubElement(
                    question,
                    "answer",
                    {"fraction": "100" if option["correct"] else "0", "format": "moodle_auto_format"},
                )
                ET.SubElement(answer, "text").text = value
                _text(answer, "feedback", f"<p>{text_html(option['feedback'])}</p>")
    ET.indent(root)
    header = f"<!-- {config()['title']}: {chapter} ({lang}), generated by tools/teaching/quiz_export.py: do not edit. -->"
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{header}\n{ET.tostring(root, encoding="unicode")}\n'


# --------------------------------------------------------------------------------------------
# GIFT

_GIFT_RESERVED = {
    "\\": "\\\\",
    "~": "\\~",
    "=": "\\=",
    "#": "\\#",
    "{": "\\{",
    "}": "\\}",
    ":": "\\:",
    "\n": "\\n",
    "\r": "",
}


def gift_escape(text: str) -> str:
    """A text with GIFT's reserved characters escaped (Moodle's repchar)."""
    return "".join(_GIFT_RESERVED.get(c, c) for c in text)


def gift(chapter: str, lang: str) -> str:
    """A chapter's quiz in GIFT."""
    lines = [
        f"// {config()['title']}: {chapter} ({lang}), generated by tools/teaching/quiz_export.py: do not edit.",
        f"$CATEGORY: {category(chapter, lang)}",
        "",
    ]
    for q in _quiz(chapter, lang):
        head = f"::{gift_escape(q['id'])}::[html]{gift_escape(text_html(q['prompt']))}"
        feedback = [gift_escape(text_html(o["feedback"])) for o in q["options"]]
        if q["kind"] == "true_false":
            right = next(i for i, o in enumerate(q["options"]) if o["correct"])  # 0: true, 1: false
            lines.append(
                f"{head}{{{'TRUE' if right == 0 else 'FALSE'}#{feedback[1 - right]}#{feedback[right]}}}"
            )
        else:
            lines.append(head + "{")
            for option, fb in zip(q["options"], feedback):
                mark = "=" if option["correct"] else "~"
                lines.append(f"\t{mark}{gift_escape(text_html(option['text']))}#{fb}")
            lines.append("}")
        lines.append("")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# QTI 1.2, Canvas's dialect

QTI_NS = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
CP_NS = "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"


def _field(parent: ET.Element, label: str, entry: str) -> None:
    field = ET.SubElement(parent, "qtimetadatafield")
    ET.SubElement(field, "fieldlabel").text = label
    ET.SubElement(field, "fieldentry").text = entry


def _material(parent: ET.Element, text: str) -> None:
    material = ET.SubElement(parent, "material")
    ET.SubElement(material, "mattext", {"texttype": "text/html"}).text = text


def qti_ident(chapter: str, lang: str) -> str:
    return f"beyond-accuracy-{chapter}-{lang}"


def qti_assessment(chapter: str, lang: str) -> str:
    """The QTI 1.2 assessment of a chapter's quiz."""
    ident = qti_ident(chapter, lang)
    root = ET.Element("questestinterop", {"xmlns": QTI_NS})
    title = f"{config()['title']}: {doc_title(f'chapters/{lang}/{chapter}')}"
    assessment = ET.SubElement(root, "assessment", {"ident": ident, "title": title})
    meta = ET.SubElement(assessment, "qtimetadata")
    _field(meta, "cc_maxattempts", "1")
    section = ET.SubElement(assessment, "section", {"ident": "root_section"})
    for n, q in enumerate(_quiz(chapter, lang), 1):
        item_id = f"{ident}-q{n}"
        item = ET.SubElement(section, "item", {"ident": item_id, "title": q["id"]})
        meta = ET.SubElement(ET.SubElement(item, "itemmetadata"), "qtimetadata")
        kind = "multiple_choice_question" if q["kind"] == "choice" else "true_false_question"
        option_ids = [f"{item_id}-a{i}" for i in range(1, len(q["options"]) + 1)]
        _field(meta, "question_type", kind)
        _field(meta, "points_possible", "1.0")
        _field(meta, "original_answer_ids", ",".join(option_ids))
        presentation = ET.SubElement(item, "presentation")
        _material(presentation, f"<p>{text_html(q['prompt'])}</p>")
        response = ET.SubElement(
            presentation, "response_lid", {"ident": "response1", "rcardinality": "Single"}
        )
        choices = ET.SubElement(response, "render_choice")
        for option_id, option in zip(option_ids, q["options"]):
            label = ET.SubElement(choices, "response_label", {"ident": option_id})
            _material(label, text_html(option["text"]))
        processing = ET.SubElement(item, "resprocessing")
        outcomes = ET.SubElement(processing, "outcomes")
        ET.SubElement(
            outcomes, "decvar", {"maxvalue": "100", "minvalue": "0", "varname": "SCORE", "vartype": "Decimal"}
        )
        for option_id in option_ids:
            condition = ET.SubElement(processing, "respcondition", {"continue": "Yes"})
            ET.SubElement(
                ET.SubElement(condition, "conditionvar"), "varequal", {"respident": "response1"}
            ).text = option_id
            ET.SubElement(
                condition, "displayfeedback", {"feedbacktype": "Response", "linkrefid": f"{option_id}-fb"}
            )
        for option_id, option in zip(option_ids, q["options"]):
            if option["correct"]:
                condition = ET.SubElement(processing, "respcondition", {"continue": "No"})
                ET.SubElement(
                    ET.SubElement(condition, "conditionvar"), "varequal", {"respident": "response1"}
                ).text = option_id
                ET.SubElement(condition, "setvar", {"action": "Set", "varname": "SCORE"}).text = "100"
        for option_id, option in zip(option_ids, q["options"]):
            feedback = ET.SubElement(item, "itemfeedback", {"ident": f"{option_id}-fb"})
            _material(ET.SubElement(feedback, "flow_mat"), f"<p>{text_html(option['feedback'])}</p>")
    ET.indent(root)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{ET.tostring(root, encoding="unicode")}\n'


def qti_manifest(chapter: str, lang: str) -> str:
    ident = qti_ident(chapter, lang)
    root = ET.Element("manifest", {"identifier": f"{ident}-manifest", "xmlns": CP_NS})
    meta = ET.SubElement(root, "metadata")
    ET.SubElement(meta, "schema").text = "IMS Content"
    ET.SubElement(meta, "schemaversion").text = "1.1.3"
    ET.SubElement(root, "organizations")
    resources = ET.SubElement(root, "resources")
    resource = ET.SubElement(resources, "resource", {"identifier": ident, "type": "imsqti_xmlv1p2"})
    ET.SubElement(resource, "file", {"href": f"{ident}/{ident}.xml"})
    ET.indent(root)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{ET.tostring(root, encoding="unicode")}\n'


def qti_zip(chapter: str, lang: str) -> bytes:
    """The IMS content package Canvas imports: the manifest and the assessment, fixed timestamps."""
    ident = qti_ident(chapter, lang)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, text in (
            ("imsmanifest.xml", qti_manifest(chapter, lang)),
            (f"{ident}/{ident}.xml", qti_assessment(chapter, lang)),
        ):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, text.encode("utf-8"))
    return buffer.getvalue()


# --------------------------------------------------------------------------------------------


def export(chapter: str, lang: str, fmt: str) -> bytes:
    """One chapter's quiz in one language and format (``moodle``, ``gift`` or ``qti``), as bytes."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if fmt == "qti":
        return qti_zip(chapter, lang)
    return (moodle_xml if fmt == "moodle" else gift)(chapter, lang).encode("utf-8")


def file_name(chapter: str, fmt: str) -> str:
    return f"{chapter}{FORMATS[fmt]}"


def write_quiz_exports(lang: str, dest: Path) -> list[Path]:
    """Every chapter's quiz in every format into dest/ (written afresh)."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    for old in dest.iterdir():
        if old.is_file():
            old.unlink()
    written = []
    for chapter in chapters():
        for fmt in FORMATS:
            path = dest / file_name(chapter, fmt)
            path.write_bytes(export(chapter, lang, fmt))
            written.append(path)
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lang", action="append", help="only these languages (repeatable)")
    parser.add_argument("--out", type=Path, default=QUIZZES, help="folder (one sub-folder per language)")
    args = parser.parse_args(argv)
    for lang in args.lang or languages():
        for path in write_quiz_exports(lang, args.out / lang):
            print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
