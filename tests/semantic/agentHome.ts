/**
 * Agents' histories for the search by meaning (tests/semantic/agents.test.ts and
 * the app's journey): three Claude Code conversations (one found only by
 * meaning, one by the words, one about pets), a Gemini chat whose last turn was
 * taken back, and a Hermes store beside them.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_DIR } from '../helpers/fixtures.js';

export const PROJ = ['.claude', 'projects', '-home-ana-jobs'];

/** One Claude Code transcript: user and assistant turns chained by parentUuid. */
export function claudeLines(
  id: string,
  turns: [role: 'user' | 'assistant', text: string][],
  start = 0,
) {
  return turns.map(([role, text], i) => {
    const n = start + i;
    const base = {
      type: role,
      uuid: `${id}-${n}`,
      parentUuid: n === 0 ? null : `${id}-${n - 1}`,
      sessionId: id,
      cwd: '/home/ana/jobs',
      gitBranch: 'main',
      version: '2.1.240',
      userType: 'external',
      isSidechain: false,
      timestamp: new Date(
        Date.parse('2026-08-20T09:00:00Z') + n * 1000 + id.length * 60_000,
      ).toISOString(),
    };
    return JSON.stringify(
      role === 'user'
        ? { ...base, message: { role, content: text } }
        : {
            ...base,
            message: {
              id: `msg_${id}_${n}`,
              role,
              model: 'claude-sonnet-x',
              content: [{ type: 'text', text }],
              usage: { input_tokens: 1, output_tokens: 1 },
            },
          },
    );
  });
}

export const SEM = 'c0ffee01-0000-4000-8000-000000000001';
export const EXACT = 'c0ffee02-0000-4000-8000-000000000002';
export const PETS = 'c0ffee03-0000-4000-8000-000000000003';
export const GEMINI = 'feed0001-0000-4000-8000-000000000001';

export function writeHome(home: string): void {
  const proj = join(home, ...PROJ);
  mkdirSync(proj, { recursive: true });
  // A Hermes store beside them: every source at once is more than one source.
  mkdirSync(join(home, '.hermes'), { recursive: true });
  copyFileSync(join(FIXTURE_DIR, 'hermes-v30.db'), join(home, '.hermes', 'state.db'));
  const put = (id: string, turns: [role: 'user' | 'assistant', text: string][]) =>
    writeFileSync(join(proj, `${id}.jsonl`), claudeLines(id, turns).join('\n') + '\n');
  // Not the query's words (证书, a certificate): its two characters the other way round, which
  // no substring search finds and the model (a bag of tokens) reads as the same.
  put(SEM, [
    ['user', '书证'],
    ['assistant', 'In the vault, beside the deploy keys.'],
  ]);
  put(EXACT, [
    ['user', 'the 证书 expired after deploy'],
    ['assistant', 'The cron worker held the lock.'],
  ]);
  put(PETS, [
    ['user', 'cat dog cat'],
    ['assistant', 'dog cat dog'],
  ]);
  // A Gemini chat whose last turn was taken back ($rewindTo).
  const chats = join(home, '.gemini', 'tmp', 'ops', 'chats');
  mkdirSync(chats, { recursive: true });
  writeFileSync(join(home, '.gemini', 'tmp', 'ops', '.project_root'), '/home/ana/ops\n');
  writeFileSync(
    join(chats, `session-2026-08-21T10-00-${GEMINI.slice(0, 8)}.jsonl`),
    [
      {
        sessionId: GEMINI,
        projectHash: 'abc',
        startTime: '2026-08-21T10:00:00.000Z',
        lastUpdated: '2026-08-21T10:00:00.000Z',
        kind: 'main',
      },
      { id: 'g1', timestamp: '2026-08-21T10:00:01.000Z', type: 'user', content: 'cat dog' },
      { id: 'g2', timestamp: '2026-08-21T10:00:02.000Z', type: 'gemini', content: 'dog cat' },
      {
        id: 'g3',
        timestamp: '2026-08-21T10:00:03.000Z',
        type: 'user',
        content: '书证',
      },
      { $rewindTo: 'g3' },
    ]
      .map((x) => JSON.stringify(x))
      .join('\n') + '\n',
  );
}
