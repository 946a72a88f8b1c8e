/** The project's ledger generator: realistic vak sessions for benchmarks, tests and the demo home. */
export { generateSession, type GenerateOptions, type GeneratedSession } from './session-generator';
export { LedgerWriter } from './ledger-writer';
export { Rng } from './rng';
export { realSizeUncompacted } from './shapes';
