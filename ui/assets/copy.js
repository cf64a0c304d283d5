// Copy buttons: a button with data-copy="ID" copies the text of the
// element with that id. The text is read from the page (server-escaped),
// never evaluated; without the clipboard API the text is selected so that
// the usual keys copy it.

export function installCopy() {
  document.querySelectorAll("button[data-copy]").forEach((b) => {
    const src = document.getElementById(b.dataset.copy);
    if (!src) return;
    b.hidden = false;
    b.addEventListener("click", async () => {
      const text = src.textContent;
      try {
        if (!navigator.clipboard) throw new Error("no clipboard");
        await navigator.clipboard.writeText(text);
        b.textContent = "Copied";
        b.dataset.copied = "1";
      } catch (e) {
        const sel = window.getSelection();
        const range = document.createRange();
        range.selectNodeContents(src);
        sel.removeAllRanges();
        sel.addRange(range);
        b.textContent = "Selected: press Ctrl+C";
        b.dataset.copied = "0";
      }
      setTimeout(() => { b.textContent = "Copy"; }, 2000);
    });
  });
}
