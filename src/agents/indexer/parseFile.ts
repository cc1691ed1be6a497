/**
 * Reading one file: the new part of an append-only log through the agent's line
 * parser (resumed from the saved offset and carry), or a whole JSON document.
 * Never throws for a bad file: the problem is recorded with the file instead.
 */
import { readFileSync, statSync, type Stats } from 'node:fs';
import type { SourceFile } from '../discover.js';
import { parseRecord, readLines } from '../lines.js';
import { Problems, type Agent } from '../model.js';
import { claudeParser } from '../parsers/claude.js';
import { codexParser } from '../parsers/codex.js';
import { geminiLegacy, geminiParser } from '../parsers/gemini.js';
import { praisonaiParse } from '../parsers/praisonai.js';
import { moreDocumentParser, moreLineParser } from '../moreAgents.js';
import type { LineParser, ParseContext, ParseResult } from '../parsers/types.js';
import { PARSER_VERSION } from './parserVersion.js';
import type { FileRow, Parsed } from './types.js';
import { MAX_DOCUMENT_BYTES } from '../../budgets.js';

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
export function parseFile(
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
    const more = moreDocumentParser(file.agent);
    if (more) {
      const r = more(ctx, doc);
      return {
        ...base,
        full: true,
        results: [r],
        offset: st.size,
        nextLine: 0,
        problems: problems.toJSON(),
      };
    }
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

export function oneLine(err: unknown): string {
  return String((err as Error)?.message ?? err)
    .split('\n')[0]!
    .slice(0, 120);
}
