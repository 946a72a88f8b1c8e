/** Every key of the explorer, as the `?` overlay lists them. */
export const KEY_MAP: [keys: string, what: string][] = [
  ['j / ↓', 'next row'],
  ['k / ↑', 'previous row'],
  ['h / ←', 'parent entry'],
  ['l / →', 'first child'],
  ['[ / ]', 'previous / next sibling branch'],
  ['Home / End', 'root / active leaf'],
  ['/', 'filter sessions'],
  ['b', 'branch from the selected entry'],
  ['c', 'compare (two plans or two leaves)'],
  ['d', 'text diff in compare'],
  ['f', 'follow the newest leaf'],
  ['p', 'plan: none ↔ auto'],
  ['a', 'fold audit runs'],
  ['w / u / t', 'warnings / usage / turns panel'],
  ['Esc', 'close overlay, composer, unpin'],
  ['?', 'this list'],
];
