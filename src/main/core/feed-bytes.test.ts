import { describe, expect, it } from 'vitest';
import { MemorySource } from './byte-source';
import { feedInSteps, readBuffer } from './feed-bytes';
import type { LineFeeder } from './line-feeder';

describe('feedInSteps', () => {
  it('lets the event loop run after every chunk it reads: a request waits for one chunk at most', async () => {
    const size = 8 << 20;
    const source = new MemorySource(Buffer.alloc(size, 0x20));
    // Turns of the event loop, counted by a callback that runs on each.
    let turns = 0;
    let counting = true;
    const tick = (): void => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const seen: number[] = [];
    const feeder = {
      fedOffset: 0,
      push(bytes: Buffer): void {
        seen.push(turns);
        this.fedOffset += bytes.length;
      },
    };
    await feedInSteps(source, () => feeder as unknown as LineFeeder, readBuffer(), size, undefined);
    counting = false;
    expect(feeder.fedOffset).toBe(size);
    expect(seen.length).toBe(8);
    // Every chunk after the first was read after the event loop ran again.
    for (let k = 1; k < seen.length; k++) expect(seen[k]).toBeGreaterThan(seen[k - 1]);
  });
});
