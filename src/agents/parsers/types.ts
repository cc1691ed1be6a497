/** What a parser hands the indexer for one source file. */
import type { ConvPatch, Msg, Problems } from '../model.js';

/** One session of a source whose one file holds many (opencode's database and tree, PraisonAI's, §9's). */
export interface OpencodeSession {
  conv: ConvPatch;
  messages: Msg[];
}

export interface ParseResult {
  /** Null when the file named no session (it then stays unindexed, with a counted reason). */
  conv: ConvPatch | null;
  /** In file order; the indexer gives new anchors the next ordinals and upserts known ones. */
  messages: Msg[];
  /** Parser state for the next incremental pass over the same file. */
  carry: Record<string, unknown>;
  /**
   * Set by an incremental pass that met something editing earlier rows (a Gemini
   * `$rewindTo`, a Codex rollback, a Claude reply straddling the offset): parse again
   * from the start.
   */
  needsFull: boolean;
}

export interface ParseContext {
  path: string;
  /** State from the previous pass, or null for a parse from the start. */
  carry: Record<string, unknown> | null;
  problems: Problems;
}

/** A parser of one JSONL file, fed one record at a time. */
export interface LineParser {
  /** A source spread over several files (a Codex thread's segments): the next file begins. */
  beginFile?(path: string): void;
  record(rec: Record<string, unknown>, lineNo: number): void;
  /** Set by a parser of lines that are not JSON (Aider's Markdown): it gets each line raw. */
  line?(line: string, lineNo: number): void;
  finish(): ParseResult;
}
