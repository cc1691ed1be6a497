/**
 * Which of a list's fixed columns say something, over every row of the list:
 * a column that says the same thing on every row (one agent's tag, a source
 * that only repeats the agent, lineage no row has) gives its room to the
 * title, as fzf and atuin do. Computed over the whole list, not the visible
 * rows, so columns do not come and go while scrolling. Pure.
 */
import { formatCount } from '../../text/format.js';
import { displayWidth } from '../../text/width.js';

/** Age cells are four wide: `now`, `59m`, `13d`, `11mo`. */
export const AGE_COL = 4;
/** The widest source shown; longer ones are cut. */
export const SOURCE_MAX = 8;

/** A message count in five columns at most: `9,999`, then `12k`. */
export function shortCount(n: number): string {
  return n < 10_000 ? formatCount(n) : `${formatCount(Math.round(n / 1000))}k`;
}

export interface ColumnRow {
  agent?: string;
  source: string;
  chainLength?: number;
  branches?: number;
  messageCount?: number;
}

export interface RowColumns {
  /** Rows of more than one agent: each carries its agent's tag. */
  agentTag: boolean;
  /** Width of the source column (0: no row shows one). */
  sourceWidth: number;
  /** Some row is a compression chain (⛓N). */
  chain: boolean;
  /** Some row has branches (⑂N). */
  branch: boolean;
  /** Width of the message count column: as wide as the widest count (`184`: 3). */
  countWidth: number;
}

/** The source a row shows: none when it only repeats the agent (`codex` on a Codex row). */
export function shownSource(r: ColumnRow): string {
  return r.agent !== undefined && r.source === r.agent ? '' : r.source;
}

export function rowColumns(rows: readonly ColumnRow[], sourceMax = SOURCE_MAX): RowColumns {
  let first: string | undefined;
  let agentTag = false;
  let sourceWidth = 0;
  let chain = false;
  let branch = false;
  let most = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (r.agent !== undefined) {
      if (first === undefined) first = r.agent;
      else if (r.agent !== first) agentTag = true;
    }
    if (sourceWidth < sourceMax) sourceWidth = Math.max(sourceWidth, displayWidth(shownSource(r)));
    if ((r.chainLength ?? 0) > 1) chain = true;
    if ((r.branches ?? 0) > 0) branch = true;
    most = Math.max(most, r.messageCount ?? 0);
  }
  const countWidth = Math.max(1, displayWidth(shortCount(most)));
  return { agentTag, sourceWidth: Math.min(sourceMax, sourceWidth), chain, branch, countWidth };
}
