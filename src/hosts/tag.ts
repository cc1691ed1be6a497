/** A host's answer marked as that host's: `host` on it and on each result, links naming the host. */
import type { Json } from '../store/recall.js';

type Payload = Record<string, Json>;

/** `@session:PROFILE@HOST/ID`: a link that names its machine, usable from this one. */
export const HOST_LINK = /^@session:([^/@\s]*)@([^/\s]+)\/(\S+)$/;

export function hostLink(link: string, host: string): string {
  const m = /^@session:(?:([^/\s]+)\/)?(\S+)$/.exec(link);
  if (!m) return link;
  return `@session:${m[1] ?? 'default'}@${host}/${m[2]}`;
}

/** Splits a host link into the host and the plain link this machine's code reads. */
export function splitHostLink(value: string): { host: string; link: string } | null {
  const m = HOST_LINK.exec(value.trim());
  return m ? { host: m[2]!, link: `@session:${m[1] || 'default'}/${m[3]}` } : null;
}

/**
 * Tags an answer; search results also get the command that scrolls to them
 * from this machine (`agent`: the --agent the answer was asked with).
 */
export function tagHost(p: Payload, host: string, agent?: string): Payload {
  const agentFlag = (a: Json | undefined) =>
    a && a !== 'hermes' ? ` --agent ${String(a)}` : agent && !a ? ` --agent ${agent}` : '';
  const one = (x: Json): Json => {
    if (!x || typeof x !== 'object' || Array.isArray(x)) return x;
    const o: Payload = { ...x, host };
    if (typeof o.link === 'string') o.link = hostLink(o.link, host);
    if (o.session_id !== undefined && o.match_message_id !== undefined)
      o.scroll_command = `lookback scroll --host ${host}${agentFlag(o.agent)} ${JSON.stringify(String(o.session_id))} ${JSON.stringify(String(o.match_message_id))}`;
    return o;
  };
  const out: Payload = { ...p, host };
  if (typeof p.link === 'string') out.link = hostLink(p.link, host);
  if (Array.isArray(p.results)) out.results = p.results.map(one);
  if (p.session_meta) out.session_meta = one(p.session_meta);
  return out;
}
