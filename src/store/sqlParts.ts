import type { Layout } from './layout.js';

/** Sources the agent hides from recall unless asked (STORE.md). */
export const HIDDEN_SOURCES = ['subagent', 'tool'] as const;
export const HIDDEN_SOURCES_SQL = `('subagent', 'tool')`;

/** A `model_config` marker, tolerant of malformed JSON (json_extract would raise). */
export function marker(
  alias: string,
  key: '_branched_from' | '_delegate_from' | '_reset_from',
): string {
  return `(CASE WHEN json_valid(${alias}.model_config) THEN json_extract(${alias}.model_config, '$.${key}') END)`;
}

/**
 * A conversation's first row: no parent, or a parent link that leads nowhere
 * (the parent row is gone, or is the row itself). Damaged and partly pruned
 * stores have such orphans; each heads what is left of its conversation, as
 * the lineage walk (rootOf) already treats it.
 */
export function isRoot(alias = 's'): string {
  return `(${alias}.parent_session_id IS NULL OR ${alias}.parent_session_id = ${alias}.id
    OR NOT EXISTS (SELECT 1 FROM sessions root_parent WHERE root_parent.id = ${alias}.parent_session_id))`;
}

/** Rows the agent never shows: rewound (`active = 0`) and scaffolding (`display_kind = 'hidden'`). */
export function visibleMessage(layout: Layout, alias = 'm'): string {
  const parts = ['1'];
  if (layout.has.active) parts.push(`${alias}.active = 1`);
  if (layout.has.displayKind) parts.push(`COALESCE(${alias}.display_kind, '') <> 'hidden'`);
  return parts.join(' AND ');
}

/** A compression continuation of `p`: the agent's chain rule (no branch/delegate markers, not a tool run). */
export function continuationOf(layout: Layout, child = 'k', parent = 'p'): string {
  void layout;
  return `${parent}.end_reason = 'compression' AND ${marker(child, '_branched_from')} IS NULL AND ${marker(child, '_delegate_from')} IS NULL AND ${child}.source <> 'tool'`;
}

/**
 * When a session was last active: the newest of the heartbeat (when the layout has
 * one) and its newest message, else its start (STORE.md "recency"). The message
 * subquery is an index lookup on (session_id, timestamp) and is evaluated once.
 */
export function activitySql(layout: Layout, s = 's'): string {
  const lastMsg = `COALESCE((SELECT MAX(timestamp) FROM messages WHERE session_id = ${s}.id), 0)`;
  const beat = layout.has.lastActivityAt ? `COALESCE(${s}.last_activity_at, 0)` : '0';
  return `COALESCE(NULLIF(MAX(${beat}, ${lastMsg}), 0), ${s}.started_at)`;
}

/** Column list for message rows, naming only columns this layout has. */
export function messageColumns(layout: Layout, alias = 'm'): string {
  const cols = [
    'id',
    'session_id',
    'role',
    'content',
    'tool_calls',
    'tool_name',
    'tool_call_id',
    'timestamp',
  ];
  const list = cols.map((c) => `${alias}.${c}`);
  if (layout.has.reasoning) list.push(`${alias}.reasoning`);
  else list.push('NULL AS reasoning');
  if (layout.has.reasoningContent) list.push(`${alias}.reasoning_content`);
  else list.push('NULL AS reasoning_content');
  return list.join(', ');
}

export function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}
