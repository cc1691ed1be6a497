/**
 * The command line over other machines: `lookback sync --host NAME|all` and
 * `lookback hosts`. `--host NAME|all` on recent, search, scroll and read is
 * not here: a synced host's mirror is a set of recall sources
 * (src/recall/hostSources.ts) the core chooses like this machine's.
 */
import type { Flags } from './flags.js';
import { inertJson } from './json.js';
import type { Json } from '../store/recall.js';
import { sanitizeLine } from '../text/sanitize.js';
import { hostSummary } from '../hosts/summary.js';
import { HostUsageError, checkHostName } from '../hosts/paths.js';
import { HostError } from '../hosts/ssh.js';
import { knownHosts, syncHost } from '../hosts/sync.js';

export { HostUsageError };

type Payload = Record<string, Json>;

function say(flags: Flags, line: string): void {
  if (!flags.json) process.stderr.write(`lookback: ${sanitizeLine(line)}\n`);
}

export async function runHosts(
  cmd: 'sync' | 'hosts',
  rest: string[],
  flags: Flags,
): Promise<number> {
  return cmd === 'sync' ? sync(rest, flags) : hosts(rest, flags);
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
