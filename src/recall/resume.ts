/**
 * How to continue a conversation in its own agent, for an overview: the
 * agent's resume command (src/anchors/agentForms.ts) and the folder to run it
 * in, or Hermes' `hermes -p PROFILE --resume ID` (Hermes changes into the
 * session's folder itself). The app's resume key may use a personal template
 * (LOOKBACK_RESUME); an overview gives the agents' own forms, the same on
 * every machine.
 */
import { agentResumeArgv } from '../anchors/agentForms.js';
import type { Json } from '../store/recall.js';
import { sanitizeLine } from '../text/sanitize.js';

/** Codex finds its sessions by id anywhere; the others look them up under the folder they run in (AGENTS.md). */
const ANYWHERE = new Set(['codex']);

/** A shell word: bare when safe, else single-quoted. */
function word(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`;
}

/** `{command, argv, cwd?}` to resume it, or `{command: null, reason}` when there is none. */
export function resumeOf(
  agent: string,
  sessionId: string,
  profile: string | undefined,
  folder: string | null,
): Record<string, Json> {
  const id = sessionId.trim();
  if (id === '' || sanitizeLine(id) !== id || id.startsWith('-'))
    return { command: null, reason: 'the session id cannot be passed to a command safely' };
  let argv: string[] | null;
  if (agent === 'hermes') {
    if (id.toLowerCase() === 'latest')
      return { command: null, reason: 'a session id "latest" means another session to hermes' };
    argv = ['hermes', '-p', profile || 'default', '--resume', id];
  } else argv = agentResumeArgv(agent, id);
  if (!argv) return { command: null, reason: `no resume command known for ${agent}` };
  const cwd = folder && agent !== 'hermes' && !ANYWHERE.has(agent) ? folder : null;
  return {
    command: (cwd ? `cd ${word(cwd)} && ` : '') + argv.map(word).join(' '),
    argv,
    ...(cwd ? { cwd } : {}),
  };
}
