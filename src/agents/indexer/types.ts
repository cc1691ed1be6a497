/**
 * The shapes an indexing pass passes around: its options and report, the
 * progress it announces, a `files` row (what was read of a file, and where to
 * resume), and one file's parse waiting to be written.
 */
import type { Stats } from 'node:fs';
import type { Overrides, SourceFile, SourceRoot } from '../discover.js';
import type { Agent } from '../model.js';
import type { ParseResult } from '../parsers/types.js';

export interface IndexOptions {
  env?: NodeJS.ProcessEnv;
  overrides?: Overrides;
  agents?: readonly Agent[];
  onProgress?: (p: Progress) => void;
}

export interface Progress {
  agent: Agent;
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  messages: number;
}

export interface IndexReport {
  roots: SourceRoot[];
  files: number;
  parsed: number;
  unchanged: number;
  bytesRead: number;
  messages: number;
  ms: number;
}

export interface FileRow {
  path: string;
  conv_id: number | null;
  dev: number;
  ino: number;
  size: number;
  mtime_ms: number;
  byte_offset: number;
  next_line: number;
  next_ordinal: number;
  carry: string | null;
  parser_version: number;
  problems: string | null;
}

/** What one file's parse wants written. */
export interface Parsed {
  file: SourceFile;
  st: Stats;
  full: boolean;
  results: ParseResult[];
  offset: number;
  nextLine: number;
  problems: Record<string, number>;
  /** Null for a file that is never resumed alone (an earlier segment of a Codex thread). */
  carry: Record<string, unknown> | null;
  /** The other files read into the same conversation (a Codex thread's earlier segments). */
  also?: Parsed[];
}
