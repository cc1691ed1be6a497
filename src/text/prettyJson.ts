/**
 * Tool calls and tool output are often JSON whose strings hold whole scripts
 * or files as `\n` escapes. For reading, this prints the JSON indented and
 * shows such a string as the lines it holds, continuation lines indented
 * under their key, with keys, strings, numbers and literals styled. The
 * result is for reading (a multi-line string is no longer strict JSON);
 * `exact` says whether it still is.
 */
import { sanitizeLine } from './sanitize.js';
import type { Draft, Style } from './styled.js';
import { JSON_MAX_DEPTH } from '../budgets.js';

export interface PrettyJson {
  lines: Draft[];
  /** True when the lines joined with "\n" are valid JSON (no string was split into lines). */
  exact: boolean;
}

/** Pretty lines for a JSON text, or null when it is not JSON (show it as it is). */
export function prettyJsonText(text: string, indent = 2): PrettyJson | null {
  if (typeof text !== 'string') return null;
  const trimmed = text.trim();
  if (!/^[[{"]/.test(trimmed)) return null;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return null;
  }
  return prettyJson(value, indent);
}

/** Pretty lines for a value already parsed. */
export function prettyJson(value: unknown, indent = 2): PrettyJson {
  const state = { lines: [[]] as Draft[], exact: true, unit: ' '.repeat(Math.max(0, indent)) };
  emit(state, value, 0);
  for (const line of state.lines) for (const seg of line) seg.text = sanitizeLine(seg.text);
  return { lines: state.lines, exact: state.exact };
}

interface State {
  lines: Draft[];
  exact: boolean;
  unit: string;
}

function add(state: State, text: string, style: Style): void {
  const line = state.lines[state.lines.length - 1] as Draft;
  const last = line[line.length - 1];
  if (last && last.style === style) last.text += text;
  else line.push({ text, style });
}

function newline(state: State, depth: number): void {
  state.lines.push([]);
  if (depth > 0) add(state, state.unit.repeat(depth), 'plain');
}

/** A string, split at its newlines; continuation lines one level deeper than the value. */
function emitString(state: State, s: string, depth: number, style: Style): void {
  const parts = s.split(/\r?\n/);
  if (parts.length > 1) state.exact = false;
  parts.forEach((part, i) => {
    if (i > 0) newline(state, depth + 1);
    const body = JSON.stringify(part).slice(1, -1);
    const open = i === 0 ? '"' : '';
    const close = i === parts.length - 1 ? '"' : '';
    add(state, open + body + close, style);
  });
}

function emit(state: State, value: unknown, depth: number): void {
  if (value === null) return add(state, 'null', 'keyword');
  switch (typeof value) {
    case 'string':
      return emitString(state, value, depth, 'string');
    case 'number':
      return add(state, Number.isFinite(value) ? String(value) : 'null', 'number');
    case 'boolean':
      return add(state, String(value), 'keyword');
    case 'object':
      break;
    default:
      return add(state, 'null', 'keyword');
  }
  if (depth >= JSON_MAX_DEPTH) {
    let compact = '';
    try {
      compact = JSON.stringify(value) ?? 'null';
    } catch {
      compact = '…';
    }
    return add(state, compact, 'plain');
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return add(state, '[]', 'punct');
    add(state, '[', 'punct');
    value.forEach((item, i) => {
      newline(state, depth + 1);
      emit(state, item, depth + 1);
      if (i < value.length - 1) add(state, ',', 'punct');
    });
    newline(state, depth);
    return add(state, ']', 'punct');
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return add(state, '{}', 'punct');
  add(state, '{', 'punct');
  entries.forEach(([key, item], i) => {
    newline(state, depth + 1);
    emitString(state, key, depth + 1, 'key');
    add(state, ': ', 'punct');
    emit(state, item, depth + 1);
    if (i < entries.length - 1) add(state, ',', 'punct');
  });
  newline(state, depth);
  add(state, '}', 'punct');
}

/** The lines as plain text (for export and copying). */
export function prettyJsonPlain(p: PrettyJson): string {
  return p.lines.map((l) => l.map((s) => s.text).join('')).join('\n');
}
