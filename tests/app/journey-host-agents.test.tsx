/**
 * Other machines' agents in the app (issue #19): a real sshd on 127.0.0.1
 * holds a "remote" home with Claude Code and Codex histories; the real
 * `lookback sync --host remote-box` mirrors and indexes them; the app lists
 * them beside this machine's conversations, tagged with their machine, the
 * `host:` and `agent:` chips pick them, a hit opens at the message, the copy
 * forms name the host (and the scroll command, run here, prints the message),
 * R runs the agent's own resume over `ssh -t` in the recorded folder. A later
 * sync while the app runs is noticed: Recent, the open Results and the open
 * conversation refresh and the status line says which machine grew and by how
 * many messages. The remote files are the same bytes afterwards (except the
 * line the test appends as the agent would).
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultItem } from '../../src/app/model.js';
import { otherProfiles } from '../../src/tui/otherProfiles.js';
import { AGENTS } from '../../src/agents/model.js';
import { IDS, claudeFile, claudeFiles, codexFiles, hashTree } from '../agents/samples.js';
import { lookback } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { chownHome, startSshd, type Sshd } from '../helpers/sshd.js';
import { KEY, makeStore, startHarness, WIDE, type Harness } from './harness.js';
import { copyForms, pasteJump, pasteOpensMessage } from './paste.js';

let sshd: Sshd;
let env: Record<string, string>;
let before: Record<string, string>;
let local: string;

beforeAll(async () => {
  // A user of its own: test files run in parallel and each empties its user's home.
  sshd = await startSshd('lookback-remote-ag');
  claudeFiles(sshd.home);
  codexFiles(sshd.home);
  chownHome(sshd.user, sshd.home);
  before = hashTree(sshd.home);
  env = {
    XDG_CACHE_HOME: tempDir('lookback-app-hostag-cache-'),
    HOME: tempDir('lookback-app-hostag-home-'),
    LOOKBACK_SSH_CONFIG: sshd.config,
  };
  const r = lookback(['sync', '--host', 'remote-box', '--json'], env);
  expect(r.code, r.stderr).toBe(0);
  local = makeStore(30);
}, 90_000);

afterAll(async () => {
  await sshd?.stop();
});

const resumed: { argv: string[]; cwd: string | undefined }[] = [];
function start(pollMs?: number): Promise<Harness> {
  return startHarness(local, WIDE, {
    profiles: ['default'],
    otherProfiles: otherProfiles({
      env: { HERMES_HOME: tempDir('lookback-app-hostag-hermes-'), ...env },
      home: '/nonexistent',
    }),
    // This machine's agents' index: none yet (no background pass); the host's is the sync's.
    agents: {
      indexFile: join(tempDir('lookback-app-hostag-local-'), 'agents.db'),
      agents: [...AGENTS],
      indexWorker: null,
    },
    ...(pollMs ? { pollMs } : {}),
    env,
    resume: (argv, cwd) => {
      resumed.push({ argv, cwd });
    },
  });
}

/** Searches `payment gateway` and opens the remote Claude hit at its message; returns the hits. */
async function openGatewayHit(h: Harness): Promise<ResultItem[]> {
  await h.press('/');
  await h.type('payment gateway');
  await h.waitFor(
    () => h.state().results.items.some((i) => i.host === 'remote-box'),
    'the remote hit',
  );
  const items = h.state().results.items;
  await h.press(KEY.enter);
  await h.waitFor(
    () => h.frame().includes('required by the payment gateway'),
    'the remote message, read from the host index',
  );
  return items;
}

describe("another machine's agents in the app", () => {
  it('Recent lists the remote Claude and Codex conversations, tagged; host: and agent: pick them', async () => {
    const h = await start();
    try {
      await h.waitFor(
        () => h.state().recent.rows.some((r) => r.host === 'remote-box' && r.agent === 'claude'),
        'the remote Claude row',
      );
      const rows = h.state().recent.rows;
      const claude = rows.find((r) => r.agent === 'claude')!;
      const codex = rows.find((r) => r.agent === 'codex' && r.title.includes('rate limiter'))!;
      expect(claude.host).toBe('remote-box');
      expect(codex.host).toBe('remote-box');
      // Titles and folders as the CLI reads the same host (the one recall core over the mirror).
      const cli = JSON.parse(
        lookback(['recent', '--host', 'remote-box', '--agent', 'claude', '--json'], env).stdout,
      ) as { results: { session_id: string; title: string }[] };
      const same = cli.results.find((x) => x.session_id === IDS.claude)!;
      expect(claude.title).toBe(same.title);
      expect(claude.title).toBe('checkout double charge');
      expect(claude.cwd).toBe('/home/ana/shop');
      // Tagged on screen with the machine.
      expect(h.frame()).toMatch(/remote-… +checkout double charge/);
      expect(h.frame()).toMatch(/local +\S/);

      await h.press('/');
      await h.type('host:remote-box agent:claude');
      await h.waitFor(
        () =>
          h.state().recent.rows.length > 0 &&
          h.state().recent.rows.every((r) => r.agent === 'claude' && r.host === 'remote-box'),
        'Recent of remote-box Claude alone',
      );
      expect(h.state().recent.rows.map((r) => r.sessionId)).toEqual([
        `claude@remote-box:${IDS.claude}`,
      ]);
      // Not refused: no line about the app listing Hermes profiles only.
      expect(h.frame()).not.toMatch(/Hermes profiles only|not read here/);

      await h.press('\x15');
      await h.type('host:local agent:claude');
      await h.waitFor(
        () => h.state().recent.rows.every((r) => r.host !== 'remote-box'),
        'this machine alone',
      );
      expect(h.state().recent.rows).toEqual([]);
    } finally {
      await h.close();
    }
  }, 40_000);

  it('a remote hit opens at the message; copies name the host and work here; R resumes over ssh -t in the folder', async () => {
    const h = await start();
    try {
      // The exact hits (a relaxed one of this machine's store may follow, listed apart).
      const items = (await openGatewayHit(h)).filter((i) => !i.relaxed);
      expect(items.map((i) => [i.title, i.host, i.agent])).toEqual([
        ['checkout double charge', 'remote-box', 'claude'],
      ]);
      expect(items[0]!.snippet.map((s) => s.text).join('')).toContain('payment gateway');
      expect(h.state().view?.win.anchorId).toBe(items[0]!.messageId);

      await h.press('y');
      await h.waitFor(() => h.copied.length === 1, 'the anchor');
      const call = h.copied[0]!;
      expect(call).toMatch(
        new RegExp(
          `^session_search\\(session_id="${IDS.claude}", around_message_id="[^"]+", window=5, agent="claude", host="remote-box"\\)$`,
        ),
      );
      const anchor = /around_message_id="([^"]+)"/.exec(call)![1]!;
      await h.press('Y');
      await h.waitFor(() => h.frame().includes('lookback scroll command'), 'the copy menu');
      expect(h.frame()).toContain("(from this machine; remote-box's mirror)");
      await h.press('2');
      await h.waitFor(() => h.copied.length === 2, 'the scroll command');
      expect(h.copied[1]).toBe(
        `lookback scroll --host remote-box --agent claude ${IDS.claude} ${anchor}`,
      );
      // The copied command works from this machine: it prints the same message.
      const run = lookback(
        ['scroll', '--host', 'remote-box', '--agent', 'claude', IDS.claude, anchor, '--json'],
        env,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('required by the payment gateway');

      await h.press('R');
      await h.waitFor(() => resumed.length === 1, 'the resume');
      const { argv, cwd } = resumed[0]!;
      expect(argv).toEqual([
        'ssh',
        '-F',
        sshd.config,
        '-t',
        '--',
        'remote-box',
        `cd /home/ana/shop && exec claude --resume ${IDS.claude}`,
      ]);
      // The folder is the remote's: nothing changes into it here.
      expect(cwd).toBeUndefined();
    } finally {
      await h.close();
    }
  }, 40_000);

  it('each form Y offers, pasted into the search line, opens the same remote message (the resume, its conversation)', async () => {
    const h = await start();
    try {
      await openGatewayHit(h);
      const id = h.state().view!.win.anchorId!;
      const forms = await copyForms(h, 'lookback scroll command');
      expect(forms.map((o) => o.form)).toEqual(['scroll', 'command', 'quote', 'window', 'resume']);
      for (const o of forms.filter((f) => f.form !== 'resume'))
        await pasteOpensMessage(h, o.text, id);
      const resume = forms.find((f) => f.form === 'resume')!.text;
      expect(resume).toContain(`exec claude --resume ${IDS.claude}`);
      const row = await pasteJump(h, resume);
      expect([row.sessionId, row.messageId]).toEqual([`claude@remote-box:${IDS.claude}`, null]);
      // Not this machine's conversation of the same id: the host's, and said so when it is not synced.
      await h.press(KEY.esc, KEY.esc, '/', '\x15');
      await h.press(`lookback scroll --host elsewhere --agent claude ${IDS.claude} a-1`);
      await h.waitFor(() => h.frame().includes('elsewhere is not synced here'), 'the one line');
    } finally {
      await h.close();
    }
  }, 60_000);

  it('Codex resumes by its id, in its folder when it is there', async () => {
    const h = await start();
    try {
      await h.press('/');
      await h.type('host:remote-box agent:codex sliding window');
      await h.waitFor(() => h.state().results.items.length > 0, 'the Codex hit');
      expect(h.state().results.items[0]!.sessionId).toBe(`codex@remote-box:${IDS.codex}`);
      await h.press(KEY.enter);
      await h.waitFor(() => h.frame().includes('sliding window limiter'), 'the Codex message');
      const n = resumed.length;
      await h.press('R');
      await h.waitFor(() => resumed.length === n + 1, 'the resume');
      expect(resumed[n]!.argv.slice(0, 6)).toEqual([
        'ssh',
        '-F',
        sshd.config,
        '-t',
        '--',
        'remote-box',
      ]);
      expect(resumed[n]!.argv[6]).toBe(
        `cd /home/ana/api 2>/dev/null; exec codex resume ${IDS.codex}`,
      );
    } finally {
      await h.close();
    }
  }, 40_000);

  it('a later sync while the app runs: Recent, Results and the open conversation refresh; the status line names the host', async () => {
    const h = await start(200);
    try {
      await openGatewayHit(h);
      // The remote agent writes one more message (as its owner would), then a sync runs.
      const file = claudeFile(sshd.home);
      appendFileSync(
        file,
        JSON.stringify({
          type: 'user',
          uuid: 'u-live-1',
          parentUuid: 'a-9',
          sessionId: IDS.claude,
          cwd: '/home/ana/shop',
          timestamp: '2026-08-20T10:00:00.000Z',
          message: { role: 'user', content: 'and the payment gateway on refunds too' },
        }) + '\n',
      );
      chownHome(sshd.user, sshd.home);
      const r = lookback(['sync', '--host', 'remote-box', '--json'], env);
      expect(r.code, r.stderr).toBe(0);
      await h.waitFor(
        () => h.frame().includes('and the payment gateway on refunds too'),
        'the new message in the open conversation',
      );
      expect(h.frame()).toContain('claude on remote-box changed: 1 new message');
      await h.press(KEY.esc);
      await h.waitFor(
        () =>
          h.state().results.items.some((i) =>
            i.snippet
              .map((s) => s.text)
              .join('')
              .includes('gateway on refunds'),
          ),
        'the open Results refreshed',
      );
    } finally {
      await h.close();
    }
  }, 60_000);

  it('the remote files are unchanged but for the appended line', () => {
    const now = hashTree(sshd.home);
    const file = claudeFile(sshd.home);
    const changed = Object.keys(now).filter((k) => now[k] !== before[k]);
    expect(changed).toEqual([file]);
    expect(Object.keys(now).sort()).toEqual(Object.keys(before).sort());
  });
});
