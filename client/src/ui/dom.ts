/**
 * A tiny DOM builder. Text always goes in as text nodes (names and messages from other players
 * are never parsed as HTML).
 */
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/** Create an element with attributes (`on…` keys add listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = String(v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

/** Append children (flattening arrays, skipping empty ones). */
export function append(el: Node, children: (Child | Child[])[]): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Replace all children. */
export function replace(el: Node, ...children: (Child | Child[])[]): void {
  while (el.firstChild) el.removeChild(el.firstChild);
  append(el, children);
}

/** Set an element's text if it changed. */
export function setText(el: Node, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/** Navigate inside the single-page app. */
export function navigate(path: string): void {
  if (location.pathname + location.search + location.hash === path) return;
  history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/** A link handled by the client-side router. */
export function link(path: string, text: string, attrs: Attrs = {}): HTMLAnchorElement {
  return h(
    'a',
    {
      href: path,
      ...attrs,
      onclick: ((e: MouseEvent) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(path);
      }) as EventListener,
    },
    text,
  );
}
