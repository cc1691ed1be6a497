/**
 * The namespaces of vectors.db's units (src/semantic/vectors.ts): which
 * source a unit's message id belongs to. A Hermes store's message ids are its
 * own (`hermes:` and the store's absolute path); lookback's index of the other
 * agents numbers its messages itself (`agents:` and the index file's absolute
 * path), so the same number in both is never the same message. Vectors are
 * keyed by text, not by unit: a text both hold is embedded once.
 */
import { resolve } from 'node:path';

/** The units of one Hermes store, by its file. */
export function hermesUnits(storePath: string): string {
  return `hermes:${resolve(storePath)}`;
}

/** The units of lookback's agents' index, by its file (message ids are the index's row ids). */
export function agentsUnits(indexPath: string): string {
  return `agents:${resolve(indexPath)}`;
}
