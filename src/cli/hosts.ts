/**
 * The command line over other machines: `lookback sync --host NAME|all`,
 * `lookback hosts`, and `--host NAME|all` on recent, search, scroll and read.
 * A host's answer is the ordinary answer computed over its mirror (HOME and the
 * index switched to the host's, hostEnv), tagged with the host on the way out
 * (answerHook.ts); `--host all` asks every synced host and merges.
 */
import type { Flags } from './flags.js';
import { inertJson } from './json.js';
import { withAnswerHook } from './answerHook.js';
import { printText } from './text.js';
import type { Json } from '../store/recall.js';
import { sanitizeLine } from '../text/sanitize.js';
import { hostSummary } from '../hosts/summary.js';
import { HostUsageError, checkHostName, hostEnv } from '../hosts/paths.js';
import { HostError } from '../hosts/ssh.js';
import { splitHostLink, tagHost } from '../hosts/tag.js';
import { knownHosts, readState, syncHost } from '../hosts/sync.js';

export { HostUsageError };

type Payload = Record<string, Json>;

function say(flags: Flags, line: string): void {
  if (!flags.json) process.stderr.write(`lookback: ${sanitizeLine(line)}\n`);
}

export async function runHosts(
  cmd: string,
  rest: string[],
  flags: Flags,
  rerun: (f: Flags, args: string[]) => Promise<number>,
): Promise<number> {
  if (cmd === 'sync') return sync(rest, flags);
  if (cmd === 'hosts') return hosts(rest, flags);
  if (!['recent', 'search', 'scroll', 'read'].includes(cmd))
    throw new HostUsageError(
      `--host is for recent, search, scroll and read (and sync), not ${cmd}`,
    );
  return recall(cmd, rest, flags, rerun);
}

function hostsOf(value: string | undefined, what: string): string[] {
  if (value === undefined) throw new HostUsageError(`${what} needs --host NAME (or --host all)`);
  if (value.trim() === 'all') return knownHosts().map((s) => s.host);
  return [checkHostName(value)];
}

async function sync(rest: string[], flags: Flags): Promise<number> {
  if (rest.length > 0) throw new HostUsageError('sync takes no arguments, only --host NAME|all');
  const names = hostsOf(flags.host, 'sync');
  if (names.length === 0) {
    say(flags, 'no host synced yet: lookback sync --host NAME (an ssh destination)');
    if (flags.json)
      process.stdout.write(inertJson({ success: false, error: 'no host synced yet' }) + '\n');
    return 1;
  }
  const results: Payload[] = [];
  let failed = 0;
  for (const host of names) {
    try {
      const r = await syncHost(host);
      const row: Payload = {
        host,
        success: true,
        files: r.files.files,
        files_fetched: r.files.fetched,
        files_unchanged: r.files.unchanged,
        files_removed: r.files.removed,
        files_deferred: r.files.deferred,
        hermes_stores: r.hermes.stores.map((s) => ({ ...s })),
        hermes_skipped: r.hermes.skipped.map((s) => ({ ...s })),
        new_messages: r.hermes.stores.reduce((n, s) => n + s.new_messages, 0),
        indexed_files: r.indexed.parsed,
        indexed_messages: r.indexed.messages,
        bytes: r.bytes,
        listing_bytes: r.files.listingBytes,
        file_bytes: r.files.dataBytes,
        hermes_bytes: r.hermes.bytes,
        transfer_ms: r.transferMs,
        index_ms: r.indexMs,
        ms: r.ms,
      };
      results.push(row);
      if (!flags.json)
        process.stdout.write(
          `${sanitizeLine(host)}: ${r.files.fetched} of ${r.files.files} files read, ${row.new_messages as number} new Hermes messages in ${r.hermes.stores.length} store${r.hermes.stores.length === 1 ? '' : 's'}, ${(r.bytes / 1048576).toFixed(2)} MB in ${(r.ms / 1000).toFixed(1)} s\n`,
        );
      for (const s of r.hermes.skipped) say(flags, `${host}: ${s.store} skipped: ${s.why}`);
    } catch (err) {
      failed++;
      const message =
        err instanceof HostError
          ? err.message
          : `${host}: ${String((err as Error)?.message ?? err)}`;
      results.push({ host, success: false, error: message.split('\n')[0]! });
      say(flags, message.split('\n')[0]!);
    }
  }
  if (flags.json) process.stdout.write(inertJson({ success: failed === 0, hosts: results }) + '\n');
  return failed === 0 ? 0 : 1;
}

function hosts(rest: string[], flags: Flags): number {
  if (rest.length > 0) throw new HostUsageError('hosts takes no arguments');
  const list = knownHosts().map((s) => hostSummary(s));
  if (flags.json) {
    process.stdout.write(inertJson({ success: true, hosts: list }) + '\n');
    return 0;
  }
  if (list.length === 0) process.stdout.write('No host synced yet: lookback sync --host NAME\n');
  for (const h of list) {
    const when = h.last_ok_at
      ? `read ${String(h.last_ok_at).slice(0, 19).replace('T', ' ')}Z`
      : 'never read';
    const what = (h.holds as Payload[])
      .map(
        (x) =>
          `${String(x.agent)}${x.profile ? `/${String(x.profile)}` : ''} ${String(x.conversations)} conversations, ${String(x.messages)} messages`,
      )
      .join(', ');
    process.stdout.write(
      `${sanitizeLine(String(h.host))}  ${when}  ${sanitizeLine(what || 'nothing')}\n`,
    );
    if (h.last_error)
      process.stdout.write(`  ! last sync failed: ${sanitizeLine(String(h.last_error))}\n`);
  }
  return 0;
}

/** Runs `run` with process.env replaced by `env` (this process answers one command). */
async function withEnv<T>(env: NodeJS.ProcessEnv, run: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  const swap = (to: NodeJS.ProcessEnv) => {
    for (const k of Object.keys(process.env)) delete process.env[k];
    Object.assign(process.env, to);
  };
  swap(env);
  try {
    return await run();
  } finally {
    swap(saved);
  }
}

async function ask(
  host: string,
  rest: string[],
  flags: Flags,
  cmd: string,
  rerun: (f: Flags, args: string[]) => Promise<number>,
): Promise<{ payload: Payload | null; error: string | null; code: number }> {
  let payload: Payload | null = null;
  let error: string | null = null;
  const code = await withEnv(hostEnv(host), () =>
    withAnswerHook(
      {
        payload: (_kind, p) => {
          payload = tagHost(p, host, flags.agent);
          return null;
        },
        failure: (m) => {
          error = m;
          return true;
        },
      },
      () => rerun({ ...flags, host: undefined }, rest),
    ),
  );
  return { payload, error, code };
}

async function recall(
  cmd: string,
  rest: string[],
  flags: Flags,
  rerun: (f: Flags, args: string[]) => Promise<number>,
): Promise<number> {
  let args = rest;
  let value = flags.host;
  // A link that names its host answers from that host's mirror.
  const link = splitHostLink(rest[0] ?? '');
  if (link && (cmd === 'scroll' || cmd === 'read')) {
    if (value !== undefined && value.trim() !== link.host)
      throw new HostUsageError(
        `the link names host ${link.host} but --host is ${value}; pass one of them`,
      );
    args = [link.link, ...rest.slice(1)];
    value = link.host;
  }
  const names = hostsOf(value, cmd);
  const all = value?.trim() === 'all';
  const errors: Payload[] = [];
  for (const host of names) {
    const state = readState(host);
    if (!state) {
      const message = `host ${host} has not been synced: lookback sync --host ${host}`;
      if (flags.json) process.stdout.write(inertJson({ success: false, error: message }) + '\n');
      else say(flags, message);
      return 1;
    }
    if (state.last_error)
      errors.push({
        host,
        error: `last sync failed (${state.last_error}); showing what was read ${state.last_ok_at ?? 'never'}`,
      });
  }
  if (names.length === 0) {
    const message = 'no host synced yet: lookback sync --host NAME';
    if (flags.json) process.stdout.write(inertJson({ success: false, error: message }) + '\n');
    else say(flags, message);
    return 1;
  }
  const answers: Payload[] = [];
  for (const host of names) {
    const a = await ask(host, args, flags, cmd, rerun);
    if (a.payload) answers.push(a.payload);
    else errors.push({ host, error: a.error ?? `exit ${a.code}` });
    // scroll and read: the first host that holds the conversation answers.
    if (a.payload && (cmd === 'scroll' || cmd === 'read')) break;
  }
  for (const e of errors) say(flags, `warning: ${String(e.host)}: ${String(e.error)}`);
  if (answers.length === 0) {
    const message = errors.map((e) => `${String(e.host)}: ${String(e.error)}`).join('; ');
    if (flags.json)
      process.stdout.write(
        inertJson({ success: false, error: message, host_errors: errors }) + '\n',
      );
    return 1;
  }
  const merged = all ? merge(cmd, answers, flags) : answers[0]!;
  const payload: Payload = errors.length > 0 ? { ...merged, host_errors: errors } : merged;
  if (flags.json) process.stdout.write(inertJson(payload) + '\n');
  else {
    printText(cmd, payload);
  }
  return 0;
}

function merge(cmd: string, answers: Payload[], flags: Flags): Payload {
  if (cmd === 'scroll' || cmd === 'read' || answers.length === 1) return answers[0]!;
  const lists = answers.map((a) => (Array.isArray(a.results) ? (a.results as Payload[]) : []));
  let results: Payload[] = [];
  const limit = flags.limit !== undefined ? Number(flags.limit) : cmd === 'recent' ? 20 : 10;
  if (cmd === 'recent')
    results = lists.flat().sort((a, b) => Number(b.last_active ?? 0) - Number(a.last_active ?? 0));
  else if (!flags.sort || flags.sort === 'relevance')
    // Scores of two hosts' indexes do not compare: take turns.
    for (let i = 0; i < Math.max(...lists.map((l) => l.length)); i++)
      for (const l of lists)
        if (l[i]) results.push(l[i]!);
        else {
          const dir = flags.sort === 'newest' ? -1 : 1;
          results = lists.flat().sort((x, y) => dir * String(x.when).localeCompare(String(y.when)));
        }
  results = results.slice(0, limit);
  const { host: _h, ...first } = answers[0]!;
  return { ...first, host: 'all', results, count: results.length };
}
