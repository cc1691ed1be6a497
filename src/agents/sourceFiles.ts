/**
 * What discovery hands the indexer: the roots it looks in and the files it
 * lists. Shared by discover.ts and discoverMore.ts (kept apart from both so
 * neither imports the other's types: no circle).
 */
import type { Agent } from './model.js';

export interface SourceRoot {
  agent: Agent;
  /** The directory (or, for opencode, possibly a database file) to read. */
  path: string;
  /** How it was chosen: the default, an environment variable, or --source-dir. */
  from: string;
  exists: boolean;
}

/** `storage`: opencode's pre-1.2 JSON tree, one source for the whole `storage/` directory. */
export type Format = 'jsonl' | 'json' | 'sqlite' | 'zst' | 'storage' | 'md';

export interface SourceFile {
  agent: Agent;
  path: string;
  format: Format;
}

export type Overrides = Partial<Record<Agent, string>>;
