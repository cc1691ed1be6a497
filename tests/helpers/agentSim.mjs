#!/usr/bin/env node
// A stand-in for the Hermes agent writing its session store all day, for the
// reliability tests and the writer-latency measurement. It writes the way the
// agent's store code does: WAL mode, one short transaction per message, plain
// INSERT/UPDATE/DELETE so the store's own FTS triggers run, and the agent's
// maintenance on top (compression rotations, titles, archiving, pruning of
// whole old lineages, FTS `optimize`, `wal_checkpoint(TRUNCATE)`, `VACUUM`).
//
// Layout-agnostic: it reads the columns of `sessions` and `messages` once and
// writes only what the store has, so the same script drives v6, v16 and v30.
//
// Configuration: a JSON object as the first argument, or in $AGENT_SIM, e.g.
//   node agentSim.mjs '{"path": "/tmp/state.db", "rate": 500, "seconds": 20}'
// Output (stdout, one JSON object per line):
//   {"event":"ready", ...}                       once, before the first timed write
//   {"event":"marker","token":…,"session_id":…,"message_id":…,"at":<epoch ms>}
//                                                each marker, after its commit
//   {"event":"summary","count":…,"p50_ms":…,"p95_ms":…,"p99_ms":…, …}
//                                                last line, at exit
// It stops by itself after `seconds` (or on SIGTERM/SIGINT), always printing the
// summary. Exit code 0, or 1 on an error that is not a transient lock.
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const DEFAULTS = {
  path: '',
  /** Messages per second, spread over the live sessions. */
  rate: 500,
  /** Wall-clock run time; the script always stops by itself. */
  seconds: 20,
  /** Sessions the agent is writing at once (gateway, CLI, cron… in one store). */
  liveSessions: 4,
  seed: 1,
  /**
   * `wal` (normal operation) or `delete`: the rollback journal the agent picks
   * on SQLite builds with the WAL-reset bug and on network file systems, and
   * users pick after WAL trouble (STORE.md). Then every reader's SHARED lock
   * blocks the writer's commit.
   */
  journalMode: 'wal',
  /** SQLite's default is FULL; the agent leaves it there except on macOS. */
  synchronous: 'FULL',
  busyTimeoutMs: 5000,
  foreignKeys: true,
  /** Maintenance periods in seconds (0 = never). */
  rotateEvery: 3,
  endEvery: 4,
  titleEvery: 1,
  archiveEvery: 5,
  pruneEvery: 5,
  /** Whole ended lineages (oldest first) deleted per prune. */
  pruneLineages: 2,
  optimizeEvery: 7,
  checkpointEvery: 2,
  vacuumEvery: 11,
  /** A new session whose first message carries a unique token, reported on stdout. */
  markerEvery: 1,
  /** The agent's rate-limited heartbeat (v30 `last_activity_at`). */
  heartbeatEvery: 5,
  /** Probability that a message is a long one (tool output, pasted logs). */
  longMessageChance: 0.01,
  /** Backlog older than this many seconds of writes is skipped, not burst out. */
  maxBacklogSeconds: 1,
  /**
   * When set, per-commit [epoch ms, latency ms] pairs are written here (Float64,
   * little-endian), and each maintenance operation as [kind, epoch ms, ms] to `<file>.ops.json`.
   */
  latencyOut: '',
  /** Print a progress line every N seconds to stderr (0 = quiet). */
  progressEvery: 0,
};

function readConfig() {
  const arg = process.argv[2];
  const raw =
    arg !== undefined && arg.trim().startsWith('{') ? arg : (process.env.AGENT_SIM ?? '{}');
  const cfg = { ...DEFAULTS, ...JSON.parse(raw) };
  if (!cfg.path && arg !== undefined && !arg.trim().startsWith('{')) cfg.path = arg;
  if (!cfg.path) throw new Error('agentSim: no store path (pass {"path": …})');
  return cfg;
}

const cfg = readConfig();

// ---- deterministic randomness ------------------------------------------------

let rngState = (cfg.seed >>> 0) ^ 0x9e3779b9;
function random() {
  rngState = (rngState + 0x6d2b79f5) >>> 0;
  let t = rngState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (xs) => xs[Math.floor(random() * xs.length)];
const hex = (n) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');

const WORDS = (
  'migration pgbouncer timeout webhook ledger deploy rollback schema index vacuum cache ' +
  'latency retry backoff queue worker cron token session lineage compression summary ' +
  'kubernetes helm chart ingress certificate renewal postgres replica failover snapshot ' +
  'terraform module provider state drift plan apply secret vault rotation audit policy ' +
  'react component hook render memo reducer selector router bundle esbuild vitest typescript ' +
  'python asyncio httpx pydantic fastapi uvicorn gunicorn celery redis stream consumer offset ' +
  'kafka partition broker topic schema registry avro protobuf grpc deadline cancellation trace ' +
  'span metric histogram alert pager runbook incident postmortem regression bisect flaky test ' +
  'heron osprey kestrel falcon harrier merlin'
).split(/\s+/);
const TOOLS = ['terminal', 'read_file', 'write_file', 'search_files', 'web_search', 'patch'];
const SOURCES = ['cli', 'telegram', 'tui', 'discord', 'cron'];

function sentence(words) {
  const out = [];
  for (let i = 0; i < words; i++) out.push(pick(WORDS));
  return out.join(' ');
}

function body() {
  if (random() < cfg.longMessageChance) return sentence(2000 + Math.floor(random() * 4000));
  return sentence(8 + Math.floor(random() * 120));
}

// ---- the store -----------------------------------------------------------------

const db = new Database(cfg.path);
db.pragma(`busy_timeout = ${Number(cfg.busyTimeoutMs)}`);
const walMode = String(cfg.journalMode).toLowerCase() !== 'delete';
db.pragma(walMode ? 'journal_mode = WAL' : 'journal_mode = DELETE');
db.pragma(`synchronous = ${cfg.synchronous}`);
if (walMode) db.pragma('journal_size_limit = 67108864');
db.pragma(`foreign_keys = ${cfg.foreignKeys ? 'ON' : 'OFF'}`);

function columnsOf(table) {
  return new Set(
    db
      .prepare(`SELECT name FROM pragma_table_info(?)`)
      .all(table)
      .map((r) => r.name),
  );
}
const sessionCols = columnsOf('sessions');
const messageCols = columnsOf('messages');
const objects = new Set(
  db.prepare(`SELECT name FROM sqlite_master WHERE type IN ('table', 'view')`).pluck().all(),
);
const ftsTables = ['messages_fts', 'messages_fts_trigram'].filter((t) => objects.has(t));
const hasPromptTable = objects.has('system_prompts') && sessionCols.has('system_prompt_hash');

const insertCache = new Map();
/** INSERT of only the columns this store has; statements cached by column list. */
function insertRow(table, row) {
  const cols = table === 'sessions' ? sessionCols : messageCols;
  const names = Object.keys(row).filter((k) => row[k] !== undefined && cols.has(k));
  const key = `${table}:${names.join(',')}`;
  let stmt = insertCache.get(key);
  if (!stmt) {
    stmt = db.prepare(
      `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    );
    insertCache.set(key, stmt);
  }
  return stmt.run(names.map((n) => row[n]));
}

const SYSTEM_PROMPT = `You are Hermes, a helpful agent. ${sentence(400)}`;
const promptHash = hex(40);
if (hasPromptTable)
  db.prepare('INSERT OR IGNORE INTO system_prompts (hash, prompt) VALUES (?, ?)').run(
    promptHash,
    SYSTEM_PROMPT,
  );

const nowSec = () => Date.now() / 1000;

function sessionId(t) {
  const iso = new Date(Math.floor(t) * 1000).toISOString();
  const stamp = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}_${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
  return `${stamp}_${hex(6)}`;
}

let titleSeq = 0;
const uniqueTitle = (base) => `${base} (sim ${process.pid}.${++titleSeq})`;

const bumpCounts = db.prepare(
  `UPDATE sessions SET message_count = COALESCE(message_count, 0) + 1,
     tool_call_count = COALESCE(tool_call_count, 0) + ? WHERE id = ?`,
);
const heartbeat = sessionCols.has('last_activity_at')
  ? db.prepare(`UPDATE sessions SET last_activity_at = ? WHERE id = ?`)
  : null;

function newSessionRow(t, extra = {}) {
  const source = extra.source ?? pick(SOURCES.slice(0, 4));
  const row = {
    id: sessionId(t),
    source,
    model: 'sim/model-1',
    model_config: JSON.stringify({ temperature: 0.2 }),
    started_at: t,
    message_count: 0,
    cwd: '/home/dev/project',
    ...extra,
  };
  if (hasPromptTable) row.system_prompt_hash = promptHash;
  else row.system_prompt = SYSTEM_PROMPT;
  if (sessionCols.has('last_activity_at')) row.last_activity_at = t;
  return row;
}

function insertMessage(sessionId, role, content, extra = {}) {
  const t = nowSec();
  const r = insertRow('messages', { session_id: sessionId, role, content, timestamp: t, ...extra });
  bumpCounts.run(role === 'tool' ? 1 : 0, sessionId);
  return Number(r.lastInsertRowid);
}

/** Sessions being written; each remembers where its turn is. */
const live = [];

function openSession(extra = {}, opening = undefined) {
  const row = newSessionRow(nowSec(), extra);
  insertRow('sessions', row);
  const slot = {
    id: row.id,
    title: row.title ?? null,
    next: 'assistant',
    lastBeat: row.started_at,
  };
  const text = opening ?? `${pick(['help me', 'why does', 'fix the'])} ${body()}`;
  slot.firstMessageId = insertMessage(slot.id, 'user', text);
  return slot;
}

/** One message in a live session, in the agent's turn order (user, assistant, tool calls). */
function nextMessage(slot) {
  const role = slot.next;
  let id;
  if (role === 'assistant' && random() < 0.3) {
    const name = pick(TOOLS);
    const calls = [
      {
        id: `call_${hex(8)}`,
        type: 'function',
        function: { name, arguments: JSON.stringify({ command: sentence(6) }) },
      },
    ];
    id = insertMessage(slot.id, role, random() < 0.5 ? '' : sentence(12), {
      tool_calls: JSON.stringify(calls),
    });
    slot.pendingTool = { name, callId: calls[0].id };
    slot.next = 'tool';
  } else if (role === 'tool') {
    const { name, callId } = slot.pendingTool ?? { name: 'terminal', callId: `call_${hex(8)}` };
    id = insertMessage(slot.id, role, body(), { tool_name: name, tool_call_id: callId });
    slot.next = 'assistant';
  } else {
    id = insertMessage(slot.id, role, body());
    slot.next = role === 'user' ? 'assistant' : 'user';
  }
  const t = nowSec();
  if (heartbeat && t - slot.lastBeat >= cfg.heartbeatEvery) {
    heartbeat.run(t, slot.id);
    slot.lastBeat = t;
  }
  return id;
}

const endSession = db.prepare(
  `UPDATE sessions SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL`,
);

// ---- operations ----------------------------------------------------------------

const stats = {
  appends: 0,
  sessions_started: 0,
  rotations: 0,
  sessions_ended: 0,
  titles: 0,
  archives: 0,
  pruned_sessions: 0,
  pruned_messages: 0,
  optimizes: 0,
  checkpoints: 0,
  checkpoint_busy: 0,
  vacuums: 0,
  markers: 0,
  busy_errors: 0,
  skipped_backlog: 0,
};
/** Latency of each maintenance operation, by kind. */
const opTimes = {};
/** [kind, epoch ms, latency ms] of each maintenance operation, for `latencyOut`. */
const opLog = [];

const append = db.transaction((slot) => nextMessage(slot));

const rotate = db.transaction((k) => {
  const parent = live[k];
  const t = nowSec();
  endSession.run(t, 'compression', parent.id);
  const title = parent.title ? uniqueTitle('continued') : undefined;
  const child = newSessionRow(t + 0.001, {
    parent_session_id: parent.id,
    source: db.prepare('SELECT source FROM sessions WHERE id = ?').pluck().get(parent.id),
    title,
  });
  insertRow('sessions', child);
  insertMessage(child.id, 'user', `[CONTEXT COMPACTION] Summary of earlier turns: ${sentence(60)}`);
  live[k] = { id: child.id, title: title ?? null, next: 'assistant', lastBeat: t };
  stats.rotations++;
  stats.sessions_started++;
});

const replaceSession = db.transaction((k, reason, extra, opening) => {
  endSession.run(nowSec(), reason, live[k].id);
  live[k] = openSession(extra, opening);
  stats.sessions_ended++;
  stats.sessions_started++;
  return live[k];
});

const retitle = db.transaction((k) => {
  const title = uniqueTitle(sentence(3));
  db.prepare(
    `UPDATE sessions SET title = ?${sessionCols.has('title_source') ? ", title_source = 'llm'" : ''} WHERE id = ?`,
  ).run(title, live[k].id);
  live[k].title = title;
  stats.titles++;
});

function archiveOne() {
  if (!sessionCols.has('archived')) return;
  const id = db
    .prepare(
      `SELECT id FROM sessions WHERE ended_at IS NOT NULL AND archived = 0 AND parent_session_id IS NULL
       ORDER BY random() LIMIT 1`,
    )
    .pluck()
    .get();
  if (id === undefined) return;
  db.prepare('UPDATE sessions SET archived = 1 WHERE id = ?').run(id);
  stats.archives++;
}

/** Deletes the oldest whole lineages whose every segment has ended (the agent's retention prune). */
const prune = db.transaction(() => {
  const liveIds = JSON.stringify(live.map((s) => s.id));
  const roots = db
    .prepare(
      `SELECT id FROM sessions WHERE parent_session_id IS NULL AND ended_at IS NOT NULL
         AND id NOT IN (SELECT value FROM json_each(?))
       ORDER BY started_at LIMIT 20`,
    )
    .pluck()
    .all(liveIds);
  let done = 0;
  for (const root of roots) {
    if (done >= cfg.pruneLineages) break;
    const lineage = db
      .prepare(
        `WITH RECURSIVE down(id, depth) AS (
           SELECT ?, 0 UNION
           SELECT s.id, d.depth + 1 FROM sessions s JOIN down d ON s.parent_session_id = d.id WHERE d.depth < 100)
         SELECT s.id, s.ended_at FROM down JOIN sessions s ON s.id = down.id ORDER BY down.depth DESC`,
      )
      .all(root);
    if (lineage.some((s) => s.ended_at === null || live.some((l) => l.id === s.id))) continue;
    for (const { id } of lineage) {
      stats.pruned_messages += db
        .prepare('DELETE FROM messages WHERE session_id = ?')
        .run(id).changes;
      db.prepare('UPDATE sessions SET parent_session_id = NULL WHERE parent_session_id = ?').run(
        id,
      );
      stats.pruned_sessions += db.prepare('DELETE FROM sessions WHERE id = ?').run(id).changes;
    }
    done++;
  }
});

function optimize() {
  for (const t of ftsTables) db.prepare(`INSERT INTO ${t}(${t}) VALUES ('optimize')`).run();
  stats.optimizes++;
}

function checkpoint() {
  if (!walMode) return; // nothing to checkpoint with a rollback journal
  const [r] = db.pragma('wal_checkpoint(TRUNCATE)');
  stats.checkpoints++;
  if (r && r.busy) stats.checkpoint_busy++;
}

function vacuum() {
  db.exec('VACUUM');
  stats.vacuums++;
}

let markerSeq = 0;
function marker() {
  const token = `zqmark${String(++markerSeq).padStart(4, '0')}x${hex(6)}`;
  const k = Math.floor(random() * live.length);
  const slot = replaceSession(k, 'new_session', {}, `remember the ${token} marker ${sentence(8)}`);
  stats.markers++;
  emit({
    event: 'marker',
    token,
    session_id: slot.id,
    message_id: slot.firstMessageId,
    at: Date.now(),
  });
}

function emit(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

const isBusy = (err) => /^SQLITE_(BUSY|LOCKED)/.test(err?.code ?? '');

/** Runs one maintenance operation, timing it; a transient lock is counted, anything else is fatal. */
function timed(kind, fn) {
  const t = performance.now();
  try {
    fn();
  } catch (err) {
    if (!isBusy(err)) throw err;
    stats.busy_errors++;
  }
  const ms = performance.now() - t;
  (opTimes[kind] ??= []).push(ms);
  opLog.push([kind, performance.timeOrigin + t, ms]);
}

// ---- the run -------------------------------------------------------------------

let stopping = false;
process.on('SIGTERM', () => (stopping = true));
process.on('SIGINT', () => (stopping = true));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i] * 1000) / 1000;
}

function summarise(values) {
  const sorted = Float64Array.from(values).sort();
  const sum = values.reduce((a, b) => a + b, 0);
  return {
    count: sorted.length,
    p50_ms: percentile(sorted, 50),
    p95_ms: percentile(sorted, 95),
    p99_ms: percentile(sorted, 99),
    max_ms: sorted.length ? Math.round(sorted[sorted.length - 1] * 1000) / 1000 : null,
    mean_ms: sorted.length ? Math.round((sum / sorted.length) * 1000) / 1000 : null,
  };
}

async function main() {
  for (let i = 0; i < cfg.liveSessions; i++) {
    live.push(db.transaction(() => openSession())());
    stats.sessions_started++;
  }
  const capacity = Math.ceil(cfg.rate * cfg.seconds * 1.1) + 1024;
  const latency = new Float64Array(capacity);
  const at = cfg.latencyOut ? new Float64Array(capacity) : null;
  let n = 0;
  const schedule = [
    ['rotate', cfg.rotateEvery, () => rotate(Math.floor(random() * live.length))],
    [
      'end',
      cfg.endEvery,
      () => replaceSession(Math.floor(random() * live.length), 'tui_shutdown', {}),
    ],
    ['title', cfg.titleEvery, () => retitle(Math.floor(random() * live.length))],
    ['archive', cfg.archiveEvery, archiveOne],
    ['prune', cfg.pruneEvery, prune],
    ['optimize', cfg.optimizeEvery, optimize],
    ['checkpoint', cfg.checkpointEvery, checkpoint],
    ['vacuum', cfg.vacuumEvery, vacuum],
    ['marker', cfg.markerEvery, marker],
  ]
    .filter(([, every]) => every > 0)
    .map(([kind, every, fn]) => ({ kind, every, fn, next: every * (0.5 + random() * 0.5) }));

  emit({
    event: 'ready',
    pid: process.pid,
    fts: ftsTables,
    columns: { sessions: sessionCols.size, messages: messageCols.size },
  });
  const t0 = performance.now();
  let written = 0;
  let nextProgress = cfg.progressEvery || Infinity;
  for (;;) {
    const elapsed = (performance.now() - t0) / 1000;
    if (stopping || elapsed >= cfg.seconds) break;
    let due = Math.floor(elapsed * cfg.rate);
    const backlog = cfg.maxBacklogSeconds * cfg.rate;
    if (due - written > backlog) {
      stats.skipped_backlog += due - written - backlog;
      written = due - backlog;
    }
    while (written < due && !stopping) {
      const slot = live[written % live.length];
      const t = performance.now();
      try {
        append(slot);
        const ms = performance.now() - t;
        if (n < capacity) {
          latency[n] = ms;
          if (at) at[n] = performance.timeOrigin + t;
          n++;
        }
        stats.appends++;
      } catch (err) {
        if (!isBusy(err)) throw err;
        stats.busy_errors++;
      }
      written++;
    }
    for (const op of schedule) {
      if (elapsed >= op.next) {
        timed(op.kind, op.fn);
        op.next = elapsed + op.every;
      }
    }
    if (elapsed >= nextProgress) {
      process.stderr.write(`agentSim: ${elapsed.toFixed(0)} s, ${stats.appends} messages\n`);
      nextProgress += cfg.progressEvery;
    }
    await sleep(1);
  }
  const elapsed = (performance.now() - t0) / 1000;
  if (at) {
    const pairs = new Float64Array(n * 2);
    for (let i = 0; i < n; i++) {
      pairs[2 * i] = at[i];
      pairs[2 * i + 1] = latency[i];
    }
    writeFileSync(cfg.latencyOut, Buffer.from(pairs.buffer));
    writeFileSync(`${cfg.latencyOut}.ops.json`, JSON.stringify(opLog));
  }
  const commit = summarise(Array.from(latency.subarray(0, n)));
  const ops = Object.fromEntries(Object.entries(opTimes).map(([k, v]) => [k, summarise(v)]));
  emit({
    event: 'summary',
    ...commit,
    elapsed_s: Math.round(elapsed * 100) / 100,
    rate: Math.round(stats.appends / elapsed),
    stats,
    ops,
    config: { rate: cfg.rate, seconds: cfg.seconds, synchronous: cfg.synchronous },
  });
}

try {
  await main();
  db.close();
} catch (err) {
  process.stderr.write(`agentSim: ${err?.code ?? ''} ${err?.message ?? err}\n`);
  try {
    db.close();
  } catch {
    // closing after a failure: the failure is what matters
  }
  process.exitCode = 1;
}
