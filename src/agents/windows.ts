/**
 * The context a search shows around each hit (src/agents/recall.ts): five shown
 * rows either side and the conversation's bookends, and the rule for which rows a
 * transcript shows at all.
 */
import type Database from 'better-sqlite3';
import { BOOKEND_SIZE } from '../budgets.js';
import type { AppMsg as MsgRow } from './appReads.js';
import { FLAG, OUT_OF_TRANSCRIPT } from './model.js';
import { stmt } from './statements.js';

/** Injected context and bookkeeping rows stay out of default answers (AGENTS.md rule 7). */
export const QUIET_KINDS = `('injected', 'meta')`;

/**
 * Rows of a transcript (the hit itself is always shown): never a copy; what was
 * taken back only with `takenBack` (--all); quiet rows only with `quiet`.
 */
export function visible(quiet: boolean, takenBack = quiet): string {
  return `flags & ${takenBack ? FLAG.copied : OUT_OF_TRANSCRIPT} = 0${quiet ? '' : ` AND kind NOT IN ${QUIET_KINDS}`}`;
}

/** What a window's rows need: shape()'s fields and the ordinal (not every column);
 *  anchoredViews() reads them by position, in this order. */
type ViewRow = Pick<
  MsgRow,
  | 'id'
  | 'ordinal'
  | 'anchor'
  | 'role'
  | 'text'
  | 'reasoning'
  | 'tool_name'
  | 'call_id'
  | 'tool_calls'
  | 'created_at'
  | 'flags'
>;
const VIEW_COLUMNS =
  'id, ordinal, anchor, role, text, reasoning, tool_name, call_id, tool_calls, created_at, flags';
/** Hits per windows statement (4 SELECTs each, far below SQLite's 500 per compound). */
const VIEWS_PER_STATEMENT = 10;

/**
 * The context of each hit: five shown rows either side and the bookends, ten hits
 * to a statement (one statement per hit ran ten; four per hit ran forty), reading
 * only the columns shown (creating each row's object was most of the cost).
 * The bookends are the conversation's first and last three user/assistant rows,
 * kept where they fall outside the window: the same rows as asking for those
 * before the window's first and after its last, since both are ordered runs.
 */
export function anchoredViews(db: Database.Database, anchors: readonly MsgRow[], all: boolean) {
  const vis = visible(all);
  const edge = `role IN ('user', 'assistant') AND text <> '' AND ${visible(false)}`;
  type Row = ViewRow & { hit: number; part: number };
  /** hit, part, then VIEW_COLUMNS in their order. */
  type RawRow = [
    number,
    number,
    number,
    number,
    string,
    string,
    string,
    string | null,
    string | null,
    string | null,
    string | null,
    number | null,
    number,
  ];
  const one = (k: number) =>
    `SELECT ${k} AS hit, 0 AS part, * FROM (SELECT ${VIEW_COLUMNS} FROM messages WHERE conv_id = @c${k} AND ordinal < @o${k} AND ${vis} ORDER BY ordinal DESC LIMIT 5)
     UNION ALL SELECT ${k}, 1, * FROM (SELECT ${VIEW_COLUMNS} FROM messages WHERE conv_id = @c${k} AND ordinal > @o${k} AND ${vis} ORDER BY ordinal LIMIT 5)
     UNION ALL SELECT ${k}, 2, * FROM (SELECT ${VIEW_COLUMNS} FROM messages WHERE conv_id = @c${k} AND ${edge} ORDER BY ordinal LIMIT ${BOOKEND_SIZE})
     UNION ALL SELECT ${k}, 3, * FROM (SELECT ${VIEW_COLUMNS} FROM messages WHERE conv_id = @c${k} AND ${edge} ORDER BY ordinal DESC LIMIT ${BOOKEND_SIZE})`;
  const groups: Row[][] = anchors.map(() => []);
  for (let at = 0; at < anchors.length; at += VIEWS_PER_STATEMENT) {
    const batch = anchors.slice(at, at + VIEWS_PER_STATEMENT);
    const params: Record<string, number> = {};
    batch.forEach((a, k) => {
      params[`c${k}`] = a.conv_id;
      params[`o${k}`] = a.ordinal;
    });
    // `hit` is the position in the batch: one prepared statement per batch size.
    const sql = batch.map((_, k) => one(k)).join('\n     UNION ALL ');
    // Arrays, then plain objects here: better-sqlite3's row objects cost ~1.6x as much.
    for (const x of stmt(db, sql).raw(true).all(params) as RawRow[]) {
      const r: Row = {
        hit: x[0],
        part: x[1],
        id: x[2],
        ordinal: x[3],
        anchor: x[4],
        role: x[5],
        text: x[6],
        reasoning: x[7],
        tool_name: x[8],
        call_id: x[9],
        tool_calls: x[10],
        created_at: x[11],
        flags: x[12],
      };
      groups[at + r.hit]!.push(r);
    }
  }
  return anchors.map((anchor, i) => view(anchor, groups[i]!));
}

/** One hit's window and bookends from its rows of anchoredViews(). */
function view(anchor: MsgRow, rows: readonly (ViewRow & { part: number })[]) {
  const part = (n: number) => rows.filter((r) => r.part === n);
  const before = part(0).reverse();
  const after = part(1);
  const window: ViewRow[] = [...before, anchor, ...after];
  const first = window[0]!.ordinal;
  const last = window[window.length - 1]!.ordinal;
  return {
    messages: window.filter(
      (m) => m.id === anchor.id || m.role === 'user' || m.role === 'assistant',
    ),
    bookend_start: part(2).filter((m) => m.ordinal < first),
    bookend_end: part(3)
      .filter((m) => m.ordinal > last)
      .reverse(),
    messages_before: before.length,
    messages_after: after.length,
  };
}
