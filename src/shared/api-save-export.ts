/**
 * The desktop app's export saving, through the preload: main shows the Save dialog and streams the
 * export the backend writes into the file the user picks, chunk by chunk, so neither the page nor
 * main holds it whole (docs/user-guide.md, Export). Serve mode's page downloads it from the
 * loopback server.
 */
import type { ExportBeginRequest } from './api-features';

/** What saving an export gave: the file written, or the user closed the dialog. */
export type SaveExportOutcome =
  | {
      /** The path written. */
      saved: string;
      /** The export's suggested file name (the dialog's default). */
      fileName: string;
      /** UTF-8 bytes written. */
      bytes: number;
      /** Distinct secrets the file has as a marker (0: none found, or unredacted). */
      redacted?: number;
    }
  | { cancelled: true };

export interface DesktopExports {
  /** Begins export `req`, asks where to save it, and writes it there; rejects with the API's error payload. */
  saveAs(req: ExportBeginRequest): Promise<SaveExportOutcome>;
}
