import type { Layout } from './layout.js';

/** Sources the agent hides from browse and search unless asked (STORE.md, August 2026 on). */
export const HIDDEN_SOURCES_SQL = `('kanban', 'subagent', 'tool')`;
/** Sources that stay searchable but rank below every interactive hit (the agent's cron demotion). */
export const DEMOTED_SOURCES_SQL = `('cron')`;

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

/**
 * Rows of the displayed transcript (STORE.md "messages"): live rows and turns
 * archived by in-place compaction (`active = 0, compacted = 1`), never rewound
 * rows (`active = 0, compacted = 0`, or `active = 0` without a `compacted`
 * column) nor scaffolding (`display_kind = 'hidden'`). Where `display_order`
 * exists, a compaction's copy of the protected tail shares its value with the
 * archived original: one is shown, the active row first, else the highest id.
 * The twin lookup runs only for archived rows (the OR short-circuits on live ones).
 */
export function visibleMessage(layout: Layout, alias = 'm'): string {
  const parts = ['1'];
  const { active, compacted, displayKind, displayOrder } = layout.has;
  if (active && compacted) parts.push(`(${alias}.active = 1 OR ${alias}.compacted = 1)`);
  else if (active) parts.push(`${alias}.active = 1`);
  if (displayKind) parts.push(`COALESCE(${alias}.display_kind, '') <> 'hidden'`);
  if (active && compacted && displayOrder)
    parts.push(`(${alias}.active = 1 OR ${alias}.display_order IS NULL OR NOT EXISTS (
      SELECT 1 FROM messages twin WHERE twin.session_id = ${alias}.session_id
        AND twin.display_order = ${alias}.display_order AND twin.id <> ${alias}.id
        AND (twin.active = 1 OR (twin.compacted = 1 AND twin.id > ${alias}.id))
        ${displayKind ? `AND COALESCE(twin.display_kind, '') <> 'hidden'` : ''}))`);
  return parts.join(' AND ');
}

/** Live rows only (what `read` returns, as the agent's get_messages does): no archived, rewound or hidden rows. */
export function liveMessage(layout: Layout, alias = 'm'): string {
  const parts = ['1'];
  if (layout.has.active) parts.push(`${alias}.active = 1`);
  if (layout.has.displayKind) parts.push(`COALESCE(${alias}.display_kind, '') <> 'hidden'`);
  return parts.join(' AND ');
}

/** The displayed order of a message: `display_order` where the layout has it, else its id. */
export function orderKey(layout: Layout, alias = 'm'): string {
  return layout.has.displayOrder ? `COALESCE(${alias}.display_order, ${alias}.id)` : `${alias}.id`;
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
  // Where a reasoning-only reply keeps its text when `content` is empty; read
  // only for such rows so a window never drags large JSON it does not show.
  const onlyIfEmpty = (col: string) =>
    `CASE WHEN COALESCE(${alias}.content, '') = '' THEN ${alias}.${col} END AS ${col}`;
  list.push(
    layout.has.reasoningDetails ? onlyIfEmpty('reasoning_details') : 'NULL AS reasoning_details',
  );
  list.push(
    layout.has.codexMessageItems
      ? onlyIfEmpty('codex_message_items')
      : 'NULL AS codex_message_items',
  );
  list.push(layout.has.messageUid ? `${alias}.message_uid` : 'NULL AS message_uid');
  list.push(`${orderKey(layout, alias)} AS ord`);
  return list.join(', ');
}

export function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}
