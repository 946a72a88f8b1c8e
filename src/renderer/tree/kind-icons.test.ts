import { describe, expect, it } from 'vitest';
import { kindIcon, kindLabel, roleLabel } from './kind-icons';

const BUILTIN_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

describe('kind and role labels of names like Object.prototype built-ins', () => {
  it('are the names as written, and their icon is the unknown one', () => {
    for (const name of BUILTIN_NAMES) {
      expect(kindLabel(name)).toBe(name);
      expect(roleLabel(name)).toBe(name);
      expect(kindIcon(name).props).toEqual({ name: 'unknown' });
    }
    expect(kindLabel('turn_card')).toBe('card');
    expect(roleLabel('assistant')).toBe('asst');
    expect(kindIcon('work').props).toEqual({ name: 'work' });
  });
});
