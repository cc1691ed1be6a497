/**
 * Runs the interactive app on the real terminal: store resolution, terminal
 * modes, render, and cleanup on every exit path. Kept apart from start.ts so
 * that file stays a plain .ts entry the CLI imports lazily.
 */
import { LIVE_SYNC_MS } from '../budgets.js';
import React from 'react';
import { render } from 'ink';
import { existsSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import type { ChosenStore, StartOptions as Flags } from './options.js';
import { copyText, defaultCopyDeps } from '../clipboard/copy.js';
import { smallPageCache } from '../store/open.js';
import { Store } from '../store/store.js';
import { lookbackCacheDir } from '../paths.js';
import { keepSyncing } from '../postgres/run.js';
import { allProfiles } from '../store/profiles.js';
import { otherProfiles } from './otherProfiles.js';
import { App } from '../../components/App.js';
import { createController } from '../app/create.js';
import { fileHistory, historyPath } from './history.js';
import { gcOnFirstUse, idleCollector, leanHeap } from './memory.js';
import { findWorkerFile } from '../app/worker/client.js';
import { findEmbedWorker } from '../app/worker/embedding.js';
import { findAgentsWorker } from '../agents/background.js';
import { indexPath } from '../agents/indexDb.js';
import { AGENTS, isAgent, type Agent } from '../agents/model.js';
import { link } from '../anchors/format.js';
import { focusedMessage } from '../app/geometry/window.js';
import { selectedRecent, selectedResult } from '../app/state/selectors.js';
import type { AppState } from '../app/state/types.js';
import { resumeFolder, handOver, ignoreTerminalSignals, inheritSpawn } from './handover.js';
import {
  errorLine,
  exitCodeFor,
  onAbnormalExit,
  stopSelf,
  suspend,
  terminalModes,
} from './terminal.js';
import { SUSPEND_AFTER_MS } from '../budgets.js';
import { startMark, writeStartMarks } from '../cli/startMarks.js';

/**
 * Ink's options (`npm run bench` renders with the same). maxFps: ink throttles
 * frames to 30 a second by default, which delays a held-down key's frame by up
 * to 34 ms (bench, j held in Recent at 120x40: p50 34 ms at 30 fps, 11 ms at 60).
 */

/** start.ts takes it from here, so that its own chunk does not load node:v8 at start. */
export { restoreStartFlags } from './memory.js';

export const RENDER_OPTIONS = { exitOnCtrlC: false, patchConsole: false, maxFps: 60 } as const;

/** The conversation the app was on at exit: the open one, else the selected row's. */
function exitSession(s: AppState): string | null {
  if (s.pane === 'messages' && s.view) return focusedMessage(s.view.win)?.session_id ?? null;
  if (s.pane === 'results' || s.typing) return selectedResult(s)?.sessionId ?? null;
  return selectedRecent(s)?.sessionId ?? null;
}

/** What --print prints at exit: the last copied text (anchor), or the session's id or link. */
export function printedAtExit(
  mode: Flags['print'],
  s: AppState,
  copied: readonly string[],
): string | null {
  if (mode === null || mode === false) return null;
  if (mode === 'anchor' || mode === true) return copied[copied.length - 1] ?? null;
  const id = exitSession(s);
  if (id === null) return null;
  return mode === 'id' ? id : link({ profile: s.store.profile, sessionId: id });
}

/**
 * The other agents the app shows beside Hermes: every one by default; `--agent
 * hermes` (or LOOKBACK_AGENTS=hermes) turns them off; a comma list picks some.
 */
export function appAgents(flag: string | undefined, env: NodeJS.ProcessEnv): Agent[] | string {
  const raw = (flag ?? env.LOOKBACK_AGENTS ?? 'all').trim().toLowerCase();
  if (raw === '' || raw === 'all') return [...AGENTS];
  const out: Agent[] = [];
  for (const name of raw.split(',').map((x) => x.trim())) {
    if (name === 'hermes' || name === '') continue;
    if (!isAgent(name))
      return `--agent takes hermes, ${AGENTS.join(', ')}, all or a comma list, not "${name}"`;
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** The model `v` searches by meaning with: --embedder, else LOOKBACK_EMBEDDER; none: `v` says how to set one. */
function embedderOf(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  return (flag ?? env.LOOKBACK_EMBEDDER)?.trim() || undefined;
}

export async function runApp(flags: Flags): Promise<number> {
  startMark('run: runApp');
  const agents = appAgents(flags.agent, process.env);
  if (typeof agents === 'string') {
    process.stderr.write(`lookback: ${agents}\n`);
    return 2;
  }
  // Which store was decided by the command line (src/recall/storeChoice.ts), once for the CLI, the app and the library.
  const where: ChosenStore = flags.store;
  let store: Store;
  // The app lives all day: its store connections keep a small page cache (budgets.ts).
  smallPageCache();
  try {
    store = Store.open(where.path, { profile: where.profile });
    startMark('run: store opened');
  } catch (err) {
    // Before anything is drawn: one line on stderr.
    process.stderr.write(`${errorLine(err)}\n`);
    return 1;
  }
  // A profile on PostgreSQL: its mirror is synced on the app's live cadence, and the
  // app's own poll of its store notices the mirror's writes as it notices the agent's.
  let lastSyncError: string | null = null;
  const pgSync = where.postgres
    ? keepSyncing(where.postgres, lookbackCacheDir(process.env), LIVE_SYNC_MS, {
        onSync: () => (lastSyncError = null),
        onError: (line) => {
          if (line !== lastSyncError) store.warnings.push(line);
          lastSyncError = line;
        },
      })
    : null;
  // With --print and stdout captured (`$(lookback --print)`), draw on stderr.
  const out = process.stdout.isTTY || !process.stderr.isTTY ? process.stdout : process.stderr;
  const fd = out === process.stdout ? 1 : 2;
  const modes = terminalModes(fd);
  const copyDeps = defaultCopyDeps((seq) => writeSync(fd, seq));
  // The collector's context is made at the first idle collection, not before the first frame.
  const collector = idleCollector(gcOnFirstUse());

  return new Promise<number>((resolve) => {
    let finished = false;
    let instance: ReturnType<typeof render> | null = null;
    let uninstall = (): void => undefined;
    /** Every way out: ink unmounted, the terminal restored, the store closed. */
    const leave = (): boolean => {
      if (finished) return false;
      finished = true;
      uninstall();
      collector.stop();
      try {
        controller.stop();
        instance?.unmount();
      } catch {
        // Tearing down after a crash: restoring the terminal is what matters.
      }
      modes.restore();
      pgSync?.stop();
      store.close();
      return true;
    };
    const finish = (code: number, error?: unknown): void => {
      const state = controller.getState();
      if (!leave()) return;
      if (error !== undefined) process.stderr.write(`${errorLine(error)}\n`);
      const printed = printedAtExit(flags.print, state, controller.copied);
      if (printed !== null) process.stdout.write(printed.endsWith('\n') ? printed : `${printed}\n`);
      resolve(code);
    };
    /** R: leave, hand the terminal to the agent, exit with its code. */
    const resumeIn = (argv: string[], recorded?: string, cwdOptional?: boolean): string | void => {
      const where = resumeFolder(recorded, cwdOptional);
      if ('refused' in where) return where.refused;
      const cwd = where.cwd;
      // After the key handler returns: ink is unmounted outside its own input callback.
      setImmediate(() => {
        void handOver(
          argv,
          {
            leave: () => {
              leave();
              process.stdin.setRawMode?.(false);
              process.stdin.pause();
            },
            spawn: inheritSpawn,
            ignoreSignals: () => ignoreTerminalSignals(),
            error: (line) => process.stderr.write(`${line}\n`),
          },
          cwd,
        ).then(resolve);
      });
    };
    const exportDir = process.env.LOOKBACK_EXPORT_DIR?.trim() || process.cwd();
    const controller = createController({
      store,
      profiles: () => allProfiles().map((p) => p.name),
      otherProfiles: otherProfiles(),
      workerFile: findWorkerFile(),
      embedWorker: findEmbedWorker(),
      copy: (text) => copyText(text, copyDeps),
      size: { cols: out.columns || 80, rows: out.rows || 24 },
      demo: where.demo,
      ...(where.noHermes ? { noHermes: true } : {}),
      ...(where.notice ? { notice: where.notice } : {}),
      ...(agents.length > 0 && !flags.demo
        ? {
            agents: {
              indexFile: indexPath(process.env),
              agents,
              indexWorker: findAgentsWorker(),
            },
          }
        : {}),
      onQuit: () => finish(0),
      home: os.homedir(),
      // `.` narrows the lists to the folder lookback was started in; --here starts there.
      here: process.cwd(),
      ...(flags.here ? { startHere: true } : {}),
      ...(embedderOf(flags.embedder, process.env) && flags.semantic
        ? { embedder: embedderOf(flags.embedder, process.env)!, semantic: flags.semantic }
        : {}),
      history: fileHistory(historyPath(process.env, process.platform, os.homedir())),
      env: process.env,
      resume: resumeIn,
      files: {
        dir: exportDir,
        exists: existsSync,
        // 'wx': never overwrite (uniqueExportPath picked a free name; a race fails loudly).
        write: (path, text) => writeFileSync(path, text, { flag: 'wx' }),
      },
      suspend: (onContinue) =>
        // After ink's throttled frame for this key (maxFps 60) is out: a frame written
        // once the alternate screen is left would stay on the shell's screen.
        setTimeout(
          () =>
            suspend({
              modes,
              setRawMode: (on) => process.stdin.setRawMode?.(on),
              stop: stopSelf(),
              // ink rewrites the whole frame on any change (no incremental rendering): the new status does it.
              redraw: onContinue,
            }),
          SUSPEND_AFTER_MS,
        ),
    });
    startMark('run: controller created');
    uninstall = onAbnormalExit((reason) => {
      const code = exitCodeFor(reason);
      finish(code, reason.kind === 'error' ? reason.error : undefined);
      // A signal or a crash: leave now that the terminal is back.
      process.exit(code);
    });
    let drawn = false;
    try {
      controller.start();
      startMark('run: first page of Recent read');
      modes.enter();
      instance = render(<App controller={controller} />, {
        stdout: out,
        stdin: process.stdin,
        ...RENDER_OPTIONS,
        onRender: () => {
          // After the first frame: the start keeps V8's default heap sizing.
          if (!drawn) {
            // ink calls this before it writes the frame: node:v8 loads after the write.
            setImmediate(leanHeap);
            startMark('run: first frame drawn');
            writeStartMarks();
          }
          drawn = true;
          collector.activity();
          controller.frameDrawn();
        },
      });
      startMark('run: render() returned');
    } catch (err) {
      finish(1, err);
    }
  });
}
