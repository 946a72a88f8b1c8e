/**
 * An entry id as vak writes it: a UUIDv7 (LEDGER.md §7), 8-4-4-4-12 hex digits, version 7.
 * A query that is one names one entry: the backend looks it up before it scans, the palette
 * looks for it in every session.
 */
const UUID7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isEntryUuid = (text: string): boolean => UUID7.test(text.trim());
