/**
 * Kimi CLI sessions (AGENTS.md §9.2): `sessions/<md5(work dir)>/<id>/context.jsonl`,
 * one kosong `Message` per line (`{role, content: str | parts[], tool_calls?,
 * tool_call_id?}`) plus bookkeeping lines whose role starts with `_`
 * (`_system_prompt`, `_checkpoint`, `_usage`). Appended to; `/clear`, a compaction
 * or a D-Mail revert moves the file aside (`context_<n>.jsonl`) and writes a new
 * one (empty, the compacted summary, or the kept prefix). The anchor of a current
 * message is its position among real messages; a rotated file's messages come
 * first, anchored `<n>.<position>`, the ones a revert took back flagged rewound
 * (see `earlier`), so nothing said before a clear or compaction leaves the index.
 * The work directory comes from `kimi.json`, the title from `state.json`, the start
 * time from `wire.jsonl` (context lines carry no times).
 */
import { MESSAGE_CAP, TEXT_CAP } from '../../budgets.js';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  FLAG,
  TITLE_RANK,
  capped,
  epochMs,
  looksInjected,
  obj,
  placeholder,
  str,
  type ConvPatch,
  type Msg,
  type Problems,
  type Role,
  type ToolCall,
} from '../model.js';
import { parseRecord, readLines } from '../lines.js';
import { offerTitle } from './claude.js';
import { smallJson } from './sideJson.js';
import type { LineParser, ParseContext, ParseResult } from './types.js';

/** The first `timestamp` in the first 64 KB of wire.jsonl (its header line has none). */
function wireStart(path: string): number | null {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    for (const line of buf.subarray(0, n).toString('utf8').split('\n').slice(0, -1)) {
      try {
        const t = epochMs(obj(JSON.parse(line))?.timestamp);
        if (t !== null) return t;
      } catch {
        /* a bad line: try the next */
      }
    }
  } catch {
    /* no wire file */
  } finally {
    if (fd !== null) closeSync(fd);
  }
  return null;
}

/** kosong parts: `text`, `think`, media URLs. */
function parts(content: unknown): { text: string; think: string } {
  if (typeof content === 'string') return { text: content, think: '' };
  if (!Array.isArray(content)) return { text: '', think: '' };
  const text: string[] = [];
  const think: string[] = [];
  for (const raw of content) {
    const p = obj(raw);
    if (!p) continue;
    if (p.type === 'text' && typeof p.text === 'string') text.push(p.text);
    else if (p.type === 'think' && typeof p.think === 'string') think.push(p.think);
    else if (typeof p.type === 'string' && p.type.endsWith('_url')) {
      const u = obj(p[p.type]);
      const url = str(u?.url) ?? '';
      text.push(
        url.startsWith('data:') && url.includes(';base64,')
          ? placeholder(
              p.type.replace('_url', ''),
              url.slice(5, url.indexOf(';')),
              url.slice(url.indexOf(',') + 1),
            )
          : `[${p.type.replace('_url', '')} ${url}]`,
      );
    }
  }
  return { text: text.join('\n'), think: think.join('\n') };
}

/** Where a context file sits: the session, a subagent of it, and the share directory. */
function place(path: string): { session: string; sub: string | null; share: string; wd: string } {
  const dir = dirname(path);
  if (basename(dirname(dir)) === 'subagents') {
    const sessionDir = dirname(dirname(dir));
    return {
      session: basename(sessionDir),
      sub: basename(dir),
      share: dirname(dirname(dirname(sessionDir))),
      wd: basename(dirname(sessionDir)),
    };
  }
  return {
    session: basename(dir),
    sub: null,
    share: dirname(dirname(dirname(dir))),
    wd: basename(dirname(dir)),
  };
}

/** The work directory whose md5 names the sessions' parent (`<kaos>_<md5>` off the local machine). */
function workDir(share: string, wdName: string): string | null {
  const meta = smallJson(join(share, 'kimi.json'));
  const dirs = Array.isArray(meta?.work_dirs) ? (meta.work_dirs as unknown[]) : [];
  for (const raw of dirs) {
    const w = obj(raw);
    const p = str(w?.path);
    if (!p) continue;
    const md5 = createHash('md5').update(p, 'utf8').digest('hex');
    const kaos = str(w?.kaos) ?? 'local';
    if (wdName === md5 || wdName === `${kaos}_${md5}`) return p;
  }
  return null;
}

/** One kosong Message as a row; null for the `_`-role bookkeeping lines. */
function toMsg(rec: Record<string, unknown>, anchor: string, flags = 0): Msg | null {
  const role = str(rec.role);
  if (!role || role.startsWith('_')) return null; // _system_prompt, _checkpoint, _usage
  const p = parts(rec.content);
  const calls: ToolCall[] = [];
  if (Array.isArray(rec.tool_calls))
    for (const raw of rec.tool_calls) {
      const t = obj(raw);
      const f = obj(t?.function);
      if (t && f)
        calls.push({
          id: str(t.id) ?? '',
          type: 'function',
          function: {
            name: str(f.name) ?? '',
            arguments: typeof f.arguments === 'string' ? f.arguments : '',
          },
        });
    }
  const isTool = role === 'tool';
  const injected = role === 'user' && looksInjected(p.text);
  const c = capped(p.text, isTool ? TEXT_CAP : MESSAGE_CAP);
  const r: Role =
    injected || role === 'system'
      ? 'system'
      : isTool
        ? 'tool'
        : role === 'assistant'
          ? 'assistant'
          : 'user';
  return {
    anchor,
    role: r,
    kind: injected
      ? 'injected'
      : role === 'system'
        ? 'meta'
        : isTool
          ? 'tool_result'
          : !p.text && calls.length > 0
            ? 'tool_call'
            : !p.text && p.think
              ? 'reasoning'
              : 'text',
    text: c.text,
    reasoning: p.think || null,
    tool_calls: calls.length > 0 ? calls : null,
    call_id: str(rec.tool_call_id),
    tool_name: isTool ? str(rec.name) : null,
    created_at: null,
    flags: flags | (c.truncated ? FLAG.truncated : 0),
    original_len: c.original_len,
  };
}

/** A rotated context file: its number and its messages' records, in file order. */
interface Segment {
  n: number;
  recs: Record<string, unknown>[];
  keys: string[];
}

const ROTATED = /^context_(\d+)\.jsonl$/;

/**
 * The context files Kimi moved aside (utils/path.py next_available_rotation:
 * `context_<n>.jsonl`, n one more than the highest there), oldest first. Each is
 * the whole context as it stood when `/clear`, a compaction or a D-Mail revert
 * rotated it; it is never written again.
 */
function rotatedSegments(path: string, problems: Problems): Segment[] {
  const dir = dirname(path);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: Segment[] = [];
  for (const name of names) {
    const m = ROTATED.exec(name);
    if (!m) continue;
    const recs: Record<string, unknown>[] = [];
    try {
      const p = join(dir, name);
      readLines(
        p,
        0,
        statSync(p).size,
        (line) => {
          const rec = parseRecord(line, problems);
          const role = rec ? str(rec.role) : null;
          if (rec && role && !role.startsWith('_')) recs.push(rec);
        },
        problems,
      );
    } catch {
      problems.add('rotated context file unreadable');
      continue;
    }
    out.push({ n: Number(m[1]), recs, keys: recs.map((r) => JSON.stringify(r)) });
  }
  return out.sort((a, b) => a.n - b.n);
}

/** The `<system>CHECKPOINT n</system>` turn Kimi writes at each checkpoint: no one's words. */
function isCheckpointTurn(rec: Record<string, unknown>): boolean {
  return /^<system>CHECKPOINT \d+<\/system>$/.test(parts(rec.content).text.trim());
}

/** Messages looked back over for the copies a compaction keeps (its preserved recent turns). */
const COPY_WINDOW = 64;

/**
 * The rotated files' messages before the current file's, and which current ones
 * are copies. A successor that begins with the segment's own messages (beyond
 * checkpoint turns) is a D-Mail revert (context.py revert_to copies the lines up
 * to the checkpoint): the segment's later messages were taken back. Otherwise the
 * segment was cleared or compacted: its messages are the conversation's earlier
 * part, and the successor's first messages equal to its last ones are the copies a
 * compaction preserves. Anchors `<n>.<position>`: a rotated file never changes.
 */
function earlier(
  segs: Segment[],
  current: string[],
): { msgs: Msg[]; copiedInCurrent: Set<number> } {
  const msgs: Msg[] = [];
  let copied = new Set<number>();
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    const next = i + 1 < segs.length ? segs[i + 1]!.keys : current;
    let common = 0;
    while (common < seg.keys.length && common < next.length && seg.keys[common] === next[common])
      common++;
    const revert = seg.recs.slice(0, common).some((r) => !isCheckpointTurn(r));
    const mine = copied;
    copied = new Set<number>();
    // A revert's successor holds the segment's prefix, and with it the copies in it.
    if (revert) {
      for (const j of mine) if (j < common) copied.add(j);
    } else {
      const tail = new Set(seg.keys.slice(-COPY_WINDOW));
      for (let j = 0; j < Math.min(next.length, COPY_WINDOW); j++)
        if (
          tail.has(next[j]!) &&
          !isCheckpointTurn(JSON.parse(next[j]!) as Record<string, unknown>)
        )
          copied.add(j);
    }
    seg.recs.forEach((rec, j) => {
      if (revert && j < common) return; // the successor holds these
      const flags = (revert ? FLAG.rewound : 0) | (mine.has(j) ? FLAG.copied : 0);
      const m = toMsg(rec, `${seg.n}.${j}`, flags);
      if (m) msgs.push(m);
    });
  }
  return { msgs, copiedInCurrent: copied };
}

export function kimiParser(ctx: ParseContext): LineParser {
  const carry = ctx.carry ?? {};
  const where = place(ctx.path);
  const conv: ConvPatch = {
    native_id: where.sub ? `${where.session}/${where.sub}` : where.session,
  };
  if (where.sub) {
    conv.parent_native_id = where.session;
    conv.parent_kind = 'subagent';
  }
  const messages: Msg[] = [];
  let n = typeof carry.n === 'number' ? carry.n : 0;
  let titled = carry.titled === true;

  // A parse from the start also reads the files Kimi rotated aside (never resumed: they do not grow).
  const segs = ctx.carry === null ? rotatedSegments(ctx.path, ctx.problems) : [];
  const need = segs.length > 0 ? segs[segs.length - 1]!.keys.length : 0;
  const currentKeys: string[] = [];

  return {
    record(rec) {
      const m = toMsg(rec, String(n));
      if (!m) return;
      if (currentKeys.length < Math.max(need, COPY_WINDOW) && segs.length > 0)
        currentKeys.push(JSON.stringify(rec));
      n++;
      messages.push(m);
      if (m.role === 'user' && !titled && m.text.trim()) {
        offerTitle(conv, m.text, TITLE_RANK.firstPrompt);
        titled = true;
      }
    },
    finish(): ParseResult {
      if (segs.length > 0) {
        const e = earlier(segs, currentKeys);
        for (const i of e.copiedInCurrent) messages[i]!.flags |= FLAG.copied;
        const first = e.msgs.find((m) => m.role === 'user' && !m.flags && m.text.trim());
        if (first) offerTitle(conv, first.text, TITLE_RANK.firstPrompt);
        messages.unshift(...e.msgs);
      }
      const dir = dirname(ctx.path);
      const sessionDir = where.sub ? dirname(dirname(dir)) : dir;
      const state = smallJson(join(sessionDir, 'state.json'));
      if (!where.sub && typeof state?.custom_title === 'string')
        offerTitle(conv, state.custom_title, TITLE_RANK.user);
      conv.cwd = workDir(where.share, where.wd);
      conv.started_at = wireStart(join(dir, 'wire.jsonl'));
      try {
        conv.last_active_at = Math.round(statSync(ctx.path).mtimeMs);
      } catch {
        /* vanished: keep what was stored */
      }
      if (typeof state?.archived === 'boolean') conv.extra = { archived: state.archived };
      // A new session's context file is created empty (and a subagent's touched): no conversation yet.
      const empty =
        ctx.carry === null && messages.length === 0 && conv.title_rank !== TITLE_RANK.user;
      return { conv: empty ? null : conv, messages, carry: { n, titled }, needsFull: false };
    },
  };
}
