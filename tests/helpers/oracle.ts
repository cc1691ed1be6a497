/**
 * A deliberately naive reference model of STORE.md's recall rules, written from
 * the spec in plain TypeScript over rows loaded whole from a store. Tests compare
 * the store layer's answers against it, so expectations come from the rules, not
 * from the implementation's own output.
 */
import Database from 'better-sqlite3';

export interface S {
  id: string;
  source: string;
  parent_session_id: string | null;
  started_at: number;
  ended_at: number | null;
  end_reason: string | null;
  title: string | null;
  model: string | null;
  model_config: string | null;
  archived: number;
  hidden: number;
  last_activity_at: number | null;
  message_count: number;
}

export interface M {
  id: number;
  session_id: string;
  role: string;
  content: string | null;
  timestamp: number;
  active: number;
  display_kind: string | null;
}

export interface Snapshot {
  sessions: Map<string, S>;
  messages: M[];
  bySession: Map<string, M[]>;
  /** Raw FTS5 hit order for a MATCH expression, straight from SQLite (the ranking is SQLite's, not ours). */
  ftsOrder(match: string, table?: string): number[];
}

function cfg(s: S, key: string): unknown {
  try {
    const v = JSON.parse(s.model_config ?? '') as Record<string, unknown>;
    return v?.[key] ?? null;
  } catch {
    return null;
  }
}

export function loadSnapshot(path: string): Snapshot {
  const db = new Database(path, { readonly: true });
  const scols = new Set(
    (db.prepare(`SELECT name FROM pragma_table_info('sessions')`).all() as { name: string }[]).map(
      (r) => r.name,
    ),
  );
  const mcols = new Set(
    (db.prepare(`SELECT name FROM pragma_table_info('messages')`).all() as { name: string }[]).map(
      (r) => r.name,
    ),
  );
  const sessions = new Map<string, S>();
  for (const r of db
    .prepare(
      `SELECT id, source, parent_session_id, started_at, ended_at, end_reason, title, model, model_config, message_count,
        ${scols.has('archived') ? 'archived' : '0 AS archived'}, ${scols.has('hidden') ? 'hidden' : '0 AS hidden'},
        ${scols.has('last_activity_at') ? 'last_activity_at' : 'NULL AS last_activity_at'} FROM sessions`,
    )
    .all() as S[])
    sessions.set(r.id, r);
  const messages = db
    .prepare(
      `SELECT id, session_id, role, content, timestamp, ${mcols.has('active') ? 'active' : '1 AS active'},
        ${mcols.has('display_kind') ? 'display_kind' : 'NULL AS display_kind'} FROM messages ORDER BY id`,
    )
    .all() as M[];
  const bySession = new Map<string, M[]>();
  for (const m of messages) {
    const list = bySession.get(m.session_id) ?? [];
    list.push(m);
    bySession.set(m.session_id, list);
  }
  const ftsOrder = (match: string, table = 'messages_fts') =>
    (
      db
        .prepare(`SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ? ORDER BY rank`)
        .all(match) as { id: number }[]
    ).map((r) => r.id);
  return { sessions, messages, bySession, ftsOrder };
}

export const visible = (m: M) => m.active === 1 && m.display_kind !== 'hidden';

/** Root by parent links of every kind, stopping at a missing parent or a repeat. */
export function rootOf(snap: Snapshot, id: string): string {
  const seen = new Set<string>();
  let cur = id;
  for (;;) {
    seen.add(cur);
    const p = snap.sessions.get(cur)?.parent_session_id;
    if (!p || !snap.sessions.has(p) || seen.has(p)) return cur;
    cur = p;
  }
}

function isContinuation(snap: Snapshot, child: S): boolean {
  const p = child.parent_session_id ? snap.sessions.get(child.parent_session_id) : undefined;
  return (
    !!p &&
    p.end_reason === 'compression' &&
    cfg(child, '_branched_from') === null &&
    cfg(child, '_delegate_from') === null &&
    child.source !== 'tool'
  );
}

function activity(snap: Snapshot, s: S): number {
  const msgs = snap.bySession.get(s.id) ?? [];
  const last = msgs.length ? Math.max(...msgs.map((m) => m.timestamp)) : 0;
  const a = Math.max(last, s.last_activity_at ?? 0);
  return a > 0 ? a : s.started_at;
}

/** Browse: root rows, hidden sources/archived/delegates out, chains collapsed, by chain activity. */
export function expectedBrowse(
  snap: Snapshot,
  limit: number,
): { session_id: string; started_at: number; root: string }[] {
  // A root has no parent, or a parent link that leads nowhere (missing row, or itself).
  const roots = [...snap.sessions.values()].filter(
    (s) =>
      (s.parent_session_id === null ||
        s.parent_session_id === s.id ||
        !snap.sessions.has(s.parent_session_id)) &&
      !['subagent', 'tool'].includes(s.source) &&
      s.archived === 0 &&
      s.hidden === 0 &&
      cfg(s, '_delegate_from') === null,
  );
  const rows = roots.map((r) => {
    const chain = [r];
    for (let cur = r; chain.length < 100;) {
      const kids = [...snap.sessions.values()].filter(
        (k) => k.parent_session_id === cur.id && isContinuation(snap, k),
      );
      if (kids.length === 0) break;
      cur = kids.sort((a, b) => b.started_at - a.started_at)[0]!;
      chain.push(cur);
    }
    const eff = Math.max(...chain.map((s) => activity(snap, s)));
    return { session_id: chain[chain.length - 1]!.id, started_at: r.started_at, root: r.id, eff };
  });
  rows.sort((a, b) => b.eff - a.eff || b.started_at - a.started_at || (a.root < b.root ? 1 : -1));
  return rows.slice(0, limit);
}

/** Discover: FTS order, filtered (roles, hidden sources, hidden rows), first hit per lineage root. */
export function expectedDiscover(
  snap: Snapshot,
  hitOrder: number[],
  limit: number,
  roles = ['user', 'assistant'],
): { session_id: string; match_message_id: number; root: string }[] {
  const byId = new Map(snap.messages.map((m) => [m.id, m]));
  const out: { session_id: string; match_message_id: number; root: string }[] = [];
  const seen = new Set<string>();
  for (const id of hitOrder) {
    const m = byId.get(id);
    if (!m || !visible(m) || !roles.includes(m.role)) continue;
    const s = snap.sessions.get(m.session_id);
    if (!s || ['subagent', 'tool'].includes(s.source)) continue;
    const root = rootOf(snap, m.session_id);
    if (seen.has(root)) continue;
    seen.add(root);
    out.push({ session_id: m.session_id, match_message_id: id, root });
    if (out.length >= limit) break;
  }
  return out;
}

/** The anchored window: ±5 visible messages, filtered to user/assistant except the anchor, with bookends. */
export function expectedView(snap: Snapshot, sessionId: string, anchor: number, window = 5) {
  const list = (snap.bySession.get(sessionId) ?? []).filter(visible);
  const i = list.findIndex((m) => m.id === anchor);
  const raw = list.slice(Math.max(0, i - window), i + window + 1);
  const first = raw[0]!.id;
  const last = raw[raw.length - 1]!.id;
  const ua = (m: M) =>
    (m.role === 'user' || m.role === 'assistant') && (m.content ?? '').length > 0;
  return {
    messages: raw
      .filter((m) => m.id === anchor || m.role === 'user' || m.role === 'assistant')
      .map((m) => m.id),
    bookend_start: list
      .filter((m) => m.id < first && ua(m))
      .slice(0, 3)
      .map((m) => m.id),
    bookend_end: list
      .filter((m) => m.id > last && ua(m))
      .slice(-3)
      .map((m) => m.id),
    messages_before: Math.min(i, window),
    messages_after: Math.min(list.length - 1 - i, window),
  };
}
