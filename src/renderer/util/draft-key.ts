import type { SessionKey } from '../../shared/api';

/** Where an unsent directive is kept: per session and parent entry. */
export const draftKey = (session: SessionKey | null, parentId: string): string => `${session ?? ''}\n${parentId}`;
