/** What a reader of a database holding many sessions (Crush, Goose) hands the indexer. */
import type { ConvPatch, Msg } from '../model.js';

export interface DbRead {
  /** The sessions whose marks moved since the pass that saw `known`. */
  sessions: { conv: ConvPatch; messages: Msg[] }[];
  /** Every session's change mark as read now, for the next pass (and to find deleted ones). */
  marks: Record<string, string>;
}
