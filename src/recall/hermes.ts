/**
 * A Hermes profile's store as a ConversationSource: the store layer's own
 * answers (src/store/recall.ts), in the agent's JSON shapes, untouched. What
 * the source can do follows the store's layout (a layout without `cwd` or
 * `git_repo_root` cannot say where a session ran, so a folder filter is refused
 * for it, not answered with an empty list).
 */
import { StoreError } from '../store/errors.js';
import { sessionMeta } from '../store/lineage.js';
import { overviewJson, rangeRows } from '../store/overview.js';
import { readJson, recentJson, scrollJson, searchJson, type Json } from '../store/recall.js';
import { sessionsByPrefix } from '../store/resolve.js';
import { Store } from '../store/store.js';
import { FILTER_NAMES, type FilterName } from './call.js';
import { tagHostAnswer, tagHostRow, withRows } from './hostTag.js';
import { sourceName, type Owner, type SourceId } from '../ids/ref.js';
import type {
  Capabilities,
  ConversationSource,
  FindQuery,
  ListQuery,
  Listed,
  Payload,
  RangeAsk,
  RangeRows,
  Row,
} from './source.js';

type Entry = Record<string, Json>;

const num = (v: Json | undefined): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : -Infinity;

/** The time of a result's matched message (its anchor), else of its session. */
export function hitTime(r: Entry): number {
  const msgs = Array.isArray(r.messages) ? (r.messages as Entry[]) : [];
  const anchor = msgs.find((m) => m.anchor === true || m.id === r.match_message_id);
  if (anchor && typeof anchor.timestamp === 'number') return anchor.timestamp;
  const when = typeof r.when === 'string' ? Date.parse(r.when) / 1000 : NaN;
  return Number.isFinite(when) ? when : -Infinity;
}

/** The session a (possibly partial) id names in `store`; null when none. Throws when ambiguous. */
export function resolveIn(store: Store, id: string): string | null {
  const sid = id.trim();
  if (!sid) return null;
  return store.read(() => {
    if (sessionMeta(store, sid)) return sid;
    const ids = sessionsByPrefix(store, sid);
    if (ids.length === 1) return ids[0]!;
    if (ids.length > 1)
      throw new StoreError(
        `session id prefix ${sid} is ambiguous: ${ids.length}${ids.length >= 20 ? '+' : ''} sessions start with it (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''})`,
        'no-session',
      );
    return null;
  });
}

export class HermesSource implements ConversationSource {
  readonly id: SourceId;
  readonly name: string;
  private opened: Store | null;

  /** `store` is an open store, or where to open one on first use (and close at `close`). */
  constructor(
    store: Store | { path: string; profile: string; idleCloseMs?: number },
    extra: { host?: string; backend?: 'sqlite' | 'postgres' } = {},
  ) {
    this.opened = store instanceof Store ? store : null;
    this.where = store instanceof Store ? null : store;
    const profile = store instanceof Store ? store.profile : store.profile;
    this.id = { kind: 'hermes', profile: profile || 'default', ...extra };
    this.name = sourceName(this.id);
  }

  private readonly where: { path: string; profile: string; idleCloseMs?: number } | null;

  get store(): Store {
    if (!this.opened)
      this.opened = Store.open(this.where!.path, {
        profile: this.where!.profile,
        ...(this.where!.idleCloseMs !== undefined ? { idleCloseMs: this.where!.idleCloseMs } : {}),
      });
    return this.opened;
  }

  get warnings(): readonly string[] {
    return this.opened?.warnings ?? [];
  }

  private get owner(): Owner {
    return {
      agent: 'hermes',
      profile: this.id.kind === 'hermes' ? this.id.profile : 'default',
      ...(this.id.host ? { host: this.id.host } : {}),
    };
  }

  capabilities(): Capabilities {
    const store = this.store;
    const has = store.read(() => store.layout.has);
    const filters = new Set<FilterName>(FILTER_NAMES);
    const cannot: Capabilities['cannot'] = {};
    if (!has.cwd && !has.gitRepoRoot) {
      filters.delete('cwd');
      cannot.cwd =
        'records no working folder (its sessions table has neither cwd nor git_repo_root)';
    }
    return { filters, cannot, pins: has.pinned, lineage: true, detail: true };
  }

  browse(q: ListQuery): Listed {
    const payload = recentJson(this.store, {
      limit: q.limit,
      all: q.all,
      pinnedFirst: q.pinnedFirst,
      ...(q.filters ? { filters: q.filters } : {}),
    });
    const rows = this.rows(payload, (r) => num(r.last_active));
    return { payload: withRows(payload, rows, this.id.host), rows };
  }

  discover(q: FindQuery): Listed {
    const payload = searchJson(this.store, q.query, {
      limit: q.limit,
      all: q.all,
      ...(q.sort ? { sort: q.sort } : {}),
      ...(q.roles ? { roles: q.roles } : {}),
      ...(q.detail ? { detail: q.detail } : {}),
      ...(q.filters ? { filters: q.filters } : {}),
    });
    const rows = this.rows(payload, hitTime);
    return { payload: withRows(payload, rows, this.id.host), rows };
  }

  resolve(sessionId: string): string | null {
    return resolveIn(this.store, sessionId);
  }

  scroll(sessionId: string, around: string, window?: number): Payload {
    const a = around.trim();
    if (!/^\d+$/.test(a))
      throw new StoreError(
        `around_message_id of a Hermes session is a whole number, not "${around}"`,
        'no-message',
      );
    return tagHostAnswer(scrollJson(this.store, sessionId, Number(a), window), this.owner);
  }

  read(sessionId: string): Payload {
    return tagHostAnswer(readJson(this.store, sessionId), this.owner);
  }

  overview(sessionId: string): Payload {
    return overviewJson(this.store, sessionId);
  }

  range(sessionId: string, q: RangeAsk): RangeRows {
    return rangeRows(this.store, sessionId, q);
  }

  close(): void {
    this.opened?.close();
    if (this.where) this.opened = null;
  }

  private rows(payload: Payload, at: (r: Entry) => number): Row[] {
    const results = Array.isArray(payload.results) ? (payload.results as Entry[]) : [];
    const owner = this.owner;
    return results.map((json) => ({
      json: tagHostRow(json, owner),
      owner,
      sessionId: String(json.session_id),
      at: at(json),
      pinned: json.pinned === true,
    }));
  }
}
