/**
 * Generated histories for the crash test and the bench: Claude Code transcripts
 * and Codex rollouts (the two append-only formats that dominate real disks), plus
 * Gemini chats, with varied words and some CJK so searches have real work to do.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const WORDS =
  'migration pgbouncer timeout connection pool webhook ledger deploy rollback retry idempotency cache invalidation schema index vacuum replica lag shard queue worker cron token refresh oauth callback header cookie session middleware limiter bucket metric alert pager latency throughput backlog snapshot fixture mock flaky test build lint format bundle chunk lazy import hydration render state reducer effect hook router'.split(
    ' ',
  );
const CJK = ['数据库迁移', '连接池超时', '缓存失效', '部署回滚', '索引重建'];

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Topic words are one draw in ten; the rest come from 20,000 filler tokens with a
 * skewed (roughly Zipf) frequency, so a topic word is in a few percent of messages,
 * as a real term is, not in half of them.
 */
function word(r: () => number): string {
  if (r() < 0.1) return WORDS[Math.floor(r() * WORDS.length)]!;
  const k = Math.floor(20_000 * r() ** 3);
  return `w${k.toString(36)}`;
}

function sentence(r: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(word(r));
  if (r() < 0.05) out.push(CJK[Math.floor(r() * CJK.length)]!);
  return out.join(' ');
}

const uuid = (i: number, salt: number) =>
  `${(salt * 1e6 + i).toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

/**
 * Searches over a generated history (the bench's ≤ 5 ms word queries and one
 * trigram query, 5-character CJK), in words it writes: tests/bench/agents.ts
 * times them, tests/agents/ftsMerged.test.ts checks their answers.
 */
export const GENERATED_QUERIES: readonly string[] = [
  'migration',
  'pgbouncer timeout',
  '"connection pool"',
  'webhook OR ledger',
  'deploy*',
  '连接池超时',
];

export interface Generated {
  files: number;
  messages: number;
  bytes: number;
}

/** Writes about `messages` messages across `sessions` sessions under `home`; returns what it wrote. */
export function generateHistories(
  home: string,
  sessions: number,
  messages: number,
  seed = 7,
): Generated {
  const r = rng(seed);
  const per = Math.max(2, Math.round(messages / sessions));
  const proj = join(home, '.claude', 'projects', '-home-dev-app');
  const day = join(home, '.codex', 'sessions', '2026', '08', '19');
  const chats = join(home, '.gemini', 'tmp', 'app', 'chats');
  for (const d of [proj, day, chats]) mkdirSync(d, { recursive: true });
  const out: Generated = { files: 0, messages: 0, bytes: 0 };
  const t0 = Date.parse('2026-08-01T00:00:00Z');
  for (let s = 0; s < sessions; s++) {
    const kind = s % 10 < 6 ? 'claude' : s % 10 < 9 ? 'codex' : 'gemini';
    const lines: string[] = [];
    const id = uuid(s, seed);
    let t = t0 + s * 60_000;
    const ts = () => new Date((t += 1000)).toISOString();
    if (kind === 'codex')
      lines.push(
        JSON.stringify({
          timestamp: ts(),
          type: 'session_meta',
          payload: { id, cwd: '/home/dev/app', source: 'cli' },
        }),
      );
    if (kind === 'gemini')
      lines.push(
        JSON.stringify({ sessionId: id, startTime: ts(), lastUpdated: ts(), kind: 'main' }),
      );
    for (let m = 0; m < per; m++) {
      const user = m % 2 === 0;
      const text = sentence(r, 8 + Math.floor(r() * 30));
      if (kind === 'claude')
        lines.push(
          JSON.stringify(
            user
              ? {
                  type: 'user',
                  uuid: `${id}-${m}`,
                  sessionId: id,
                  cwd: '/home/dev/app',
                  timestamp: ts(),
                  message: { role: 'user', content: text },
                }
              : {
                  type: 'assistant',
                  uuid: `${id}-${m}`,
                  sessionId: id,
                  timestamp: ts(),
                  message: {
                    id: `msg_${s}_${m}`,
                    role: 'assistant',
                    model: 'claude-x',
                    content: [{ type: 'text', text }],
                  },
                },
          ),
        );
      else if (kind === 'codex')
        lines.push(
          JSON.stringify({
            timestamp: ts(),
            type: 'response_item',
            payload: {
              type: 'message',
              role: user ? 'user' : 'assistant',
              content: [{ type: user ? 'input_text' : 'output_text', text }],
            },
          }),
        );
      else
        lines.push(
          JSON.stringify({
            id: `m${m}`,
            timestamp: ts(),
            type: user ? 'user' : 'gemini',
            content: text,
          }),
        );
    }
    const body = lines.join('\n') + '\n';
    const path =
      kind === 'claude'
        ? join(proj, `${id}.jsonl`)
        : kind === 'codex'
          ? join(day, `rollout-2026-08-19T00-00-00-${id}.jsonl`)
          : join(chats, `session-2026-08-19T00-00-${id.slice(0, 8)}-${s}.jsonl`);
    writeFileSync(path, body);
    out.files++;
    out.messages += per;
    out.bytes += Buffer.byteLength(body);
  }
  return out;
}
