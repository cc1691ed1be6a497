// Tool calls the agent makes and the output its tools return. Outputs are
// multi-line and shaped like the real thing (test runs, diffs, logs, file
// reads with line numbers) so snippets and previews have something to chew on.

import type { Topic } from './corpus.js';
import { pyDumps, type JsonValue } from './pyjson.js';
import type { Rng } from './rng.js';
import { fill, shortError } from './template.js';

export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, JsonValue>;
}

const TOOL_WEIGHTS: readonly (readonly [string, number])[] = [
  ['terminal', 36],
  ['read_file', 24],
  ['search_files', 12],
  ['patch', 10],
  ['write_file', 3],
  ['web_search', 5],
  ['web_extract', 2],
  ['execute_code', 3],
  ['todo', 2],
  ['memory', 1],
  ['browser_navigate', 1],
];

const GENERIC_COMMANDS: readonly string[] = [
  'git status',
  'git diff',
  'git log --oneline -10',
  'ls -la',
  'docker ps',
];

export function callId(rng: Rng): string {
  return `call_${rng.hex(8)}`;
}

export function makeToolCall(topic: Topic, rng: Rng, name = rng.weighted(TOOL_WEIGHTS)): ToolCall {
  const id = callId(rng);
  switch (name) {
    case 'terminal':
      return {
        id,
        name,
        args: { command: rng.chance(0.15) ? rng.pick(GENERIC_COMMANDS) : rng.pick(topic.commands) },
      };
    case 'read_file':
      return {
        id,
        name,
        args: { path: rng.pick(topic.files), offset: 1, limit: rng.pick([80, 200, 500]) },
      };
    case 'search_files':
      return {
        id,
        name,
        args: { pattern: searchPattern(topic, rng), path: '.', target: 'content' },
      };
    case 'patch':
      return {
        id,
        name,
        args: {
          path: rng.pick(topic.files),
          old_string: rng.pick(topic.idents),
          new_string: rng.pick(topic.idents),
        },
      };
    case 'write_file':
      return { id, name, args: { path: rng.pick(topic.files), content: rng.pick(topic.snippets) } };
    case 'web_search':
      return {
        id,
        name,
        args: { query: `${rng.pick(topic.terms)} ${shortError(rng.pick(topic.errors))}` },
      };
    case 'web_extract':
      return { id, name, args: { urls: [docUrl(topic, rng)] } };
    case 'execute_code':
      return {
        id,
        name,
        args: { code: `import json\nprint(json.dumps({"check": "${rng.pick(topic.terms)}"}))` },
      };
    case 'todo':
      return {
        id,
        name,
        args: {
          todos: [{ id: '1', content: fill('Fix {ident}', topic, rng), status: 'in_progress' }],
        },
      };
    case 'memory':
      return {
        id,
        name,
        args: {
          action: 'add',
          target: 'memory',
          content: fill('In {project} we decided to {decision}.', topic, rng),
        },
      };
    default:
      return { id, name: 'browser_navigate', args: { url: docUrl(topic, rng) } };
  }
}

function searchPattern(topic: Topic, rng: Rng): string {
  const ident = rng.pick(topic.idents).replace(/\(\)$/, '');
  return ident.replace(/[^\w.-]/g, '');
}

function docUrl(topic: Topic, rng: Rng): string {
  const slug = rng
    .pick(topic.terms)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  return `https://docs.example.dev/${topic.key}/${slug}`;
}

/** `tool_calls` column value: the JSON list the agent stores on the assistant row. */
export function toolCallsJson(calls: readonly ToolCall[]): string {
  return pyDumps(
    calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: JSON.stringify(c.args) },
    })),
  );
}

const CODE_FILLER: Readonly<Record<string, readonly string[]>> = {
  python: [
    'import logging',
    'from dataclasses import dataclass',
    '',
    'logger = logging.getLogger(__name__)',
    '@dataclass',
    'class Settings:',
    '    timeout: float = 30.0',
    '    retries: int = 3',
    'def main() -> None:',
    '    settings = Settings()',
    '    logger.info("starting with %s", settings)',
    '    return None',
    'if __name__ == "__main__":',
    '    main()',
    '# TODO: remove after the migration',
  ],
  typescript: [
    "import { z } from 'zod';",
    "import type { Logger } from './log';",
    '',
    'export interface Options {',
    '  timeoutMs: number;',
    '  retries?: number;',
    '}',
    'export function create(opts: Options) {',
    '  const started = Date.now();',
    "  log.debug('create', { opts });",
    '  return { started, ...opts };',
    '}',
    '// keep in sync with the server',
    'export default create;',
  ],
  go: [
    'package main',
    '',
    'import (',
    '\t"context"',
    '\t"log/slog"',
    '\t"time"',
    ')',
    'type Config struct {',
    '\tTimeout time.Duration',
    '}',
    'func run(ctx context.Context, cfg Config) error {',
    '\tslog.Info("starting", "timeout", cfg.Timeout)',
    '\treturn nil',
    '}',
  ],
  rust: [
    'use std::sync::Arc;',
    'use tokio::sync::RwLock;',
    '',
    '#[derive(Debug, Clone, Default)]',
    'pub struct Config {',
    '    pub workers: usize,',
    '}',
    'impl Config {',
    '    pub fn new() -> Self {',
    '        Self { workers: 4 }',
    '    }',
    '}',
  ],
  other: [
    '# managed by terraform/ansible, do not edit by hand',
    'version: 2',
    'defaults:',
    '  timeout: 30',
    '  retries: 3',
    'env:',
    '  - name: LOG_LEVEL',
    '    value: info',
    '',
  ],
};

function codeLines(topic: Topic, rng: Rng, count: number): string[] {
  const filler =
    CODE_FILLER[topic.lang === 'tsx' ? 'typescript' : topic.lang] ?? CODE_FILLER.other ?? [];
  const out: string[] = [];
  while (out.length < count) {
    if (rng.chance(0.3)) out.push(...rng.pick(topic.snippets).split('\n'));
    else out.push(rng.pick(filler));
  }
  return out.slice(0, count);
}

function isoAt(ts: number): string {
  return new Date(Math.floor(ts * 1000)).toISOString();
}

function logLines(topic: Topic, rng: Rng, ts: number, count: number): string[] {
  const levels: readonly (readonly [string, number])[] = [
    ['INFO', 70],
    ['WARN', 15],
    ['ERROR', 10],
    ['DEBUG', 5],
  ];
  const out: string[] = [];
  let t = ts - count * 2;
  for (let i = 0; i < count; i++) {
    t += rng.float(0.01, 4);
    const level = rng.weighted(levels);
    const msg =
      level === 'ERROR'
        ? rng.pick(topic.errors).split('\n')[0]
        : fill(
            rng.pick([
              'request completed path=/api/{term} status=200 duration_ms={n}',
              '{ident} ok in {n}ms',
              'retrying {term} attempt={n2}',
              'worker-{n2} heartbeat',
              'config loaded from {file}',
            ]),
            topic,
            rng,
          );
    out.push(`${isoAt(t)} ${level.padEnd(5)} [${topic.project}] ${msg}`);
  }
  return out;
}

function testRun(topic: Topic, rng: Rng, count: number): string[] {
  const failed = rng.chance(0.35) ? rng.int(1, 3) : 0;
  const passed = rng.int(8, 240);
  const out: string[] = [];
  const name = () => fill('test_{term}_{n2}', topic, rng).replace(/[^\w]+/g, '_');
  switch (topic.lang) {
    case 'python':
      out.push(
        '============================= test session starts ==============================',
        `platform linux -- Python 3.12.7, pytest-8.3.3`,
        `collected ${passed + failed} items`,
        '',
      );
      for (let i = 0; i < Math.min(count, 12); i++)
        out.push(`tests/test_${topic.key}.py::${name()} ${i < failed ? 'FAILED' : 'PASSED'}`);
      if (failed)
        out.push(
          '',
          '=================================== FAILURES ===================================',
          rng.pick(topic.errors),
        );
      out.push(
        `${failed ? `==== ${failed} failed, ` : '==== '}${passed} passed in ${rng.float(0.4, 90).toFixed(2)}s ====`,
      );
      break;
    case 'go':
      for (let i = 0; i < Math.min(count, 10); i++)
        out.push(
          `--- ${i < failed ? 'FAIL' : 'PASS'}: Test${name().replace(/_/g, '')} (0.0${rng.int(0, 9)}s)`,
        );
      out.push(
        failed ? 'FAIL' : 'PASS',
        `${failed ? 'FAIL' : 'ok  '}\texample.com/${topic.project}/internal\t${rng.float(0.1, 9).toFixed(3)}s`,
      );
      break;
    case 'rust':
      out.push(`running ${passed + failed} tests`);
      for (let i = 0; i < Math.min(count, 10); i++)
        out.push(`test ${topic.key}::${name()} ... ${i < failed ? 'FAILED' : 'ok'}`);
      out.push(
        '',
        `test result: ${failed ? 'FAILED' : 'ok'}. ${passed} passed; ${failed} failed; 0 ignored`,
      );
      break;
    default:
      out.push('', ` RUN  v3.2.4 /home/dev/projects/${topic.project}`, '');
      for (let i = 0; i < Math.min(count, 10); i++)
        out.push(
          ` ${i < failed ? '×' : '✓'} tests/${topic.key}.test.ts > ${name()} ${rng.int(1, 900)}ms`,
        );
      out.push(
        '',
        ` Test Files  ${failed ? `${failed} failed | ` : ''}${rng.int(1, 30)} passed`,
        `      Tests  ${failed ? `${failed} failed | ` : ''}${passed} passed`,
      );
  }
  return out;
}

function gitDiff(topic: Topic, rng: Rng): string[] {
  const file = rng.pick(topic.files);
  const snippet = rng.pick(topic.snippets).split('\n');
  const at = rng.int(10, 300);
  const out = [
    `diff --git a/${file} b/${file}`,
    `index ${rng.hex(7)}..${rng.hex(7)} 100644`,
    `--- a/${file}`,
    `+++ b/${file}`,
    `@@ -${at},${snippet.length} +${at},${snippet.length + 1} @@`,
  ];
  snippet.forEach((line, i) => out.push(i === 1 ? `-${line}` : i === 2 ? `+${line}` : ` ${line}`));
  return out;
}

function tableRows(topic: Topic, rng: Rng, count: number): string[] {
  const out = [' state               | count ', '---------------------+-------'];
  for (let i = 0; i < count; i++)
    out.push(
      ` ${rng.pick(['active', 'idle', 'idle in transaction', rng.pick(topic.terms)]).padEnd(19)} | ${rng.int(0, 400)}`,
    );
  out.push(`(${count} rows)`);
  return out;
}

function genericOutput(topic: Topic, rng: Rng, command: string, lines: number): string[] {
  const files = rng.sample(topic.files, rng.int(1, topic.files.length));
  switch (command) {
    case 'git status':
      return [
        `On branch ${topic.branch}`,
        'Changes not staged for commit:',
        '  (use "git add <file>..." to update what will be committed)',
        ...files.map((f) => `\tmodified:   ${f}`),
        '',
        'no changes added to commit (use "git add" and/or "git commit -a")',
      ];
    case 'git diff':
      return gitDiff(topic, rng);
    case 'git log --oneline -10':
      return Array.from(
        { length: 10 },
        () =>
          `${rng.hex(7)} ${fill(rng.pick(['fix: {term} in {ident}', 'feat: {name} ({label})', 'test: cover {term2}', 'chore: bump {label}', 'refactor: split {file}']), topic, rng)}`,
      );
    case 'ls -la':
      return [
        'total 48',
        ...files.map(
          (f) =>
            `-rw-r--r--  1 dev dev ${String(rng.int(200, 40000)).padStart(6)} Oct ${rng.int(1, 28)} 1${rng.int(0, 9)}:${rng.int(10, 59)} ${f.split('/').pop() ?? f}`,
        ),
      ];
    default:
      return [
        'CONTAINER ID   IMAGE                 STATUS          PORTS                    NAMES',
        ...Array.from(
          { length: Math.min(lines, 6) },
          (_, i) =>
            `${rng.hex(12)}   ${topic.project}:${rng.pick(['latest', 'dev'])}   Up ${rng.int(2, 59)} minutes   0.0.0.0:${8000 + i}->8080/tcp   ${topic.project}-${i + 1}`,
        ),
      ];
  }
}

function terminalOutput(
  topic: Topic,
  rng: Rng,
  command: string,
  ts: number,
  lines: number,
): string {
  let out: string[];
  if (GENERIC_COMMANDS.includes(command)) out = genericOutput(topic, rng, command, lines);
  else if (/test|pytest|vitest|cargo test|go test/.test(command)) out = testRun(topic, rng, lines);
  else if (/psql|select/.test(command))
    out = tableRows(topic, rng, Math.max(1, Math.min(lines, 12)));
  else out = logLines(topic, rng, ts, lines);
  return out.join('\n');
}

/** A dump of 20-60 KB: a whole build log, or a big file read in one go. */
function hugeOutput(topic: Topic, rng: Rng, call: ToolCall, ts: number): string {
  const target = rng.int(20_000, 60_000);
  const out: string[] = [];
  let size = 0;
  while (size < target) {
    const chunk =
      call.name === 'read_file'
        ? codeLines(topic, rng, 50).map((l, i) => `${String(out.length + i + 1).padStart(6)}|${l}`)
        : logLines(topic, rng, ts - 3600 + out.length * 2 + 100, 50);
    for (const line of chunk) size += line.length + 1;
    out.push(...chunk);
  }
  return out.join('\n');
}

/** Output of one tool call; `huge` forces a dump of tens of kilobytes. */
export function toolOutput(
  topic: Topic,
  rng: Rng,
  call: ToolCall,
  ts: number,
  huge = false,
): string {
  if (huge) return hugeOutput(topic, rng, call, ts);
  const lines = Math.min(80, Math.max(1, Math.round(rng.logNormal(9, 0.9))));
  const arg = (k: string): string => {
    const v = call.args[k];
    return typeof v === 'string' ? v : '';
  };
  switch (call.name) {
    case 'terminal':
      return terminalOutput(topic, rng, arg('command'), ts, lines);
    case 'read_file':
      return codeLines(topic, rng, lines)
        .map((l, i) => `${String(i + 1).padStart(6)}|${l}`)
        .join('\n');
    case 'search_files': {
      const out: string[] = [];
      for (let i = 0; i < Math.min(lines, 25); i++)
        out.push(
          `${rng.pick(topic.files)}:${rng.int(1, 400)}:    ${arg('pattern')}${rng.pick(['(ctx)', ' = ', '()', '.get(', ''])}`,
        );
      return out.join('\n');
    }
    case 'patch':
      return pyDumps({
        success: true,
        diff: gitDiff(topic, rng).join('\n'),
        files_modified: [arg('path')],
      });
    case 'write_file':
      return pyDumps({ bytes_written: rng.int(200, 9000), path: arg('path') });
    case 'web_search': {
      const results: JsonValue[] = [];
      for (let i = 0; i < rng.int(3, 6); i++) {
        results.push({
          title: fill('{title}: {term} explained', topic, rng),
          url: docUrl(topic, rng),
          description: fill(
            'How to handle {term} and {term2} in production. See also {label}.',
            topic,
            rng,
          ),
        });
      }
      return pyDumps({ success: true, data: { web: results } });
    }
    case 'web_extract':
      return [
        `# ${topic.title}`,
        '',
        ...codeLines(topic, rng, Math.min(lines, 30)).map((l) => (l.trim() ? `    ${l}` : '')),
        '',
        fill('Note: {decision} is the recommended approach for {term}.', topic, rng),
      ].join('\n');
    case 'execute_code':
      return pyDumps({
        status: 'success',
        output: `{"check": "${rng.pick(topic.terms)}", "ok": ${rng.chance(0.8)}}\n`,
        duration_seconds: Number(rng.float(0.05, 3).toFixed(2)),
      });
    case 'todo':
      return pyDumps({
        todos: [
          { id: '1', content: fill('Fix {ident}', topic, rng), status: 'in_progress' },
          { id: '2', content: fill('Add test for {term}', topic, rng), status: 'pending' },
        ],
      });
    case 'memory':
      return pyDumps({ success: true, message: 'Entry added to memory.' });
    default:
      return pyDumps({
        success: true,
        url: arg('url'),
        title: `${topic.title} - docs`,
        snapshot: codeLines(topic, rng, Math.min(lines, 15)).join('\n'),
      });
  }
}
