/** Types of scripts/build-cli.mjs for the TypeScript callers (vitest global setup, bench). */
export const CLI_OUT_DIR: string;
export const CLI_ENTRY: string;
export function cliIsStale(): boolean;
export function buildCli(opts?: { force?: boolean; quiet?: boolean }): Promise<boolean>;
