// Same-origin fetches of page fragments.

// debounce calls fn at once when the previous call came ms or more ago (a
// key pressed after a pause answers without waiting), and otherwise once
// the calls have paused for ms (fast typing runs one search, for the last
// state, not one a key).
export function debounce(fn, ms) {
  let t = 0;
  let last = -Infinity;
  return (...args) => {
    const now = performance.now();
    const idle = now - last >= ms;
    last = now;
    clearTimeout(t);
    if (idle) {
      fn(...args);
      return;
    }
    t = setTimeout(() => fn(...args), ms);
  };
}

// fetchFragment returns the fragment form (frag=1) of a same-origin URL.
export async function fetchFragment(href, signal) {
  const u = new URL(href, location.href);
  if (u.origin !== location.origin) throw new Error("refusing another origin");
  u.searchParams.set("frag", "1");
  const res = await fetch(u, { signal, credentials: "same-origin", headers: { Accept: "text/html" } });
  const text = await res.text();
  if (!res.ok && !text) throw new Error(String(res.status));
  return text;
}
