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

  /* The article header is sticky on wide screens and grows with the language switcher, and the
     section bar is sticky on phones: in-page links scroll their target below them, not under them. */
  function keepTargetsBelowHeader() {
    const header = document.querySelector(".bd-header-article");
    const bar = document.querySelector(".ba-section-bar");
    let padding = 0;
    if (header && getComputedStyle(header).position === "sticky") padding = header.offsetHeight + 16;
    // on a phone, the section bar (sectionBar) stays on top instead
    if (bar && getComputedStyle(bar).display !== "none") padding = Math.max(padding, bar.offsetHeight + 8);
    document.documentElement.style.scrollPaddingTop = padding + "px";
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
     changes size (a phone turned, a folded solution opened) and once the math font has loaded.
     A table of a notebook's output wider than the column (pandas' tables on a phone) scrolls and
     fades out the same way, and is one tab stop. */
  function formulaBoxes() {
    const boxes = Array.from(
      document.querySelectorAll(
        '.bd-article div.math, .bd-article math:not([display="block"]), .bd-article .cell_output .output.text_html',
      ),
    );
    if (!boxes.length) return;
    function update(box) {
      const hidden = box.scrollWidth - box.clientWidth;
      const scrolls = hidden > 1 && box.clientWidth > 0;
      box.classList.toggle("ba-scrolls", scrolls);
      box.classList.toggle("ba-more-left", scrolls && box.scrollLeft > 1);
      box.classList.toggle("ba-more-right", scrolls && box.scrollLeft < hidden - 1);
      // a display formula's box is a labelled group; an inline formula keeps its role of math, a
      // table of a notebook's output its table's own
      const labelled = box.tagName.toLowerCase() !== "math" && !box.classList.contains("text_html");
      // (the theme marks a notebook output that fits with tabindex -1: not a tab stop either)
      if (scrolls && box.getAttribute("tabindex") !== "0") {
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

  /* Finding one's way in a long page on a phone: a slim bar that stays at the top of the screen
     says which section is on screen (updated as the page scrolls, by an IntersectionObserver on the
     sections' headings), and its button opens the page's contents (the theme's "Contents" list,
     same words) and the language switcher's links: any section, or the same page in another
     language, two taps away. Only on a page with at least two sections; CSS shows it below 768 px.
     The button says whether the list is open (aria-expanded); Escape, or a tap on an entry, closes
     it and gives the focus back to the button. */
  function sectionBar() {
    const toc = document.querySelector("#pst-page-toc-nav");
    const entries = toc ? Array.from(toc.querySelectorAll("a.nav-link[href^='#']")) : [];
    const headings = entries
      .map((a) => document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1))))
      .filter(Boolean);  // the sections themselves, where an in-page link scrolls to
    const article = document.querySelector(".bd-article");
    if (headings.length < 2 || !article) return;
    const title = document.querySelector(".bd-article h1");
    const label = (document.querySelector(".onthispage") || {}).textContent || "";
    const bar = document.createElement("div");
    bar.className = "ba-section-bar";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "ba-section-button";
    button.setAttribute("aria-expanded", "false");
    button.setAttribute("aria-controls", "ba-section-panel");
    const name = document.createElement("span");
    name.className = "ba-section-label";
    name.textContent = label.trim();
    const current = document.createElement("span");
    current.className = "ba-section-current";
    button.append(name, current);
    const panel = document.createElement("div");
    panel.id = "ba-section-panel";
    panel.className = "ba-section-panel";
    panel.hidden = true;
    const list = document.createElement("ol");
    entries.forEach((a) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = a.getAttribute("href");
      link.textContent = a.textContent.trim();
      item.append(link);
      list.append(item);
    });
    const switcher = document.querySelector(".ba-language-switcher");
    const languages = document.createElement("p");
    languages.className = "ba-section-languages";
    if (switcher) {
      switcher.querySelectorAll(".ba-language").forEach((el) => {
        const copy = el.cloneNode(true);
        copy.removeAttribute("aria-current");
        if (el.hasAttribute("aria-current")) copy.setAttribute("aria-current", "page");
        languages.append(copy, " ");
      });
      const word = switcher.getAttribute("aria-label");
      if (word) languages.setAttribute("aria-label", word);
      languages.setAttribute("role", "group");
    }
    panel.append(list);
    if (languages.childNodes.length) panel.append(languages);
    bar.append(button, panel);
    article.parentNode.insertBefore(bar, article);

    function setOpen(open, focusButton) {
      button.setAttribute("aria-expanded", String(open));
      panel.hidden = !open;
      if (open) {
        const here = list.querySelector("a[aria-current]") || list.querySelector("a");
        if (here) here.focus({ preventScroll: true });
        if (here && here.scrollIntoView) here.scrollIntoView({ block: "nearest" });
      } else if (focusButton) button.focus({ preventScroll: true });
    }
    button.addEventListener("click", () => setOpen(button.getAttribute("aria-expanded") !== "true", false));
    panel.addEventListener("click", (event) => {
      if (event.target.closest("a")) setOpen(false, false);
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !panel.hidden) setOpen(false, true);
    });
    document.addEventListener("click", (event) => {
      if (!panel.hidden && !bar.contains(event.target)) setOpen(false, false);
    });

    function update() {
      // a section counts from when it reaches the bar (an in-page link puts it 8 px below)
      const top = bar.getBoundingClientRect().bottom + 16;
      let index = -1;
      headings.forEach((h, i) => {
        if (h.getBoundingClientRect().top <= top) index = i;
      });
      const text = index >= 0 ? entries[index].textContent.trim() : (title ? title.textContent.replace(/#\s*$/, "").trim() : "");
      if (current.textContent !== text) current.textContent = text;
      list.querySelectorAll("a").forEach((a, i) => {
        if (i === index) a.setAttribute("aria-current", "location");
        else a.removeAttribute("aria-current");
      });
    }
    if ("IntersectionObserver" in window) {
      const observer = new IntersectionObserver(update, { rootMargin: "0px 0px -60% 0px", threshold: [0, 1] });
      headings.forEach((h) => observer.observe(h));
    }
    window.addEventListener("scroll", () => window.requestAnimationFrame(update), { passive: true });
    update();
  }

  function ready() {
    switcherKeepsQuery();
    sectionBar();
    formulaBoxes();
    forwardToggles(".primary-toggle");
    forwardToggles(".secondary-toggle");
    keepTargetsBelowHeader();
    window.addEventListener("resize", keepTargetsBelowHeader);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
