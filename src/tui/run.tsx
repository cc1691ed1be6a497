/**
 * Runs the interactive app on the real terminal: store resolution, terminal
 * modes, render, and cleanup on every exit path. Kept apart from start.ts so
 * that file stays a plain .ts entry the CLI imports lazily.
 */
import React from 'react';
import { render } from 'ink';
import { writeSync } from 'node:fs';
import type { ChosenStore, StartOptions as Flags } from './options.js';
import { copyText, defaultCopyDeps } from '../clipboard/copy.js';
import { Store } from '../store/store.js';
import { App } from '../../components/App.js';
import { createController } from '../app/create.js';
import { exposeGc, idleCollector } from './memory.js';
import { findWorkerFile } from '../app/worker/client.js';
import { errorLine, exitCodeFor, onAbnormalExit, terminalModes } from './terminal.js';

/**
 * Ink's options (`npm run bench` renders with the same). maxFps: ink throttles
 * frames to 30 a second by default, which delays a held-down key's frame by up
 * to 34 ms (bench, j held in Recent at 120x40: p50 34 ms at 30 fps, 11 ms at 60).
 */
export const RENDER_OPTIONS = { exitOnCtrlC: false, patchConsole: false, maxFps: 60 } as const;

export async function runApp(flags: Flags): Promise<number> {
  // Which store was decided by the command line (src/cli/storeChoice.ts), once for the CLI, the app and the library.
  const where: ChosenStore = flags.store;
  let store: Store;
  try {
    store = Store.open(where.path, { profile: where.profile });
  } catch (err) {
    // Before anything is drawn: one line on stderr.
    process.stderr.write(`${errorLine(err)}\n`);
    return 1;
  }
  // With --print and stdout captured (`$(lookback --print)`), draw on stderr.
  const out = process.stdout.isTTY || !process.stderr.isTTY ? process.stdout : process.stderr;
  const fd = out === process.stdout ? 1 : 2;
  const modes = terminalModes(fd);
  const copyDeps = defaultCopyDeps((seq) => writeSync(fd, seq));
  const collector = idleCollector(exposeGc());

  return new Promise<number>((resolve) => {
    let finished = false;
    let instance: ReturnType<typeof render> | null = null;
    let uninstall = (): void => undefined;
    const finish = (code: number, error?: unknown): void => {
      if (finished) return;
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
      store.close();
      if (error !== undefined) process.stderr.write(`${errorLine(error)}\n`);
      const last = controller.copied[controller.copied.length - 1];
      if (flags.print && last !== undefined)
        process.stdout.write(last.endsWith('\n') ? last : `${last}\n`);
      resolve(code);
    };
    const controller = createController({
      store,
      workerFile: findWorkerFile(),
      copy: (text) => copyText(text, copyDeps),
      size: { cols: out.columns || 80, rows: out.rows || 24 },
      demo: where.demo,
      ...(where.notice ? { notice: where.notice } : {}),
      onQuit: () => finish(0),
    });
    uninstall = onAbnormalExit((reason) => {
      const code = exitCodeFor(reason);
      finish(code, reason.kind === 'error' ? reason.error : undefined);
      // A signal or a crash: leave now that the terminal is back.
      process.exit(code);
    });
    try {
      controller.start();
      modes.enter();
      instance = render(<App controller={controller} />, {
        stdout: out,
        stdin: process.stdin,
        ...RENDER_OPTIONS,
        onRender: () => {
          collector.activity();
          controller.frameDrawn();
        },
      });
    } catch (err) {
      finish(1, err);
    }
  });
}
