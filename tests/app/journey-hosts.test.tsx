/**
 * Other machines in the app (issue #19): a real sshd on 127.0.0.1 holds a
 * "remote" home (Hermes, two profiles); `lookback sync --host remote-box`
 * (the real sync, the real CLI) mirrors it; the app then lists the host's
 * conversations beside this machine's, each row tagged with its machine, the
 * `host:` chip filters by machine (an unsynced one is one line), a remote hit
 * opens from the mirror, its copy forms name the host (the link, the
 * session_search call, and a `lookback scroll --host …` that, run here,
 * prints the same message), and R runs the agent's resume over `ssh -t`.
 * A later sync while the app runs (a message written into the remote
 * state.db as Hermes would) is noticed: the open conversation and Recent
 * refresh and the status line names the machine, the profile and the count.
 * The remote files are the same bytes afterwards, but for that write.
 */
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultItem } from '../../src/app/model.js';
import { otherProfiles } from '../../src/tui/otherProfiles.js';
import { hashTree } from '../agents/samples.js';
import { lookback } from '../helpers/cli.js';
import { FIXTURE_DIR, tempDir } from '../helpers/fixtures.js';
import { chownHome, startSshd, type Sshd } from '../helpers/sshd.js';
import { KEY, makeStore, startHarness, WIDE, type Harness } from './harness.js';
import { copyForms, pasteOpensMessage } from './paste.js';

const SID = '20261105_001544_6b3de4'; // "Cron Scheduler notes" in hermes-v30.db
const WORDS = 'zanzibar ferry timetable for the cron window';
const LIVE = 'the ferry now leaves at six, after the cron window';

let sshd: Sshd;
let env: Record<string, string>;
let before: Record<string, string>;
let local: string;
let mid: number;

beforeAll(async () => {
  sshd = await startSshd('lookback-remote-app'); // a user of its own: test files run in parallel and each empties its user's home
  const h = sshd.home;
  mkdirSync(join(h, '.hermes', 'profiles', 'work'), { recursive: true });
  const remote = join(h, '.hermes', 'state.db');
  copyFileSync(join(FIXTURE_DIR, 'hermes-v30.db'), remote);
  const db = new Database(remote);
  mid = Number(
    db
      .prepare(
        `INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', ?, (SELECT max(timestamp) + 1 FROM messages WHERE session_id = ?))`,
      )
      .run(SID, WORDS, SID).lastInsertRowid,
  );
  db.close();
  copyFileSync(
    join(FIXTURE_DIR, 'hermes-v16.db'),
    join(h, '.hermes', 'profiles', 'work', 'state.db'),
  );
  chownHome(sshd.user, h);
  before = hashTree(h);
  env = {
    XDG_CACHE_HOME: tempDir('lookback-app-hosts-cache-'),
    HOME: tempDir('lookback-app-hosts-home-'),
    LOOKBACK_SSH_CONFIG: sshd.config,
  };
  const r = lookback(['sync', '--host', 'remote-box', '--json'], env);
  expect(r.code, r.stderr).toBe(0);
  local = makeStore(40);
}, 90_000);

afterAll(async () => {
  await sshd?.stop();
});

const resumed: { argv: string[] }[] = [];
function start(pollMs?: number): Promise<Harness> {
  return startHarness(local, WIDE, {
    ...(pollMs ? { pollMs } : {}),
    profiles: ['default'],
    otherProfiles: otherProfiles({
      env: { HERMES_HOME: tempDir('lookback-app-hosts-hermes-'), ...env },
      home: '/nonexistent',
    }),
    env,
    resume: (argv) => {
      resumed.push({ argv });
    },
  });
}

/** Types the `host:` chip and waits until Recent holds that machine's rows alone. */
async function onlyHost(h: Harness, host: string): Promise<void> {
  await h.press('/');
  await h.type(`host:${host}`);
  await h.waitFor(
    () => h.state().recent.rows.length > 0 && h.state().recent.rows.every((r) => r.host === host),
    `Recent of ${host} alone`,
  );
}
/** Searches the remote message's words and opens the hit at it; returns the hits as they were listed. */
async function openRemoteHit(h: Harness): Promise<{ items: ResultItem[]; frame: string }> {
  await h.press('/');
  await h.type('zanzibar ferry');
  await h.waitFor(() => h.state().results.items.length > 0, 'the remote hit');
  const listed = { items: h.state().results.items, frame: h.frame() };
  await h.press(KEY.enter);
  await h.waitFor(() => h.frame().includes(WORDS), 'the remote message, read from the mirror');
  return listed;
}

describe('another machine in the app', () => {
  it('Recent lists both machines, each row tagged; host: keeps one; an unsynced host is one line', async () => {
    const h = await start();
    try {
      await h.waitFor(
        () => h.state().recent.rows.some((r) => r.host === 'remote-box'),
        'the remote rows in Recent',
      );
      const rows = h.state().recent.rows;
      expect(rows.every((r) => r.host === 'local' || r.host === 'remote-box')).toBe(true);
      expect(rows.some((r) => r.host === 'local')).toBe(true);
      // The remote rows are the host's own conversations, with their titles, tagged on screen.
      const cron = rows.find((r) => r.title === 'Cron Scheduler notes')!;
      expect(cron.host).toBe('remote-box');
      expect(h.frame()).toMatch(/remote-… Cron Scheduler notes/);
      expect(h.frame()).toMatch(/local {4}\S/);

      await onlyHost(h, 'remote-box');
      // Both remote profiles: default's and work's (hermes-v16) conversations.
      expect(new Set(h.state().recent.rows.map((r) => r.sessionId.split('/')[0]))).toEqual(
        new Set(['default@remote-box', 'work@remote-box']),
      );

      await h.press('\x15'); // Ctrl-U: the line emptied
      await h.type('host:nowhere');
      await h.waitFor(() => h.frame().includes('host:nowhere: not synced'), 'the one line');
      expect(h.frame()).toContain(
        'host:nowhere: not synced (hosts: local, remote-box); lookback sync --host NAME reads another',
      );
    } finally {
      await h.close();
    }
  }, 30_000);

  it('a remote hit opens from the mirror; copies name the host; R resumes over ssh -t', async () => {
    const h = await start();
    try {
      const { items, frame } = await openRemoteHit(h);
      expect(items.map((i) => [i.title, i.host])).toEqual([['Cron Scheduler notes', 'remote-box']]);
      expect(frame).toMatch(/▸ remote-… +Cron Scheduler notes/);

      await h.press('y');
      await h.waitFor(() => h.copied.length === 1, 'the anchor');
      expect(h.copied[0]).toBe(
        `session_search(session_id="${SID}", around_message_id=${mid}, window=5, host="remote-box")`,
      );
      await h.press('Y', '1');
      await h.waitFor(() => h.copied.length === 2, 'the link');
      expect(h.copied[1]).toBe(`@session:default@remote-box/${SID}`);
      await h.press('Y', '3');
      await h.waitFor(() => h.copied.length === 3, 'the scroll command');
      expect(h.copied[2]).toBe(`lookback scroll --host remote-box ${SID} ${mid}`);
      // The copied command works from this machine: it prints the same message.
      const run = lookback(['scroll', '--host', 'remote-box', SID, String(mid), '--json'], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(WORDS);
      // And the link reads it too.
      const read = lookback(['read', `@session:default@remote-box/${SID}`, '--json'], env);
      expect(read.code, read.stderr).toBe(0);
      expect(read.stdout).toContain(WORDS);

      await h.press('R');
      await h.waitFor(() => resumed.length === 1, 'the resume');
      const argv = resumed[0]!.argv;
      expect(argv.slice(0, 6)).toEqual(['ssh', '-F', sshd.config, '-t', '--', 'remote-box']);
      expect(argv[6]).toContain(`exec hermes -p default --resume ${SID}`);
    } finally {
      await h.close();
    }
  }, 30_000);

  it('each form Y offers for a remote message, pasted into the search line, opens that message', async () => {
    const h = await start();
    try {
      await openRemoteHit(h);
      const id = h.state().view!.win.anchorId;
      const forms = await copyForms(h, 'message quoted with citation');
      expect(forms.map((o) => o.form)).toEqual(['link', 'scroll', 'command', 'quote', 'window']);
      // The link names the conversation (it opens at its latest messages); the others the message.
      for (const o of forms.filter((f) => f.form !== 'link' && f.form !== 'window'))
        await pasteOpensMessage(h, o.text, id!);
      expect(forms.find((f) => f.form === 'command')!.text).toBe(
        `lookback scroll --host remote-box ${SID} ${mid}`,
      );
    } finally {
      await h.close();
    }
  }, 40_000);

  it('a pasted link naming the host opens that machine’s conversation from the mirror', async () => {
    const h = await start();
    try {
      await h.press('/', `@session:default@remote-box/${SID}`);
      await h.waitFor(
        () => h.state().results.items.some((r) => r.title === 'Cron Scheduler notes'),
        'the remote row',
      );
      await h.press(KEY.enter);
      await h.waitFor(() => h.frame().includes(WORDS), 'the remote conversation');
    } finally {
      await h.close();
    }
  }, 30_000);

  it('a later sync while the app runs: Recent and the open conversation refresh; the status line names the machine', async () => {
    const h = await start(200);
    try {
      await onlyHost(h, 'remote-box');
      const rowBefore = h.state().recent.rows.find((r) => r.title === 'Cron Scheduler notes')!;
      await h.press(KEY.esc);
      await openRemoteHit(h);
      // The remote agent writes one more message into its state.db, as Hermes does
      // (the message and the session's count in one transaction), then a sync runs.
      const db = new Database(join(sshd.home, '.hermes', 'state.db'));
      db.transaction(() => {
        db.prepare(
          `INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'assistant', ?, (SELECT max(timestamp) + 1 FROM messages WHERE session_id = ?))`,
        ).run(SID, LIVE, SID);
        db.prepare(
          `UPDATE sessions SET message_count = message_count + 1, last_activity_at = (SELECT max(timestamp) FROM messages WHERE session_id = ?) WHERE id = ?`,
        ).run(SID, SID);
      })();
      db.close();
      chownHome(sshd.user, sshd.home);
      const r = lookback(['sync', '--host', 'remote-box', '--json'], env);
      expect(r.code, r.stderr).toBe(0);
      await h.waitFor(() => h.frame().includes(LIVE), 'the new message in the open conversation');
      // The machine and its profile that grew, and by exactly the one message (not the work profile).
      expect(h.frame()).toMatch(/ Hermes profile default on remote-box changed: 1 new message +\S/);
      expect(h.frame()).not.toContain('work on remote-box');
      await h.press(KEY.esc);
      await h.press(KEY.esc);
      await h.waitFor(
        () =>
          h
            .state()
            .recent.rows.some(
              (r) =>
                r.title === 'Cron Scheduler notes' && r.messageCount === rowBefore.messageCount + 1,
            ),
        'Recent refreshed',
      );
    } finally {
      await h.close();
    }
  }, 60_000);

  it('the remote files are unchanged but for the store the test wrote as the agent would', () => {
    const now = hashTree(sshd.home);
    const changed = Object.keys(now).filter((k) => now[k] !== before[k]);
    expect(changed).toEqual([join(sshd.home, '.hermes', 'state.db')]);
    expect(Object.keys(now).sort()).toEqual(Object.keys(before).sort());
  });
});
