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
