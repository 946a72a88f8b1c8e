import { describe, expect, it } from 'vitest';
import { ApiError, describeError } from './api-methods';

describe('describeError', () => {
  it('explains a held lock from either transport', () => {
    expect(describeError(new ApiError('locked', 'flock busy'))).toMatch(/^An agent holds the lock.*flock busy/);
    expect(describeError({ code: 'locked', message: 'flock busy' })).toMatch(/^An agent holds the lock/);
  });
  it('keeps other messages', () => {
    expect(describeError({ code: 'not_found', message: 'no entry x' })).toBe('no entry x');
    expect(describeError(new Error('boom'))).toBe('boom');
    expect(describeError('plain')).toBe('plain');
  });
});
