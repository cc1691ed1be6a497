/**
 * The command that resumes a conversation in its agent, as an argument
 * vector for spawn (never a shell string: a session id or profile name is one
 * argument whatever it contains). Hermes takes `-p/--profile NAME` (read
 * before anything else, so it wins over the sticky `active_profile`) and
 * `-r/--resume SESSION` (an id, a title, or `latest`), and itself changes
 * into the session's recorded working directory (unless --no-restore-cwd),
 * so the caller runs the command from where it is. The command can be
 * replaced with a template in LOOKBACK_RESUME (or the config), e.g.
 * `hermes -p {profile} --resume {id}`; `{cwd}` is there for agents that need
 * to be told the directory.
 */
import { agentResumeArgv } from '../anchors/agentForms.js';
import { remoteResumeArgv } from '../hosts/resume.js';
import { sanitizeLine } from '../text/sanitize.js';

export const RESUME_ENV = 'LOOKBACK_RESUME';

/** Hermes' own form; `-p default` is accepted and means the root profile. */
export const HERMES_RESUME_TEMPLATE = 'hermes -p {profile} --resume {id}';

/** Hermes accepts only these profile names (hermes_cli: `^[a-z0-9][a-z0-9_-]{0,63}$`). */
const HERMES_PROFILE = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const PLACEHOLDERS = ['id', 'profile', 'cwd'] as const;
type Placeholder = (typeof PLACEHOLDERS)[number];

export interface ResumeTarget {
  sessionId: string;
  /** The store's profile (`default` for ~/.hermes). */
  profile: string;
  /** The agent whose history this is; Hermes when absent. */
  agent?: string;
  /** The session's working directory, when the store knows it. */
  cwd?: string | null;
  /** The machine the conversation is on (src/hosts): the command runs there over `ssh -t`. */
  host?: string;
}

/**
 * Agents that find a session by the folder they run in (Claude Code, Gemini CLI
 * and opencode keep sessions per project); Codex finds its own by id anywhere.
 */
const NEEDS_CWD = new Set(['claude', 'gemini', 'opencode', 'praisonai']);

export type ResumePlan =
  | {
      ok: true;
      argv: string[];
      /** The command as a person would type it, for the status line (not for a shell). */
      display: string;
      /** Where to run it: set for agents that find the session by the project they run in. */
      cwd?: string;
      /** The agent finds the session by its id alone (`codex resume <id>`): a folder that is gone is no reason to refuse. */
      cwdOptional?: true;
    }
  | { ok: false; error: string };

/** Words of a template, split on spaces outside single or double quotes; no other shell syntax. */
export function splitTemplate(
  template: string,
): { ok: true; words: string[] } | { ok: false; error: string } {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (const ch of template) {
    if (quote !== null) {
      if (ch === quote) quote = null;
      else word += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote !== null) return { ok: false, error: `${RESUME_ENV}: unclosed ${quote} quote` };
  if (inWord) words.push(word);
  if (words.length === 0) return { ok: false, error: `${RESUME_ENV} is empty` };
  return { ok: true, words };
}

/** `it's` → `'it'\''s'`: quoting for showing a command, never for running one. */
function shown(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The argv that resumes `target`: another agent's own command (claude
 * --resume, codex resume, …, run in the conversation's directory); for a
 * Hermes history the template from `env[LOOKBACK_RESUME]`, else
 * `configTemplate`, else Hermes' own form.
 * Each placeholder is replaced inside its word, so a value never splits
 * into several arguments.
 */
export function resumeCommand(
  target: ResumeTarget,
  options: { env?: NodeJS.ProcessEnv; configTemplate?: string | null } = {},
): ResumePlan {
  const plan = localCommand(target, options);
  if (!plan.ok || target.host === undefined) return plan;
  // Another machine's conversation: the same command, there, in its folder there.
  let remote: ReturnType<typeof remoteResumeArgv>;
  try {
    remote = remoteResumeArgv(
      target.host,
      plan.argv,
      plan.cwd,
      plan.cwdOptional === true,
      options.env ?? {},
    );
  } catch (err) {
    return { ok: false, error: `cannot resume: ${(err as Error).message}` };
  }
  // The folder is the remote's: nothing to check or change into here.
  return { ok: true, argv: remote.argv, display: remote.argv.map(shown).join(' ') };
}

/** The command on the conversation's own machine. */
function localCommand(
  target: ResumeTarget,
  options: { env?: NodeJS.ProcessEnv; configTemplate?: string | null },
): ResumePlan {
  const id = target.sessionId.trim();
  if (id === '' || sanitizeLine(id) !== id)
    return { ok: false, error: 'cannot resume: the session id is empty or has control characters' };
  if (id.startsWith('-'))
    return { ok: false, error: `cannot resume: session id ${id} would read as an option` };
  // Hermes reads `--resume latest` as "the most recent session", not an id.
  if (id.toLowerCase() === 'latest')
    return {
      ok: false,
      error: 'cannot resume: a session id "latest" means another session to hermes',
    };
  const agent = (target.agent ?? 'hermes').toLowerCase();
  // Another agent's own command; LOOKBACK_RESUME (with its {profile}) is for Hermes histories.
  if (agent !== 'hermes') {
    const argv = agentResumeArgv(agent, id);
    if (!argv) return { ok: false, error: `no resume command known for ${sanitizeLine(agent)}` };
    const cwd = target.cwd?.trim();
    return {
      ok: true,
      argv,
      display: argv.map(shown).join(' '),
      ...(cwd ? { cwd } : {}),
      ...(cwd && !NEEDS_CWD.has(agent) ? { cwdOptional: true as const } : {}),
    };
  }
  const fromEnv = options.env?.[RESUME_ENV];
  const custom = fromEnv !== undefined && fromEnv.trim() !== '' ? fromEnv : options.configTemplate;
  const template =
    custom !== undefined && custom !== null && custom.trim() !== ''
      ? custom
      : HERMES_RESUME_TEMPLATE;
  const split = splitTemplate(template);
  if (!split.ok) return split;
  const profile = target.profile.trim() || 'default';
  const values: Record<Placeholder, string | null> = { id, profile, cwd: target.cwd ?? null };
  const argv: string[] = [];
  for (const word of split.words) {
    let failure: string | null = null;
    const out = word.replace(/\{([^{}]*)\}/g, (whole, name: string) => {
      if (!(PLACEHOLDERS as readonly string[]).includes(name)) {
        failure ??= `${RESUME_ENV}: unknown placeholder ${whole} (use {id}, {profile}, {cwd})`;
        return whole;
      }
      const value = values[name as Placeholder];
      if (value === null) {
        failure ??= `cannot resume: this session has no ${name} for ${whole}`;
        return whole;
      }
      return value;
    });
    if (failure !== null) return { ok: false, error: failure };
    argv.push(out);
  }
  if (template === HERMES_RESUME_TEMPLATE && !HERMES_PROFILE.test(profile))
    return {
      ok: false,
      error: `cannot resume: hermes does not accept the profile name ${sanitizeLine(profile)}`,
    };
  return { ok: true, argv, display: argv.map(shown).join(' ') };
}
