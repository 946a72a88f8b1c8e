/**
 * Vitest setup file (run before each test file): after every test, end what it drew or opened
 * (rendered.ts). Registered here, not in the helper that draws, because test files may share
 * modules (Vitest's isolate: false): a hook at a shared module's top would be registered only by
 * the first file that imports it.
 */
import { afterEach } from 'vitest';
import { endRendered } from './rendered';

afterEach(endRendered);
