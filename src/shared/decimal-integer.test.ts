import { describe, expect, it } from 'vitest';
import { parseDecimalInteger } from './decimal-integer';

describe('parseDecimalInteger', () => {
  it('reads plain decimal digits', () => {
    expect(parseDecimalInteger('0')).toBe(0);
    expect(parseDecimalInteger('200000')).toBe(200_000);
    expect(parseDecimalInteger('007')).toBe(7);
    expect(parseDecimalInteger('999999999999999')).toBe(999_999_999_999_999);
  });

  it.each([
    '',
    ' 5',
    '5 ',
    '+5',
    '-5',
    '0x10',
    '1e3',
    '5.0',
    '.5',
    '1_000',
    '1,000',
    'Infinity',
    'NaN',
    '٣',
    '1234567890123456',
  ])('refuses %j', (text) => expect(parseDecimalInteger(text)).toBeNull());

  it('refuses a value above max', () => {
    expect(parseDecimalInteger('65535', 65535)).toBe(65535);
    expect(parseDecimalInteger('65536', 65535)).toBeNull();
  });
});
