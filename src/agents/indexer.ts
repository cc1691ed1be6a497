/**
 * One indexing pass: stat every known and newly listed source file, parse only
 * what changed (from the saved byte offset when the file only grew), and write the
 * results in one transaction per batch of files, so a crash leaves the previous
 * state. Sessions whose files vanished stay, marked `gone` (AGENTS.md rule 3).
 */
import type Database from 'better-sqlite3';
import { existsSync, readFileSync, statSync, type Stats } from 'node:fs';
import { hostname } from 'node:os';
import { basename } from 'node:path';
import {
  listFiles,
  sourceRoots,
  type Overrides,
  type SourceFile,
  type SourceRoot,
} from './discover.js';
import { applyCodexTitles } from './codexTitles.js';
import { parseRecord, readLines } from './lines.js';
import {
  AGENTS,
  FLAG,
  OUT_OF_TRANSCRIPT,
  Problems,
  type Agent,
  type ConvPatch,
  type Msg,
} from './model.js';
import { claudeParser } from './parsers/claude.js';
import { codexFileId, codexParser, codexRolloutId } from './parsers/codex.js';
import { geminiLegacy, geminiLegacyShadowed, geminiParser } from './parsers/gemini.js';
import { readOpencode, type OpencodeSession } from './parsers/opencode.js';
import { readOpencodeStorage, storageSignatures } from './parsers/opencodeLegacy.js';
import { praisonaiParse } from './parsers/praisonai.js';
import { readPraisonaiDb } from './parsers/praisonaiDb.js';
import { MORE_PARSER_VERSION, moreDbReader, moreLineParser } from './moreAgents.js';
import { hasCjk } from '../store/query.js';
import { deferFtsIfFirst, fillFts } from './indexDb.js';
import type { LineParser, ParseContext, ParseResult } from './parsers/types.js';

/** A new version re-parses every file of that agent from the start. */
export const PARSER_VERSION: Record<Agent, number> = {
  // 2: live branch and inactive branches; copies in resumed files.
  claude: 2,
  // 2: a paginated thread's segments read as one conversation (§8.1).
  codex: 2,
  // 2: `$patch` records applied.
  // 3: the injected `<session_context>` of 0.58 is context, not a prompt (§8.3).
  gemini: 3,
  // 2: opencode 2.x `session_v2`/`session_message` read (§8.2).
  opencode: 2,
  praisonai: 1,
  ...MORE_PARSER_VERSION,
};

/** Whole-document sources above this are skipped with a reason (FAD skips sidecars above 100 MB). */
const MAX_DOCUMENT_BYTES = 100 * 1024 * 1024;
/** Files written per transaction; a batch is also closed after this many messages. */
const BATCH_FILES = 200;
const BATCH_MESSAGES = 20_000;

export interface IndexOptions {
  env?: NodeJS.ProcessEnv;
  overrides?: Overrides;
  agents?: readonly Agent[];
  onProgress?: (p: Progress) => void;
}

export interface Progress {
  agent: Agent;
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  messages: number;
}

export interface IndexReport {
  roots: SourceRoot[];
  files: number;
  parsed: number;
  unchanged: number;
  bytesRead: number;
  messages: number;
  ms: number;
}

interface FileRow {
  path: string;
  conv_id: number | null;
  dev: number;
  ino: number;
  size: number;
  mtime_ms: number;
  byte_offset: number;
  next_line: number;
  next_ordinal: number;
  carry: string | null;
  parser_version: number;
  problems: string | null;
}

/** What one file's parse wants written. */
interface Parsed {
  file: SourceFile;
  st: Stats;
  full: boolean;
  results: ParseResult[];
  offset: number;
  nextLine: number;
  problems: Record<string, number>;
  /** Null for a file that is never resumed alone (an earlier segment of a Codex thread). */
  carry: Record<string, unknown> | null;
  /** The other files read into the same conversation (a Codex thread's earlier segments). */
  also?: Parsed[];
}

function lineParser(agent: Agent, ctx: ParseContext): LineParser {
  if (agent === 'claude') return claudeParser(ctx);
  if (agent === 'codex') return codexParser(ctx);
  return moreLineParser(agent, ctx) ?? geminiParser(ctx);
}

function mergeProblems(
  a: Record<string, number>,
  b: Record<string, number>,
): Record<string, number> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v;
  return out;
}

/**
 * Parses one file (or the part of it that is new); never throws for a bad file.
 * `chain` is every file of a Codex thread in order, `file` its newest (§8.1): a
 * parse from the start reads them all into one conversation, one copy of each
 * record; only the newest grows, so only it is ever resumed.
 */
function parseFile(
  file: SourceFile,
  st: Stats,
  row: FileRow | undefined,
  chain?: readonly SourceFile[],
  forceFull = false,
): Parsed {
  const problems = new Problems();
  const base = { file, st, results: [] as ParseResult[], carry: {} as Record<string, unknown> };
  const same =
    row !== undefined &&
    row.parser_version === PARSER_VERSION[file.agent] &&
    row.dev === st.dev &&
    row.ino === st.ino;
  if (file.format === 'zst') {
    problems.add('zstd-compressed rollout skipped (Node 20 has no zstd)');
    return { ...base, full: true, offset: 0, nextLine: 0, problems: problems.toJSON() };
  }
  // Aider's Markdown is append-only lines too, handed over raw.
  if (file.format === 'jsonl' || file.format === 'md') {
    const resume =
      !forceFull &&
      same &&
      row.conv_id !== null &&
      st.size >= row.size &&
      row.carry !== null &&
      row.carry !== 'null';
    const run = (fromStart: boolean): Parsed => {
      const p = new Problems();
      const carry = fromStart ? null : (JSON.parse(row!.carry!) as Record<string, unknown>);
      const parser = lineParser(file.agent, { path: file.path, carry, problems: p });
      const also: Parsed[] = [];
      // Earlier segments first, each read whole, through the same parser.
      for (const f of fromStart && chain ? chain.filter((c) => c !== file) : []) {
        const fp = new Problems();
        const fst = statSync(f.path);
        parser.beginFile?.(f.path);
        const r = readLines(
          f.path,
          0,
          fst.size,
          (line, no) => {
            const rec = parseRecord(line, fp);
            if (rec) parser.record(rec, no);
          },
          fp,
        );
        also.push({
          file: f,
          st: fst,
          full: true,
          results: [],
          offset: r.end,
          nextLine: r.lines,
          problems: fp.toJSON(),
          carry: null,
        });
      }
      if (also.length > 0) parser.beginFile?.(file.path);
      const offset = fromStart ? 0 : row!.byte_offset;
      const read = readLines(
        file.path,
        offset,
        st.size,
        (line, no) => {
          if (parser.line) return parser.line(line, no);
          const rec = parseRecord(line, p);
          if (rec) parser.record(rec, no);
        },
        p,
        fromStart ? 0 : row!.next_line,
      );
      const result = parser.finish();
      return {
        ...base,
        full: fromStart,
        results: [result],
        offset: read.end,
        nextLine: (fromStart ? 0 : row!.next_line) + read.lines,
        problems: fromStart
          ? p.toJSON()
          : mergeProblems(JSON.parse(row!.problems ?? '{}'), p.toJSON()),
        carry: result.carry,
        ...(also.length > 0 ? { also } : {}),
      };
    };
    try {
      if (resume) {
        const r = run(false);
        if (!r.results[0]!.needsFull) return r;
      }
      return run(true);
    } catch (err) {
      problems.add(`unreadable: ${oneLine(err)}`);
      return { ...base, full: true, offset: 0, nextLine: 0, problems: problems.toJSON() };
    }
  }
  // Whole documents: PraisonAI sessions, legacy Gemini chats, very early Codex rollouts.
  if (st.size > MAX_DOCUMENT_BYTES) {
    problems.add('document over 100 MB skipped');
    return { ...base, full: true, offset: 0, nextLine: 0, problems: problems.toJSON() };
  }
  const ctx: ParseContext = { path: file.path, carry: null, problems };
  try {
    const doc: unknown = JSON.parse(readFileSync(file.path, 'utf8'));
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
      throw new Error('not a JSON object');
    const d = doc as Record<string, unknown>;
    let result: ParseResult | null = null;
    if (file.agent === 'praisonai') result = praisonaiParse(ctx, d);
    else if (file.agent === 'gemini') result = geminiLegacy(ctx, d);
    else problems.add('legacy .json rollout not supported');
    return {
      ...base,
      full: true,
      results: result ? [result] : [],
      offset: st.size,
      nextLine: 0,
      problems: problems.toJSON(),
    };
  } catch (err) {
    problems.add(
      err instanceof SyntaxError
        ? 'file is not valid JSON (truncated or garbage)'
        : `unreadable: ${oneLine(err)}`,
    );
    return { ...base, full: true, offset: 0, nextLine: 0, problems: problems.toJSON() };
  }
}

function oneLine(err: unknown): string {
  return String((err as Error)?.message ?? err)
    .split('\n')[0]!
    .slice(0, 120);
}

/** The SQL the writer needs, prepared once per pass. */
class Writer {
  private readonly host = hostname();
  private readonly s;
  readonly touched = new Set<number>();

  constructor(private readonly db: Database.Database) {
    this.s = {
      conv: db.prepare(`SELECT * FROM conversations WHERE agent = ? AND native_id = ?`),
      insertConv: db.prepare(
        `INSERT INTO conversations (agent, native_id, host) VALUES (?, ?, ?) RETURNING id`,
      ),
      updateConv: db.prepare(
        `UPDATE conversations SET parent_native_id = ?, parent_kind = ?, title = ?, title_rank = ?, cwd = ?,
           git_branch = ?, model = ?, source = ?, started_at = ?, last_active_at = ?, source_path = ?, gone = 0, extra = ?
         WHERE id = ?`,
      ),
      deleteMessages: db.prepare(`DELETE FROM messages WHERE conv_id = ?`),
      find: db.prepare(`SELECT id FROM messages WHERE conv_id = ? AND anchor = ?`),
      insert: db.prepare(
        `INSERT INTO messages (conv_id, ordinal, anchor, role, kind, text, reasoning, tool_name, call_id, tool_calls,
           created_at, model, tokens, flags, original_len, cjk)
         VALUES (@conv_id, @ordinal, @anchor, @role, @kind, @text, @reasoning, @tool_name, @call_id, @tool_calls,
           @created_at, @model, @tokens, @flags, @original_len, @cjk)`,
      ),
      update: db.prepare(
        `UPDATE messages SET role = @role, kind = @kind, text = @text, reasoning = @reasoning, tool_name = @tool_name,
           call_id = @call_id, tool_calls = @tool_calls, created_at = @created_at, model = @model, tokens = @tokens,
           flags = @flags, original_len = @original_len, cjk = @cjk WHERE id = @id`,
      ),
      stats: db.prepare(
        `UPDATE conversations SET
           message_count = (SELECT count(*) FROM messages WHERE conv_id = @id AND flags & ${OUT_OF_TRANSCRIPT} = 0),
           preview = (SELECT substr(text, 1, 200) FROM messages WHERE conv_id = @id AND role = 'user' AND kind = 'text'
                      AND flags & ${OUT_OF_TRANSCRIPT} = 0 ORDER BY ordinal LIMIT 1)
         WHERE id = @id`,
      ),
      fileUpsert: db.prepare(
        `INSERT INTO files (path, agent, conv_id, dev, ino, size, mtime_ms, byte_offset, next_line, next_ordinal, carry,
           parser_version, problems, indexed_at)
         VALUES (@path, @agent, @conv_id, @dev, @ino, @size, @mtime_ms, @byte_offset, @next_line, @next_ordinal, @carry,
           @parser_version, @problems, @indexed_at)
         ON CONFLICT (path) DO UPDATE SET agent = excluded.agent, conv_id = excluded.conv_id, dev = excluded.dev,
           ino = excluded.ino, size = excluded.size, mtime_ms = excluded.mtime_ms, byte_offset = excluded.byte_offset,
           next_line = excluded.next_line, next_ordinal = excluded.next_ordinal, carry = excluded.carry,
           parser_version = excluded.parser_version, problems = excluded.problems, indexed_at = excluded.indexed_at`,
      ),
      maxOrdinal: db.prepare(
        `SELECT ifnull(max(ordinal) + 1, 0) AS n FROM messages WHERE conv_id = ?`,
      ),
      convId: db.prepare(`SELECT id FROM conversations WHERE agent = ? AND native_id = ?`),
      // Every (copy, original) pair: one scan of the agent's conversations, parsing only the few with copies.
      copyPairs: db.prepare(
        `SELECT c.id AS copy, o.id AS home
         FROM conversations c, json_each(c.extra, '$.copied_from') j
           JOIN conversations o ON o.agent = c.agent AND o.native_id = j.value
         WHERE c.agent = ? AND instr(c.extra, '"copied_from"') > 0`,
      ),
      flagCopies: db.prepare(
        `UPDATE messages SET flags = flags | ${FLAG.copied}
         WHERE conv_id = @copy AND flags & ${FLAG.copied} = 0
           AND anchor IN (SELECT anchor FROM messages WHERE conv_id = @home AND flags & ${FLAG.copied} = 0)`,
      ),
    };
  }

  /**
   * A resumed Claude file starts with the lines of the session it resumed, same
   * uuids (AGENTS.md §1.4): those rows are flagged `copied` while the session they
   * came from holds them, so one conversation's messages are never shown twice.
   * Runs from both sides, so the order files are indexed in does not matter; a
   * copy whose original was never indexed (pruned first) stays the only copy.
   */
  linkCopies(agent: Agent, written: ReadonlySet<number>): void {
    if (written.size === 0) return;
    for (const { copy, home } of this.s.copyPairs.all(agent) as { copy: number; home: number }[])
      if (
        copy !== home &&
        (written.has(copy) || written.has(home)) &&
        this.s.flagCopies.run({ copy, home }).changes > 0
      )
        this.touched.add(copy);
  }

  /** Merges a parse's session fields into the stored conversation; returns its id. */
  conversation(agent: Agent, patch: ConvPatch, sourcePath: string): number {
    let row = this.s.conv.get(agent, patch.native_id) as Record<string, unknown> | undefined;
    if (!row) {
      const { id } = this.s.insertConv.get(agent, patch.native_id, this.host) as { id: number };
      row = { id, title_rank: 0 };
    }
    const keep = <T>(v: T | null | undefined, old: unknown): T | null =>
      v !== undefined && v !== null ? v : ((old ?? null) as T | null);
    const rank = patch.title_rank ?? 0;
    const newTitle = patch.title && rank >= Number(row.title_rank ?? 0);
    const min = (a: number | null | undefined, b: unknown) =>
      a == null ? ((b as number | null) ?? null) : b == null ? a : Math.min(a, Number(b));
    const max = (a: number | null | undefined, b: unknown) =>
      a == null ? ((b as number | null) ?? null) : b == null ? a : Math.max(a, Number(b));
    const extra = {
      ...(row.extra ? (JSON.parse(String(row.extra)) as object) : {}),
      ...(patch.extra ?? {}),
    };
    this.s.updateConv.run(
      keep(patch.parent_native_id, row.parent_native_id),
      keep(patch.parent_kind, row.parent_kind),
      newTitle ? patch.title : (row.title ?? null),
      newTitle ? rank : Number(row.title_rank ?? 0),
      keep(patch.cwd, row.cwd),
      keep(patch.git_branch, row.git_branch),
      keep(patch.model, row.model),
      keep(patch.source, row.source),
      min(patch.started_at, row.started_at),
      max(patch.last_active_at, row.last_active_at),
      sourcePath,
      Object.keys(extra).length > 0 ? JSON.stringify(extra) : null,
      row.id,
    );
    return Number(row.id);
  }

  /** Writes messages in order: known anchors are updated in place, new ones get the next ordinal. */
  messages(convId: number, msgs: readonly Msg[], fresh: boolean, nextOrdinal: number): number {
    if (fresh) this.s.deleteMessages.run(convId);
    let ord = fresh ? 0 : nextOrdinal;
    const seen = new Set<string>();
    for (const m of msgs) {
      const values = {
        conv_id: convId,
        ordinal: ord,
        anchor: m.anchor,
        role: m.role,
        kind: m.kind,
        text: m.text,
        reasoning: m.reasoning ?? null,
        tool_name: m.tool_name ?? null,
        call_id: m.call_id ?? null,
        tool_calls: m.tool_calls && m.tool_calls.length > 0 ? JSON.stringify(m.tool_calls) : null,
        created_at: m.created_at,
        model: m.model ?? null,
        tokens: m.tokens ?? null,
        flags: m.flags,
        original_len: m.original_len,
        cjk: hasCjk(m.text) || (m.reasoning ? hasCjk(m.reasoning) : false) ? 1 : 0,
      };
      // After a delete (a parse from the start) only a repeated anchor in the same file can exist.
      const found =
        fresh && !seen.has(m.anchor)
          ? undefined
          : (this.s.find.get(convId, m.anchor) as { id: number } | undefined);
      if (fresh) seen.add(m.anchor);
      if (found) {
        const { conv_id: _c, ordinal: _o, anchor: _a, ...fields } = values;
        this.s.update.run({ ...fields, id: found.id });
      } else {
        this.s.insert.run(values);
        ord++;
      }
    }
    this.touched.add(convId);
    return ord;
  }

  file(p: Parsed, convId: number | null, nextOrdinal: number): void {
    this.s.fileUpsert.run({
      path: p.file.path,
      agent: p.file.agent,
      conv_id: convId,
      dev: p.st.dev,
      ino: p.st.ino,
      size: p.st.size,
      mtime_ms: p.st.mtimeMs,
      byte_offset: p.offset,
      next_line: p.nextLine,
      next_ordinal: nextOrdinal,
      carry: p.carry === null ? null : JSON.stringify(p.carry),
      parser_version: PARSER_VERSION[p.file.agent],
      problems: Object.keys(p.problems).length > 0 ? JSON.stringify(p.problems) : null,
      indexed_at: Date.now(),
    });
  }

  /**
   * A PraisonAI session can be both a `<id>.json` and a `sessions.db` row (the
   * SQLite store imports the JSON files on first use and leaves them): one
   * conversation, from whichever copy was updated last. True when the stored one
   * came from another source that still exists and is newer than `patch`.
   */
  newerElsewhere(agent: Agent, patch: ConvPatch, sourcePath: string): boolean {
    const row = this.s.conv.get(agent, patch.native_id) as
      { source_path: string | null; last_active_at: number | null } | undefined;
    if (!row || row.source_path === null || row.source_path === sourcePath) return false;
    if (!existsSync(row.source_path)) return false;
    return (row.last_active_at ?? 0) > (patch.last_active_at ?? 0);
  }

  nextOrdinal(convId: number): number {
    return (this.s.maxOrdinal.get(convId) as { n: number }).n;
  }

  finishStats(): void {
    for (const id of this.touched) this.s.stats.run({ id });
    this.touched.clear();
  }
}

/**
 * Runs one pass over every agent's sources (or the ones asked for). Writes take
 * the lock up front (BEGIN IMMEDIATE), so two lookback processes indexing at once
 * wait for each other instead of failing on a stale read snapshot.
 */
/** How often a pass that changed nothing still stamps `sources.last_indexed_at`. */
const SOURCE_STAMP_MS = 60_000;

export function indexAll(db: Database.Database, opts: IndexOptions = {}): IndexReport {
  const t0 = performance.now();
  // A first build (an empty index) fills the FTS tables once at the end, not per row;
  // a first build that stopped part way is carried on the same way.
  const deferred = deferFtsIfFirst(db);
  let report: IndexReport;
  try {
    report = pass(db, opts);
  } catch (err) {
    if (deferred)
      try {
        fillFts(db); // what was written is searchable; the next pass carries on
      } catch {
        /* the next pass fills them */
      }
    throw err;
  }
  if (deferred) fillFts(db);
  report.ms = performance.now() - t0;
  return report;
}

function pass(db: Database.Database, opts: IndexOptions): IndexReport {
  const env = opts.env ?? process.env;
  const agents = opts.agents ?? AGENTS;
  const roots = sourceRoots(env, opts.overrides).filter((r) => agents.includes(r.agent));
  const report: IndexReport = {
    roots,
    files: 0,
    parsed: 0,
    unchanged: 0,
    bytesRead: 0,
    messages: 0,
    ms: 0,
  };
  const writer = new Writer(db);
  const getFile = db.prepare(`SELECT * FROM files WHERE path = ?`);
  // What the unchanged test needs, for every file of an agent in one query: a query
  // per file cost 80 ms of a 150 ms pass over 10,000 unchanged files.
  const statRows = db.prepare(
    `SELECT path, dev, ino, size, mtime_ms, parser_version FROM files WHERE agent = ?`,
  );
  const setSource = db.prepare(
    `INSERT INTO sources (agent, last_indexed_at, roots) VALUES (?, ?, ?)
     ON CONFLICT (agent) DO UPDATE SET last_indexed_at = excluded.last_indexed_at, roots = excluded.roots`,
  );
  const getSource = db.prepare(`SELECT last_indexed_at, roots FROM sources WHERE agent = ?`);
  const countFiles = db.prepare(`SELECT count(*) AS n FROM files WHERE agent = ?`);

  for (const agent of agents) {
    const agentRoots = roots.filter((r) => r.agent === agent);
    const files = agentRoots.flatMap((r) => listFiles(r));
    const seen = new Set(files.map((f) => f.path));
    const work: {
      file: SourceFile;
      st: Stats;
      row: FileRow | undefined;
      chain?: SourceFile[];
      forceFull?: boolean;
    }[] = [];
    const chains = agent === 'codex' ? codexChains(files) : new Map<string, SourceFile[]>();
    // Threads with a changed segment: read again as one, from their newest file.
    const changedChains = new Map<string, boolean>();
    let bytesTotal = 0;
    let statted = 0;
    const known = new Map(
      (
        statRows.all(agent) as Pick<
          FileRow,
          'path' | 'dev' | 'ino' | 'size' | 'mtime_ms' | 'parser_version'
        >[]
      ).map((r) => [r.path, r]),
    );
    for (const file of files) {
      if (file.agent === 'gemini' && geminiLegacyShadowed(file.path)) continue;
      let st: Stats;
      try {
        st = statSync(file.path);
      } catch {
        continue; // gone between the listing and the stat
      }
      report.files++;
      statted++;
      const seenRow = known.get(file.path);
      // opencode: a write always touches the database or its -wal; the legacy tree, a session file.
      const walMtime =
        file.format === 'sqlite'
          ? walSignature(file.path)
          : file.format === 'storage'
            ? storageStamp(file.path)
            : 0;
      if (
        seenRow &&
        seenRow.parser_version === PARSER_VERSION[agent] &&
        seenRow.dev === st.dev &&
        seenRow.ino === st.ino &&
        seenRow.size === st.size &&
        seenRow.mtime_ms === st.mtimeMs + walMtime
      ) {
        report.unchanged++;
        continue;
      }
      const thread = chains.size > 0 ? codexFileId(file.path) : null;
      const chain = thread !== null ? chains.get(thread) : undefined;
      if (thread !== null && chain) {
        const last = chain[chain.length - 1]!;
        changedChains.set(thread, (changedChains.get(thread) ?? false) || file !== last);
        continue;
      }
      const row = getFile.get(file.path) as FileRow | undefined;
      work.push({ file, st, row });
      bytesTotal +=
        (file.format === 'jsonl' || file.format === 'md') &&
        row &&
        row.ino === st.ino &&
        st.size >= row.size
          ? st.size - row.byte_offset
          : st.size;
    }
    for (const [thread, forceFull] of changedChains) {
      const chain = chains.get(thread)!;
      const last = chain[chain.length - 1]!;
      let st: Stats;
      try {
        st = statSync(last.path);
      } catch {
        continue;
      }
      const row = getFile.get(last.path) as FileRow | undefined;
      work.push({ file: last, st, row, chain, forceFull });
      bytesTotal += st.size;
    }
    let filesDone = 0;
    let bytesDone = 0;
    let batch: Parsed[] = [];
    let batchMessages = 0;
    const flush = () => {
      if (batch.length === 0) return;
      const items = batch;
      db.transaction(() => {
        const written = new Set<number>();
        for (const p of items) {
          const id = write(writer, p);
          if (id !== null) written.add(id);
        }
        // Once per batch, not per file: the pairs come from one scan.
        if (agent === 'claude') writer.linkCopies('claude', written);
        writer.finishStats();
      }).immediate();
      batch = [];
      batchMessages = 0;
    };
    for (const { file, st, row, chain, forceFull } of work) {
      if (file.format === 'storage') {
        flush();
        report.messages += indexOpencodeStorage(db, writer, file, st, row);
      } else if (file.format === 'sqlite') {
        flush();
        report.messages +=
          agent === 'opencode'
            ? indexOpencode(db, writer, file, st, row)
            : agent === 'praisonai'
              ? indexPraisonaiDb(db, writer, file, st, row)
              : indexMoreDb(db, writer, file, st, row);
      } else {
        const p = parseFile(file, st, row, chain, forceFull);
        batch.push(p);
        const n = p.results.reduce((a, r) => a + r.messages.length, 0);
        batchMessages += n;
        report.messages += n;
        bytesDone += p.full ? st.size : st.size - (row?.byte_offset ?? 0);
        if (batch.length >= BATCH_FILES || batchMessages >= BATCH_MESSAGES) flush();
      }
      report.parsed++;
      filesDone++;
      opts.onProgress?.({
        agent,
        filesDone,
        filesTotal: work.length,
        bytesDone,
        bytesTotal,
        messages: report.messages,
      });
    }
    flush();
    report.bytesRead += bytesDone;
    if (agent === 'codex') applyCodexTitles(db, agentRoots);
    // A pass that found nothing new writes nothing (the app watches data_version and
    // would otherwise reload every pass); `last indexed` is refreshed once a minute.
    const rootsJson = JSON.stringify(agentRoots);
    const last = getSource.get(agent) as { last_indexed_at: number; roots: string } | undefined;
    const quiet =
      work.length === 0 &&
      last !== undefined &&
      last.roots === rootsJson &&
      Date.now() - last.last_indexed_at < SOURCE_STAMP_MS &&
      (countFiles.get(agent) as { n: number }).n === statted;
    if (!quiet)
      db.transaction(() => {
        markGone(db, agent, seen);
        setSource.run(agent, Date.now(), rootsJson);
      }).immediate();
  }
  return report;
}

/**
 * The files of each Codex thread that spans several (AGENTS.md §8.1), oldest
 * first: `rollout-<time>-<thread>[_<rollout>].jsonl` sorts by time, and the
 * first segment (no `_<rollout>`) before a later one of the same second. A
 * copy of the same rollout elsewhere (archived) counts once.
 */
function codexChains(files: readonly SourceFile[]): Map<string, SourceFile[]> {
  const byThread = new Map<string, SourceFile[]>();
  for (const f of files) {
    if (f.format !== 'jsonl') continue;
    const thread = codexFileId(f.path);
    if (thread === null) continue;
    const list = byThread.get(thread);
    if (list) list.push(f);
    else byThread.set(thread, [f]);
  }
  const out = new Map<string, SourceFile[]>();
  for (const [thread, list] of byThread) {
    if (list.length < 2) continue;
    const rollouts = new Set<string>();
    const chain = list
      .filter((f) => {
        const r = codexRolloutId(f.path) ?? f.path;
        if (rollouts.has(r)) return false;
        rollouts.add(r);
        return true;
      })
      .sort((a, b) => (basename(a.path) < basename(b.path) ? -1 : 1));
    if (chain.length > 1) out.set(thread, chain);
  }
  return out;
}

/** Writes one parsed file; returns the conversation it wrote, if any. */
function write(writer: Writer, p: Parsed): number | null {
  const result = p.results[0];
  if (!result?.conv) {
    writer.file(p, null, 0);
    return null;
  }
  if (
    p.file.agent === 'praisonai' &&
    writer.newerElsewhere('praisonai', result.conv, p.file.path)
  ) {
    writer.file(p, null, 0);
    return null;
  }
  const convId = writer.conversation(p.file.agent, result.conv, p.file.path);
  const next = p.full ? 0 : writer.nextOrdinal(convId);
  const after = writer.messages(convId, result.messages, p.full, next);
  writer.file(p, convId, after);
  for (const a of p.also ?? []) writer.file(a, convId, after);
  return convId;
}

/** A source whose one file (a database, a directory tree) holds many sessions. */
interface ManySessions {
  agent: Agent;
  /** The carry key of each session's change mark (kept as it was written, so old indexes read on). */
  key: 'signatures' | 'watermarks';
  /** Added to the file's mtime for the stat check: a change the file's own stat misses. */
  stamp: number;
  /** The sessions whose marks differ from `known`, and every session's mark now. */
  read(
    known: Record<string, string>,
    problems: Problems,
  ): { sessions: OpencodeSession[]; marks: Record<string, string> };
  /** A session to leave to another file (a newer copy elsewhere). */
  skip?(conv: ConvPatch): boolean;
}

/**
 * Re-derives the sessions whose change marks moved, in one transaction; a session
 * gone from the file stays, marked gone (only where this file was its source).
 */
function indexSessions(
  db: Database.Database,
  writer: Writer,
  file: SourceFile,
  st: Stats,
  row: FileRow | undefined,
  o: ManySessions,
): number {
  const problems = new Problems();
  const known =
    row && row.parser_version === PARSER_VERSION[o.agent] && row.carry
      ? ((JSON.parse(row.carry) as Record<string, Record<string, string> | undefined>)[o.key] ?? {})
      : {};
  let read: ReturnType<ManySessions['read']>;
  try {
    read = o.read(known, problems);
  } catch (err) {
    problems.add(`unreadable: ${oneLine(err)}`);
    read = { sessions: [], marks: known };
  }
  const parsed: Parsed = {
    file,
    st: { ...st, mtimeMs: st.mtimeMs + o.stamp } as Stats,
    full: true,
    results: [],
    offset: 0,
    nextLine: 0,
    problems: problems.toJSON(),
    carry: { [o.key]: read.marks },
  };
  let n = 0;
  db.transaction(() => {
    for (const s of read.sessions) {
      if (o.skip?.(s.conv)) continue;
      const convId = writer.conversation(o.agent, s.conv, file.path);
      writer.messages(convId, s.messages, true, 0);
      n += s.messages.length;
    }
    const gone = db.prepare(
      `UPDATE conversations SET gone = 1 WHERE agent = ? AND native_id = ? AND source_path = ?`,
    );
    for (const id of Object.keys(known)) if (!(id in read.marks)) gone.run(o.agent, id, file.path);
    writer.file(parsed, null, 0);
    writer.finishStats();
  }).immediate();
  return n;
}

/** opencode keeps everything in one database: signatures per session say which to re-derive. */
function indexOpencode(
  db: Database.Database,
  writer: Writer,
  file: SourceFile,
  st: Stats,
  row: FileRow | undefined,
): number {
  return indexSessions(db, writer, file, st, row, {
    agent: 'opencode',
    key: 'signatures',
    stamp: walSignature(file.path),
    read: (known, problems) => {
      const r = readOpencode(file.path, known, problems);
      return { sessions: r.sessions, marks: r.signatures };
    },
  });
}

/** PraisonAI's sessions.db: sessions whose `updated_at` changed are re-derived, like opencode's. */
function indexPraisonaiDb(
  db: Database.Database,
  writer: Writer,
  file: SourceFile,
  st: Stats,
  row: FileRow | undefined,
): number {
  return indexSessions(db, writer, file, st, row, {
    agent: 'praisonai',
    key: 'watermarks',
    stamp: walSignature(file.path),
    read: (known, problems) => {
      const r = readPraisonaiDb(file.path, known, problems);
      return { sessions: r.sessions, marks: r.watermarks };
    },
    // The same session in a JSON file too: the newer copy is the conversation.
    skip: (conv) => writer.newerElsewhere('praisonai', conv, file.path),
  });
}

/** A database of an agent of AGENTS.md §9 (Crush, Goose): a change mark per session. */
function indexMoreDb(
  db: Database.Database,
  writer: Writer,
  file: SourceFile,
  st: Stats,
  row: FileRow | undefined,
): number {
  const reader = moreDbReader(file.agent);
  return indexSessions(db, writer, file, st, row, {
    agent: file.agent,
    key: 'watermarks',
    stamp: walSignature(file.path),
    read: (known, problems) => {
      if (!reader) {
        problems.add('no reader for this database');
        return { sessions: [], marks: known };
      }
      return reader(file.path, known, problems);
    },
  });
}

/**
 * opencode's legacy `storage/` tree, read only for sessions no opencode database
 * provided (1.2+ imports the tree once and leaves it on disk): a session whose
 * stored copy came from a database that still exists is skipped.
 */
function indexOpencodeStorage(
  db: Database.Database,
  writer: Writer,
  file: SourceFile,
  st: Stats,
  row: FileRow | undefined,
): number {
  const signatures = storageSignatures(file.path);
  const fromDb = db.prepare(
    `SELECT source_path FROM conversations WHERE agent = 'opencode' AND native_id = ?`,
  );
  return indexSessions(db, writer, file, st, row, {
    agent: 'opencode',
    key: 'signatures',
    stamp: storageStamp(file.path),
    read: (known, problems) => {
      const changed = Object.keys(signatures).filter((id) => {
        if (known[id] === signatures[id]) return false;
        const c = fromDb.get(id) as { source_path: string | null } | undefined;
        return !(c?.source_path && c.source_path !== file.path && existsSync(c.source_path));
      });
      let sessions: OpencodeSession[] = [];
      try {
        sessions = readOpencodeStorage(file.path, changed, problems);
      } catch (err) {
        problems.add(`unreadable: ${oneLine(err)}`);
      }
      return { sessions, marks: signatures };
    },
  });
}

/** The legacy tree's per-session signatures folded into one number (FNV-1a) for the stat check. */
function storageStamp(path: string): number {
  let h = 0x811c9dc5;
  for (const ch of JSON.stringify(storageSignatures(path))) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 1e3;
}

/** The -wal's mtime folded into the change signal (a checkpoint can leave the main file's size alone). */
function walSignature(path: string): number {
  try {
    const w = statSync(`${path}-wal`);
    return w.mtimeMs / 1e6 + w.size;
  } catch {
    return 0;
  }
}

/** Files no longer listed and no longer on disk: forget the file, keep the conversation flagged gone. */
function markGone(db: Database.Database, agent: Agent, seen: Set<string>): void {
  const rows = db.prepare(`SELECT path, conv_id FROM files WHERE agent = ?`).all(agent) as {
    path: string;
    conv_id: number | null;
  }[];
  const del = db.prepare(`DELETE FROM files WHERE path = ?`);
  const others = db.prepare(`SELECT count(*) AS n FROM files WHERE conv_id = ?`);
  const gone = db.prepare(`UPDATE conversations SET gone = 1 WHERE id = ?`);
  for (const r of rows) {
    if (seen.has(r.path) || existsSync(r.path)) continue;
    del.run(r.path);
    if (r.conv_id !== null && (others.get(r.conv_id) as { n: number }).n === 0) gone.run(r.conv_id);
    if (r.conv_id === null)
      // A database (opencode, PraisonAI sessions.db) holds many conversations.
      db.prepare(`UPDATE conversations SET gone = 1 WHERE agent = ? AND source_path = ?`).run(
        agent,
        r.path,
      );
  }
}
