/** A run of text with the SGR style in force. */
export interface AnsiSpan {
  text: string;
  fg: number | null;
  bg: number | null;
  bold: boolean;
}

const ESC = 27;

/**
 * Splits terminal output into styled runs. Only SGR (`ESC [ … m`) colours and bold are kept;
 * every other escape sequence is dropped, so nothing but plain text reaches the DOM.
 */
export function parseAnsi(input: string): AnsiSpan[] {
  const out: AnsiSpan[] = [];
  let fg: number | null = null;
  let bg: number | null = null;
  let bold = false;
  let buf = '';
  const push = () => {
    if (!buf) return;
    const last = out.at(-1);
    if (last && last.fg === fg && last.bg === bg && last.bold === bold) last.text += buf;
    else out.push({ text: buf, fg, bg, bold });
    buf = '';
  };
  let i = 0;
  while (i < input.length) {
    const c = input.charCodeAt(i);
    if (c !== ESC) {
      const next = input.indexOf(String.fromCharCode(ESC), i);
      const end = next < 0 ? input.length : next;
      buf += input.slice(i, end);
      i = end;
      continue;
    }
    if (input[i + 1] !== '[') {
      i += 2;
      continue;
    }
    let j = i + 2;
    while (j < input.length && !/[@-~]/.test(input[j])) j++;
    const final = input[j];
    const params = input.slice(i + 2, j);
    i = j + 1;
    if (final !== 'm') continue;
    push();
    const codes = params === '' ? [0] : params.split(';').map((x) => Number(x) || 0);
    for (let k = 0; k < codes.length; k++) {
      const n = codes[k];
      if (n === 0) [fg, bg, bold] = [null, null, false];
      else if (n === 1) bold = true;
      else if (n === 22) bold = false;
      else if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) fg = n;
      else if (n === 39) fg = null;
      else if ((n >= 40 && n <= 47) || (n >= 100 && n <= 107)) bg = n;
      else if (n === 49) bg = null;
      else if (n === 38 || n === 48) k += codes[k + 1] === 5 ? 2 : 4;
    }
  }
  push();
  return out;
}
