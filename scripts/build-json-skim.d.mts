/** Types of scripts/build-json-skim.mjs for the TypeScript callers (scripts/build-json-skim.test.ts). */
export const WAT: string;
export const OUT: string;
export function jsonSkimModuleText(): Promise<string>;
