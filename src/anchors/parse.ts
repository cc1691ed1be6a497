import { MAX_SCROLL_WINDOW, MIN_SCROLL_WINDOW } from '../budgets.js';
import { DEFAULT_PROFILE } from './format.js';
import { AGENTS } from '../agents/model.js';
import { MAX_ANCHOR_INPUT, MAX_PARSED_ANCHORS } from '../budgets.js';

/**
 * Recognises what a person pastes into the search line when they mean "take
 * me there": a link, a scroll call (as copied, or as an agent wrote it), the
 * JSON pair form, a session id or the start of one. Pure and total: any input
 * gives an anchor or null.
 */

export type ParsedAnchor =
  | { kind: 'link'; profile: string; sessionId: string }
  | {
      kind: 'scroll';
      sessionId: string;
      messageId: number;
      window?: number;
      profile?: string;
      /** Another machine's store (`host="devbox"`, `lookback scroll --host devbox …`): its mirror. */
      host?: string;
    }
  | { kind: 'sessionId'; sessionId: string }
  | { kind: 'idPrefix'; prefix: string }
  /** Another agent's message: `lookback scroll --agent codex <session> <anchor>`, or its session_search call. */
  | { kind: 'agentMessage'; agent: string; sessionId: string; anchor: string; host?: string }
  /** Another agent's conversation: its own resume command (`codex resume <id>`…; over `ssh -t HOST` for a synced host's). */
  | { kind: 'agentSession'; agent: string; sessionId: string; host?: string };

const SESSION_ID = /^\d{8}_\d{6}_[0-9a-f]{6,32}$/i;
// A prefix of SESSION_ID that has at least its date and underscore.
const SESSION_ID_PREFIX = /^\d{8}_(?:\d{0,5}|\d{6}(?:_[0-9a-f]{0,5})?)$/i;
const LINK = /^@session:(?:([^/\s]+)\/)?(\S+)$/;
const CALL = /^(?:[A-Za-z_][\w.]*\.)?session_search\s*\(([\s\S]*)\)\s*;?$/;
/** A call inside other text (a quote's citation line): its arguments hold no bracket outside quotes. */
const CALL_IN_TEXT =
  /(?:^|[\s\x60·])session_search\s*\(((?:[^()"'\n]|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')*)\)/g;
const FENCE = '```';
const FENCE_LANGUAGE = /^[\w-]*\n/;
const QUOTES = new Set(['`', '"', "'"]);
const DIGITS = /^\d+$/;
/** The agent's rule for profile names (a scroll call's `profile=` argument). */
const PROFILE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const KEY = /[A-Za-z_][A-Za-z0-9_]*/y;
const BARE_VALUE = /[^\s,)}\]]+/y;

// The lookback commands: the scroll command may sit anywhere in the text (the
// citation line of a quote, the heading of a copied window); its words may be
// JSON-quoted (ids in a citation) or single-quoted for a shell (src/text/shell.ts).
const WORDISH = String.raw`("(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[^\s"'\x60]+)`;
const SCROLL_AT = String.raw`(?:^|\s|\x60)lookback\s+scroll\s+`;
/** `lookback scroll [--host H] --agent A SESSION ANCHOR`: another agent's message (on a synced host). */
const AGENT_SCROLL = new RegExp(
  SCROLL_AT +
    String.raw`(?:--host\s+${WORDISH}\s+)?--agent\s+(${AGENTS.join('|')})\s+` +
    WORDISH +
    String.raw`\s+` +
    WORDISH,
);
/** `lookback scroll --host H [--profile P] SESSION MESSAGE`: a synced host's Hermes message. */
const HOST_SCROLL = new RegExp(
  SCROLL_AT +
    String.raw`--host\s+${WORDISH}\s+(?:--profile\s+${WORDISH}\s+)?${WORDISH}\s+'?(\d+)'?(?=$|\s|\x60)`,
);
/** What R runs for a synced host's conversation, as `Y` shows it: `ssh … -- HOST '… exec <resume>'`. */
const SSH_RESUME = /^ssh\s(?:.*\s)?--\s+(\S+)\s+'((?:[^']|'\\'')*)'$/;
const AGENT_RESUME: readonly [string, RegExp][] = [
  ['claude', /^claude\s+(?:--resume|-r)\s+(\S+)$/],
  ['codex', /^codex\s+resume\s+(\S+)$/],
  ['gemini', /^gemini\s+(?:--resume|-r)\s+(\S+)$/],
  ['opencode', /^opencode\s+(?:--session|-s)\s+(\S+)$/],
  ['qwen', /^qwen\s+(?:--resume|-r)\s+(\S+)$/],
  ['kimi', /^kimi\s+(?:--session|--resume|-S|-r)\s+(\S+)$/],
  ['copilot', /^copilot\s+--resume\s+(\S+)$/],
  ['crush', /^crush\s+(?:--session|-s)\s+(\S+)$/],
  ['goose', /^goose\s+session\s+--resume\s+--session-id\s+(\S+)$/],
];

function word(w: string): string {
  if (w.length >= 2 && w.startsWith("'") && w.endsWith("'")) return w.slice(1, -1);
  if (!w.startsWith('"')) return w;
  try {
    const v: unknown = JSON.parse(w);
    return typeof v === 'string' ? v : w;
  } catch {
    return w.slice(1, -1);
  }
}

/** The resume command of an agent's conversation, or null. */
function resumeAnchor(line: string, host?: string): ParsedAnchor | null {
  for (const [agent, re] of AGENT_RESUME) {
    const r = re.exec(line);
    if (r && r[1])
      return { kind: 'agentSession', agent, sessionId: word(r[1]), ...(host ? { host } : {}) };
  }
  return null;
}

/** The lookback and agents' commands, found anywhere in a pasted block; null when there is none. */
function commandAnchor(s: string): ParsedAnchor | null {
  const m = AGENT_SCROLL.exec(s);
  if (m) {
    const host = m[1] === undefined ? '' : word(m[1]);
    const sessionId = word(m[3] ?? '');
    const anchor = word(m[4] ?? '');
    if (sessionId && anchor)
      return {
        kind: 'agentMessage',
        agent: m[2]!,
        sessionId,
        anchor,
        ...(host ? { host } : {}),
      };
  }
  const h = HOST_SCROLL.exec(s);
  if (h) {
    const host = word(h[1] ?? '');
    const profile = h[2] === undefined ? undefined : word(h[2]);
    const sessionId = word(h[3] ?? '');
    const messageId = toInteger(h[4]);
    if (host && sessionId && !sessionId.startsWith('-') && messageId !== null)
      return {
        kind: 'scroll',
        sessionId,
        messageId,
        host,
        ...(profile !== undefined && PROFILE_NAME.test(profile) ? { profile } : {}),
      };
  }
  const line = s.trim();
  const ssh = SSH_RESUME.exec(line);
  if (ssh) {
    const script = ssh[2]!.replaceAll(`'\\''`, "'");
    const exec = /(?:^|&&|;)\s*exec\s+(.+)$/.exec(script);
    return exec ? resumeAnchor(exec[1]!.trim(), ssh[1]) : null;
  }
  return resumeAnchor(line);
}

type ArgValue = { quoted: boolean; value: string };

function unwrap(input: string): string {
  let s = input.trim();
  if (s.length >= 2 * FENCE.length && s.startsWith(FENCE) && s.endsWith(FENCE)) {
    s = s.slice(FENCE.length, -FENCE.length).replace(FENCE_LANGUAGE, '').trim();
  }
  while (s.length >= 2 && QUOTES.has(s[0] ?? '') && s[s.length - 1] === s[0]) {
    s = s.slice(1, -1).trim();
  }
  return s;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0' };

/** A Python/JSON-style quoted string starting at `start`; null when unterminated. */
function readQuoted(src: string, start: number): { value: string; end: number } | null {
  const q = src[start];
  let out = '';
  let j = start + 1;
  while (j < src.length) {
    const c = src[j] as string;
    if (c === q) return { value: out, end: j + 1 };
    if (c !== '\\') {
      out += c;
      j++;
      continue;
    }
    const next = src[j + 1];
    if (next === undefined) return null;
    const hex =
      next === 'u' ? src.slice(j + 2, j + 6) : next === 'x' ? src.slice(j + 2, j + 4) : '';
    if (hex !== '' && /^[0-9a-f]+$/i.test(hex) && hex.length === (next === 'u' ? 4 : 2)) {
      out += String.fromCharCode(parseInt(hex, 16));
      j += 2 + hex.length;
    } else {
      out += ESCAPES[next] ?? next;
      j += 2;
    }
  }
  return null;
}

/** `key=value` / `key: value` pairs separated by commas or spaces; null on anything else. */
function parseArgs(src: string): Map<string, ArgValue> | null {
  const args = new Map<string, ArgValue>();
  let i = 0;
  const skip = (): void => {
    while (i < src.length && /[\s,]/.test(src[i] as string)) i++;
  };
  while (true) {
    skip();
    if (i >= src.length) return args;
    let key: string;
    if (QUOTES.has(src[i] as string)) {
      const quoted = readQuoted(src, i);
      if (quoted === null) return null;
      key = quoted.value;
      i = quoted.end;
    } else {
      KEY.lastIndex = i;
      const m = KEY.exec(src);
      if (m === null) return null;
      key = m[0];
      i = KEY.lastIndex;
    }
    while (i < src.length && /\s/.test(src[i] as string)) i++;
    if (src[i] !== '=' && src[i] !== ':') return null;
    i++;
    while (i < src.length && /\s/.test(src[i] as string)) i++;
    if (QUOTES.has(src[i] as string)) {
      const quoted = readQuoted(src, i);
      if (quoted === null) return null;
      args.set(key.toLowerCase(), { quoted: true, value: quoted.value });
      i = quoted.end;
    } else {
      BARE_VALUE.lastIndex = i;
      const m = BARE_VALUE.exec(src);
      if (m === null) return null;
      args.set(key.toLowerCase(), { quoted: false, value: m[0] });
      i = BARE_VALUE.lastIndex;
    }
  }
}

function toInteger(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value !== 'string' || !DIGITS.test(value.trim())) return null;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) ? n : null;
}

function clampWindow(n: number): number {
  return Math.min(MAX_SCROLL_WINDOW, Math.max(MIN_SCROLL_WINDOW, n));
}

/** Build an anchor from named fields, as found in a call's arguments or a JSON object. */
function fromFields(
  sessionId: unknown,
  messageId: unknown,
  window: unknown,
  profile?: unknown,
  host?: unknown,
): ParsedAnchor | null {
  if (typeof sessionId !== 'string' || sessionId === '') return null;
  if (messageId === undefined) return { kind: 'sessionId', sessionId };
  const id = toInteger(messageId);
  if (id === null) return null;
  const anchor: ParsedAnchor = { kind: 'scroll', sessionId, messageId: id };
  const w = window === undefined ? null : toInteger(window);
  if (w !== null) anchor.window = clampWindow(w);
  if (typeof profile === 'string' && PROFILE_NAME.test(profile.trim()))
    anchor.profile = profile.trim();
  if (typeof host === 'string' && host.trim() !== '') anchor.host = host.trim();
  return anchor;
}

/** The agents whose anchors are their own strings (a `session_search(…, agent="codex")` call). */
const OTHER_AGENTS = new Set(['claude', 'codex', 'gemini', 'opencode', 'praisonai']);

function fromArgs(src: string): ParsedAnchor | null {
  const args = parseArgs(src);
  if (args === null) return null;
  const field = (name: string): string | undefined => args.get(name)?.value;
  const agent = field('agent')?.trim().toLowerCase();
  const host = field('host')?.trim();
  const on = host ? { host } : {};
  if (agent !== undefined && agent !== 'hermes') {
    const sessionId = field('session_id');
    if (!OTHER_AGENTS.has(agent) || !sessionId) return null;
    const anchor = field('around_message_id');
    return anchor !== undefined && anchor.trim() !== ''
      ? { kind: 'agentMessage', agent, sessionId, anchor, ...on }
      : { kind: 'agentSession', agent, sessionId, ...on };
  }
  return fromFields(
    field('session_id'),
    field('around_message_id') ?? field('match_message_id'),
    field('window'),
    field('profile'),
    host,
  );
}

/** undefined when `src` is not JSON at all, null when it is JSON but no anchor. */
function fromJson(src: string): ParsedAnchor | null | undefined {
  let value: unknown;
  try {
    value = JSON.parse(src);
  } catch {
    return undefined;
  }
  if (Array.isArray(value)) value = value[0];
  if (typeof value !== 'object' || value === null) return null;
  const o = value as Record<string, unknown>;
  return fromFields(
    o.session_id,
    o.around_message_id ?? o.match_message_id,
    o.window,
    o.profile,
    o.host,
  );
}

function parseOne(s: string): ParsedAnchor | null {
  if (s === '') return null;
  const other = commandAnchor(s);
  if (other) return other;
  const linked = LINK.exec(s);
  if (linked)
    return { kind: 'link', profile: linked[1] ?? DEFAULT_PROFILE, sessionId: linked[2] ?? '' };
  if (SESSION_ID.test(s)) return { kind: 'sessionId', sessionId: s };
  if (SESSION_ID_PREFIX.test(s)) return { kind: 'idPrefix', prefix: s };
  const call = CALL.exec(s);
  if (call) return fromArgs(call[1] ?? '');
  if (s.startsWith('{') || s.startsWith('[')) {
    const json = fromJson(s);
    if (json !== undefined) return json;
    // Python-ish dict or a JS object literal: same pairs, looser syntax.
    return s.startsWith('{') && s.endsWith('}') ? fromArgs(s.slice(1, -1)) : null;
  }
  if (!s.includes('session_id')) return null;
  return fromArgs(s) ?? lastCall(s);
}

/** The last call in a block (a quote cites its message last), or null. */
function lastCall(s: string): ParsedAnchor | null {
  let found: ParsedAnchor | null = null;
  for (const m of s.matchAll(CALL_IN_TEXT)) found = fromArgs(m[1] ?? '') ?? found;
  return found;
}

/**
 * The anchor `input` denotes, or null. Accepts `@session:<profile>/<id>`
 * (profile optional, default `default`), `session_search(session_id="…",
 * around_message_id=N, window=W)` in any argument order, with either quote
 * style, with or without the `session_search(` wrapper, the JSON
 * `{"session_id": …, "around_message_id": …}` form, an agent session id
 * `YYYYMMDD_HHMMSS_<hex>` and a prefix of one (date and underscore at least).
 * Surrounding whitespace, backticks, quotes and code fences are ignored.
 * Never throws.
 */
export function parseAnchor(input: string): ParsedAnchor | null {
  try {
    if (typeof input !== 'string' || input.length > MAX_ANCHOR_INPUT) return null;
    return parseOne(unwrap(input));
  } catch {
    return null;
  }
}

/**
 * Every anchor in a pasted block such as the one `multi()` produces: the JSON
 * list if there is one, else one anchor per line. Lines that are not anchors
 * are skipped. Never throws.
 */
export function parseAnchors(input: string): ParsedAnchor[] {
  try {
    if (typeof input !== 'string' || input.length > MAX_ANCHOR_INPUT * 16) return [];
    const out: ParsedAnchor[] = [];
    for (const line of input.split(/\r?\n/)) {
      const s = unwrap(line);
      if (s.startsWith('[')) {
        const list = parseJsonList(s);
        if (list.length > 0) return list.slice(0, MAX_PARSED_ANCHORS);
      }
      const anchor = s.length <= MAX_ANCHOR_INPUT ? parseOne(s) : null;
      if (anchor !== null) out.push(anchor);
      if (out.length === MAX_PARSED_ANCHORS) break;
    }
    return out;
  } catch {
    return [];
  }
}

function parseJsonList(s: string): ParsedAnchor[] {
  let value: unknown;
  try {
    value = JSON.parse(s);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const out: ParsedAnchor[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) continue;
    const o = item as Record<string, unknown>;
    const anchor = fromFields(
      o.session_id,
      o.around_message_id ?? o.match_message_id,
      o.window,
      o.profile,
    );
    if (anchor !== null) out.push(anchor);
  }
  return out;
}
