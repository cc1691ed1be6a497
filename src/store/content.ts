/** Decoding of stored message values: structured content, tool calls, NULLs. Never throws. */

export const STRUCTURED_PREFIX = '\u0000json:';

export interface ContentPart {
  type: string;
  text?: string;
  [key: string]: unknown;
}

export type Content = string | ContentPart[] | null;

/** The agent stores multimodal content as NUL + "json:" + a JSON list of parts. */
export function decodeContent(raw: string | null | undefined): Content {
  if (raw === null || raw === undefined) return null;
  if (!raw.startsWith(STRUCTURED_PREFIX)) return raw;
  try {
    const parsed: unknown = JSON.parse(raw.slice(STRUCTURED_PREFIX.length));
    if (Array.isArray(parsed)) return parsed.map(toPart);
    if (typeof parsed === 'string') return parsed;
    return [toPart(parsed)];
  } catch {
    // Keep what was stored, minus the marker, rather than lose the message.
    return raw.slice(STRUCTURED_PREFIX.length);
  }
}

function toPart(p: unknown): ContentPart {
  if (p && typeof p === 'object' && typeof (p as { type?: unknown }).type === 'string')
    return p as ContentPart;
  if (typeof p === 'string') return { type: 'text', text: p };
  return { type: 'unknown' };
}

/** Text a person reads: text parts joined, other parts as placeholders such as "[image]". */
export function contentText(content: Content): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .map((p) => {
      if (p.type === 'text' || p.type === 'input_text' || p.type === 'output_text')
        return typeof p.text === 'string' ? p.text : '';
      if (p.type === 'image_url' || p.type === 'image' || p.type === 'input_image')
        return '[image]';
      return `[${p.type}]`;
    })
    .filter((s) => s.length > 0)
    .join('\n');
}

export interface ToolCall {
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
  [key: string]: unknown;
}

/** Parsed tool calls, or the raw text when it is not valid JSON (kept, never thrown). */
export function decodeToolCalls(raw: string | null | undefined): ToolCall[] | string | null {
  if (raw === null || raw === undefined || raw === '') return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (Array.isArray(parsed)) return parsed.length > 0 ? (parsed as ToolCall[]) : null;
    return raw;
  } catch {
    return raw;
  }
}

/** Names of the tools called, for one-line summaries. */
export function toolCallNames(calls: ToolCall[] | string | null): string[] {
  if (calls === null) return [];
  if (typeof calls === 'string') return ['(unreadable tool call)'];
  return calls.map((c) => c.function?.name ?? (typeof c.type === 'string' ? c.type : 'tool'));
}

/** Prefixes of the handoff summaries in-place compaction inserts (the agent's own list). */
const COMPACTION_PREFIXES = ['[CONTEXT COMPACTION', '[CONTEXT SUMMARY]:'];
/** A composite summary row carries the person's real words after this line. */
const SUMMARY_END = '--- END OF CONTEXT SUMMARY';

/** Whether a message text is a generated compaction summary (not something a person wrote). */
export function isCompactionSummary(text: string): boolean {
  const t = text.trimStart();
  return COMPACTION_PREFIXES.some((p) => t.startsWith(p));
}

/**
 * A handoff a person did not write: a compaction summary, or the
 * `[CONTEXT SUMMARY] …` (no colon) that opens older compression continuations.
 * Wider than the agent's bookend test; used for previews and titles only.
 */
export function isHandoff(text: string): boolean {
  return isCompactionSummary(text) || text.trimStart().startsWith('[CONTEXT SUMMARY]');
}

/**
 * The person's own text in a message that may be a handoff summary: the
 * part after the summary's end marker of a composite row, '' for a pure summary,
 * the text itself otherwise.
 */
export function personText(text: string): string {
  if (!isHandoff(text)) return text;
  const end = text.indexOf(SUMMARY_END);
  if (end < 0) return '';
  // The marker line may continue with dashes or a note; the person's text starts on the next line.
  const nl = text.indexOf('\n', end);
  return nl < 0 ? '' : text.slice(nl + 1).trim();
}

/**
 * The readable text of a reasoning-only reply kept as JSON (`reasoning_details`,
 * `codex_message_items`): every `text` (and `summary` text) string in it, in
 * order. Never throws; '' when there is none.
 */
export function jsonText(raw: string | null | undefined): string {
  if (!raw) return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return '';
  }
  const out: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 8 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if ((k === 'text' || k === 'summary') && typeof x === 'string') out.push(x);
      else walk(x, depth + 1);
    }
  };
  walk(parsed, 0);
  return out.join('\n').trim();
}

// CSI, OSC (to BEL or ST), and single-character escapes: what terminal output leaves in tool results.
const ANSI =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** Text with ANSI escape sequences removed (the agent strips them before recall output). */
export function stripAnsi(text: string): string {
  return text.includes('\u001b') ? text.replace(ANSI, '') : text;
}
