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

  function ready() {
    forwardToggles(".primary-toggle");
    forwardToggles(".secondary-toggle");
    keepTargetsBelowHeader();
    window.addEventListener("resize", keepTargetsBelowHeader);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
