/**
 * Aider's chat history (AGENTS.md §9.4): `<git root>/.aider.chat.history.md`, one
 * Markdown file per repository that every run appends to (`io.py`,
 * `append_chat_history`): `# aider chat started at <local time>` opens a run, a
 * prompt is `#### ` lines, tool output `> ` lines, the rest is the model's reply.
 * One file is one conversation (the repository's), each run opened by a meta row.
 * There are no ids: a message is anchored on the number of its first line, which
 * an append-only file never changes. A block still being written at the end of
 * the file is carried to the next pass, which re-emits it under the same anchor.
 */
import { MESSAGE_CAP, TEXT_CAP } from '../../budgets.js';
import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { FLAG, TITLE_RANK, capped, type ConvPatch, type Msg, type Role } from '../model.js';
import { offerTitle } from './claude.js';
import type { LineParser, ParseContext, ParseResult } from './types.js';

type BlockKind = 'user' | 'tool' | 'assistant';
interface Block {
  kind: BlockKind;
  start: number;
  lines: string[];
}

const HEADER = /^# aider chat started at (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})\s*$/;

/** Aider writes local time without a zone; read it as this machine's local time. */
function localTime(date: string, time: string): number | null {
  const t = new Date(`${date}T${time}`).getTime();
  return Number.isFinite(t) ? t : null;
}

/** The repository a history file belongs to: its directory, as the native id. */
export function aiderSessionId(path: string): string {
  return dirname(resolve(path));
}

export function aiderParser(ctx: ParseContext): LineParser {
  const carry = ctx.carry ?? {};
  const dir = aiderSessionId(ctx.path);
  const conv: ConvPatch = { native_id: dir, cwd: dir };
  offerTitle(conv, basename(dir) || dir, TITLE_RANK.generated);
  const messages: Msg[] = [];
  const open = carry.open as Block | null | undefined;
  let cur: Block | null = open && Array.isArray(open.lines) ? open : null;
  let runStart = typeof carry.runStart === 'number' ? carry.runStart : null;

  const emit = (b: Block) => {
    let lines = b.lines;
    if (b.kind === 'assistant') {
      while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines = lines.slice(0, -1);
      while (lines.length > 0 && lines[0]!.trim() === '') lines = lines.slice(1);
    }
    const text = lines.join('\n');
    if (b.kind === 'assistant' && text === '') return;
    const role: Role = b.kind;
    const c = capped(text, b.kind === 'tool' ? TEXT_CAP : MESSAGE_CAP);
    messages.push({
      anchor: String(b.start),
      role,
      kind: b.kind === 'tool' ? 'tool_result' : 'text',
      text: c.text,
      // Only a run's start is written; a message's own time is not known.
      created_at: null,
      flags: c.truncated ? FLAG.truncated : 0,
      original_len: c.original_len,
    });
  };
  const close = () => {
    if (cur) emit(cur);
    cur = null;
  };
  const add = (kind: BlockKind, text: string, lineNo: number) => {
    if (cur?.kind !== kind) {
      close();
      cur = { kind, start: lineNo, lines: [] };
    }
    cur.lines.push(text);
  };

  return {
    record() {
      /* Markdown: lines come through line() */
    },
    line(raw, lineNo) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      const h = HEADER.exec(line);
      if (h) {
        close();
        runStart = localTime(h[1]!, h[2]!);
        if (runStart !== null) {
          if (conv.started_at == null || runStart < conv.started_at) conv.started_at = runStart;
          if (conv.last_active_at == null || runStart > conv.last_active_at)
            conv.last_active_at = runStart;
        }
        const text = `aider chat started at ${h[1]} ${h[2]}`;
        messages.push({
          anchor: String(lineNo),
          role: 'system',
          kind: 'meta',
          text,
          created_at: runStart,
          flags: 0,
          original_len: text.length,
        });
        return;
      }
      // user_input(): "#### " before every line of the prompt, "  " after.
      if (line === '####' || line.startsWith('#### ')) {
        add('user', line.slice(5).replace(/ {2}$/, ''), lineNo);
        return;
      }
      // tool_output()/tool_error(): blockquoted, "  " after.
      if (line === '>' || line.startsWith('> ')) {
        const out = line.slice(2).replace(/ {2}$/, '');
        // Each run announces its model: "> Main model: anthropic/claude-… with diff edit format".
        const model = /^Main model: (\S+)/.exec(out);
        if (model) conv.model = model[1]!;
        add('tool', out, lineNo);
        return;
      }
      if (line.trim() === '') {
        // A blank line ends a prompt or a tool block; a reply may hold blank lines.
        if (cur?.kind === 'assistant') cur.lines.push('');
        else close();
        return;
      }
      add('assistant', line, lineNo);
    },
    finish(): ParseResult {
      // The last block may still grow: shown now, carried to the next pass.
      const pending = cur;
      if (pending) emit(pending);
      try {
        const m = Math.round(statSync(ctx.path).mtimeMs);
        if (conv.last_active_at == null || m > conv.last_active_at) conv.last_active_at = m;
      } catch {
        /* vanished: keep what was stored */
      }
      return {
        conv,
        messages,
        carry: { open: pending, runStart },
        needsFull: false,
      };
    },
  };
}
