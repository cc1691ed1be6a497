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
  pinned: number;
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
  compacted: number;
  display_kind: string | null;
  display_order: number | null;
}

export interface Snapshot {
  sessions: Map<string, S>;
  messages: M[];
  bySession: Map<string, M[]>;
  /** Whether messages has `display_order` (the displayed transcript is ordered by it). */
  displayOrder: boolean;
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
        ${scols.has('archived') ? 'archived' : '0 AS archived'}, ${scols.has('hidden') ? 'hidden' : '0 AS hidden'}, ${scols.has('pinned') ? 'pinned' : '0 AS pinned'},
        ${scols.has('last_activity_at') ? 'last_activity_at' : 'NULL AS last_activity_at'} FROM sessions`,
    )
    .all() as S[])
    sessions.set(r.id, r);
  const messages = db
    .prepare(
      `SELECT id, session_id, role, content, timestamp, ${mcols.has('active') ? 'active' : '1 AS active'},
        ${mcols.has('compacted') ? 'compacted' : '0 AS compacted'},
        ${mcols.has('display_order') ? 'display_order' : 'NULL AS display_order'},
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
  return { sessions, messages, bySession, ftsOrder, displayOrder: mcols.has('display_order') };
}

/** Part of the history: live, or archived by compaction (active 0, compacted 1); never rewound or hidden. */
export const historyRow = (m: M) =>
  (m.active === 1 || m.compacted === 1) && m.display_kind !== 'hidden';
/** Live rows (read): active and not hidden. */
export const live = (m: M) => m.active === 1 && m.display_kind !== 'hidden';

/**
 * The displayed transcript of a session (STORE.md): history rows; where the
 * store has display_order and the session was compacted, ordered by it with one
 * copy per display_order (the active row, else the highest id).
 */
const transcripts = new WeakMap<Snapshot, Map<string, M[]>>();

export function transcript(snap: Snapshot, sessionId: string): M[] {
  let cache = transcripts.get(snap);
  if (!cache) transcripts.set(snap, (cache = new Map()));
  let t = cache.get(sessionId);
  if (!t) cache.set(sessionId, (t = transcriptOf(snap, sessionId)));
  return t;
}

function transcriptOf(snap: Snapshot, sessionId: string): M[] {
  const rows = (snap.bySession.get(sessionId) ?? []).filter(historyRow);
  const compacted = (snap.bySession.get(sessionId) ?? []).some((m) => m.active === 0);
  if (!snap.displayOrder || !compacted) return rows;
  const pick = new Map<number, M>();
  for (const m of rows) {
    const k = m.display_order ?? m.id;
    const cur = pick.get(k);
    if (!cur || m.active > cur.active || (m.active === cur.active && m.id > cur.id)) pick.set(k, m);
  }
  const order = (m: M) => m.display_order ?? m.id;
  return [...pick.values()].sort((a, b) => order(a) - order(b) || a.id - b.id);
}

/** What read returns: live rows, in the transcript's order. */
export function liveRows(snap: Snapshot, sessionId: string): M[] {
  const rows = (snap.bySession.get(sessionId) ?? []).filter(live);
  const compacted = (snap.bySession.get(sessionId) ?? []).some((m) => m.active === 0);
  if (!snap.displayOrder || !compacted) return rows;
  const order = (m: M) => m.display_order ?? m.id;
  return [...rows].sort((a, b) => order(a) - order(b) || a.id - b.id);
}

/** A history row (live or archived by compaction, not hidden); see transcript() for what is shown. */
export const visible = (m: M): boolean => historyRow(m);

/** Whether a message is shown in its session's transcript. */
export function shownIn(snap: Snapshot, m: M): boolean {
  return historyRow(m) && transcript(snap, m.session_id).some((x) => x.id === m.id);
}

export const isSummary = (text: string | null) =>
  /^\s*(\[CONTEXT COMPACTION|\[CONTEXT SUMMARY\]:)/.test(text ?? '');

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
  /** The app and the readable list pin first; the agent's browse (`recent --json`) does not (#17). */
  pinnedFirst = true,
): { session_id: string; started_at: number; root: string }[] {
  // A root has no parent, or a parent link that leads nowhere (missing row, or itself).
  const roots = [...snap.sessions.values()].filter(
    (s) =>
      (s.parent_session_id === null ||
        s.parent_session_id === s.id ||
        !snap.sessions.has(s.parent_session_id)) &&
      !HIDDEN.includes(s.source) &&
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
      // STORE.md: the child that itself ended by compression, else the live one, else the most recently active.
      const rank = (k: S) => (k.end_reason === 'compression' ? 0 : k.ended_at === null ? 1 : 2);
      cur = kids.sort((a, b) => rank(a) - rank(b) || activity(snap, b) - activity(snap, a))[0]!;
      chain.push(cur);
    }
    const eff = Math.max(...chain.map((s) => activity(snap, s)));
    return {
      session_id: chain[chain.length - 1]!.id,
      started_at: r.started_at,
      root: r.id,
      eff,
      pinned: r.pinned,
    };
  });
  rows.sort(
    (a, b) =>
      (pinnedFirst ? b.pinned - a.pinned : 0) ||
      b.eff - a.eff ||
      b.started_at - a.started_at ||
      (a.root < b.root ? 1 : -1),
  );
  return rows.slice(0, limit);
}

const HIDDEN = ['kanban', 'subagent', 'tool'];

/**
 * Discover: FTS order with every cron hit after every interactive one (stable),
 * filtered (roles, hidden sources, rows not in the transcript), first hit per lineage root.
 */
export function expectedDiscover(
  snap: Snapshot,
  hitOrder: number[],
  limit: number,
  roles = ['user', 'assistant'],
): { session_id: string; match_message_id: number; root: string }[] {
  const byId = new Map(snap.messages.map((m) => [m.id, m]));
  const out: { session_id: string; match_message_id: number; root: string }[] = [];
  const seen = new Set<string>();
  const cron = (id: number) => snap.sessions.get(byId.get(id)?.session_id ?? '')?.source === 'cron';
  const ordered = [...hitOrder.filter((id) => !cron(id)), ...hitOrder.filter(cron)];
  for (const id of ordered) {
    const m = byId.get(id);
    if (!m || !shownIn(snap, m) || !roles.includes(m.role)) continue;
    const s = snap.sessions.get(m.session_id);
    if (!s || HIDDEN.includes(s.source)) continue;
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
  const list = transcript(snap, sessionId);
  const i = list.findIndex((m) => m.id === anchor);
  const raw = list.slice(Math.max(0, i - window), i + window + 1);
  const first = i - Math.min(i, window);
  const last = first + raw.length - 1;
  const ua = (m: M) =>
    (m.role === 'user' || m.role === 'assistant') && (m.content ?? '').length > 0;
  const at = (m: M) => list.indexOf(m);
  return {
    messages: raw
      .filter((m) => m.id === anchor || m.role === 'user' || m.role === 'assistant')
      .map((m) => m.id),
    // The agent takes three, then drops compaction summaries.
    bookend_start: list
      .filter((m) => at(m) < first && ua(m))
      .slice(0, 3)
      .filter((m) => !isSummary(m.content))
      .map((m) => m.id),
    bookend_end: list
      .filter((m) => at(m) > last && ua(m))
      .slice(-3)
      .filter((m) => !isSummary(m.content))
      .map((m) => m.id),
    messages_before: Math.min(i, window),
    messages_after: Math.min(list.length - 1 - i, window),
  };
}
