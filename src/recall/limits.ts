/** Page sizes of the list and messages questions, the same at every door (MCP tools, `lookback list|messages`). */
import { AGENTS } from '../agents/model.js';

export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;
export const MESSAGES_LIMIT_DEFAULT = 50;
export const MESSAGES_LIMIT_MAX = 500;
/** Characters of message text per page: about 5k tokens by default. */
export const MAX_CHARS_DEFAULT = 20_000;
export const MAX_CHARS_MIN = 200;
export const MAX_CHARS_MAX = 500_000;

export const AGENT_LIST = ['hermes', ...AGENTS].join(', ');

const clamp = (v: number | undefined, d: number, lo: number, hi: number) =>
  Math.max(lo, Math.min(v ?? d, hi));

/** Conversations per list page, clamped into range (a door says nothing when it clamps). */
export const listLimit = (n: number | undefined) => clamp(n, LIST_LIMIT_DEFAULT, 1, LIST_LIMIT_MAX);
export const messagesLimit = (n: number | undefined) =>
  clamp(n, MESSAGES_LIMIT_DEFAULT, 1, MESSAGES_LIMIT_MAX);
export const maxChars = (n: number | undefined) =>
  clamp(n, MAX_CHARS_DEFAULT, MAX_CHARS_MIN, MAX_CHARS_MAX);
