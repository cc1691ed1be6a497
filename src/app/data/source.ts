/**
 * The app's only door to the store: everything the main thread asks of it,
 * bound to one open store. Components never import the store; the reducers
 * never see it. (The query worker answers through queries.ts.)
 */
import type { ParsedAnchor } from '../../anchors/parse.js';
import { compressionChain, sessionMeta } from '../../store/lineage.js';
import { findInSessions } from '../../store/find.js';
import type { Store } from '../../store/store.js';
import type { Filters } from '../../store/types.js';
import type { MsgWindow } from '../geometry/window.js';
import type { MarkRef, ResultItem, SessionRow } from '../model.js';
import { resolveAnchor } from './anchors.js';
import { exportConversation, exportMarks, type ExportGroup } from './export.js';
import {
  chainHits,
  extendWindow,
  openAt,
  openHead,
  openTail,
  ownerOf,
  type Loaded,
  type Opened,
  type OpenSize,
} from './chainWindow.js';
import { liveUpdate, type LiveUpdate } from './live.js';
import { answerQuery, type QueryRequest, type QueryResponse } from './queries.js';
import { branchRows, loadRecent, type RecentAnswer } from './rows.js';

/** Everything the main thread asks of the store, bound to one open store. */
export class DataSource {
  constructor(readonly store: Store) {}

  get profile(): string {
    return this.store.profile;
  }

  get path(): string {
    return this.store.path;
  }

  get warnings(): string[] {
    return this.store.warnings;
  }

  dataVersion(): number {
    return this.store.dataVersion();
  }

  recent(limit: number, all: boolean, filters?: Filters): RecentAnswer {
    return loadRecent(this.store, limit, all, filters);
  }

  /** Messages of a chain that contain `text` (find within the conversation), in order. */
  find(chain: readonly string[], text: string): number[] {
    return findInSessions(this.store, chain, text);
  }

  openAt(sessionId: string, messageId: number, size?: OpenSize): Opened | null {
    return openAt(this.store, sessionId, messageId, size);
  }

  openTail(sessionId: string, size?: OpenSize): Opened | null {
    return openTail(this.store, sessionId, size);
  }

  openHead(chain: readonly string[]): Opened | null {
    return openHead(this.store, chain);
  }

  extend(win: MsgWindow, side: 'before' | 'after', n: number): Loaded {
    return extendWindow(this.store, win, side, n);
  }

  hits(query: string, chain: readonly string[], roles: readonly string[]): number[] {
    return chainHits(this.store, query, chain, roles);
  }

  chainOf(sessionId: string): string[] {
    return this.store.read(() => compressionChain(this.store, sessionId));
  }

  /** The session's recorded working directory (for a resume template's {cwd}). */
  cwdOf(sessionId: string): string | null {
    return this.store.read(() => sessionMeta(this.store, sessionId)?.cwd ?? null);
  }

  ownerOf(messageId: number): string | null {
    return ownerOf(this.store, messageId);
  }

  liveUpdate(win: MsgWindow): LiveUpdate | null {
    return liveUpdate(this.store, win);
  }

  branches(row: SessionRow): SessionRow[] {
    return branchRows(this.store, row);
  }

  resolve(anchor: ParsedAnchor): { items: ResultItem[]; message: string | null } {
    return resolveAnchor(this.store, anchor);
  }

  /** A whole conversation (its chain) for an export. */
  exportConversation(chain: readonly string[], title?: string): ExportGroup | null {
    return exportConversation(this.store, chain, title);
  }

  /** The marked messages still in the store, grouped by conversation. */
  exportMarks(marks: readonly MarkRef[]): ExportGroup[] {
    return exportMarks(this.store, marks);
  }

  answer(req: QueryRequest, post: (r: QueryResponse) => void): void {
    answerQuery(this.store, req, post);
  }

  close(): void {
    this.store.close();
  }
}
