// ctx ui: progressive enhancement over server-rendered pages. Every view
// works without this script; it adds search as you type, endless
// scrolling of long sessions, keyboard navigation and fold-all.
// Fragments come from this origin only and are rendered by the server's
// escaping templates; the page's CSP forbids inline script in any case.
import { debounce, fetchFragment } from "./net.js";
import { installKeys } from "./keys.js";
import { installCopy } from "./copy.js";

function searchAsYouType() {
  const form = document.getElementById("search");
  const results = document.getElementById("results");
  if (!form || !results) return;
  let pending = null;
  let typedAt = 0;
  // The search shown (or on its way): a change event that alters nothing
  // (the field losing focus as a hit is clicked) must not replace the
  // results under the pointer.
  let shown = location.pathname + location.search;
  const run = debounce(async () => {
    const params = new URLSearchParams(new FormData(form));
    for (const [k, v] of [...params]) if (v === "") params.delete(k);
    const url = "/search?" + params.toString();
    if (url === shown) return;
    shown = url;
    if (pending) pending.abort();
    pending = new AbortController();
    const started = typedAt;
    try {
      const html = params.get("q") ? await fetchFragment(url, pending.signal) : "";
      results.innerHTML = html;
      history.replaceState(null, "", url);
      // Measured once the results are laid out for the next frame.
      requestAnimationFrame(() => {
        performance.measure("ctx-search", { start: started, end: performance.now() });
        document.body.dataset.searched = params.get("q") || "";
      });
    } catch (e) {
      if (e.name !== "AbortError") {
        results.textContent = "Search failed: " + e.message;
        shown = ""; // Enter tries again
      }
    }
  }, 40);
  const onInput = () => { typedAt = performance.now(); run(); };
  form.addEventListener("input", onInput);
  form.addEventListener("change", onInput);
  form.addEventListener("submit", (ev) => { ev.preventDefault(); onInput(); });
}

function endless() {
  const box = document.querySelector("#events, [data-endless]");
  if (!box || !("IntersectionObserver" in window)) return;
  let loading = false;
  const io = new IntersectionObserver(async (entries) => {
    for (const en of entries) {
      if (!en.isIntersecting || loading) continue;
      const link = en.target;
      loading = true;
      io.unobserve(link);
      try {
        const html = await fetchFragment(link.href);
        link.insertAdjacentHTML("beforebegin", html);
        link.remove();
        applyFold(box);
        watch();
      } catch (e) {
        link.textContent = "Could not load more events (" + e.message + "): follow this link";
      } finally {
        loading = false;
      }
    }
  }, { rootMargin: "800px" });
  const watch = () => box.querySelectorAll("a.more[data-more]").forEach((a) => io.observe(a));
  watch();
}

let unfolded = false;
function applyFold(root) {
  root.querySelectorAll("details.call").forEach((d) => { if (unfolded) d.open = true; });
}

function foldAll() {
  const b = document.getElementById("foldall");
  if (!b) return;
  b.addEventListener("click", () => {
    unfolded = !unfolded;
    document.querySelectorAll("details.call").forEach((d) => { d.open = unfolded; });
    b.textContent = unfolded ? "Fold all" : "Unfold all";
    b.setAttribute("aria-pressed", String(unfolded));
  });
}

function scrollToTarget() {
  const t = document.querySelector(".target");
  if (t && !location.hash) t.scrollIntoView({ block: "center" });
}

searchAsYouType();
endless();
foldAll();
installKeys();
installCopy();
scrollToTarget();
performance.mark("ctx-ready");
document.documentElement.dataset.ready = "1";
