/**
 * Search by meaning over the other agents' index (`LOOKBACK_BENCH_ONLY=agentsem`,
 * not in the default set): a generated agents' history (Claude Code, Codex and
 * Gemini files, tests/agents/generate.ts) read into lookback's index, its
 * embed pass into vectors.db, and warm searches over it, each beside a
 * baseline of the same run: the embed pass beside the same pass over a
 * generated Hermes store of about the same size (same hash embedder), the
 * searches beside the agents' exact lexical search. Sizes:
 * LOOKBACK_BENCH_AGENTSEM_MESSAGES (default 100,000 asked for).
 */
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { indexAll } from '../../src/agents/indexer.js';
import { openIndex } from '../../src/agents/indexDb.js';
import { AGENTS } from '../../src/agents/model.js';
import { searchAgentsJson } from '../../src/agents/recall.js';
import { generateStore } from '../../src/demo/generate.js';
import { embedAgents, semanticAgentsSearch } from '../../src/semantic/agents.js';
import { semanticSearch } from '../../src/semantic/answer.js';
import { embedStore } from '../../src/semantic/hermes.js';
import { VectorDb } from '../../src/semantic/vectors.js';
import { discover } from '../../src/store/search.js';
import { Store } from '../../src/store/store.js';
import { generateHistories } from '../agents/generate.js';
import { HashEmbedder } from './semantic.js';
import { median } from './stats.js';

function fresh(path: string): void {
  for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
}

export async function benchAgentsSemantic(dir: string, runs: number): Promise<void> {
  const target = Number(process.env.LOOKBACK_BENCH_AGENTSEM_MESSAGES ?? 100_000);
  mkdirSync(dir, { recursive: true });
  const home = join(dir, `agentsem-home-${target}`);
  const indexFile = join(dir, `agentsem-index-${target}.db`);
  if (!existsSync(indexFile)) {
    rmSync(home, { recursive: true, force: true });
    generateHistories(home, Math.max(10, Math.round(target / 100)), target, 22);
    const { db } = openIndex(indexFile);
    indexAll(db, { env: { HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' } });
    db.close();
  }
  const { db } = openIndex(indexFile);
  const messages = db.prepare(`SELECT count(*) FROM messages`).pluck().get() as number;
  // The baseline store: about as many user and assistant messages.
  const storePath = join(dir, `agentsem-hermes-${target}.db`);
  if (!existsSync(storePath))
    generateStore(storePath, { layout: 30, sessions: 2000, targetMessages: target, seed: 23 });
  const store = Store.open(storePath);
  const embedder = new HashEmbedder();
  const vAgents = join(dir, 'agentsem-vectors.db');
  const vHermes = join(dir, 'agentsem-hermes-vectors.db');
  try {
    console.log(
      `\nsearch by meaning over the agents' index: ${messages.toLocaleString('en-US')} indexed messages (hash embedder of 256 dims; load ${(
        await import('node:os')
      )
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')})`,
    );
    // Embed passes, interleaved: agents, Hermes, agents again (a fresh vectors.db each).
    const rate = async (which: 'agents' | 'hermes'): Promise<[number, number]> => {
      const path = which === 'agents' ? vAgents : vHermes;
      fresh(path);
      const vdb = new VectorDb(path);
      const t = performance.now();
      const p =
        which === 'agents'
          ? await embedAgents(db, vdb, embedder)
          : await embedStore(store, vdb, embedder);
      const s = (performance.now() - t) / 1000;
      vdb.db.pragma('wal_checkpoint(TRUNCATE)');
      vdb.close();
      return [p.total / s, p.total];
    };
    const a1 = await rate('agents');
    const h = await rate('hermes');
    const a2 = await rate('agents');
    const aRate = (a1[0] + a2[0]) / 2;
    console.log(
      `  embed pass: agents' index ${Math.round(aRate).toLocaleString('en-US')} messages/s (${a1[1].toLocaleString('en-US')} units), Hermes store ${Math.round(h[0]).toLocaleString('en-US')} messages/s (${h[1].toLocaleString('en-US')}); agents / Hermes ${(aRate / h[0]).toFixed(2)}; vectors.db ${(statSync(vAgents).size / 2 ** 20).toFixed(1)} MiB`,
    );
    const t = performance.now();
    const vdb = new VectorDb(vAgents);
    const again = await embedAgents(db, vdb, embedder);
    vdb.close();
    console.log(
      `  a second pass (nothing new): ${again.embedded} texts embedded, ${(performance.now() - t).toFixed(1)} ms`,
    );
    const qs = ['job queue in postgres', 'expired certificate renewal', 'flaky ci tests'];
    const opts = { limit: 10, vectorsPath: vAgents, embedBudgetMs: 0, embedder } as const;
    const timeIt = async (fn: (q: string) => unknown): Promise<number> => {
      for (const q of qs) await fn(q);
      const xs: number[] = [];
      for (let i = 0; i < runs; i++) {
        const q = qs[i % qs.length]!;
        const t0 = performance.now();
        await fn(q);
        xs.push(performance.now() - t0);
      }
      return median(xs);
    };
    const agents = [...AGENTS];
    const hOpts = { ...opts, vectorsPath: vHermes };
    // Interleaved: each measure once per round, three rounds, the median of each.
    const rounds: Record<string, number[]> = {};
    const put = (k: string, v: number) => (rounds[k] ??= []).push(v);
    for (let r = 0; r < 3; r++) {
      put('exact', await timeIt((q) => searchAgentsJson(db, q, agents, { limit: 10, all: false })));
      put(
        'semantic',
        await timeIt((q) => semanticAgentsSearch(db, agents, q, { ...opts, mode: 'semantic' })),
      );
      put(
        'hybrid',
        await timeIt((q) => semanticAgentsSearch(db, agents, q, { ...opts, mode: 'hybrid' })),
      );
      put('hermes exact', await timeIt((q) => discover(store, q, { limit: 10, views: false })));
      put(
        'hermes hybrid',
        await timeIt((q) => semanticSearch(store, q, { ...hOpts, mode: 'hybrid' })),
      );
    }
    const m = Object.fromEntries(Object.entries(rounds).map(([k, v]) => [k, median(v)]));
    console.log(
      `  warm search, agents' index (median of ${runs} × 3 rounds): lexical ${m.exact!.toFixed(1)} ms, semantic ${m.semantic!.toFixed(1)} ms (${(m.semantic! / m.exact!).toFixed(1)}× lexical), hybrid ${m.hybrid!.toFixed(1)} ms (${(m.hybrid! / m.exact!).toFixed(1)}× lexical)`,
    );
    console.log(
      `  the same run over the Hermes store: exact ${m['hermes exact']!.toFixed(1)} ms, hybrid ${m['hermes hybrid']!.toFixed(1)} ms; agents' hybrid / Hermes hybrid ${(m.hybrid! / m['hermes hybrid']!).toFixed(2)}`,
    );
  } finally {
    db.close();
    store.close();
  }
}
