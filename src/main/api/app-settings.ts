import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseJsonText } from '../../shared/json-problem';
import { MAX_DATA_FILE_BYTES, readSmallRegularFile } from '../core/safe-open';

/** The settings' file in the app's data folder (beside `recent-files.json` and `index-cache/`). */
export const SETTINGS_FILE = 'settings.json';

/** What the desktop app keeps of the user's choices across launches. */
export interface AppSettings {
  /** Count the secrets of sessions never opened in the background (secrets/survey.ts). */
  secretSurvey?: boolean;
}

/**
 * The user's settings, kept in the app's data folder as a JSON object. A missing or damaged file
 * (or a field of the wrong type) reads as no choice made: the defaults hold; it never fails a start.
 */
export class AppSettingsFile {
  readonly file: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, SETTINGS_FILE);
  }

  read(): AppSettings {
    const survey = this.raw()['secretSurvey'];
    return typeof survey === 'boolean' ? { secretSurvey: survey } : {};
  }

  /** Sets the given fields, keeping the others (a later version's too). A file that cannot be written is said on stderr. */
  write(change: AppSettings): void {
    const next = { ...this.raw(), ...change };
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      // Written whole then renamed: a reader never sees half a file.
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(next, null, 1) + '\n');
      renameSync(tmp, this.file);
    } catch (e) {
      console.warn(`vak-explorer: could not keep the settings in ${this.file}: ${(e as Error).message}`);
    }
  }

  /** The file's object as it is, or {} (missing, damaged, not an object). */
  private raw(): Record<string, unknown> {
    let text: string;
    try {
      // (Not readFileSync: a FIFO put at this path would hang the start.)
      const read = readSmallRegularFile(this.file, MAX_DATA_FILE_BYTES);
      if (typeof read === 'string') return {};
      text = read.toString('utf8');
    } catch {
      return {};
    }
    const parsed = parseJsonText(text);
    const v = parsed.ok ? parsed.value : null;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
    // Own fields only, on an object without a prototype (a key may be `__proto__`).
    return Object.assign(Object.create(null) as Record<string, unknown>, v);
  }
}
