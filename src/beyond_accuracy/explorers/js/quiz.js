// A chapter's quiz (beyond_accuracy.explorers.Quiz): one fieldset of radio buttons per question.
// Choosing an option shows its feedback (why it is right or wrong) in a live region, marked with a
// word, not only a colour; nothing is shown before the reader chooses, and the reader may choose
// again. data: {chapter, questions: [{id, kind, options: [{correct}]}], labels, number_style}: every
// word is a label (the quiz's own, and "<id>:prompt", "<id>:<i>:text", "<id>:<i>:feedback"), so
// the rest of the data is the same in every language. The chosen option of each question goes to
// state.answers[id].

const BA_QUIZ_CSS = `
.ba-quiz{font-size:0.95rem;line-height:1.45;margin:1rem 0;padding:0.75rem;border:1px solid var(--ba-border);
 border-radius:6px;max-width:100%;box-sizing:border-box;overflow-wrap:anywhere}
.ba-quiz *{box-sizing:border-box}
.ba-quiz .ba-quiz-title{font-weight:700;margin:0 0 0.5rem}
.ba-quiz fieldset{border:0;margin:0;padding:0;min-width:0}
.ba-quiz fieldset+fieldset{margin-top:1rem}
.ba-quiz legend{float:none;width:auto;padding:0;margin:0 0 0.35rem;font-size:1em;line-height:1.4;font-weight:600}
.ba-quiz .ba-quiz-number{display:block;font-weight:400;font-size:0.85rem;color:var(--ba-muted)}
.ba-quiz-option{display:flex;align-items:center;gap:0.6rem;min-height:44px;padding:0.35rem 0.5rem;
 margin:0.15rem 0;border:1px solid transparent;border-radius:4px;cursor:pointer;touch-action:manipulation}
.ba-quiz-option:hover{border-color:var(--ba-border)}
.ba-quiz-option input{flex:none;width:1.25rem;height:1.25rem;margin:0;cursor:pointer}
.ba-quiz-option:focus-within{outline:2px solid var(--ba-blue);outline-offset:1px}
.ba-quiz-option.ba-quiz-chosen{border-color:currentColor}
.ba-quiz-feedback{margin:0.35rem 0 0;padding:0;min-height:0}
.ba-quiz-feedback:not(:empty){padding:0.45rem 0.6rem;border-left:4px solid var(--ba-border);background:rgba(128,128,128,0.08)}
.ba-quiz-feedback[data-result="right"]{border-left-color:var(--ba-right);background:rgba(0,120,80,0.10)}
.ba-quiz-feedback[data-result="wrong"]{border-left-color:var(--ba-wrong);background:rgba(200,60,40,0.10)}
.ba-quiz-mark{font-weight:700;}
.ba-quiz code{font-size:0.9em;overflow-wrap:anywhere;word-break:break-word}
`;

function baQuizStyles(doc) {
  if (doc.getElementById("ba-quiz-styles")) return;
  const style = doc.createElement("style");
  style.id = "ba-quiz-styles";
  style.textContent = BA_QUIZ_CSS;
  doc.head.appendChild(style);
}

// Text with `code` spans -> nodes (text and <code> elements; nothing is parsed as HTML).
function baQuizInline(text) {
  return String(text)
    .split("`")
    .map((part, i) => (i % 2 ? baEl("code", {}, [part]) : part))
    .filter((part) => part !== "");
}

export default {
  render({ model, el }) {
    const data = model.get("data");
    const root = baRoot(el, model, "ba-quiz");
    baQuizStyles(el.ownerDocument || document);
    root.dataset.chapter = data.chapter;
    const questions = data.questions || [];
    const group = baId("quiz");
    const title = baEl("p", { class: "ba-quiz-title", id: `${group}-title` }, [baLabel(data, "quiz_title")]);
    root.setAttribute("role", "group");
    root.setAttribute("aria-labelledby", title.id);
    root.append(title);
    const answers = { ...((model.get("state") || {}).answers || {}) };

    questions.forEach((q, qi) => {
      const number = baTemplate(baLabel(data, "quiz_question"), { n: qi + 1, total: questions.length });
      const legend = baEl("legend", {}, [
        baEl("span", { class: "ba-quiz-number" }, [number]),
        ...baQuizInline(baLabel(data, `${q.id}:prompt`)),
      ]);
      const fieldset = baEl("fieldset", { "data-question": q.id, "data-kind": q.kind }, [legend]);
      const feedback = baEl("p", { class: "ba-quiz-feedback", "aria-live": "polite", "data-feedback": q.id });
      const labels = [];

      const show = (oi) => {
        const option = q.options[oi];
        labels.forEach((label, li) => label.classList.toggle("ba-quiz-chosen", li === oi));
        const mark = baLabel(data, option.correct ? "quiz_right" : "quiz_wrong");
        feedback.dataset.result = option.correct ? "right" : "wrong";
        feedback.dataset.option = String(oi);
        const text = baLabel(data, `${q.id}:${oi}:feedback`);
        feedback.replaceChildren(baEl("span", { class: "ba-quiz-mark" }, [mark]), " ", ...baQuizInline(text));
      };

      q.options.forEach((_option, oi) => {
        const input = baEl("input", { type: "radio", name: `${group}-${qi}`, value: String(oi), "data-option": oi });
        input.addEventListener("change", () => {
          if (!input.checked) return;
          show(oi);
          answers[q.id] = oi;
          model.set("state", { ...(model.get("state") || {}), answers: { ...answers } });
          model.save_changes();
        });
        const label = baEl("label", { class: "ba-quiz-option" }, [input, baEl("span", {}, baQuizInline(baLabel(data, `${q.id}:${oi}:text`)))]);
        labels.push(label);
        fieldset.append(label);
      });
      fieldset.append(feedback);
      root.append(fieldset);
      if (Number.isInteger(answers[q.id]) && q.options[answers[q.id]]) {
        labels[answers[q.id]].querySelector("input").checked = true;
        show(answers[q.id]);
      }
    });
    return () => root.remove();
  },
};
