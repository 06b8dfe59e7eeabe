"""The quizzes in an LMS's formats (tools/teaching/quiz_export.py): every chapter in every language
as Moodle XML, GIFT and QTI 1.2, read back here as the LMS reads them, with every question, its
right answer and every option's feedback surviving.

The formats' rules come from the importers themselves (Moodle's question/format/xml/format.php and
question/format/gift/format.php, Canvas's QTI 1.2 items): the Moodle XML is parsed and checked for
what Moodle's importer reads; the GIFT is read by a parser written here from Moodle's GIFT reader
(blank lines between questions, ``//`` comments, ``::name::``, ``[html]``, the answers between the
first ``{`` and ``}``, ``=``/``~`` options with ``#`` feedback, TRUE/FALSE with two feedbacks, the
backslash escapes); the QTI package is unzipped and its manifest and items parsed.
"""

from __future__ import annotations

import html
import io
import re
import xml.etree.ElementTree as ET
import zipfile

import pytest
from hypothesis import given
from hypothesis import strategies as st

from beyond_accuracy.explorers.quiz import chapters, definitions
from beyond_accuracy.language import term
from tools.editions.derive import doc_title
from tools.project import languages
from tools.teaching.quiz_export import FORMATS, export, gift_escape, text_html

CASES = [(chapter, lang) for chapter in chapters() for lang in languages()]


def expected(chapter: str, lang: str) -> list[dict]:
    """Read straight from the stored definitions (data/quizzes/*.json and quiz.csv), not through
    the code that exports them: per question its id, kind, prompt, options (text, right?, feedback)."""
    out = []
    for q in definitions()[chapter]["questions"]:
        options = []
        for o in q["options"]:
            text = o["text"][lang] if "text" in o else term("quiz_true" if o["value"] else "quiz_false", lang)
            options.append({"text": text, "right": bool(o["correct"]), "feedback": o["feedback"][lang]})
        out.append({"id": q["id"], "kind": q["kind"], "prompt": q["prompt"][lang], "options": options})
    return out


def plain(text_html_: str) -> str:
    """HTML of a quiz text back to the text: <code> to backticks, entities decoded, <p> dropped."""
    text = re.sub(r"</?p>", "", text_html_.strip())
    text = text.replace("<code>", "`").replace("</code>", "`")
    assert "<" not in text, f"unexpected markup in {text_html_!r}"
    return html.unescape(text)


# --------------------------------------------------------------------------------------------
# Moodle XML


def read_moodle(data: bytes) -> tuple[str, list[dict]]:
    root = ET.fromstring(data)
    assert root.tag == "quiz"
    questions = list(root)
    assert questions[0].get("type") == "category"
    category = questions[0].findtext("category/text")
    found = []
    for q in questions[1:]:
        kind = q.get("type")
        assert kind in ("multichoice", "truefalse"), kind
        name = q.findtext("name/text")
        assert name and name.strip(), "Moodle requires a question name"
        text = q.find("questiontext")
        assert text is not None and text.get("format") in (
            "html",
            "moodle_auto_format",
            "plain_text",
            "markdown",
        )
        assert float(q.findtext("defaultgrade")) > 0
        answers = q.findall("answer")
        fractions = [float(a.get("fraction")) for a in answers]
        assert sorted(fractions) == [0.0] * (len(answers) - 1) + [100.0], "one answer worth 100 %"
        assert all(a.find("feedback/text") is not None for a in answers)
        if kind == "multichoice":
            assert q.findtext("single") == "true" and len(answers) >= 2
            assert q.findtext("answernumbering") in ("abc", "ABCD", "123", "iii", "IIII", "none")
            options = [plain(a.findtext("text")) for a in answers]
        else:
            # Moodle's importer matches the answers by these words
            assert [a.findtext("text") for a in answers] == ["true", "false"]
            options = None
        found.append(
            {
                "id": name,
                "kind": "choice" if kind == "multichoice" else "true_false",
                "prompt": plain(text.findtext("text")),
                "options": options,
                "right": fractions.index(100.0),
                "feedback": [plain(a.findtext("feedback/text")) for a in answers],
            }
        )
    return category, found


def _as_read(questions: list[dict], lang: str, true_false_texts: bool) -> list[dict]:
    out = []
    for q in questions:
        texts = [o["text"] for o in q["options"]]
        out.append(
            {
                "id": q["id"],
                "kind": q["kind"],
                "prompt": q["prompt"],
                "options": texts if (q["kind"] == "choice" or true_false_texts) else None,
                "right": next(i for i, o in enumerate(q["options"]) if o["right"]),
                "feedback": [o["feedback"] for o in q["options"]],
            }
        )
    return out


@pytest.mark.parametrize("chapter,lang", CASES)
def test_moodle_xml_holds_every_question_right_answer_and_feedback(chapter, lang):
    category, found = read_moodle(export(chapter, lang, "moodle"))
    assert category == f"$course$/top/Beyond Accuracy/{doc_title(f'chapters/{lang}/{chapter}')}"
    assert found == _as_read(expected(chapter, lang), lang, true_false_texts=False)


# --------------------------------------------------------------------------------------------
# GIFT, read as Moodle's GIFT importer reads it

_ESCAPES = {
    "\\:": "\x01",
    "\\#": "\x02",
    "\\=": "\x03",
    "\\{": "\x04",
    "\\}": "\x05",
    "\\~": "\x06",
    "\\n": "\x07",
}
_BACK = {"\x01": ":", "\x02": "#", "\x03": "=", "\x04": "{", "\x05": "}", "\x06": "~", "\x07": "\n"}


def _pre(text: str) -> str:
    text = text.replace("\\\\", "\x00")
    for escaped, placeholder in _ESCAPES.items():
        text = text.replace(escaped, placeholder)
    return text.replace("\x00", "\\")


def _post(text: str) -> str:
    for placeholder, char in _BACK.items():
        text = text.replace(placeholder, char)
    return text


def _format(text: str) -> tuple[str, str]:
    match = re.match(r"^\[(moodle|html|plain|markdown)\]", text)
    if match:
        return match.group(1), _post(text[match.end() :]).strip()
    return "moodle", _post(text).strip()


def read_gift(source: str, raw: bool = False) -> tuple[str | None, list[dict]]:
    """The questions of a GIFT file (multiple choice and true/false), as Moodle's importer reads
    them; texts from HTML back to the quiz's texts (``raw``: as read)."""
    text_of = (lambda t: t) if raw else plain
    blocks, current = [], []
    for line in source.split("\n"):
        if line.strip():
            current.append(line)
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    category, found = None, []
    for lines in blocks:
        text = "\n".join(" " if line.strip().startswith("//") else line for line in lines).strip()
        if not text:
            continue
        text = _pre(text)
        if text.startswith("$CATEGORY:"):
            category = text[len("$CATEGORY:") :].strip()
            continue
        name = None
        if text.startswith("::"):
            end = text.index("::", 2)
            name, text = _post(text[2:end]).strip(), text[end + 2 :].strip()
        start, finish = text.index("{"), text.index("}")
        answers = text[start + 1 : finish].strip()
        fmt, prompt = _format(text[:start])
        assert fmt == "html" and text[finish + 1 :].strip() == ""
        if "~" in answers:
            parts = [a.strip() for a in answers.replace("=", "~=").split("~") if a.strip()]
            options, feedback, right = [], [], []
            for i, part in enumerate(parts):
                if part.startswith("="):
                    right.append(i)
                    part = part[1:]
                answer, _, fb = part.partition("#")
                options.append(_format(answer.strip())[1])
                feedback.append(_format(fb.strip())[1])
            assert len(right) == 1
            found.append(
                {"id": name, "kind": "choice", "prompt": text_of(prompt), "options": [text_of(o) for o in options],
                 "right": right[0], "feedback": [text_of(f) for f in feedback]}
            )  # fmt: skip
        else:
            value, wrong, rightfb = (answers.split("#", 2) + ["", ""])[:3]
            assert value.strip() in ("T", "TRUE", "F", "FALSE")
            is_true = value.strip() in ("T", "TRUE")
            fb_true, fb_false = (rightfb, wrong) if is_true else (wrong, rightfb)
            found.append(
                {"id": name, "kind": "true_false", "prompt": text_of(prompt), "options": None,
                 "right": 0 if is_true else 1,
                 "feedback": [text_of(_format(fb_true.strip())[1]), text_of(_format(fb_false.strip())[1])]}
            )  # fmt: skip
    return category, found


@pytest.mark.parametrize("chapter,lang", CASES)
def test_gift_holds_every_question_right_answer_and_feedback(chapter, lang):
    source = export(chapter, lang, "gift").decode("utf-8")
    category, found = read_gift(source)
    assert category == f"$course$/top/Beyond Accuracy/{doc_title(f'chapters/{lang}/{chapter}')}"
    assert found == _as_read(expected(chapter, lang), lang, true_false_texts=False)


_TEXTS = st.text(alphabet=st.sampled_from(list("ab ~=#{}:\\\n`<&>$%[]/")), min_size=1, max_size=30).filter(
    str.strip
)


@given(_TEXTS, _TEXTS, _TEXTS)
def test_gift_escaping_survives_every_reserved_character(prompt, option, feedback):
    """Any text, with GIFT's reserved characters, the backslash and line breaks, comes back whole
    from a question's text, an option and a feedback."""
    e = gift_escape
    source = f"::q::[html]{e(prompt)}{{\n\t={e(option)}#{e(feedback)}\n\t~{e(option)}!#{e(feedback)}!\n}}\n"
    _, found = read_gift(source, raw=True)
    assert found == [
        {"id": "q", "kind": "choice", "prompt": prompt.strip(), "options": [option.strip(), (option + "!").strip()],
         "right": 0, "feedback": [feedback.strip(), (feedback + "!").strip()]}
    ]  # fmt: skip


def test_gift_escaping_by_example():
    assert gift_escape("a=b~c#d{e}f:g\\h\ni") == "a\\=b\\~c\\#d\\{e\\}f\\:g\\\\h\\ni"
    _, found = read_gift("::x\\:y::[html]Is 1 \\= 1?{TRUE#no\\#1#yes \\{ok\\}}\n", raw=True)
    assert found[0]["id"] == "x:y" and found[0]["prompt"] == "Is 1 = 1?"
    assert found[0]["right"] == 0 and found[0]["feedback"] == ["yes {ok}", "no#1"]


# --------------------------------------------------------------------------------------------
# QTI 1.2 (Canvas)

Q = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
CP = "{http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1}"


def read_qti(data: bytes) -> tuple[str, list[dict]]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        manifest = ET.fromstring(zf.read("imsmanifest.xml"))
        resource = manifest.find(f"{CP}resources/{CP}resource")
        assert resource.get("type") == "imsqti_xmlv1p2"
        root = ET.fromstring(zf.read(resource.find(f"{CP}file").get("href")))
    assessment = root.find(f"{Q}assessment")
    found = []
    for item in assessment.iter(f"{Q}item"):
        fields = {
            f.findtext(f"{Q}fieldlabel"): f.findtext(f"{Q}fieldentry")
            for f in item.iter(f"{Q}qtimetadatafield")
        }
        kind = {"multiple_choice_question": "choice", "true_false_question": "true_false"}[
            fields["question_type"]
        ]
        labels = item.findall(f"{Q}presentation/{Q}response_lid/{Q}render_choice/{Q}response_label")
        ids = [label.get("ident") for label in labels]
        assert fields["original_answer_ids"] == ",".join(ids)
        scoring = [c for c in item.iter(f"{Q}respcondition") if c.find(f"{Q}setvar") is not None]
        assert len(scoring) == 1 and scoring[0].findtext(f"{Q}setvar") == "100"
        right = ids.index(scoring[0].findtext(f"{Q}conditionvar/{Q}varequal"))
        shown = {
            c.findtext(f"{Q}conditionvar/{Q}varequal"): c.find(f"{Q}displayfeedback").get("linkrefid")
            for c in item.iter(f"{Q}respcondition")
            if c.find(f"{Q}displayfeedback") is not None
        }
        feedback = {f.get("ident"): f.findtext(f".//{Q}mattext") for f in item.iter(f"{Q}itemfeedback")}
        found.append(
            {
                "id": item.get("title"),
                "kind": kind,
                "prompt": plain(item.findtext(f"{Q}presentation/{Q}material/{Q}mattext")),
                "options": [plain(label.findtext(f".//{Q}mattext")) for label in labels],
                "right": right,
                "feedback": [plain(feedback[shown[i]]) for i in ids],
            }
        )
    return assessment.get("title"), found


@pytest.mark.parametrize("chapter,lang", CASES)
def test_qti_package_holds_every_question_right_answer_and_feedback(chapter, lang):
    title, found = read_qti(export(chapter, lang, "qti"))
    assert title == f"Beyond Accuracy: {doc_title(f'chapters/{lang}/{chapter}')}"
    assert found == _as_read(expected(chapter, lang), lang, true_false_texts=True)


def test_every_text_with_code_becomes_code_and_nothing_else_is_markup():
    assert text_html("Call `f(a<b)` & go") == "Call <code>f(a&lt;b)</code> &amp; go"
    assert plain(text_html("x `y` z")) == "x `y` z"


def test_exports_are_the_same_bytes_on_a_second_run():
    for fmt in FORMATS:
        assert export("02-imbalance", "pt", fmt) == export("02-imbalance", "pt", fmt)
    with pytest.raises(ValueError, match="format"):
        export("02-imbalance", "pt", "docx")
