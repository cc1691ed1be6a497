/**
 * A Hermes profile's store as stats rows. Activity: its messages in five-minute
 * slots, a compression chain counted as one conversation. Tokens: the counters
 * the agent keeps on each session row (input, output, cache read and write,
 * reasoning) with its cost (`actual_cost_usd`, else `estimated_cost_usd`),
 * spread over the slots the session's assistant messages fall in, so a session
 * that ran over several days counts on each of them. One short read
 * transaction; the store is opened read-only and closed at once.
 */
import type Database from 'better-sqlite3';
import { Store } from '../store/store.js';
import { SLOT_SECONDS, type ActivityRow, type StatsFilters, type UsageRow } from './model.js';

export interface HermesRows {
  activity: ActivityRow[];
  usage: UsageRow[];
  /** Sessions with tokens recorded (of those in range). */
  sessionsWithTokens: number;
}

interface SessionRow {
  id: string;
  parent: string | null;
  end_reason: string | null;
  model: string | null;
  started_at: number | null;
  cwd: string | null;
  input: number | null;
  output: number | null;
  cache_read: number | null;
  cache_write: number | null;
  reasoning: number | null;
  estimated: number | null;
  actual: number | null;
}

interface SlotRow {
  s: string;
  slot: number;
  msgs: number;
  tools: number;
  asst: number;
}

function columns(db: Database.Database, table: string): Set<string> {
  return new Set(
    (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name),
  );
}

/** Whether the store records where a session ran (the `--cwd` filter needs it). */
export function hermesHasCwd(path: string): boolean {
  const store = Store.open(path, { idleCloseMs: 0 });
  try {
    return store.read(() => {
      const c = columns(store.db, 'sessions');
      return c.has('cwd') || c.has('git_repo_root');
    });
  } finally {
    store.close();
  }
}

export function hermesRows(
  path: string,
  profile: string,
  host: string,
  f: StatsFilters,
): HermesRows {
  const store = Store.open(path, { idleCloseMs: 0 });
  try {
    return store.read(() => read(store.db, profile, host, f));
  } finally {
    store.close();
  }
}

function read(db: Database.Database, profile: string, host: string, f: StatsFilters): HermesRows {
  const sc = columns(db, 'sessions');
  const mc = columns(db, 'messages');
  const col = (name: string) => (sc.has(name) ? name : 'NULL');
  const cwd = sc.has('cwd')
    ? sc.has('git_repo_root')
      ? 'COALESCE(cwd, git_repo_root)'
      : 'cwd'
    : sc.has('git_repo_root')
      ? 'git_repo_root'
      : 'NULL';
  const sessions = db
    .prepare(
      `SELECT id, parent_session_id AS parent, end_reason, model, started_at, ${cwd} AS cwd,
         ${col('input_tokens')} AS input, ${col('output_tokens')} AS output,
         ${col('cache_read_tokens')} AS cache_read, ${col('cache_write_tokens')} AS cache_write,
         ${col('reasoning_tokens')} AS reasoning,
         ${col('estimated_cost_usd')} AS estimated, ${col('actual_cost_usd')} AS actual
       FROM sessions`,
    )
    .all() as SessionRow[];
  const byId = new Map(sessions.map((s) => [s.id, s]));
  // A compression continuation is the same conversation as its parent: key both by the root.
  const rootCache = new Map<string, string>();
  const root = (s: SessionRow): string => {
    const known = rootCache.get(s.id);
    if (known) return known;
    let at = s;
    const seen = new Set<string>();
    while (at.parent && !seen.has(at.id)) {
      seen.add(at.id);
      const up = byId.get(at.parent);
      if (!up || up.end_reason !== 'compression') break;
      at = up;
    }
    rootCache.set(s.id, at.id);
    return at.id;
  };
  const hidden = mc.has('display_kind')
    ? `AND (display_kind IS NULL OR display_kind != 'hidden')`
    : '';
  const slots = db
    .prepare(
      `SELECT session_id AS s, CAST(timestamp / ${SLOT_SECONDS} AS INTEGER) AS slot,
         sum(role IN ('user', 'assistant')) AS msgs, sum(role = 'tool') AS tools,
         sum(role = 'assistant') AS asst
       FROM messages WHERE timestamp IS NOT NULL ${hidden}
       GROUP BY s, slot`,
    )
    .all() as SlotRow[];
  const inRange = (atSec: number) =>
    (f.after === undefined || atSec >= f.after) && (f.before === undefined || atSec < f.before);
  const inFolder = (c: string | null) =>
    f.cwd === undefined ||
    (c !== null && (c === f.cwd || c.startsWith(f.cwd.replace(/\/$/, '') + '/')));
  const activity: ActivityRow[] = [];
  const assistantSlots = new Map<string, SlotRow[]>();
  for (const r of slots) {
    const s = byId.get(r.s);
    if (!s) continue;
    if (r.asst > 0) {
      const list = assistantSlots.get(r.s);
      if (list) list.push(r);
      else assistantSlots.set(r.s, [r]);
    }
    if (!inRange(r.slot * SLOT_SECONDS) || !inFolder(s.cwd)) continue;
    activity.push({
      agent: 'hermes',
      profile,
      host,
      conv: root(s),
      cwd: s.cwd,
      slot: r.slot,
      messages: r.msgs,
      tools: r.tools,
    });
  }
  const usage: UsageRow[] = [];
  let sessionsWithTokens = 0;
  for (const s of sessions) {
    const n = (v: number | null) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
    const t = {
      input: n(s.input),
      output: n(s.output),
      cacheRead: n(s.cache_read),
      cacheWrite: n(s.cache_write),
      reasoning: n(s.reasoning),
    };
    const cost =
      s.actual !== null && s.actual >= 0
        ? s.actual
        : s.estimated !== null && s.estimated >= 0
          ? s.estimated
          : null;
    const costKind =
      s.actual !== null && s.actual >= 0 ? 'recorded' : cost !== null ? 'estimated' : null;
    if (t.input + t.output + t.cacheRead + t.cacheWrite + t.reasoning === 0 && cost === null)
      continue;
    if (!inFolder(s.cwd)) continue;
    // Spread over the slots of its assistant messages (a session with none: its start).
    const parts = assistantSlots.get(s.id) ?? [];
    const total = parts.reduce((a, r) => a + r.asst, 0);
    const spread =
      total > 0
        ? parts.map((r) => ({ at: r.slot * SLOT_SECONDS, share: r.asst / total }))
        : [{ at: s.started_at ?? 0, share: 1 }];
    let counted = false;
    for (const { at, share } of spread) {
      if (!inRange(at)) continue;
      counted = true;
      usage.push({
        agent: 'hermes',
        profile,
        host,
        model: s.model && s.model.trim() ? s.model : 'unknown',
        at,
        conv: root(s),
        cwd: s.cwd,
        input: t.input * share,
        output: t.output * share,
        cacheRead: t.cacheRead * share,
        cacheWrite: t.cacheWrite * share,
        reasoning: t.reasoning * share,
        cost: cost === null ? null : cost * share,
        costKind,
      });
    }
    if (counted) sessionsWithTokens++;
  }
  return { activity, usage, sessionsWithTokens };
}
