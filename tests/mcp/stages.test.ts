/**
 * The MCP server answers exactly what the library answers, for the twelve
 * call shapes `npm run bench` times (tests/bench/mcp.ts): the text content
 * byte for byte as `inertJson` of the in-process answer, the structured
 * content equal to it. With `LOOKBACK_MCP_STAGES=FILE` the answers are the
 * same and FILE gets one line of stage times per call.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inertJson } from '../../src/cli/json.js';
import { generateStore } from '../../src/demo/generate.js';
import { AgentIndex } from '../../src/mcp/agents.js';
import type { Sources } from '../../src/mcp/call.js';
import { StoreRegistry } from '../../src/mcp/stores.js';
import { runTool, workload, type Op } from '../bench/mcp.js';
import { tempDir } from '../helpers/fixtures.js';
import { callOn, startServer } from './client.js';

let db: string;
let from: Sources;
let ops: Op[];

beforeAll(() => {
  db = join(tempDir(), 'state.db');
  generateStore(db, { layout: 30, sessions: 60, seed: 7 });
  from = {
    stores: new StoreRegistry(() => ({ path: db, profile: 'default' })),
    agents: new AgentIndex(),
    narrowed: true,
  };
  ops = workload(db, from);
});

afterAll(() => from.stores.closeAll());

const STAGE_KEYS = ['sdkIn', 'tool', 'text', 'sdkOut', 'write', 'total'];

describe('MCP answers are the library answers', () => {
  it('has the twelve shapes of the bench', () => {
    expect(ops).toHaveLength(12);
  });

  for (const stages of [false, true]) {
    it(`for every bench shape, byte for byte${stages ? ', with the stage timers on' : ''}`, async () => {
      const file = join(tempDir(), 'stages.jsonl');
      const server = await startServer(['--db', db], stages ? { LOOKBACK_MCP_STAGES: file } : {});
      try {
        for (const [i, op] of ops.entries()) {
          const args = op.args(i);
          const name = op.tool ?? 'session_search';
          const mcp = await callOn(server.client, args, name);
          const lib = runTool(name, args, from);
          expect(mcp.isError, op.label).toBe(false);
          expect(mcp.text, op.label).toBe(inertJson(lib));
          expect(mcp.structured, op.label).toEqual(JSON.parse(JSON.stringify(lib)));
        }
      } finally {
        await server.close();
      }
      if (!stages) {
        expect(existsSync(file)).toBe(false);
        return;
      }
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, number>);
      expect(lines).toHaveLength(ops.length);
      for (const line of lines) {
        for (const k of STAGE_KEYS) {
          expect(line[k], k).toBeGreaterThanOrEqual(0);
          expect(line[`${k}Cpu`], `${k}Cpu`).toBeGreaterThanOrEqual(0);
        }
        // The stages tile the call: their sum is its total.
        const sum = STAGE_KEYS.slice(0, -1).reduce((s, k) => s + line[k]!, 0);
        expect(Math.abs(sum - line.total!)).toBeLessThan(0.01);
        expect(line.tool).toBeGreaterThan(0);
      }
    });
  }
});
