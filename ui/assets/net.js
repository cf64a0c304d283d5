// Same-origin fetches of page fragments.

export function debounce(fn, ms) {
  let t = 0;
  return (...args) => {
    clearTimeout(t);
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
