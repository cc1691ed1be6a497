/**
 * Kimi CLI sessions (AGENTS.md §9.2): `sessions/<md5(work dir)>/<id>/context.jsonl`,
 * one kosong `Message` per line (`{role, content: str | parts[], tool_calls?,
 * tool_call_id?}`) plus bookkeeping lines whose role starts with `_`
 * (`_system_prompt`, `_checkpoint`, `_usage`). Appended to; a revert or `/clear`
 * moves the file aside (`context_<n>.jsonl`) and writes a new one holding the
 * kept prefix, so the anchor, a message's position among real messages, survives.
 * The work directory comes from `kimi.json`, the title from `state.json`, the start
 * time from `wire.jsonl` (context lines carry no times).
 */
import { MESSAGE_CAP, TEXT_CAP } from '../../budgets.js';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
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
  type Role,
  type ToolCall,
} from '../model.js';
import { offerTitle } from './claude.js';
import type { LineParser, ParseContext, ParseResult } from './types.js';

function smallJson(path: string): Record<string, unknown> | null {
  try {
    if (statSync(path).size > 4 * 1024 * 1024) return null;
    return obj(JSON.parse(readFileSync(path, 'utf8')));
  } catch {
    return null;
  }
}

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

  return {
    record(rec) {
      const role = str(rec.role);
      if (!role || role.startsWith('_')) return; // _system_prompt, _checkpoint, _usage
      const anchor = String(n++);
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
      messages.push({
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
        flags: c.truncated ? FLAG.truncated : 0,
        original_len: c.original_len,
      });
      if (r === 'user' && !titled && p.text.trim()) {
        offerTitle(conv, p.text, TITLE_RANK.firstPrompt);
        titled = true;
      }
    },
    finish(): ParseResult {
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
