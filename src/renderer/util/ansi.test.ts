import { describe, expect, it } from 'vitest';
import { parseAnsi } from './ansi';

const E = '\u001b';

describe('parseAnsi', () => {
  it('keeps SGR colours and bold, drops other escapes', () => {
    expect(parseAnsi(`a${E}[1;31mred${E}[0m b${E}[2Kc`)).toEqual([
      { text: 'a', fg: null, bg: null, bold: false },
      { text: 'red', fg: 31, bg: null, bold: true },
      { text: ' bc', fg: null, bg: null, bold: false },
    ]);
  });
  it('survives a truncated escape and 256-colour codes', () => {
    expect(
      parseAnsi(`x${E}[38;5;200my${E}[`)
        .map((s) => s.text)
        .join(''),
    ).toBe('xy');
  });
});
