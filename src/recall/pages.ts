/**
 * Paging for the `list` and `messages` questions: the cursor a page hands out
 * and the next call hands back, and the character budget of a page of
 * messages. A cursor is opaque to its reader (base64url JSON) and carries a
 * fingerprint of the question it belongs to, so a cursor passed with other
 * filters, another conversation or other bounds is refused in one line rather
 * than answered with a page of some other list.
 */
import { createHash } from 'node:crypto';
import { StoreError } from '../store/errors.js';
import type { Json } from '../store/recall.js';

type Entry = Record<string, Json>;

/** Where the next page starts: a list's row offset, or a message position and a character in it. */
export type CursorAt =
  { kind: 'list'; offset: number } | { kind: 'messages'; at: number; char: number };

function fingerprint(question: unknown): string {
  return createHash('sha256').update(JSON.stringify(question)).digest('base64url').slice(0, 12);
}

export function makeCursor(at: CursorAt, question: unknown): string {
  const body =
    at.kind === 'list'
      ? { k: 'l', o: at.offset, q: fingerprint(question) }
      : { k: 'm', a: at.at, c: at.char, q: fingerprint(question) };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

const BAD = (why: string) =>
  new StoreError(`cursor ${why}; pass the next_cursor of the previous page unchanged`, 'query');

/** The position a cursor names; throws one line when it is not one of ours or is for another question. */
export function readCursor(cursor: string, kind: CursorAt['kind'], question: unknown): CursorAt {
  let body: Record<string, unknown>;
  try {
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw new Error();
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (!body || typeof body !== 'object') throw new Error();
  } catch {
    throw BAD('is not one lookback handed out');
  }
  const whole = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  if (body.k !== 'l' && body.k !== 'm') throw BAD('is not one lookback handed out');
  if (body.k !== (kind === 'list' ? 'l' : 'm')) throw BAD(`is not a ${kind} cursor`);
  const shaped =
    typeof body.q === 'string' &&
    (kind === 'list' ? whole(body.o) : whole(body.a) && whole(body.c));
  if (!shaped) throw BAD('is not one lookback handed out');
  if (body.q !== fingerprint(question))
    throw BAD('belongs to a different question (other filters, conversation or bounds)');
  return kind === 'list'
    ? { kind, offset: body.o as number }
    : { kind, at: body.a as number, char: body.c as number };
}

/** A cut that does not split a surrogate pair. */
function cutAt(text: string, n: number): number {
  const c = text.charCodeAt(n - 1);
  return n > 0 && n < text.length && c >= 0xd800 && c <= 0xdbff ? n - 1 : n;
}

function textOf(m: Entry): string | null {
  return typeof m.content === 'string' ? m.content : null;
}

/** What a message costs against the budget: its text, or its JSON when it has parts. */
function cost(m: Entry): number {
  const t = textOf(m);
  return t !== null ? t.length : JSON.stringify(m.content ?? '').length;
}

export interface Budgeted {
  messages: Entry[];
  chars: number;
  /** Where the next page starts; null when the range is done. */
  next: { at: number; char: number } | null;
}

/**
 * A page of `rows` (positions ascending, up to limit+1 read) within `limit`
 * messages and `maxChars` characters. The page's first message continues from
 * `char` when a cursor said so; a message longer than what is left of the
 * budget is cut there, marked, and continued on the next page (never dropped).
 */
export function budgetPage(rows: Entry[], limit: number, maxChars: number, char: number): Budgeted {
  const out: Entry[] = [];
  let used = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const index = row.index as number;
    if (out.length === limit) return { messages: out, chars: used, next: { at: index, char: 0 } };
    const text = textOf(row);
    const skip = i === 0 && text !== null ? Math.min(char, text.length) : 0;
    const rest = text !== null ? text.length - skip : cost(row);
    const left = maxChars - used;
    if (rest <= left) {
      out.push(
        skip > 0
          ? {
              ...row,
              content: text!.slice(skip),
              content_offset: skip,
              original_content_chars: text!.length,
            }
          : row,
      );
      used += rest;
      continue;
    }
    // Over the budget: a message that fits a page of its own waits for the next one;
    // the first of a page, or one too long for any page, is cut here and continued.
    if (out.length > 0 && (text === null || rest <= maxChars || left <= 0))
      return { messages: out, chars: used, next: { at: index, char: 0 } };
    if (text === null) {
      out.push(row);
      used += rest;
      continue;
    }
    const end = cutAt(text, skip + Math.max(1, left));
    out.push({
      ...row,
      content: text.slice(skip, end),
      ...(skip > 0 ? { content_offset: skip } : {}),
      content_truncated: true,
      original_content_chars: text.length,
    });
    used += end - skip;
    return { messages: out, chars: used, next: { at: index, char: end } };
  }
  return { messages: out, chars: used, next: null };
}
