/**
 * Parsing a file's text as JSON with an error that quotes none of it. V8's JSON.parse
 * messages quote the text around the fault (`Unexpected token 'r', "root:*:202"... is not
 * valid JSON`): a prices.json linked to /etc/shadow would show its first bytes in the UI.
 * Here a failure is located by a small scanner of the JSON grammar and said by line and
 * column only.
 */

export type JsonParse = { ok: true; value: unknown } | { ok: false; problem: string };

/** `text` parsed, or where and why it is not JSON ("not valid JSON: line 2, column 5: a string has no closing quote"). */
export function parseJsonText(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    const fault = jsonFault(text);
    return {
      ok: false,
      problem: fault === null ? 'not valid JSON' : `not valid JSON: ${where(text, fault.at)}: ${fault.what}`,
    };
  }
}

interface Fault {
  at: number;
  what: string;
}

const enum Top {
  Array,
  Object,
}

/** The first place `text` breaks the JSON grammar (RFC 8259), or null when it does not. No recursion: any depth. */
export function jsonFault(text: string): Fault | null {
  const n = text.length;
  const open: Top[] = [];
  let i = 0;
  const fault = (what: string, at = i): Fault => ({ at, what: at >= n ? 'the text ends too early' : what });
  const skipSpace = (): void => {
    for (let c = text.charCodeAt(i); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = text.charCodeAt(i)) i++;
  };
  const digits = (): number => {
    const from = i;
    while (i < n && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    return i - from;
  };
  const string = (): Fault | null => {
    const start = i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return null;
      }
      if (c < 0x20) return fault('a control character inside a string (write it as an escape)');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return fault('a \\u escape without four hex digits');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return fault('an invalid escape in a string');
      } else i++;
    }
    return { at: start, what: 'a string that starts here has no closing quote' };
  };
  const number = (): Fault | null => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (digits() === 0) return fault('a number without digits');
    if (text[i] === '.') {
      i++;
      if (digits() === 0) return fault('a number without digits after its decimal point');
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (digits() === 0) return fault('a number without digits in its exponent');
    }
    return null;
  };
  /** True while the container opened last has no member yet. */
  let first = false;
  /** One value at `i`; an opening bracket only opens (its members are read by the loop below). */
  const value = (): Fault | null => {
    skipSpace();
    const c = text[i];
    if (c === '{' || c === '[') {
      open.push(c === '{' ? Top.Object : Top.Array);
      first = true;
      i++;
      return null;
    }
    if (c === '"') return string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return null;
      }
    }
    return fault('a value was expected here');
  };
  /** An object member's name and its colon. */
  const key = (): Fault | null => {
    skipSpace();
    if (text[i] !== '"') return fault('a member name in double quotes was expected here');
    const f = string();
    if (f) return f;
    skipSpace();
    if (text[i] !== ':') return fault('a colon was expected after the member name');
    i++;
    return null;
  };

  let f = value();
  for (;;) {
    if (f) return f;
    skipSpace();
    if (open.length === 0) return i < n ? fault('more text after the value') : null;
    const inObject = open[open.length - 1] === Top.Object;
    const close = inObject ? '}' : ']';
    if (text[i] === close) {
      open.pop();
      first = false;
      i++;
      continue;
    }
    if (first) first = false;
    else if (text[i] === ',') i++;
    else return fault(`a comma or ${close} was expected here`);
    f = (inObject ? key() : null) ?? value();
  }
}

/** "line L, column C" of offset `at` (1-based; columns count UTF-16 units, as editors mostly do). */
function where(text: string, at: number): string {
  let line = 1;
  let lineStart = 0;
  for (let k = text.indexOf('\n'); k !== -1 && k < at; k = text.indexOf('\n', k + 1)) {
    line++;
    lineStart = k + 1;
  }
  return `line ${line}, column ${at - lineStart + 1}`;
}
