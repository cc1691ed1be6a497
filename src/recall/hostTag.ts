/**
 * What a row or answer of another machine carries (src/recall/hostSources.ts makes
 * those sources): `host`, a link that names the host (`@session:PROFILE@HOST/ID`,
 * read back from this machine), and on a search hit the command that scrolls
 * to it from here (`lookback scroll --host HOST …`, quoted for a POSIX shell).
 */
import type { Json } from '../store/recall.js';
import { sanitizeLine } from '../text/sanitize.js';
import { shellLine } from '../text/shell.js';
import { hostLink, type Owner } from '../ids/ref.js';

type Entry = Record<string, Json>;

/** The command that scrolls to a message of `owner` (on its host) from this machine. */
export function hostScrollCommand(
  owner: Owner & { host: string },
  sessionId: string,
  messageId: string,
): string {
  const who =
    owner.agent !== 'hermes'
      ? ['--agent', owner.agent]
      : owner.profile !== 'default'
        ? ['--profile', owner.profile]
        : [];
  return shellLine(
    ['lookback', 'scroll', '--host', owner.host, ...who, sessionId, messageId].map(sanitizeLine),
  );
}

/** A list row (browse, discover) of a host's source. */
export function tagHostRow(json: Entry, owner: Owner): Entry {
  const host = owner.host;
  if (!host) return json;
  const out: Entry = { ...json, host };
  if (typeof out.link === 'string') out.link = hostLink(out.link, host);
  if (out.session_id !== undefined && out.match_message_id !== undefined)
    out.scroll_command = hostScrollCommand(
      { ...owner, host },
      String(out.session_id),
      String(out.match_message_id),
    );
  return out;
}

/** A scroll or read answer of a host's source: `host` on it and on its session_meta, links naming the host. */
export function tagHostAnswer(p: Entry, owner: Owner): Entry {
  const host = owner.host;
  if (!host) return p;
  const out: Entry = { ...p, host };
  if (typeof p.link === 'string') out.link = hostLink(p.link, host);
  const meta = p.session_meta;
  if (meta && typeof meta === 'object' && !Array.isArray(meta)) {
    const m: Entry = { ...meta, host };
    if (typeof m.link === 'string') m.link = hostLink(m.link, host);
    out.session_meta = m;
  }
  return out;
}

/** A source's list payload with its rows' JSON (tagged by the source) as its results. */
export function withRows(payload: Entry, rows: readonly { json: Entry }[], host?: string): Entry {
  return host ? { ...payload, host, results: rows.map((r) => r.json) } : payload;
}
