/**
 * `npm run bench` section `startup` (issue 20): a whole `lookback search --json`
 * process against the agent's own tool as a whole process, on the same store and
 * query, interleaved run by run so that both see the same machine.
 *
 * - the agent's tool: tests/bench/agentTool.py, its discover shape in Python with
 *   `sqlite3` and `json` only (a lower bound: the real tool imports its whole
 *   `hermes_state` package first); skipped with a line when python3 is missing;
 * - `node -e ''` in the same runs: what any Node process pays before its first line;
 *   when NODE_EXTRA_CA_CERTS is set (some sandboxes and corporate machines set it),
 *   Node parses that whole certificate bundle at every start, before any script
 *   runs, so the section also measures every Node process without it: that is the
 *   start most people's machines have. lookback's launcher (dist/lookback) starts node
 *   without it, so `lookback` pays it no more (Node 23 and later load it lazily too);
 *   `node dist/lookback.cjs` beside it still does.
 *
 * Wall time per run (median) and CPU time per run (the children's user + system
 * time from /proc/self/stat, summed over the runs: clock ticks of 10 ms are too
 * coarse for one run). Prints figures; asserts nothing.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, median } from './stats.js';

const QUERY = 'pgbouncer timeout';

/** The children's CPU time so far, in ms (/proc/self/stat cutime + cstime). */
function childCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 of stat(5), counted from the state (field 3) here.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

interface Variant {
  label: string;
  cmd: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * The Python interpreter itself (sys.executable), with sqlite3's FTS5, or null: a
 * launcher on PATH (pyenv's shims are shell scripts) would add its own start.
 */
function python(): string | null {
  const check =
    'import sqlite3, sys; sqlite3.connect(":memory:").execute("CREATE VIRTUAL TABLE t USING fts5(x)"); print(sys.executable)';
  for (const cmd of ['python3', 'python']) {
    const r = spawnSync(cmd, ['-c', check], { encoding: 'utf8' });
    const exe = r.status === 0 ? r.stdout.trim() : '';
    if (exe) return exe;
  }
  return null;
}

export function benchStartup(root: string, store: string, runs: number): void {
  // The installed command (package.json "bin"): the launcher, a sh script that starts node
  // without NODE_EXTRA_CA_CERTS (restored by dist/lookback.cjs's first line), as Node 23+
  // would load it: at the first TLS connection, not at start.
  const bin = join(root, 'dist', 'lookback');
  const direct = join(root, 'dist', 'lookback.cjs');
  const cache = mkdtempSync(join(tmpdir(), 'lookback-bench-startup-'));
  const base: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: cache, HERMES_HOME: '' };
  const noCa: NodeJS.ProcessEnv = { ...base };
  delete noCa.NODE_EXTRA_CA_CERTS;
  const ca =
    process.env.NODE_EXTRA_CA_CERTS !== undefined && process.env.NODE_EXTRA_CA_CERTS !== '';
  const py = python();
  const search = ['search', QUERY, '--db', store, '--json'];
  const variants: Variant[] = [
    { label: "node -e ''", cmd: process.execPath, args: ['-e', ''], env: base },
    ...(py
      ? [
          {
            label: "the agent's tool (tests/bench/agentTool.py)",
            cmd: py,
            args: [join(root, 'tests', 'bench', 'agentTool.py'), store, QUERY],
            env: base,
          },
        ]
      : []),
    { label: 'lookback search … --json (the launcher)', cmd: bin, args: search, env: base },
    {
      label: 'node dist/lookback.cjs search … --json (no launcher)',
      cmd: process.execPath,
      args: [direct, ...search],
      env: base,
    },
    ...(ca
      ? [
          {
            label: "node -e '' without NODE_EXTRA_CA_CERTS",
            cmd: process.execPath,
            args: ['-e', ''],
            env: noCa,
          },
          {
            label: 'lookback search … --json without NODE_EXTRA_CA_CERTS',
            cmd: bin,
            args: search,
            env: noCa,
          },
        ]
      : []),
  ];
  console.log(
    `\n## start-up: whole processes on the schema-30 store, "${QUERY}", ${runs} interleaved runs`,
  );
  if (ca) console.log('(NODE_EXTRA_CA_CERTS is set here: every Node start parses that bundle)');
  if (!py) console.log("(python3 with sqlite3's FTS5 not found: the agent's tool not measured)");
  const wall = variants.map(() => [] as number[]);
  const cpu = variants.map(() => 0);
  const once = (v: Variant): { ms: number; cpu: number } => {
    const c = childCpuMs();
    const t = performance.now();
    const r = spawnSync(v.cmd, v.args, { env: v.env, encoding: 'utf8', maxBuffer: 64 << 20 });
    const ms = performance.now() - t;
    if (r.status !== 0) throw new Error(`${v.label} failed: ${r.stderr}`);
    return { ms, cpu: childCpuMs() - c };
  };
  // Warm: the page cache, and lookback's code cache written by its first run.
  for (const v of variants) once(v);
  for (let i = 0; i < runs; i++)
    variants.forEach((v, k) => {
      const r = once(v);
      wall[k]!.push(r.ms);
      cpu[k]! += r.cpu;
    });
  rmSync(cache, { recursive: true, force: true });
  console.log(`| process | wall, median | CPU per run | ÷ the agent's tool (wall / CPU) |`);
  console.log(`| --- | --- | --- | --- |`);
  const agent = py ? 1 : -1;
  variants.forEach((v, k) => {
    const w = median(wall[k]!);
    const c = cpu[k]! / runs;
    const ratio =
      agent < 0
        ? ''
        : `${(w / median(wall[agent]!)).toFixed(2)}× / ${(c / (cpu[agent]! / runs)).toFixed(2)}×`;
    console.log(`| ${v.label} | ${fmt(w)} | ${fmt(c)} | ${ratio} |`);
  });
}
