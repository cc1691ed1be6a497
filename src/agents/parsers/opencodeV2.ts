/**
 * opencode 2.x (AGENTS.md §8.2): `session_v2` and `session_message`, whose `type`
 * is the role and whose rows are rewritten in place while a reply streams. A
 * session is re-derived whole when its mark `(time_updated, revert, row count,
 * max seq, max time_updated)` moves, so an in-place rewrite replaces the stored
 * text and a deleted row leaves. `session_pending`, `session_inbox` and the
 * `event` log (gigabytes) are never read.
 */
import { MESSAGE_CAP, TEXT_CAP } from '../../budgets.js';
import type Database from 'better-sqlite3';
import {
  FLAG,
  TITLE_RANK,
  capped,
  obj,
  placeholder,
  str,
  type ConvPatch,
  type Msg,
  type ToolCall,
} from '../model.js';
import { columns } from '../readOnlyDb.js';
import { offerTitle } from './claude.js';
import type { OpencodeSession } from './types.js';

function json(v: unknown): Record<string, unknown> | null {
  if (typeof v !== 'string') return null;
  try {
    return obj(JSON.parse(v));
  } catch {
    return null;
  }
}

/** A 2.x store: `session_v2` and a `session_message` with `seq` (a `session_message` alone is not one). */
export function isOpencodeV2(db: Database.Database): boolean {
  const sm = columns(db, 'session_message');
  return columns(db, 'session_v2').has('id') && sm.has('seq') && sm.has('type');
}

/** Every 2.x session's change mark, by id: one grouped read of `session_message`, never of `event`. */
export function v2Signatures(db: Database.Database): Map<string, string> {
  const rows = db
    .prepare(
      `SELECT s.id, 'v2:' || ifnull(s.time_updated, 0) || ':' || ifnull(length(s.revert), 0) || ':'
         || ifnull(m.n, 0) || ':' || ifnull(m.seq, -1) || ':' || ifnull(m.upd, 0) AS sig
       FROM session_v2 s LEFT JOIN (
         SELECT session_id, count(*) AS n, max(seq) AS seq, max(time_updated) AS upd
         FROM session_message GROUP BY session_id) m ON m.session_id = s.id`,
    )
    .all() as { id: string; sig: string }[];
  return new Map(rows.map((r) => [r.id, r.sig]));
}

interface V2Row {
  id: string;
  type: string;
  seq: number;
  time_created: number | null;
  time_updated: number | null;
  data: string;
}

/** Reads the 2.x sessions named, in `seq` order; one bad row never drops a session. */
export function readV2Sessions(db: Database.Database, ids: readonly string[]): OpencodeSession[] {
  if (ids.length === 0) return []; // and a 1.x store has no tables to prepare against
  const session = db.prepare(`SELECT * FROM session_v2 WHERE id = ?`);
  const rows = db.prepare(
    `SELECT id, type, seq, time_created, time_updated, data FROM session_message WHERE session_id = ? ORDER BY seq, id`,
  );
  return ids.map((id) =>
    deriveV2(session.get(id) as Record<string, unknown>, rows.all(id) as V2Row[]),
  );
}

/** The text of a 2.x tool's output: `state.content[]` (1.x had `state.output`). */
function toolOutput(state: Record<string, unknown>): string | null {
  if (Array.isArray(state.content)) {
    const out: string[] = [];
    for (const c of state.content) {
      const o = obj(c);
      if (!o) continue;
      if (typeof o.text === 'string') out.push(o.text);
      else if (o.type === 'file') out.push(placeholder('file', o.mime, null));
    }
    if (out.length > 0) return out.join('\n');
  }
  if (typeof state.output === 'string') return state.output;
  const err = state.error;
  if (typeof err === 'string') return err;
  const e = obj(err);
  if (e && typeof e.message === 'string') return e.message;
  return null;
}

export function deriveV2(s: Record<string, unknown>, rows: V2Row[]): OpencodeSession {
  const conv: ConvPatch = {
    native_id: String(s.id),
    parent_native_id: str(s.parent_id) ?? str(s.fork_session_id),
    parent_kind: str(s.parent_id) ? 'child' : str(s.fork_session_id) ? 'fork' : null,
    cwd: str(s.directory),
    started_at: typeof s.time_created === 'number' ? s.time_created : null,
    last_active_at: typeof s.time_updated === 'number' ? s.time_updated : null,
    extra: {
      archived: s.time_archived != null,
      slug: s.slug ?? null,
      layout: 'session_v2',
      agent: s.agent ?? null,
    },
  };
  if (typeof s.title === 'string' && s.title.trim()) offerTitle(conv, s.title, TITLE_RANK.user);
  const model = json(s.model);
  if (model && typeof model.id === 'string') conv.model = model.id;
  // A revert names the first message taken back (1.x's shape `{messageID, …}`; the
  // 2.x type is not confirmed from source, so the spellings seen are all accepted).
  const revert = json(s.revert);
  const revertFrom =
    str(revert?.messageID) ?? str(revert?.messageId) ?? str(revert?.message_id) ?? null;
  const messages: Msg[] = [];
  let rewound = false;
  let titled = false;
  for (const r of rows) {
    if (r.id === revertFrom) rewound = true;
    const flags = rewound ? FLAG.rewound : 0;
    const d = json(r.data) ?? {};
    const t = r.time_created;
    const push = (m: Omit<Msg, 'flags' | 'original_len' | 'created_at'>, cap: number): Msg => {
      const c = capped(m.text, cap);
      const row: Msg = {
        ...m,
        text: c.text,
        created_at: t,
        flags: flags | (c.truncated ? FLAG.truncated : 0),
        original_len: c.original_len,
      };
      messages.push(row);
      return row;
    };
    switch (r.type) {
      case 'user': {
        const files = (Array.isArray(d.files) ? d.files : []).map((f) => {
          const o = obj(f) ?? {};
          return `[file ${String(o.mime ?? '')} ${String(o.name ?? o.filename ?? o.uri ?? '')}]`.replace(
            /\s+\]/,
            ']',
          );
        });
        const text = [typeof d.text === 'string' ? d.text : '', ...files]
          .filter(Boolean)
          .join('\n');
        push({ anchor: r.id, role: 'user', kind: 'text', text }, MESSAGE_CAP);
        if (!titled && !rewound && text.trim()) {
          titled = true;
          offerTitle(conv, text, TITLE_RANK.firstPrompt);
        }
        break;
      }
      case 'synthetic':
        push(
          { anchor: r.id, role: 'system', kind: 'injected', text: String(d.text ?? '') },
          TEXT_CAP,
        );
        break;
      case 'compaction': {
        const m = push(
          { anchor: r.id, role: 'system', kind: 'summary', text: String(d.summary ?? '') },
          MESSAGE_CAP,
        );
        m.flags |= FLAG.compactBoundary;
        break;
      }
      case 'assistant':
        assistant(r, d, push, conv);
        break;
      case 'shell': {
        // A command the person ran from the prompt (`!cmd`): its text is searchable output.
        const text = [d.command, d.output, d.text].filter((x) => typeof x === 'string').join('\n');
        const m = push({ anchor: r.id, role: 'tool', kind: 'tool_result', text }, TEXT_CAP);
        m.tool_name = 'shell';
        break;
      }
      default: {
        // system, model-switched, agent-switched, location-switched and what comes next: bookkeeping.
        const text = typeof d.text === 'string' ? d.text : `${r.type}`;
        push({ anchor: r.id, role: 'system', kind: 'meta', text }, TEXT_CAP);
      }
    }
  }
  return { conv, messages };
}

function assistant(
  r: V2Row,
  d: Record<string, unknown>,
  push: (m: Omit<Msg, 'flags' | 'original_len' | 'created_at'>, cap: number) => Msg,
  conv: ConvPatch,
): void {
  const texts: string[] = [];
  const reasoning: string[] = [];
  const calls: ToolCall[] = [];
  const results: { callId: string; name: string | null; text: string; error: boolean }[] = [];
  for (const c of Array.isArray(d.content) ? d.content : []) {
    const p = obj(c);
    if (!p) continue;
    if (p.type === 'text' && typeof p.text === 'string' && p.text) texts.push(p.text);
    else if (p.type === 'reasoning' && typeof p.text === 'string' && p.text) reasoning.push(p.text);
    else if (p.type === 'tool') {
      const state = obj(p.state) ?? {};
      const callId = String(p.id ?? p.callID ?? '');
      const name = str(p.name) ?? str(p.tool);
      calls.push({
        id: callId,
        type: 'function',
        function: {
          name: name ?? '',
          arguments: JSON.stringify(state.input ?? {}).slice(0, TEXT_CAP),
        },
      });
      const out = toolOutput(state);
      if (out !== null) results.push({ callId, name, text: out, error: state.status === 'error' });
    }
  }
  const err = obj(d.error);
  const model = obj(d.model);
  const text = texts.join('\n');
  const m = push(
    {
      anchor: r.id,
      role: 'assistant',
      kind: text
        ? 'text'
        : calls.length > 0
          ? 'tool_call'
          : reasoning.length > 0
            ? 'reasoning'
            : 'text',
      text,
    },
    MESSAGE_CAP,
  );
  m.model = str(model?.id);
  if (m.model && !conv.model) conv.model = m.model;
  if (reasoning.length > 0) m.reasoning = reasoning.join('\n').slice(0, MESSAGE_CAP);
  if (calls.length > 0) m.tool_calls = calls;
  const tokens = obj(d.tokens);
  if (tokens && typeof tokens.output === 'number')
    m.tokens = Number(tokens.input ?? 0) + tokens.output;
  for (const res of results) {
    const row = push(
      {
        anchor: `${r.id}/${res.callId}`,
        role: 'tool',
        kind: res.error ? 'error' : 'tool_result',
        text: res.text,
      },
      TEXT_CAP,
    );
    row.call_id = res.callId;
    row.tool_name = res.name;
  }
  if (err) {
    const e = String(err.message ?? obj(err.data)?.message ?? err.name ?? 'error');
    push({ anchor: `${r.id}/error`, role: 'system', kind: 'error', text: e }, TEXT_CAP);
  }
}
