/**
 * Fuzzy mode: fuzzysort over what a person remembers a conversation by (its
 * title, first prompt, id, source, working directory), over the loaded Recent
 * list. Pure and fast enough to run on every key press (5,000 rows in a few ms).
 */
import fuzzysort from 'fuzzysort';
import type { Segment } from '../../text/highlight.js';
import type { ResultItem, SessionRow } from '../model.js';

import { FUZZY_LIMIT } from '../../budgets.js';
export { FUZZY_LIMIT };
/** fuzzysort's score floor: below this a match is noise. */
const FUZZY_THRESHOLD = 0.3;

const KEYS = ['title', 'preview', 'sessionId', 'source', 'cwd'] as const;
const LABEL: Record<(typeof KEYS)[number], string> = {
  title: 'title',
  preview: 'prompt',
  sessionId: 'id',
  source: 'source',
  cwd: 'folder',
};

const snapshots = new WeakMap<readonly SessionRow[], ReturnType<typeof snap>>();

function snap(rows: readonly SessionRow[]) {
  return fuzzysort.snapshot(rows, { keys: KEYS.map((k) => (r: SessionRow) => r[k]) });
}

function segmentsOf(target: string, indexes: readonly number[]): Segment[] {
  const hit = new Set(indexes);
  const out: Segment[] = [];
  const chars = Array.from(target);
  // fuzzysort indexes count UTF-16 code units.
  let pos = 0;
  for (const c of chars) {
    const isHit = hit.has(pos);
    const last = out[out.length - 1];
    if (last && last.hit === isHit) last.text += c;
    else out.push({ text: c, hit: isHit });
    pos += c.length;
  }
  return out;
}

/** The best `limit` matches, and how many rows matched in all (for "100 of 312"). */
export function fuzzyResults(
  rows: readonly SessionRow[],
  query: string,
  limit = FUZZY_LIMIT,
): { items: ResultItem[]; total: number } {
  const q = query.trim();
  if (q === '') return { items: [], total: 0 };
  let targets = snapshots.get(rows);
  if (!targets) {
    targets = snap(rows);
    snapshots.set(rows, targets);
  }
  const found = fuzzysort.go(q, targets, { limit, threshold: FUZZY_THRESHOLD });
  const items = found.map((res): ResultItem => {
    const row = res.obj;
    let best = 0;
    for (let i = 1; i < KEYS.length; i++)
      if ((res[i]?.score ?? 0) > (res[best]?.score ?? 0)) best = i;
    const key = KEYS[best] ?? 'title';
    const match = res[best];
    const snippet: Segment[] = [
      { text: `${LABEL[key]}: `, hit: false },
      ...(match && match.target
        ? segmentsOf(match.target, match.indexes)
        : [{ text: row[key], hit: false }]),
    ];
    return {
      key: `fuzzy:${row.depth}:${row.sessionId}`,
      kind: 'session',
      sessionId: row.sessionId,
      rootId: row.rootId,
      title: row.title,
      source: row.source,
      startedAt: row.startedAt,
      when: row.lastActive,
      messageId: null,
      matchedRole: null,
      snippet,
      live: row.open,
      ...(row.profile !== undefined ? { profile: row.profile } : {}),
    };
  });
  return { items, total: found.total };
}
