/** A Hermes store and the app's reader of an agents' index, as the app's data tests open them. */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { IndexReader } from '../../src/agents/appReads.js';
import { AGENTS } from '../../src/agents/model.js';
import { AgentSource } from '../../src/app/data/agentSource.js';
import { Store } from '../../src/store/store.js';
import { FIXTURE_DIR } from '../helpers/fixtures.js';

/** A copy of the schema-30 fixture store in `dir`, and every agent of `indexFile`; `close` closes both. */
export function storeWithAgents(
  dir: string,
  indexFile: string,
): { store: Store; agents: AgentSource; close: () => void } {
  const path = join(dir, 'state.db');
  copyFileSync(join(FIXTURE_DIR, 'hermes-v30.db'), path);
  const store = Store.open(path, { profile: 'default' });
  const agents = new AgentSource(new IndexReader(indexFile, [...AGENTS]));
  return {
    store,
    agents,
    close: () => {
      agents.close();
      store.close();
    },
  };
}
