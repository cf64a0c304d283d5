// Keyboard: "/" focuses the search box, j/k move between events, hits and
// blame lines, Enter opens the focused hit, o folds or unfolds a call.

function typing(el) {
  return el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
}

function items() {
  return [...document.querySelectorAll(".item")];
}

function move(step) {
  const all = items();
  if (!all.length) return;
  const cur = all.indexOf(document.activeElement.closest(".item"));
  const next = all[Math.min(all.length - 1, Math.max(0, cur < 0 ? 0 : cur + step))];
  next.focus({ preventScroll: true });
  next.scrollIntoView({ block: "nearest" });
}

export function installKeys() {
  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "Escape" && typing(ev.target)) { ev.target.blur(); return; }
    if (typing(ev.target)) return;
    const it = document.activeElement && document.activeElement.closest(".item");
    switch (ev.key) {
      case "/": {
        const q = document.getElementById("q") || document.querySelector(".quick input");
        if (q) { ev.preventDefault(); q.focus(); q.select(); }
        break;
      }
      case "j": ev.preventDefault(); move(1); break;
      case "k": ev.preventDefault(); move(-1); break;
      case "o":
        if (it && it.tagName === "DETAILS") { ev.preventDefault(); it.open = !it.open; }
        break;
      case "Enter": {
        const a = it && it.tagName !== "DETAILS" && it.querySelector("a[href]");
        if (a) { ev.preventDefault(); a.click(); }
        break;
      }
    }
  });
}
