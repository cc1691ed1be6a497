/** A small JSON side file of a history (metadata beside the messages), read whole or not at all. */
import { readFileSync, statSync } from 'node:fs';
import { SIDE_JSON_MAX_BYTES } from '../../budgets.js';
import { obj } from '../model.js';

/** The file's object, or null when it is missing, too large, not JSON or not an object. */
export function smallJson(path: string): Record<string, unknown> | null {
  try {
    if (statSync(path).size > SIDE_JSON_MAX_BYTES) return null;
    return obj(JSON.parse(readFileSync(path, 'utf8')));
  } catch {
    return null;
  }
}
