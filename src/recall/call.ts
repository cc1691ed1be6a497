/**
 * The one typed question every door asks the recall core: browse, discover,
 * scroll or read, with filters, sort, roles, limit and paging. Each door builds
 * it from its own input (command-line flags, tool arguments, library options,
 * the app's search line and chips) and hands it to `answer` (answer.ts).
 */
import type { Detail, Filters, Sort } from '../store/types.js';
import type { Target } from './target.js';

/** How a list for people orders (pinned first) and how the agent's browse orders (activity only). */
export type ListOrder = 'pinned-first' | 'activity';

export type Call =
  | {
      shape: 'browse';
      limit: number;
      /** Rows to skip first (a page further down); the merge never stops short of `limit`. */
      offset?: number;
      /** Also what the agent hides from default lists (subagents, tool runs, archived). */
      all?: boolean;
      filters?: Filters;
      order: ListOrder;
    }
  | {
      shape: 'discover';
      query: string;
      limit: number;
      offset?: number;
      all?: boolean;
      sort?: Sort;
      roles?: string[];
      detail?: Detail;
      filters?: Filters;
    }
  /** `all`: what was taken back (rewound, abandoned) too, marked as such. */
  | { shape: 'scroll'; target: Target; window?: number; all?: boolean }
  | { shape: 'read'; target: Target; all?: boolean }
  /**
   * A page of conversations with a cursor to the next (the browse list, ordered
   * by activity; `cursor` is a previous page's `next_cursor`).
   */
  | {
      shape: 'list';
      limit: number;
      cursor?: string;
      all?: boolean;
      filters?: Filters;
    }
  /** One conversation's facts: title, folder, model, counts, first prompt, lineage, resume. */
  | { shape: 'overview'; target: Target; all?: boolean }
  /** A conversation's messages by position or id, a page at a time within a character budget. */
  | { shape: 'messages'; target: Target; range: MessageRange; all?: boolean };

/** Which messages a `messages` call asks for; positions count from 0, bounds are inclusive. */
export interface MessageRange {
  fromIndex?: number;
  toIndex?: number;
  /** Bounds as message ids (a Hermes message id, another agent's anchor). */
  fromId?: string;
  toId?: string;
  roles?: string[];
  /** Messages per page. */
  limit: number;
  /** Characters of message text per page; a longer message is continued on the next page. */
  maxChars: number;
  cursor?: string;
}

/** The filters a call can carry, by the name every door's refusal uses. */
export const FILTER_NAMES = ['source', 'after', 'before', 'cwd', 'model', 'exclude'] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

/** Which filters a call asks for. */
export function filtersAsked(f: Filters | undefined): FilterName[] {
  if (!f) return [];
  const out: FilterName[] = [];
  if (f.sources && f.sources.length > 0) out.push('source');
  if (f.after !== undefined) out.push('after');
  if (f.before !== undefined) out.push('before');
  if (f.cwd !== undefined && f.cwd !== '') out.push('cwd');
  if (f.model !== undefined && f.model !== '') out.push('model');
  if (f.excludeSessionIds && f.excludeSessionIds.length > 0) out.push('exclude');
  return out;
}
