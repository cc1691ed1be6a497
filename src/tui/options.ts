import type { LoadSemantic } from '../app/data/meaning.js';
import type { PgTarget } from '../store/postgresConfig.js';

/**
 * What the interactive app is started with. The command line's Flags satisfy it
 * (src/cli/commands.ts passes them); the app side never imports the command line.
 */
export interface StartOptions {
  db?: string | undefined;
  profile?: string | undefined;
  demo: boolean;
  /**
   * At exit print the last copied text ('anchor', or true), the session's id
   * ('id') or its link ('link') on stdout; false or null: nothing.
   */
  print: boolean | 'anchor' | 'id' | 'link' | null;
  /** Which histories to show: `all` (default), `hermes` alone, or a comma list (`--agent`, else LOOKBACK_AGENTS). */
  agent?: string | undefined;
  /** Start in the this-folder view (`--here`, LOOKBACK_HERE=1): conversations run in the current folder or below. */
  here?: boolean;
  /** The embedding model for `v` (search by meaning): `--embedder SPEC`, else LOOKBACK_EMBEDDER. */
  embedder?: string | undefined;
  /** Loads the search by meaning (the command line's src/cli/lazy.ts; the app bundle holds no import()). */
  semantic?: LoadSemantic;
  /** The store to open, as the command line chose it (src/recall/storeChoice.ts). */
  store: ChosenStore;
}

export interface ChosenStore {
  path: string;
  profile: string;
  demo: boolean;
  /** Said on the status line at start (why this store). */
  notice?: string;
  /** The profile keeps its sessions in PostgreSQL: `path` is lookback's mirror, kept in sync while the app runs. */
  postgres?: PgTarget;
  /** No Hermes store: `path` is an empty one and the other agents' histories are the list. */
  noHermes?: boolean;
}
