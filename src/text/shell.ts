/**
 * Quoting for a POSIX shell: the `lookback scroll --host …` command a person
 * pastes, and the remote command `ssh -t HOST '…'` hands to the remote
 * shell. A word in single quotes is taken literally by every POSIX shell
 * (`$`, backticks, `\` and `!` included); a single quote inside is closed,
 * escaped and reopened (`'\''`).
 */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

export function shellLine(words: readonly string[]): string {
  return words.map(shellWord).join(' ');
}
