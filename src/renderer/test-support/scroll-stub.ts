/**
 * jsdom does not lay out or scroll: element.scrollTo is missing (a virtualizer's
 * scrollToIndex does nothing) and every measured row is 0 px tall (so a measuring
 * virtualizer would draw them all at once). This gives measured rows (`data-index`)
 * a height and makes scrollTo set scrollTop and fire the scroll event a browser
 * would. Returns the undo.
 */
export function stubScrolling(rowHeight = 28): () => void {
  const proto = HTMLElement.prototype as unknown as { scrollTo?: unknown };
  const hadScrollTo = Object.prototype.hasOwnProperty.call(proto, 'scrollTo');
  const scrollTo = proto.scrollTo;
  const offsetHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight');
  proto.scrollTo = function (this: HTMLElement, opts?: ScrollToOptions) {
    if (opts?.top === undefined) return;
    this.scrollTop = opts.top;
    // A browser fires scroll later, never inside the caller (React would be mid-render here).
    setTimeout(() => this.dispatchEvent(new Event('scroll')), 0);
  };
  const scrollHeight = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollHeight');
  // A virtualizer clamps a scroll to scrollHeight − clientHeight: give a scroll box the height of
  // its content (the sized child a virtual list makes) instead of jsdom's 0.
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      let h = 0;
      for (const c of this.children) h += parseFloat((c as HTMLElement).style?.height ?? '') || 0;
      return h;
    },
  });
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.hasAttribute('data-index') ? rowHeight : 0;
    },
  });
  return () => {
    if (hadScrollTo) proto.scrollTo = scrollTo;
    else delete proto.scrollTo;
    if (offsetHeight) Object.defineProperty(HTMLElement.prototype, 'offsetHeight', offsetHeight);
    delete (HTMLElement.prototype as unknown as { scrollHeight?: number }).scrollHeight;
    if (scrollHeight) Object.defineProperty(Element.prototype, 'scrollHeight', scrollHeight);
  };
}
