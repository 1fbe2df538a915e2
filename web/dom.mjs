// Small DOM helpers shared by the page's modules.

export const $ = (id) => document.getElementById(id);

/** Creates an element: el('li', {class: 'x', 'data-pos': 3}, 'text', child). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

/** Copies text to the clipboard; the Clipboard API where allowed, else a hidden selection. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = el('textarea', { class: 'visually-hidden', 'aria-hidden': 'true', tabindex: '-1' });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

/**
 * A "Kopieren" button for what `text()` returns; `what` names it for screen
 * readers ("Commitment kopieren"). It says „Kopiert“ for a moment after.
 */
export function copyButton(what, text, attrs = {}, label = 'Kopieren') {
  const b = el('button', { type: 'button', class: 'copy', 'aria-label': `${what} kopieren`, ...attrs }, label);
  b.addEventListener('click', async () => {
    const ok = await copyText(typeof text === 'function' ? text() : text);
    b.textContent = ok ? 'Kopiert ✓' : 'Nicht kopiert';
    b.dataset.copied = ok ? 'yes' : 'no';
    setTimeout(() => {
      b.textContent = label;
      delete b.dataset.copied;
    }, 1500);
  });
  return b;
}

/** A paragraph notice: kind ok | bad | info | warn. */
export const notice = (kind, text, attrs = {}) => el('p', { class: `notice ${kind}`, ...attrs }, text);
