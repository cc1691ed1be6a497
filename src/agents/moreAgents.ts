/**
 * The agents of AGENTS.md §9 as the indexer sees them: which parser reads each
 * one's files and the version that forces a re-read. Append-only files (Qwen
 * Code, Kimi CLI, Copilot CLI, Aider) go through the indexer's line path with
 * byte offsets; databases holding many sessions (Crush, Goose) through its
 * many-sessions path with a change mark per session.
 */
import type { Agent, Problems } from './model.js';
import type { MoreAgent } from './discoverMore.js';
import { aiderParser } from './parsers/aider.js';
import { copilotParser } from './parsers/copilot.js';
import { readCrush } from './parsers/crush.js';
import { readCursor } from './parsers/cursor.js';
import { clineParse } from './parsers/cline.js';
import type { DbRead } from './parsers/dbRead.js';
import { readGoose } from './parsers/goose.js';
import { kimiParser } from './parsers/kimi.js';
import { qwenParser } from './parsers/qwen.js';
import type { LineParser, ParseContext, ParseResult } from './parsers/types.js';

/** A new version re-parses every file of that agent from the start. */
export const MORE_PARSER_VERSION: Record<MoreAgent, number> = {
  qwen: 1,
  kimi: 2,
  copilot: 1,
  aider: 1,
  crush: 1,
  goose: 1,
  cursor: 1,
  cline: 1,
  roo: 1,
  kilo: 1,
};

const LINE_PARSERS: Partial<Record<Agent, (ctx: ParseContext) => LineParser>> = {
  qwen: qwenParser,
  kimi: kimiParser,
  copilot: copilotParser,
  aider: aiderParser,
};

const DB_READERS: Partial<
  Record<Agent, (path: string, known: Record<string, string>, problems: Problems) => DbRead>
> = {
  crush: readCrush,
  goose: readGoose,
  cursor: readCursor,
};

/** The line parser of an agent of §9, or null for the first five (the indexer's own). */
export function moreLineParser(agent: Agent, ctx: ParseContext): LineParser | null {
  return LINE_PARSERS[agent]?.(ctx) ?? null;
}

/** The reader of an agent of §9 whose one database holds many sessions. */
export function moreDbReader(
  agent: Agent,
): ((path: string, known: Record<string, string>, problems: Problems) => DbRead) | null {
  return DB_READERS[agent] ?? null;
}

const DOCUMENT_PARSERS: Partial<Record<Agent, (ctx: ParseContext, doc: unknown) => ParseResult>> = {
  cline: clineParse,
  roo: clineParse,
  kilo: clineParse,
};

/** The parser of an agent of §9 whose files are whole JSON documents, rewritten on each change. */
export function moreDocumentParser(
  agent: Agent,
): ((ctx: ParseContext, doc: unknown) => ParseResult) | null {
  return DOCUMENT_PARSERS[agent] ?? null;
}
