/**
 * Journey harness: a real generated store, the real controller with an
 * inline query backend (vitest runs TypeScript, which a worker thread cannot
 * load), a fake clipboard, and the real App rendered by ink-testing-library
 * at an injected terminal size. Every write and the unmount run inside act().
 */
import React from 'react';
import { act } from 'react';
import { render } from 'ink-testing-library';
import { join, resolve } from 'node:path';
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { AGENTS } from '../../src/agents/model.js';
import { generateStore } from '../../src/demo/generate.js';
import { DEFAULT_NOW } from '../../src/demo/store.js';
import { Store } from '../../src/store/store.js';
import type { ControllerOptions, HistoryStore, Timers } from '../../src/app/controller/ctx.js';
import type { Controller } from '../../src/app/controller/controller.js';
import { createController, type CreateOptions } from '../../src/app/create.js';
import type { Size } from '../../src/app/geometry/screen.js';
import type { AppState } from '../../src/app/state/types.js';
import { App } from '../../components/App.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export const WIDE: Size = { cols: 160, rows: 48 };
export const NARROW: Size = { cols: 80, rows: 24 };

export const KEY = {
  enter: '\r',
  esc: '\x1b',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  pageUp: '\x1b[5~',
  pageDown: '\x1b[6~',
  tab: '\t',
  backspace: '\x7f',
} as const;

/** A generated store (layout 30, ~60 conversations, one long one) in a fresh temp dir. */
export function makeStore(sessions = 60): string {
  const dir = mkdtempSync(join(tmpdir(), 'lookback-app-'));
  const path = join(dir, 'state.db');
  generateStore(path, {
    layout: 30,
    sessions,
    seed: 11,
    longSessions: 1,
    longSessionMessages: 900,
  });
  return path;
}

/**
 * The generated store's own "now" (DEFAULT_NOW), running on from when this is
 * called: its open sessions were active minutes before it, so they read live.
 */
export function generatedClock(): () => number {
  const t0 = Date.now();
  return () => DEFAULT_NOW * 1000 + (Date.now() - t0);
}

export interface Harness {
  /** The store file the app reads (a test that plays the agent writes here). */
  path: string;
  controller: Controller;
  store: Store;
  copied: string[];
  quit: () => boolean;
  frame: () => string;
  state: () => AppState;
  press: (...keys: string[]) => Promise<void>;
  type: (text: string) => Promise<void>;
  waitFor: (check: () => boolean, what: string, timeoutMs?: number) => Promise<void>;
  /** The terminal changes size (the App is drawn again at it, as useTerminalSize reports a resize). */
  resize: (size: Size) => Promise<void>;
  close: () => Promise<void>;
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function startHarness(
  path: string,
  size: Size,
  opts: {
    timers?: Timers;
    pollMs?: number;
    now?: () => number;
    history?: HistoryStore;
    home?: string;
    /** Opt in to the other agents' index (journeys stay on the Hermes store alone otherwise). */
    agents?: CreateOptions['agents'];
    /** The profiles on disk, as src/tui/run.tsx lists them. */
    profiles?: string[];
    /** The other profiles' stores, as src/tui/run.tsx injects them (src/tui/otherProfiles.ts). */
    otherProfiles?: CreateOptions['otherProfiles'];
    /** The built query worker (dist/query-worker.js); absent, queries are answered inline. */
    workerFile?: string;
    /** The built embed worker (dist/embed-worker.js): with `embedder`, embedding runs in the background. */
    embedWorker?: string;
  } & Partial<
    Pick<
      ControllerOptions,
      'files' | 'resume' | 'env' | 'suspend' | 'demo' | 'here' | 'startHere' | 'embedder'
    >
  > = {},
): Promise<Harness> {
  const store = Store.open(path, { profile: 'default' });
  const copied: string[] = [];
  let quitted = false;
  const controller = createController({
    store,
    workerFile: opts.workerFile ?? null,
    ...(opts.embedWorker ? { embedWorker: opts.embedWorker } : {}),
    copy: async (text) => {
      copied.push(text);
      return {
        ok: true,
        method: 'osc52',
        methods: ['osc52'],
        detail: 'fake clipboard',
        confirmed: false,
        status: 'sent to the fake clipboard; not confirmed',
      };
    },
    size,
    onQuit: () => {
      quitted = true;
    },
    debounceMs: 10,
    pollMs: opts.pollMs ?? 3_600_000,
    ...(opts.timers ? { timers: opts.timers } : {}),
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.history ? { history: opts.history } : {}),
    ...(opts.home ? { home: opts.home } : {}),
    ...(opts.files ? { files: opts.files } : {}),
    ...(opts.resume ? { resume: opts.resume } : {}),
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.suspend ? { suspend: opts.suspend } : {}),
    ...(opts.demo ? { demo: true } : {}),
    ...(opts.here ? { here: opts.here } : {}),
    ...(opts.startHere ? { startHere: true } : {}),
    ...(opts.embedder
      ? { embedder: opts.embedder, semantic: () => import('../../src/semantic/doors.js') }
      : {}),
    ...(opts.agents ? { agents: opts.agents } : {}),
    ...(opts.profiles ? { profiles: () => opts.profiles ?? [] } : {}),
    ...(opts.otherProfiles ? { otherProfiles: opts.otherProfiles } : {}),
  });
  let r!: ReturnType<typeof render>;
  await act(async () => {
    r = render(<App controller={controller} size={size} home="/nonexistent-home" />);
    await pause(5);
  });
  const frame = (): string => r.lastFrame() ?? '';
  const write = async (s: string): Promise<void> => {
    await act(async () => {
      r.stdin.write(s);
      // A lone Esc is flushed by ink on the next macrotask.
      await pause(2);
    });
  };
  const h: Harness = {
    path,
    controller,
    store,
    copied,
    quit: () => quitted,
    frame,
    state: () => controller.getState(),
    press: async (...keys) => {
      for (const k of keys) await write(k);
    },
    // One key per write, as a person types.
    type: async (text) => {
      for (const c of Array.from(text)) await write(c);
    },
    waitFor: async (check, what, timeoutMs = 5_000) => {
      const end = Date.now() + timeoutMs;
      for (;;) {
        if (check()) return;
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${frame()}`);
        await act(async () => {
          await pause(10);
        });
      }
    },
    resize: async (to) => {
      await act(async () => {
        r.rerender(<App controller={controller} size={to} home="/nonexistent-home" />);
        await pause(5);
      });
    },
    close: async () => {
      await act(async () => {
        r.unmount();
      });
      controller.stop();
      store.close();
    },
  };
  return h;
}

/**
 * A private copy of a generated store, for a test that writes to it: the agent's
 * writes in one test must not change what the next one sees.
 */
export function copyStore(path: string): string {
  const to = join(mkdtempSync(join(tmpdir(), 'lookback-app-')), 'state.db');
  for (const side of ['', '-wal'])
    if (existsSync(path + side)) copyFileSync(path + side, to + side);
  return to;
}

/**
 * Runs one journey on a harness of its own and always closes it, so a failing
 * test leaves nothing behind for the next one (and `it.only` works).
 */
export async function withHarness(
  path: string,
  size: Size,
  journey: (h: Harness) => Promise<void>,
  opts: Parameters<typeof startHarness>[2] = {},
): Promise<void> {
  const h = await startHarness(path, size, opts);
  try {
    await journey(h);
  } finally {
    await h.close();
  }
}

/** Lines of the frame, for assertions about one pane's rows. */
export function lines(frame: string): string[] {
  return frame.split('\n');
}

/**
 * Each agent's own home override (sourceRoots reads them): a journey clears them
 * all so its sample home is the only history the indexer worker finds.
 */
const AGENT_HOME_KEYS = [
  'XDG_DATA_HOME',
  'XDG_CONFIG_HOME',
  'CLAUDE_CONFIG_DIR',
  'CODEX_HOME',
  'GEMINI_CLI_HOME',
  'OPENCODE_DB',
  'PRAISONAI_HOME',
  'QWEN_RUNTIME_DIR',
  'KIMI_SHARE_DIR',
  'COPILOT_HOME',
  'AIDER_CHAT_HISTORY_FILE',
  'CRUSH_GLOBAL_DATA',
  'GOOSE_PATH_ROOT',
];

/**
 * Sets process variables (undefined unsets one) and returns what puts them back
 * as they were. The indexer worker inherits process.env when it starts.
 */
export function withEnv(values: Record<string, string | undefined>): () => void {
  const saved = Object.fromEntries(Object.keys(values).map((k) => [k, process.env[k]]));
  const apply = (v: Record<string, string | undefined>) => {
    for (const [k, x] of Object.entries(v))
      if (x === undefined) delete process.env[k];
      else process.env[k] = x;
  };
  apply(values);
  return () => apply(saved);
}

/** HOME set to a sample home, every agent's override unset; returns the restore. */
export function withAgentHome(home: string): () => void {
  return withEnv({
    ...Object.fromEntries(AGENT_HOME_KEYS.map((k) => [k, undefined])),
    HOME: home,
  });
}

/** The agents' index over every agent, built by the real indexer worker (dist/). */
export function agentsOption(indexFile: string): NonNullable<CreateOptions['agents']> {
  return {
    indexFile,
    agents: [...AGENTS],
    indexWorker: resolve(import.meta.dirname, '../../dist/agents-worker.js'),
    everyMs: 300,
  };
}

/**
 * A fresh search line, typed; waits for its answer: `ready` when given, else the
 * results or the no-results line.
 */
export async function searchFor(
  h: Harness,
  query: string,
  ready?: () => boolean,
  timeoutMs?: number,
): Promise<void> {
  await h.press(KEY.esc, KEY.esc, '/', '\x15');
  await h.type(query);
  const r = () => h.state().results;
  await h.waitFor(
    () =>
      !r().busy &&
      r().forText === query &&
      (ready ? ready() : r().items.length > 0 || r().message !== null),
    `the answer for ${query}`,
    timeoutMs,
  );
}
