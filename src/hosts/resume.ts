/**
 * Resuming a conversation of another machine (R on a remote conversation):
 * the agent's own resume command, run there over `ssh -t HOST 'cd DIR && exec …'`
 * with the terminal handed over. The remote command line is built from the
 * argv word by word in single quotes (src/text/shell.ts), so a session id,
 * profile or folder is one word to the remote shell whatever it contains; the
 * destination is checked (checkHostName) and put after `--`, so it can never
 * read as an option. The same `ssh` and config as a sync (LOOKBACK_SSH_BIN,
 * LOOKBACK_SSH_CONFIG), without BatchMode: a person is at the terminal and may
 * answer a passphrase prompt.
 */
import { shellLine, shellWord } from '../text/shell.js';
import { checkHostName } from './paths.js';

export interface RemoteResume {
  argv: string[];
  /** What runs on the host, as its shell reads it. */
  remote: string;
}

/**
 * `argv` (the agent's resume command) run on `host` in `cwd`: when the agent
 * needs its folder (`cwdOptional` false) a folder that is gone there stops it
 * with the shell's own one line; otherwise the command runs in the login folder.
 */
export function remoteResumeArgv(
  host: string,
  argv: readonly string[],
  cwd: string | undefined,
  cwdOptional: boolean,
  env: Readonly<Record<string, string | undefined>> = {},
): RemoteResume {
  const dest = checkHostName(host);
  const run = `exec ${shellLine(argv)}`;
  const remote =
    cwd === undefined || cwd === ''
      ? run
      : cwdOptional
        ? `cd ${shellWord(cwd)} 2>/dev/null; ${run}`
        : `cd ${shellWord(cwd)} && ${run}`;
  const config = env.LOOKBACK_SSH_CONFIG ? ['-F', env.LOOKBACK_SSH_CONFIG] : [];
  return { argv: [env.LOOKBACK_SSH_BIN || 'ssh', ...config, '-t', '--', dest, remote], remote };
}
