/**
 * `answer(call, set)`: the one place a question meets the sources. Every door
 * (the command line, the library, the MCP server; the app's data layer for its
 * lists) asks here, so the same question gets the same conversations, in the
 * same order, with the same counts, whichever door it came through.
 *
 * The rule for a filter a source cannot apply: the source is left out of the
 * answer and one line names it and the filter (`refused`); when no source is
 * left, that line is the error. A source that is absent or broken is one line
 * (`skipped`), never the end of the answer. With one source the answer is that
 * source's own JSON, byte for byte the agent's `session_search` shape.
 *
 * Why one file of ~590 lines: every shape of `Call` (list, one conversation,
 * overview, messages, pages) goes through the same admit / ask / tag / merge
 * steps kept here side by side so that they stay one rule; the merge, pages
 * and cursors already live apart (merge.ts, pages.ts).
 */
import { StoreError } from '../store/errors.js';
import { RELAXED_ALL, RELAXED_REST } from '../store/relaxed.js';
import type { Json } from '../store/recall.js';
import type { Filters } from '../store/types.js';
import { filtersAsked, type Call } from './call.js';
import { merge, perSource, type MergeOrder } from './merge.js';
import { budgetPage, makeCursor, readCursor } from './pages.js';
import { resumeOf } from './resume.js';
import { hostLink, ownerKey, type Owner } from '../ids/ref.js';
import type { ConversationSource, Listed, Payload, Row } from './source.js';

/** A source that could not be opened or read: one line in the answer. */
export interface Skipped {
  source: string;
  /** The profile or agent(s) it is, for the JSON's `skipped` entries. */
  profile?: string;
  agent?: string;
  /** The machine it is on (src/hosts); absent for this one. */
  host?: string;
  error: string;
}

/** A machine whose mirror answers though its last sync failed: one line beside the answer. */
export interface HostNote {
  host: string;
  error: string;
}

export interface SourceSet {
  sources: readonly ConversationSource[];
  /** Sources found but not readable (a profile in PostgreSQL without a mirror, …). */
  skipped?: readonly Skipped[];
  /** Opens a Hermes profile a link names when the set does not hold it (scroll and read). */
  openProfile?: (name: string) => ConversationSource | null;
  /** `--agent NAME` (or the tool's agent) was given: every row says whose it is, Hermes' too. */
  tagAgent?: boolean;
  /** Hosts read from a mirror whose last sync failed (`host_errors` in the answer). */
  hostErrors?: readonly HostNote[];
  /** The sources of a host a link names (`@session:PROFILE@HOST/ID`) when the set does not hold them. */
  openHost?: (host: string) => { sources: ConversationSource[]; skipped: Skipped[] } | null;
}

const NO_MATCH = 'No matching sessions found.';

type Entry = Record<string, Json>;

function skippedOf(s: ConversationSource, error: string): Skipped {
  const host = s.id.host ? { host: s.id.host } : {};
  return s.id.kind === 'hermes'
    ? { source: s.name, profile: s.id.profile, ...host, error }
    : { source: s.name, agent: s.id.agents.join(','), ...host, error };
}

function skippedJson(list: readonly Skipped[]): Json[] {
  return list.map((s) => {
    const host = s.host !== undefined ? { host: s.host } : {};
    return s.profile !== undefined
      ? { profile: s.profile, ...host, error: s.error }
      : s.agent !== undefined || s.host === undefined
        ? { agent: s.agent ?? s.source, ...host, error: s.error }
        : { ...host, error: s.error };
  });
}

/** The machine(s) a set's sources are on: one name, `all` for several, none for this machine. */
function hostOf(sources: readonly ConversationSource[]): Payload {
  const hosts = new Set(sources.map((s) => s.id.host ?? ''));
  if (hosts.size === 0 || hosts.has('')) return {};
  return { host: hosts.size === 1 ? [...hosts][0]! : 'all' };
}

/** What the filter rule needs of a source: its name and what it can apply. */
export type Admissible = Pick<ConversationSource, 'name' | 'capabilities'>;

/**
 * The one rule for a filter a source cannot apply, for every door and the app:
 * the source is left out and one line names it and the filter, never ignored,
 * never dropped silently.
 */
export function admitFilters<S extends Admissible>(
  filters: Filters | undefined,
  sources: readonly S[],
): { use: S[]; refused: string[] } {
  const asked = filtersAsked(filters);
  const use: S[] = [];
  const refused: string[] = [];
  for (const s of sources) {
    if (asked.length === 0) {
      use.push(s);
      continue;
    }
    const caps = s.capabilities();
    const missing = asked.filter((f) => !caps.filters.has(f));
    if (missing.length === 0) {
      use.push(s);
      for (const f of asked) if (caps.partly?.[f]) refused.push(`${f}: ${caps.partly[f]}`);
    } else
      for (const f of missing)
        refused.push(`${f}: ${s.name} ${caps.cannot[f] ?? 'cannot apply this filter'}; refused`);
  }
  return { use, refused };
}

/** Which sources can take the call's filters; the others are refused in one line each. */
function admit(
  call: Extract<Call, { shape: 'browse' | 'discover' }>,
  sources: readonly ConversationSource[],
): { use: ConversationSource[]; refused: string[] } {
  return admitFilters(call.filters, sources);
}

/** Runs `fn` on each source; a source that fails is skipped with its line unless it is the only one. */
function each<T>(
  sources: readonly ConversationSource[],
  fn: (s: ConversationSource) => T,
): { got: { s: ConversationSource; v: T }[]; skipped: Skipped[] } {
  const got: { s: ConversationSource; v: T }[] = [];
  const skipped: Skipped[] = [];
  for (const s of sources) {
    try {
      (s as { begin?: () => void }).begin?.();
      got.push({ s, v: fn(s) });
    } catch (err) {
      if (!(err instanceof StoreError) || sources.length === 1) throw err;
      skipped.push(skippedOf(s, err.message));
    }
  }
  if (got.length === 0 && skipped.length > 0)
    throw new StoreError(skipped.map((x) => `${x.source}: ${x.error}`).join('; '), 'not-found');
  return { got, skipped };
}

/** How rows are tagged when an answer mixes owners. */
interface Tagging {
  agent: boolean;
  profile: boolean;
}

function tagging(sources: readonly ConversationSource[], named = false): Tagging {
  const hermes = sources.filter((s) => s.id.kind === 'hermes').length;
  return { agent: named || sources.some((s) => s.id.kind === 'agents'), profile: hermes > 1 };
}

function tagRow(json: Entry, owner: Owner, t: Tagging): Entry {
  if (owner.agent !== 'hermes') return json;
  let out = json;
  if (t.profile) {
    out = { ...out, profile: owner.profile };
    const link = `@session:${owner.profile}/${String(json.session_id)}`;
    out.link = owner.host ? hostLink(link, owner.host) : link;
  }
  if (t.agent) out = { ...out, agent: 'hermes' };
  return out;
}

/** A result of a source without adaptive detail, cut to its anchor as the agent's compact view. */
function compact(json: Entry): Entry {
  const msgs = Array.isArray(json.messages) ? (json.messages as Entry[]) : [];
  return {
    ...json,
    bookend_start: [],
    messages: msgs.filter((m) => m.anchor === true),
    bookend_end: [],
    detail: 'compact',
  };
}

function shaped(
  call: Call,
  rows: Row[],
  sources: readonly ConversationSource[],
  named = false,
): Entry[] {
  const t = tagging(sources, named);
  // Which rows came from a source that shapes its own windows (Hermes: adaptive/compact/full).
  const shapesOwn = new Map<string, boolean>();
  for (const s of sources)
    if (s.id.kind === 'agents')
      for (const a of s.id.agents) shapesOwn.set(a, s.capabilities().detail);
  const native = (r: Row) => r.owner.agent === 'hermes' || shapesOwn.get(r.owner.agent) === true;
  return rows.map((r, i) => {
    let json = tagRow(r.json, r.owner, t);
    if (call.shape === 'discover' && call.detail !== undefined && !native(r)) {
      const full = call.detail === 'full' || (call.detail === 'adaptive' && i === 0);
      json = full ? { ...json, detail: 'full' } : compact(json);
    }
    return json;
  });
}

function withNotes(
  p: Payload,
  refused: string[],
  skipped: readonly Skipped[],
  hostErrors: readonly HostNote[] = [],
): Payload {
  return {
    ...p,
    ...(skipped.length > 0 ? { skipped: skippedJson(skipped) } : {}),
    ...(refused.length > 0 ? { refused } : {}),
    ...(hostErrors.length > 0 ? { host_errors: hostErrors.map((h) => ({ ...h })) } : {}),
  };
}

function list(call: Extract<Call, { shape: 'browse' | 'discover' }>, set: SourceSet): Payload {
  const { use, refused } = admit(call, set.sources);
  if (use.length === 0) throw new StoreError(refused.join('; '), 'query');
  const offset = call.offset ?? 0;
  const n = perSource(call.limit, offset);
  const all = call.all ?? false;
  const { got, skipped } = each<Listed>(use, (s) =>
    call.shape === 'browse'
      ? s.browse({
          limit: n,
          all,
          pinnedFirst: call.order === 'pinned-first',
          ...(call.filters ? { filters: call.filters } : {}),
        })
      : s.discover({
          query: call.query,
          limit: n,
          all,
          ...(call.sort ? { sort: call.sort } : {}),
          ...(call.roles ? { roles: call.roles } : {}),
          ...(call.detail ? { detail: call.detail } : {}),
          ...(call.filters ? { filters: call.filters } : {}),
        }),
  );
  const pre = set.skipped ?? [];
  const allSkipped = [...pre, ...skipped];
  // One source, no page further down: its own answer, untouched.
  if (set.sources.length === 1 && got.length === 1 && offset === 0 && !set.tagAgent)
    return withNotes(got[0]!.v.payload, refused, allSkipped, set.hostErrors);
  const order: MergeOrder =
    call.shape === 'browse'
      ? call.order
      : call.sort === 'newest' || call.sort === 'oldest'
        ? call.sort
        : 'turns';
  const by = { at: (r: Row) => r.at, pinned: (r: Row) => r.pinned };
  // Relaxed hits (src/store/relaxed.ts) of every source come after every exact hit,
  // listed apart, never mixed: the exact lists merge, then the relaxed ones by turns.
  const loose = (r: Row) => r.json.match === 'relaxed';
  const exact = merge(
    got.map((g) => g.v.rows.filter((r) => !loose(r))),
    order,
    by,
    call.limit + offset,
    0,
  );
  const rows = [
    ...exact,
    ...merge(
      got.map((g) => g.v.rows.filter(loose)),
      'turns',
      by,
      call.limit + offset,
      0,
    ),
  ].slice(offset, offset + call.limit);
  const looseCount = rows.filter(loose).length;
  const results = shaped(call, rows, set.sources, set.tagAgent) as Json[];
  const hermesOnly = set.sources.every((s) => s.id.kind === 'hermes');
  const profiles: Payload = hermesOnly
    ? { profiles: set.sources.map((s) => (s.id.kind === 'hermes' ? s.id.profile : '')) }
    : {};
  if (call.shape === 'browse') {
    const across =
      hermesOnly && set.sources.length > 1
        ? ` across ${got.length} profile${got.length === 1 ? '' : 's'}.`
        : '. Pass a query= to search, or session_id+around_message_id to scroll.';
    return withNotes(
      {
        success: true,
        mode: 'browse',
        results,
        count: results.length,
        message: `Showing ${results.length} most recent sessions${across}`,
        ...profiles,
        ...hostOf(set.sources),
      },
      refused,
      allSkipped,
      set.hostErrors,
    );
  }
  const first = got.find((g) => g.s.id.kind === 'hermes')?.v.payload ?? got[0]!.v.payload;
  const warnings = got
    .filter((g) => typeof g.v.payload.warning === 'string')
    .map((g) => `${g.s.name}: ${String(g.v.payload.warning)}`);
  return withNotes(
    {
      success: true,
      mode: 'discover',
      query: typeof first.query === 'string' ? first.query : call.query.trim(),
      results,
      count: results.length,
      ...(first.detail !== undefined ? { detail: first.detail } : {}),
      ...(results.length === 0
        ? { message: typeof first.message === 'string' ? first.message : NO_MATCH }
        : { sessions_searched: results.length }),
      ...(looseCount > 0
        ? {
            relaxed_count: looseCount,
            // No exact hit: a source's own relaxed message may say where exact hits would be.
            message:
              looseCount === results.length
                ? typeof first.message === 'string' && first.message.startsWith(RELAXED_ALL)
                  ? first.message
                  : RELAXED_ALL
                : RELAXED_REST,
          }
        : {}),
      ...(warnings.length > 0 ? { warning: warnings.join('; ') } : {}),
      ...profiles,
      ...hostOf(set.sources),
    },
    refused,
    allSkipped,
    set.hostErrors,
  );
}

/** The sources a target may live in: the profile or agent it names, else every source. */
/** The questions about one conversation. */
type OneCall = Extract<Call, { shape: 'scroll' | 'read' | 'overview' | 'messages' }>;

function candidates(call: OneCall, set: SourceSet): ConversationSource[] {
  const t = call.target;
  let out = [...set.sources];
  if (t.host !== undefined) {
    // A link that names its machine: that host's sources (opened for this call when the set has none).
    const on = out.filter((s) => s.id.host === t.host);
    if (on.length > 0) out = on;
    else {
      const opened = set.openHost?.(t.host) ?? null;
      if (!opened) throw new StoreError(`no source of host ${t.host} is read here`, 'not-found');
      if (opened.sources.length === 0)
        throw new StoreError(
          opened.skipped.map((x) => `${x.source}: ${x.error}`).join('; ') ||
            `host ${t.host} holds nothing`,
          'not-found',
        );
      out = opened.sources;
    }
  }
  if (t.agent !== undefined && t.agent !== 'hermes') {
    const agent = t.agent;
    out = out.filter((s) => s.id.kind === 'agents' && s.id.agents.some((a) => a === agent));
    if (out.length === 0)
      throw new StoreError(
        `${agent}'s conversations are not among the sources read here (--agent ${agent} reads them)`,
        'no-session',
      );
    return out;
  }
  if (t.agent === 'hermes') out = out.filter((s) => s.id.kind === 'hermes');
  if (t.profile !== undefined) {
    const named = out.filter((s) => s.id.kind === 'hermes' && s.id.profile === t.profile);
    if (named.length > 0) return named;
    if (t.host !== undefined)
      throw new StoreError(
        `host ${t.host} holds no Hermes profile named ${t.profile}`,
        'not-found',
      );
    // A link to a profile the set does not hold: open it for this call.
    const opened = set.openProfile?.(t.profile) ?? null;
    if (!opened) throw new StoreError(`no profile named ${t.profile}`, 'not-found');
    return [opened];
  }
  return out;
}

function one(call: OneCall, set: SourceSet): Payload {
  const t = call.target;
  if (call.shape === 'scroll' && (t.around === undefined || t.around === ''))
    throw new StoreError('scroll needs the message id to scroll around', 'no-message');
  const from = candidates(call, set);
  const extra = from.filter((s) => !set.sources.includes(s));
  const t2 = tagging(set.sources, set.tagAgent);
  const run = (s: ConversationSource, sid: string): Payload => {
    if (call.shape === 'overview') return overviewOf(s, sid, call.all);
    if (call.shape === 'messages') return messagesOf(s, sid, call);
    const p =
      call.shape === 'scroll'
        ? s.scroll(sid, t.around!, call.window ?? t.window, call.all)
        : s.read(sid, call.all);
    if (!t2.agent || s.id.kind !== 'hermes') return p;
    const meta = p.session_meta;
    return meta && typeof meta === 'object' && !Array.isArray(meta)
      ? { ...p, session_meta: { ...meta, agent: 'hermes' } }
      : p;
  };
  try {
    for (const s of from) {
      (s as { begin?: () => void }).begin?.();
      let sid: string | null;
      try {
        sid = s.resolve(t.sessionId);
      } catch (err) {
        if (from.length > 1 && err instanceof StoreError && err.code !== 'no-session') continue;
        throw err;
      }
      if (sid !== null) return run(s, sid);
    }
    // Not found: with one source, its own words; else one line over them all.
    if (from.length === 1) return run(from[0]!, t.sessionId);
    const everyHermes = from.every((s) => s.id.kind === 'hermes');
    throw new StoreError(
      `session_id not found in any ${everyHermes ? 'profile' : 'source'}: ${t.sessionId}`,
      'no-session',
    );
  } finally {
    for (const s of extra) s.close();
  }
}

/** Whose conversation a source's answer is about: agent (and profile) first in an answer. */
function whose(
  s: ConversationSource,
  p: Payload,
): { agent: string; profile?: string; host?: string } {
  const host = s.id.host ? { host: s.id.host } : {};
  return s.id.kind === 'hermes'
    ? { agent: 'hermes', profile: s.id.profile, ...host }
    : { agent: String(p.agent ?? s.id.agents[0]), ...host };
}

/** The call an MCP-connected agent runs to read this conversation. */
function readCall(
  agent: string,
  sessionId: string,
  link: Json | undefined,
  host: string | undefined,
): string {
  if (agent === 'hermes' && typeof link === 'string')
    return `session_search(session_id=${JSON.stringify(link)})`;
  const on = host ? `, host=${JSON.stringify(host)}` : '';
  return `session_search(session_id=${JSON.stringify(sessionId)}, agent=${JSON.stringify(agent)}${on})`;
}

function overviewOf(s: ConversationSource, sid: string, all?: boolean): Payload {
  const p = s.overview(sid, all);
  const w = whose(s, p);
  const { session_id, agent: _a, ...facts } = p;
  const id = String(session_id);
  return {
    success: true,
    mode: 'overview',
    session_id: id,
    ...w,
    ...facts,
    resume: resumeOf(w.agent, id, w.profile, typeof p.folder === 'string' ? p.folder : null),
    read_with: readCall(w.agent, id, p.link, w.host),
  };
}

function messagesOf(
  s: ConversationSource,
  sid: string,
  call: Extract<Call, { shape: 'messages' }>,
): Payload {
  const r = call.range;
  const question = {
    k: 'messages',
    s: sid,
    f: r.fromIndex ?? null,
    t: r.toIndex ?? null,
    fi: r.fromId ?? null,
    ti: r.toId ?? null,
    r: r.roles ?? null,
    a: call.all ?? false,
  };
  const at = r.cursor ? readCursor(r.cursor, 'messages', question) : null;
  const pos = at?.kind === 'messages' ? at : { at: 0, char: 0 };
  const rows = s.range(sid, {
    from: r.fromIndex ?? null,
    to: r.toIndex ?? null,
    ...(r.fromId !== undefined ? { fromId: r.fromId } : {}),
    ...(r.toId !== undefined ? { toId: r.toId } : {}),
    ...(r.roles ? { roles: r.roles } : {}),
    at: pos.at,
    take: r.limit,
    ...(call.all ? { all: true } : {}),
  });
  // A cursor's message may have moved (the agent rewrote the session): continue from its start.
  const first = rows.rows[0];
  const char = first && first.index === pos.at ? pos.char : 0;
  const page = budgetPage(rows.rows, r.limit, r.maxChars, char);
  const w = whose(s, { agent: rows.agent ?? null });
  const shown = page.messages;
  const lo = shown.length > 0 ? (shown[0]!.index as number) : null;
  const hi = shown.length > 0 ? (shown[shown.length - 1]!.index as number) : null;
  const empty = rows.from > rows.to;
  return {
    success: true,
    mode: 'messages',
    session_id: rows.session_id,
    ...w,
    total: rows.total,
    range: empty ? null : { from_index: rows.from, to_index: rows.to },
    count: shown.length,
    chars: page.chars,
    messages: shown,
    ...(page.next ? { next_cursor: makeCursor({ kind: 'messages', ...page.next }, question) } : {}),
    message: empty
      ? `The range is empty: the conversation has ${rows.total} messages (positions 0..${rows.total - 1}).`
      : lo === null
        ? 'No messages of the asked roles in the rest of this range.'
        : `Messages at positions ${lo}..${hi} of ${rows.from}..${rows.to} (${rows.total} in the conversation).${page.next ? ' Pass next_cursor as cursor for the next page.' : ' That is the end of the range.'}`,
  };
}

/** A page of conversations, most recently active first, with a cursor to the next. */
function listPage(call: Extract<Call, { shape: 'list' }>, set: SourceSet): Payload {
  // Relative dates (7d) move between calls: the cursor's question leaves them out.
  const { after: _a, before: _b, ...fixed } = call.filters ?? {};
  const question = { k: 'list', f: fixed, a: call.all ?? false };
  const at = call.cursor ? readCursor(call.cursor, 'list', question) : null;
  const offset = at?.kind === 'list' ? at.offset : 0;
  const p = list(
    {
      shape: 'browse',
      limit: call.limit + 1,
      offset,
      order: 'activity',
      ...(call.all ? { all: true } : {}),
      ...(call.filters ? { filters: call.filters } : {}),
    },
    set,
  );
  const rows = Array.isArray(p.results) ? p.results : [];
  const results = rows.slice(0, call.limit);
  const more = rows.length > call.limit;
  const { success: _s, mode: _m, results: _r, count: _c, message: _t, ...rest } = p;
  const n = results.length;
  return {
    success: true,
    mode: 'list',
    results,
    count: n,
    offset,
    ...(more ? { next_cursor: makeCursor({ kind: 'list', offset: offset + n }, question) } : {}),
    message:
      n === 0
        ? offset > 0
          ? 'No more conversations.'
          : 'No conversations match.'
        : `Conversations ${offset + 1}..${offset + n}, most recently active first.${more ? ' Pass next_cursor as cursor for the next page.' : ' That is all of them.'}`,
    ...rest,
  };
}

/** The one recall entry point: a call, the sources to ask, the answer's JSON (or a thrown StoreError). */
export function answer(call: Call, set: SourceSet): Payload {
  const aboutOne =
    call.shape === 'scroll' ||
    call.shape === 'read' ||
    call.shape === 'overview' ||
    call.shape === 'messages';
  const onlySkipped = set.sources.length === 0 && (set.skipped ?? []).length > 0;
  const linked = aboutOne && call.target.host;
  if (onlySkipped && !linked)
    throw new StoreError(
      (set.skipped ?? []).map((s) => `${s.source}: ${s.error}`).join('; '),
      'not-found',
    );
  if (set.sources.length === 0 && !aboutOne)
    throw new StoreError(
      (set.skipped ?? []).map((s) => `${s.source}: ${s.error}`).join('; ') || 'no source to read',
      'not-found',
    );
  if (call.shape === 'list') return listPage(call, set);
  return call.shape === 'browse' || call.shape === 'discover' ? list(call, set) : one(call, set);
}

/** The owners whose rows an answer holds, for tests and the status line. */
export function ownersOf(rows: readonly Row[]): string[] {
  return [...new Set(rows.map((r) => ownerKey(r.owner)))];
}
