// A full-screen dialog outside the table's render (statistics, the match
// list, the viewer): it lives beside #app, which is inert while it is open,
// keeps its own keyboard (Escape closes it), and gives the focus back to
// whoever opened it.

import { el } from "../table/dom.js";

export function openSheet({ id, onClose = () => {}, onKey = null }) {
  const app = document.getElementById("app");
  const before = document.activeElement;
  const title = el("h2", { id: `${id}-title` });
  const body = el("div", { class: "sheet-body" });
  const panel = el("section", { class: `panel sheet ${id}`, role: "dialog", "aria-modal": "true", "aria-labelledby": `${id}-title`, tabindex: "-1", dataset: { panel: id } }, title, body);
  const box = el("div", { class: "overlay sheet-overlay" }, panel);
  let closed = false;

  function close() {
    if (closed) return;
    closed = true;
    document.removeEventListener("keydown", onKeydown, true);
    box.remove();
    if (app && !document.querySelector(".sheet-overlay")) app.removeAttribute("inert");
    onClose(before);
  }

  // On the document (capture), so keys work wherever the focus fell; only
  // the topmost sheet answers.
  function onKeydown(event) {
    const sheets = document.querySelectorAll(".sheet-overlay");
    if (sheets[sheets.length - 1] !== box) return;
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      close();
      return;
    }
    if (onKey && onKey(event)) {
      event.preventDefault();
      event.stopPropagation();
    }
  }
  document.addEventListener("keydown", onKeydown, true);

  if (app) app.setAttribute("inert", "");
  document.body.append(box);
  return {
    box,
    panel,
    title,
    body,
    close,
    get closed() {
      return closed;
    },
    // Rebuild the contents, keeping the focus on the control with the same
    // data-key (or the one asked for).
    fill(heading, children, focusKey = null) {
      const active = document.activeElement;
      const key = focusKey || (panel.contains(active) && active.dataset ? active.dataset.key : null);
      title.textContent = heading;
      body.replaceChildren(...children.filter(Boolean));
      const target = key ? panel.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
      if (target && !target.disabled) target.focus({ preventScroll: true });
      else if (!panel.contains(document.activeElement) || document.activeElement.disabled) {
        const first = panel.querySelector("button:not([disabled]), select, input:not([hidden])");
        (first || panel).focus({ preventScroll: true });
      }
    },
  };
}
