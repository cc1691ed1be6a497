/**
 * `LOOKBACK_BENCH_ONLY=mcp`: what an agent pays for recall over MCP.
 *
 * - start: spawn `lookback mcp`, initialize, first answer (paid once per agent session);
 * - per call: the SDK client's round trip to the real server process beside the
 *   same call in-process (same argument mapping, same recall functions, same
 *   store), interleaved so machine noise lands on both; target: the medians
 *   within 2 ms of each other;
 * - memory: 10,000 calls of every shape with the server's RSS sampled, which
 *   should stay flat.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { AgentIndex } from '../../src/mcp/agents.js';
import type { Sources } from '../../src/mcp/call.js';
import { StoreRegistry } from '../../src/mcp/stores.js';
import { findTool } from '../../src/mcp/tools.js';
import { visibleMessage } from '../../src/store/sqlParts.js';
import { Store } from '../../src/store/store.js';
import { fmt, mb, median, percentile, row } from './stats.js';

const TARGET_OVERHEAD_MS = 2;
// LOOKBACK_BENCH_MCP_MEMORY_CALLS=0 skips the memory run (a quick A/B of the per-call table).
const MEMORY_CALLS = Number(process.env.LOOKBACK_BENCH_MCP_MEMORY_CALLS ?? 10_000);
const SAMPLE_EVERY = 500;

export interface McpBenchInput {
  root: string;
  /** The 200,000-message bench store (schema 30). */
  store: string;
  runs: number;
}

/** The process's CPU time so far (user + system, ms), from /proc (10 ms ticks: read over many calls). */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const ownCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

/** The calls an agent makes, over the bench store's longest session. */
export interface Op {
  label: string;
  /** The tool called (session_search when absent). */
  tool?: string;
  args: (i: number) => Record<string, unknown>;
}

/** One call in-process: the registry's own parse and run, as the server dispatches it. */
export function runTool(name: string, args: Record<string, unknown>, from: Sources) {
  const r = findTool(name)!.call(args, from);
  // The lexical calls timed here are answered synchronously (only a search by meaning awaits).
  if (r instanceof Promise) throw new Error(`${name} answered asynchronously`);
  if (!r.ok) throw new Error(r.error);
  if (r.payload.success === false) throw new Error(String(r.payload.error));
  return r.payload;
}

export function workload(store: string, from: Sources): Op[] {
  const layout = Store.open(store);
  // Rewound and hidden rows never surface in a scroll: anchor only on messages that do.
  const visible = visibleMessage(layout.layout, 'm');
  layout.close();
  const db = new Database(store, { readonly: true });
  const long = db
    .prepare(
      `SELECT session_id, count(*) AS n FROM messages GROUP BY session_id ORDER BY n DESC LIMIT 1`,
    )
    .get() as { session_id: string; n: number };
  const ids = (
    db
      .prepare(`SELECT m.id FROM messages m WHERE m.session_id = ? AND ${visible} ORDER BY m.id`)
      .all(long.session_id) as {
      id: number;
    }[]
  ).map((r) => r.id);
  const small = db
    .prepare(
      `SELECT session_id FROM messages GROUP BY session_id HAVING count(*) BETWEEN 8 AND 20 LIMIT 1`,
    )
    .get() as { session_id: string };
  db.close();
  const page2 = String(runTool('list_sessions', {}, from).next_cursor);
  return [
    { label: 'browse (limit 3)', args: () => ({}) },
    {
      label: 'discover "pgbouncer timeout" (limit 3)',
      args: () => ({ query: 'pgbouncer timeout' }),
    },
    { label: 'discover "migration" (limit 10)', args: () => ({ query: 'migration', limit: 10 }) },
    {
      label: `scroll window 5 (session of ${long.n.toLocaleString()})`,
      args: (i) => ({
        session_id: long.session_id,
        around_message_id: ids[(i * 997) % ids.length],
        window: 5,
      }),
    },
    { label: 'read (8-20 messages)', args: () => ({ session_id: small.session_id }) },
    {
      label: `read (head+tail of ${long.n.toLocaleString()})`,
      args: () => ({ session_id: long.session_id }),
    },
    { label: 'list_sessions (limit 20)', tool: 'list_sessions', args: () => ({}) },
    {
      label: 'list_sessions, page 2 (cursor)',
      tool: 'list_sessions',
      args: () => ({ cursor: page2 }),
    },
    {
      label: 'list_sessions model= after= (limit 20)',
      tool: 'list_sessions',
      args: () => ({ model: 'claude', after: '2020-01-01' }),
    },
    {
      label: `session_overview (session of ${long.n.toLocaleString()})`,
      tool: 'session_overview',
      args: () => ({ session_id: long.session_id }),
    },
    {
      label: `session_messages 50 from a position (of ${long.n.toLocaleString()})`,
      tool: 'session_messages',
      args: (i) => ({ session_id: long.session_id, from_index: (i * 997) % long.n }),
    },
    {
      label: 'session_messages roles=user (8-20 messages)',
      tool: 'session_messages',
      args: () => ({ session_id: small.session_id, roles: ['user'] }),
    },
  ];
}

export async function benchMcp(input: McpBenchInput): Promise<void> {
  // The SDK's client is only needed here; keep it out of the other sections' start-up.
  const { Client } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  // LOOKBACK_BENCH_MCP_BIN=PATH serves the calls with another build's server (an A/B
  // under the same client and in-process baseline); LOOKBACK_MCP_STAGES reaches the
  // server (the SDK passes on only a few variables), which then writes its stage times.
  const bin = process.env.LOOKBACK_BENCH_MCP_BIN ?? join(input.root, 'dist', 'lookback.js');
  const stages = process.env.LOOKBACK_MCP_STAGES;
  // The servers append to FILE: start it empty so its lines are this run's calls.
  if (stages) rmSync(stages, { force: true });
  const { getDefaultEnvironment } = await import('@modelcontextprotocol/client/stdio');
  const connect = async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--db', input.store],
      stderr: 'ignore',
      ...(stages ? { env: { ...getDefaultEnvironment(), LOOKBACK_MCP_STAGES: stages } } : {}),
    });
    const client = new Client({ name: 'lookback-bench', version: '1.0.0' });
    await client.connect(transport);
    return { client, transport };
  };

  console.log(`\n## MCP server (lookback mcp over stdio, SDK client; ${input.store})`);
  console.log(`server: ${bin}`);
  console.log('The machine is shared and noisy: read medians, not single runs.');

  const starts: number[] = [];
  const firsts: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const { client } = await connect();
    starts.push(performance.now() - t);
    const t1 = performance.now();
    await client.callTool({ name: 'session_search', arguments: {} });
    firsts.push(performance.now() - t1);
    await client.close();
  }
  row(['start: spawn → initialized (median of 5)', fmt(median(starts)), '']);
  row(['first call after start (browse, cold store)', fmt(median(firsts)), '']);

  const { client, transport } = await connect();
  const stores = new StoreRegistry(() => ({ path: input.store, profile: 'default' }));
  const agents = new AgentIndex();
  const from: Sources = { stores, agents, narrowed: true };
  const ops = workload(input.store, from);
  const inProcess = (op: Op, args: Record<string, unknown>) =>
    runTool(op.tool ?? 'session_search', args, from);
  const overMcp = async (op: Op, args: Record<string, unknown>) => {
    const r = await client.callTool({ name: op.tool ?? 'session_search', arguments: args });
    if (r.isError) throw new Error(JSON.stringify(r.content));
    return r;
  };

  const pid = transport.pid;
  if (pid === null) throw new Error('the MCP server has no pid');
  const n = input.runs * 5;
  console.log(`\nper call (${n} interleaved runs each, median)`);
  row(['call', 'in-process', 'over MCP', 'difference', 'p95 MCP'], 44, 12);
  const diffs: number[] = [];
  // CPU per call beside the wall times: a loaded machine inflates waits (two process
  // wake-ups a call), not work, so CPU says what the server and client add.
  const cpuRows: string[][] = [];
  const cpuDiffs: number[] = [];
  for (const op of ops) {
    for (let w = 0; w < 5; w++) {
      inProcess(op, op.args(w));
      await overMcp(op, op.args(w));
    }
    const local: number[] = [];
    const remote: number[] = [];
    let localCpu = 0;
    let clientCpu = 0;
    const serverCpu0 = cpuOf(pid);
    for (let i = 0; i < n; i++) {
      const args = op.args(i);
      let c = ownCpu();
      let t = performance.now();
      inProcess(op, args);
      local.push(performance.now() - t);
      localCpu += ownCpu() - c;
      c = ownCpu();
      t = performance.now();
      await overMcp(op, args);
      remote.push(performance.now() - t);
      clientCpu += ownCpu() - c;
    }
    const serverCpu = (cpuOf(pid) - serverCpu0) / n;
    const cpuOver = serverCpu + clientCpu / n - localCpu / n;
    cpuDiffs.push(cpuOver);
    cpuRows.push([
      op.label,
      fmt(localCpu / n),
      fmt(serverCpu),
      fmt(clientCpu / n),
      `${cpuOver >= 0 ? '+' : ''}${fmt(cpuOver)}`,
    ]);
    const d = median(remote) - median(local);
    diffs.push(d);
    row([
      op.label,
      fmt(median(local)),
      fmt(median(remote)),
      `${d >= 0 ? '+' : ''}${fmt(d)}`,
      fmt(percentile(remote, 95)),
    ]);
  }
  const worst = Math.max(...diffs);
  row([
    `largest difference (target ≤ ${TARGET_OVERHEAD_MS} ms)`,
    '',
    '',
    fmt(worst),
    worst <= TARGET_OVERHEAD_MS ? 'met' : 'MISSED',
  ]);
  console.log(`\nCPU per call (mean of the same ${n} runs; the server's from /proc, 10 ms ticks)`);
  row(['call', 'in-process', 'server', 'MCP client', 'added CPU'], 44, 12);
  for (const r of cpuRows) row(r, 44, 12);
  row(
    ['largest added CPU (server + client − in-process)', '', '', '', fmt(Math.max(...cpuDiffs))],
    44,
    12,
  );
  if (MEMORY_CALLS <= 0) {
    await client.close();
    stores.closeAll();
    if (stages) await printStages(stages, ops, n, 5 + ops.length * (5 + n));
    return;
  }
  console.log(`\nmemory: ${MEMORY_CALLS.toLocaleString()} calls cycling through the shapes above`);
  const samples: { calls: number; rss: number }[] = [{ calls: 0, rss: rssOf(pid) }];
  const t = performance.now();
  for (let i = 1; i <= MEMORY_CALLS; i++) {
    const op = ops[i % ops.length]!;
    await overMcp(op, op.args(i));
    if (i % SAMPLE_EVERY === 0) samples.push({ calls: i, rss: rssOf(pid) });
  }
  const secs = (performance.now() - t) / 1000;
  console.log(
    `server RSS every ${SAMPLE_EVERY} calls (MB): ${samples.map((x) => (x.rss / 1024 / 1024).toFixed(0)).join(' ')}`,
  );
  // V8 grows its heap to a working size over the first few thousand calls; flat
  // memory means no growth after that, so the second half is what is judged.
  const half = samples.filter((x) => x.calls >= MEMORY_CALLS / 2);
  const growth = half[half.length - 1]!.rss - half[0]!.rss;
  row([`RSS after ${MEMORY_CALLS.toLocaleString()} calls`, mb(samples.at(-1)!.rss), '']);
  row(['RSS change over the second half of the calls', mb(growth), '']);
  row(['RSS max of the samples', mb(Math.max(...samples.map((x) => x.rss))), '']);
  row(['throughput (calls/s, one client, sequential)', (MEMORY_CALLS / secs).toFixed(0), '']);
  await client.close();
  stores.closeAll();
  if (stages) await printStages(stages, ops, n, 5 + ops.length * (5 + n) + MEMORY_CALLS);
}

/**
 * With LOOKBACK_MCP_STAGES=FILE: the servers' stage times (src/mcp/stages.ts),
 * median CPU per shape over its timed calls. FILE holds the 5 start-up servers'
 * one call each, then each shape's 5 warm-up and n timed calls, in order.
 */
async function printStages(file: string, ops: Op[], n: number, lines: number): Promise<void> {
  // The server writes FILE as it stops, just after the client closes.
  let rows: Record<string, number>[] = [];
  for (let tries = 0; tries < 50 && rows.length < lines; tries++) {
    await new Promise((r) => setTimeout(r, 100));
    rows = existsSync(file)
      ? readFileSync(file, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, number>)
      : [];
  }
  if (rows.length < lines) {
    console.log(`\nstage times: ${file} has ${rows.length} calls, expected ${lines}`);
    return;
  }
  console.log(`\nserver stage CPU per call (${file}; median of ${n} calls, ms)`);
  const keys = ['sdkIn', 'tool', 'text', 'sdkOut', 'write'];
  row(['call', ...keys, 'not tool'], 44, 9);
  for (const [i, op] of ops.entries()) {
    const calls = rows.slice(5 + i * (5 + n) + 5, 5 + (i + 1) * (5 + n));
    const cpu = (k: string) => median(calls.map((c) => c[`${k}Cpu`]!));
    row(
      [
        op.label,
        ...keys.map((k) => cpu(k).toFixed(2)),
        median(calls.map((c) => c.totalCpu! - c.toolCpu!)).toFixed(2),
      ],
      44,
      9,
    );
  }
}
