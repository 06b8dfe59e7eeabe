/* The reader's site on every screen (tools/sphinx/reader_site.py). */
(function () {
  "use strict";

  /* The theme binds its sidebar handlers to the FIRST .primary-toggle / .secondary-toggle of the
     page, the navbar's copies, which this layout hides (pydata-sphinx-theme #2451,
     sphinx-book-theme #988); the visible toggles of the article header did nothing. They forward
     their clicks to the bound copy, which opens the sidebar's dialog on narrow screens and folds the
     table of contents away (and back) on wide ones. */
  function forwardToggles(selector) {
    const buttons = Array.from(document.querySelectorAll(selector));
    if (buttons.length < 2) return;
    const bound = buttons[0];
    buttons.slice(1).forEach((button) => {
      button.addEventListener("click", (event) => {
        event.preventDefault();
        event.stopPropagation();
        bound.click();
      });
    });
  }

  /* The article header is sticky on wide screens and grows with the language switcher: in-page
     links scroll their target below it, not under it. */
  function keepTargetsBelowHeader() {
    const header = document.querySelector(".bd-header-article");
    if (!header) return;
    const sticky = getComputedStyle(header).position === "sticky";
    document.documentElement.style.scrollPaddingTop = sticky ? header.offsetHeight + 16 + "px" : "0px";
  }

  /* Tables of notebook outputs: pandas leaves the index column's header cell empty; a header cell
     must have a name for screen readers, so it becomes an ordinary cell. */
  function fixEmptyHeaders() {
    document.querySelectorAll(".cell_output table thead th, .output table thead th").forEach((th) => {
      if (th.textContent.trim() === "" && !th.hasAttribute("aria-label")) {
        const td = document.createElement("td");
        td.className = th.className;
        th.replaceWith(td);
      }
    });
  }

  /* A formula wider than its column scrolls sideways in its box (reader-site.css): a display
     formula in its div.math, an inline one in itself. Such a box says so: the formula fades out on
     the side that hides more (.ba-more-left/-right), and the box becomes one tab stop, so that a
     keyboard can scroll it; a display formula's box is also a group labelled in the page's
     language (data-ba-label, written by tools/book/sphinx/mathml.py; an inline formula keeps its
     role of math). A formula that fits is none of this, and no tab stop. Measured again when a box
     changes size (a phone turned, a folded solution opened) and once the math font has loaded. */
  function formulaBoxes() {
    const boxes = Array.from(
      document.querySelectorAll('.bd-article div.math, .bd-article math:not([display="block"])'),
    );
    if (!boxes.length) return;
    function update(box) {
      const hidden = box.scrollWidth - box.clientWidth;
      const scrolls = hidden > 1 && box.clientWidth > 0;
      box.classList.toggle("ba-scrolls", scrolls);
      box.classList.toggle("ba-more-left", scrolls && box.scrollLeft > 1);
      box.classList.toggle("ba-more-right", scrolls && box.scrollLeft < hidden - 1);
      const labelled = box.tagName.toLowerCase() !== "math";
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        if (labelled) {
          box.setAttribute("role", "group");
          box.setAttribute("aria-label", box.dataset.baLabel || "Formula");
        }
      } else if (!scrolls && box.hasAttribute("tabindex")) {
        ["tabindex", "role", "aria-label"].forEach((name) => box.removeAttribute(name));
      }
    }
    const observer =
      "ResizeObserver" in window
        ? new ResizeObserver((entries) => entries.forEach((e) => update(e.target)))
        : null;
    boxes.forEach((box) => {
      update(box);
      if (observer) observer.observe(box);
      box.addEventListener("scroll", () => update(box), { passive: true });
    });
    if (document.fonts) document.fonts.ready.then(() => boxes.forEach(update));
    window.addEventListener("resize", () => boxes.forEach(update));
  }

  // On the search page the language switcher keeps the query (?q=...): the same search in the
  // other language's index.
  function switcherKeepsQuery() {
    if (!/[?&]q=/.test(window.location.search)) return;
    document.querySelectorAll(".ba-language-switcher a.ba-language").forEach((a) => {
      if (/\/search\.html$/.test(a.pathname)) a.search = window.location.search;
    });
  }

  // Search results' snippets come from each found page's [role=main], which in this theme holds
  // the article header too (the sidebar toggles, the language switcher, the page's buttons): their
  // words are taken out before Sphinx's searchtools.js cuts the snippet.
  if (window.Search && typeof window.Search.htmlToText === "function") {
    const toText = window.Search.htmlToText;
    window.Search.htmlToText = (htmlString, anchor) => {
      const page = new DOMParser().parseFromString(htmlString, "text/html");
      page.querySelectorAll(".bd-header-article, .bd-footer-article, .prev-next-area, .ba-language-switcher")
        .forEach((el) => el.remove());
      return toText(page.documentElement.outerHTML, anchor);
    };
  }

  // On a phone the page's contents open in a drawer (a <dialog>) over three quarters of the
  // screen; tapping an entry goes to that section and closes the drawer.
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("dialog a[href*='#']");
    const drawer = link && link.closest("dialog[open]");
    if (drawer && link.pathname === window.location.pathname) setTimeout(() => drawer.close(), 0);
  });

  function ready() {
    switcherKeepsQuery();
    formulaBoxes();
    forwardToggles(".primary-toggle");
    forwardToggles(".secondary-toggle");
    keepTargetsBelowHeader();
    window.addEventListener("resize", keepTargetsBelowHeader);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
