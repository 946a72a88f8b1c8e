import { SessionWriter } from './backend-api';

/** 1 header + `turns` × (directive, answer, receipt). */
export function longSession(turns: number): SessionWriter {
  const w = new SessionWriter().header();
  let parent = 'h';
  for (let t = 0; t < turns; t++) {
    w.message(`u${t}`, parent, 'user', [{ type: 'text', text: `ask ${t}` }]);
    w.message(`a${t}`, `u${t}`, 'assistant', [{ type: 'text', text: `answer ${t}` }]);
    w.add(`r${t}`, `a${t}`, 'receipt', { receipt: { purpose: 'turn', attempts: [] } });
    parent = `r${t}`;
  }
  return w;
}
