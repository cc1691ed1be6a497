/**
 * The app's only door to the store: everything the main thread asks of it,
 * bound to one open store. Components never import the store; the reducers
 * never see it. (The query worker answers through queries.ts.)
 */
import type { Agent } from '../../agents/model.js';
import type { ParsedAnchor } from '../../anchors/parse.js';
import { Conversations } from '../../recall/conversation.js';
import type { Store } from '../../store/store.js';
import { storeValues } from '../../store/values.js';
import type { FilterValues } from '../../query/complete.js';
import { sanitizeLine } from '../../text/sanitize.js';
import type { MsgWindow } from '../geometry/window.js';
import type { MarkRef, ResultItem, SessionRow } from '../model.js';
import type { AgentSource } from './agentSource.js';
import { resolveAnchor } from './anchors.js';
import { clean } from './rows.js';
import type { ExportGroup } from './export.js';
import type { Loaded, Opened, OpenSize } from './chainWindow.js';
import type { LiveUpdate } from './live.js';
import type { ProfileRef } from './everyProfile.js';
import { LOCAL_HOST, type AppFilters } from './filters.js';
import type { ListedRecent } from './lists.js';
import { agentSessionId } from '../../ids/app.js';
import type { ProfileStores } from './profileStores.js';
import type { HostAgents, HostIndexRef } from './hostAgents.js';
import { answerQuery, mergedRecent, type QueryRequest, type QueryResponse } from './queries.js';
import { HermesReads, type AgentRef, type AppReads, type HermesRef } from './reads.js';

/** What another agent's id (or the start of one) looks like: one word, 6+ characters, a digit among them. */
const OTHER_ID_PREFIX = /^[0-9A-Za-z][0-9A-Za-z_-]{5,}$/;

/**
 * Everything the main thread asks of the store, bound to one open store, and of
 * the other agents' index when it is on (`agents`): lists are merged, and each
 * conversation is read from whichever source holds it, as the recall core names
 * it (`Conversations.of`, src/recall/conversation.ts): this store, another
 * profile's (`<profile>/<id>`, from the every-profile view, a synced host or a
 * pasted link; `others`) or the index. Nothing here asks which kind it is
 * (tests/architecture/dispatch.test.ts).
 */
export class DataSource {
  constructor(
    readonly store: Store,
    readonly agents: AgentSource | null = null,
    /** The profiles on disk (injected: src/app touches no files); absent, only this store's is known. */
    readonly profiles: () => string[] = () => [store.profile],
    /** The other profiles' stores, opened on first use; absent, links of another profile only say where they live. */
    readonly others: ProfileStores | null = null,
    /** Other machines' agents' indexes (`lookback sync --host`); absent, only their Hermes profiles are listed. */
    readonly hosts: HostAgents | null = null,
  ) {
    const own = new HermesReads(store);
    this.reads = new Conversations<AppReads>({
      own,
      profile: (name) => others?.source(name) ?? null,
      profileSlot: (slot) => others?.bySlot(slot) ?? null,
      agents,
      hostAgents: (host) => hosts?.forHost(host) ?? null,
      hostAgentsSlot: (slot) => hosts?.forSlot(slot) ?? null,
    });
  }

  /** The one lookup of the source holding a conversation or a message. */
  private readonly reads: Conversations<AppReads>;

  get profile(): string {
    return this.store.profile;
  }

  get path(): string {
    return this.store.path;
  }

  get warnings(): string[] {
    return this.store.warnings;
  }

  /** Changes when either the Hermes store or the index was written (both only grow). */
  dataVersion(): number {
    const v = this.versions();
    return v.own + v.index + v.others + v.hosts;
  }

  /** Each source's change counter, so a change says truthfully where it happened. */
  versions(): { own: number; index: number; others: number; hosts: number } {
    return {
      own: this.store.dataVersion(),
      index: this.agents?.version() ?? 0,
      others: this.others?.dataVersion() ?? 0,
      hosts: this.hosts?.version() ?? 0,
    };
  }

  /** H: the other agents' windows read what was taken back too (marked); Hermes windows are unchanged. */
  setShowTakenBack(on: boolean): void {
    this.agents?.setShowTakenBack(on);
    this.hosts?.setShowTakenBack(on);
  }

  /** `profiles`: the every-profile view's other stores (profileRefs), listed with this one. */
  recent(
    limit: number,
    all: boolean,
    filters?: AppFilters,
    profiles?: readonly ProfileRef[],
  ): ListedRecent {
    const others = this.others;
    const hosts = this.hosts;
    const listed = mergedRecent(
      this.store,
      this.agents,
      limit,
      all,
      filters,
      profiles ?? null,
      others ? (r) => others.storeOf(r) : null,
      hosts ? { refs: hosts.refs(), open: (r) => hosts.open(r) } : null,
    );
    // Hosts past the app's id blocks: one line with the listing, never a silent gap.
    const leftOut = hosts?.leftOut() ?? null;
    return leftOut ? { ...listed, refused: [...listed.refused, leftOut] } : listed;
  }

  /**
   * What the search line's filters can take here (its completions): this
   * store's and the index's sources, models and folders, newest first, the
   * agents read and the profiles on disk; each value sanitized, each list bounded.
   */
  filterValues(limit: number): FilterValues {
    const own = storeValues(this.store, limit);
    const index = this.agents?.hasConversations() ? this.agents.values(limit) : null;
    const merge = (a: string[], b: string[] | undefined): string[] =>
      [...new Set([...a, ...(b ?? [])].map(sanitizeLine))].slice(0, limit);
    return {
      sources: merge(own.sources, index?.sources),
      model: merge(own.models, index?.models),
      cwd: merge(own.folders, index?.folders),
      agents: ['hermes', ...(this.agents?.agents ?? [])],
      profiles: merge(this.profiles(), []),
      // `host:` takes `local` and the synced machines listed here (sanitized by merge).
      ...(this.hostNames().length > 0
        ? { hosts: merge([LOCAL_HOST, ...this.hostNames()], []) }
        : {}),
    };
  }

  /** The other readable profiles, as the every-profile view's requests name them; empty when none. */
  profileRefs(): ProfileRef[] {
    return this.others?.refs() ?? [];
  }

  /** Messages of a chain that contain `text` (find within the conversation), in order. */
  find(chain: readonly string[], text: string): number[] {
    return this.reads.of(chain[0])?.find(chain, text) ?? [];
  }

  /** `size` (a preview's screenful or a full open) applies where the source sizes its windows. */
  openAt(sessionId: string, messageId: number, size?: OpenSize): Opened | null {
    return this.reads.of(sessionId)?.openAt(sessionId, messageId, size) ?? null;
  }

  openTail(sessionId: string, size?: OpenSize): Opened | null {
    return this.reads.of(sessionId)?.openTail(sessionId, size) ?? null;
  }

  openHead(chain: readonly string[]): Opened | null {
    return this.reads.of(chain[0])?.openHead(chain) ?? null;
  }

  extend(win: MsgWindow, side: 'before' | 'after', n: number): Loaded {
    return this.reads.of(win.chain[0])?.extend(win, side, n) ?? { items: [], reached: true };
  }

  hits(query: string, chain: readonly string[], roles: readonly string[]): number[] {
    return this.reads.of(chain[0])?.hits(query, chain, roles) ?? [];
  }

  /** The conversation's chain; a conversation whose source is not open is a chain of itself. */
  chainOf(sessionId: string): string[] {
    return this.reads.of(sessionId)?.chainOf(sessionId) ?? [sessionId];
  }

  /** The session's recorded working directory (for a resume template's {cwd}). */
  cwdOf(sessionId: string): string | null {
    return this.reads.of(sessionId)?.cwdOf(sessionId) ?? null;
  }

  ownerOf(messageId: number): string | null {
    return this.reads.ofMessage(messageId)?.ownerOf(messageId) ?? null;
  }

  liveUpdate(win: MsgWindow): LiveUpdate | null {
    return this.reads.of(win.chain[0])?.liveUpdate(win) ?? null;
  }

  branches(row: SessionRow): SessionRow[] {
    return this.reads.of(row.rootId)?.branches(row) ?? [];
  }

  resolve(anchor: ParsedAnchor): { items: ResultItem[]; message: string | null } {
    if (anchor.kind === 'agentMessage' || anchor.kind === 'agentSession') {
      const on = anchor.host;
      // A synced host's conversation is read from that host's index, never this machine's.
      const index = on === undefined ? this.agents : (this.hosts?.forHost(on) ?? null);
      if (!index)
        return {
          items: [],
          message:
            on === undefined
              ? `${anchor.agent} histories are off (--agent hermes)`
              : `${clean(on)} is not synced here (lookback sync --host ${clean(on)} reads it)`,
        };
      // The anchor parser matches only the names of AGENTS.
      const sid = agentSessionId(anchor.agent as Agent, anchor.sessionId, on);
      const id = anchor.kind === 'agentMessage' ? index.messageIdOf(sid, anchor.anchor) : null;
      const note =
        anchor.kind === 'agentSession'
          ? 'open at its latest messages'
          : id === null
            ? `message ${anchor.anchor} not found; open at its latest messages`
            : `open at message ${anchor.anchor}`;
      const row = index.jumpRow(sid, id, note);
      return row
        ? { items: [row], message: null }
        : {
            items: [],
            message: `no ${anchor.agent} session ${clean(anchor.sessionId)} in ${on === undefined ? 'the index' : `${clean(on)}'s index`}`,
          };
    }
    // A synced host's Hermes message: that host's profile (`<profile>@<host>`, read from its mirror).
    if (anchor.kind === 'scroll' && anchor.host !== undefined)
      return this.otherProfile({
        ...anchor,
        profile: `${anchor.profile ?? 'default'}@${anchor.host}`,
      });
    if (anchor.kind === 'link' && anchor.profile !== this.profile) return this.otherProfile(anchor);
    if (anchor.kind === 'scroll' && anchor.profile !== undefined && anchor.profile !== this.profile)
      return this.otherProfile({ ...anchor, profile: anchor.profile });
    const found = resolveAnchor(this.store, anchor);
    if (!this.agents) return found;
    const tagged = found.items.map((r) => ({ ...r, agent: 'hermes' }));
    if (anchor.kind === 'idPrefix' || (anchor.kind === 'sessionId' && tagged.length === 0)) {
      const prefix = anchor.kind === 'idPrefix' ? anchor.prefix : anchor.sessionId;
      const ours = this.agents.byPrefix(prefix, 20);
      if (ours.length > 0) return { items: [...tagged, ...ours], message: null };
    }
    return { items: tagged, message: found.message };
  }

  /**
   * The other agents' conversations whose id starts with what was typed (a
   * Claude, Codex, … id or its prefix, as a Hermes id prefix opens a Hermes
   * session); empty when none, or when the text cannot be an id.
   */
  otherIdPrefix(text: string): ResultItem[] {
    const t = text.trim();
    if (!this.agents || !OTHER_ID_PREFIX.test(t) || !/\d/.test(t)) return [];
    return this.agents.byPrefix(t, 20);
  }

  /**
   * A link naming another profile: never this store's session of the same id
   * (a different conversation, or none), but that profile's own, read from its
   * store. Without an opener (a caller that wires none) it says which profile
   * holds it and how to open that one.
   */
  private otherProfile(anchor: { profile: string; sessionId: string; messageId?: number }): {
    items: ResultItem[];
    message: string | null;
  } {
    const name = clean(anchor.profile);
    const names = this.profiles();
    // `<profile>@<host>`: a synced host's profile (its mirror), listed by hostRefs.
    const hosted = this.hostRefs().some((r) => r.name === anchor.profile);
    if (!names.includes(anchor.profile) && !hosted)
      return {
        items: [],
        message: `no profile "${name}" (profiles: ${names.map(clean).join(', ')})`,
      };
    if (!this.others)
      return {
        items: [],
        message: `profile ${name}'s link (this is ${clean(this.profile)}): lookback --profile ${name}`,
      };
    const src = this.others.open(anchor.profile);
    if (typeof src === 'string') return { items: [], message: src };
    return src.resolve(anchor.sessionId, anchor.messageId ?? null);
  }

  /**
   * The Hermes profile and store ids behind an app session (and message) id,
   * for links, scroll calls, quotes and resume; null for another agent's.
   */
  hermesRef(sessionId: string, messageId: number | null): HermesRef | null {
    return this.reads.of(sessionId)?.hermesRef(sessionId, messageId) ?? null;
  }

  /**
   * The machine an app session is on (R resumes it there over `ssh -t`); null for
   * this machine. A synced host's profile is named `<profile>@<host>` (profileIds.ts).
   */
  hostOf(sessionId: string): string | null {
    return this.hermesRef(sessionId, null)?.host ?? this.agentRef(sessionId, null)?.host ?? null;
  }

  /** The synced hosts' profiles, listed with this store's conversations; empty when none. */
  hostRefs(): ProfileRef[] {
    return this.others?.hostRefs() ?? [];
  }

  /** The refs a request names: the other profiles in the every-profile view (P), the hosts always. */
  listedRefs(everyProfile: boolean): ProfileRef[] | undefined {
    const refs = [...(everyProfile ? this.profileRefs() : []), ...this.hostRefs()];
    return refs.length > 0 ? refs : undefined;
  }

  /** Other machines' agents' indexes that hold a conversation, as requests name them; empty when none. */
  hostIndexRefs(): HostIndexRef[] {
    return this.hosts?.refs() ?? [];
  }

  /** The hosts whose conversations are listed (for the `host:` chip). */
  hostNames(): string[] {
    return [
      ...new Set([
        ...this.hostRefs().map((r) => r.host!),
        ...this.hostIndexRefs().map((r) => r.host),
      ]),
    ];
  }

  /** Another agent's native ids behind an app session (and message) id; null for Hermes. */
  agentRef(sessionId: string, messageId: number | null): AgentRef | null {
    return this.reads.of(sessionId)?.agentRef(sessionId, messageId) ?? null;
  }

  /** A whole conversation (its chain) for an export. */
  exportConversation(chain: readonly string[], title?: string): ExportGroup | null {
    return this.reads.of(chain[0])?.exportConversation(chain, title) ?? null;
  }

  /** The marked messages still in the store, grouped by conversation. */
  exportMarks(marks: readonly MarkRef[]): ExportGroup[] {
    return this.reads
      .group(marks, (m) => m.sessionId)
      .flatMap(([reader, held]) => reader.exportMarks(held));
  }

  answer(req: QueryRequest, post: (r: QueryResponse) => void): void {
    const others = this.others;
    const hosts = this.hosts;
    answerQuery(
      this.store,
      req,
      post,
      this.agents,
      others ? (r) => others.storeOf(r) : null,
      hosts ? (r) => hosts.open(r) : null,
    );
  }

  close(): void {
    this.store.close();
    this.agents?.close();
    this.others?.close();
    this.hosts?.close();
  }
}
