/**
 * The one rule for a number typed by a person or carried by a URL: plain decimal digits and
 * nothing else. `Number()` would take "0x10", "1e3", "+5", " 5", "5.0" and "" (as 0); a
 * command line or a link that says one of those is a mistake to refuse, not a number to guess.
 */

/** More digits than this are refused before they could lose precision (2^53 has 16). */
export const MAX_DECIMAL_DIGITS = 15;

const DECIMAL = new RegExp(`^[0-9]{1,${MAX_DECIMAL_DIGITS}}$`);

/** The whole number `text` spells in plain decimal digits and at most `max`, or null. */
export function parseDecimalInteger(text: string, max: number = Number.MAX_SAFE_INTEGER): number | null {
  if (!DECIMAL.test(text)) return null;
  const n = Number(text);
  return n <= max ? n : null;
}
