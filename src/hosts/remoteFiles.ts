/**
 * The other agents' files on a remote machine, read with a POSIX shell only:
 * `find`, `wc -c`, `cksum`, `tail -c`, `head -c`. Two short scripts, each one ssh
 * session: one lists the files (size; a CRC for formats the agent rewrites in
 * place), one prints the byte ranges asked for, framed. Neither writes anything
 * on the remote, not even a temporary file (no here-documents: some shells back
 * them with files).
 */

/** Where the agents keep their histories under the remote's home (discover.ts's defaults). */
export const REMOTE_ROOTS = [
  '.claude/projects',
  '.config/claude-code/projects',
  '.codex/sessions',
  '.codex/archived_sessions',
  '.gemini/tmp',
  '.local/share/opencode/storage',
  '.praisonai/sessions',
  '.praison/sessions',
  '.local/share/praisonai/sessions',
] as const;

/**
 * Lines `L <size> <path>` for append-only files (JSON Lines: bytes past the last
 * offset are all that changed) and `C <crc> <size> <path>` for whole documents
 * (JSON files rewritten on every save, compressed archives).
 */
export const LIST_SCRIPT = `LC_ALL=C; export LC_ALL
cd || exit 90
for d in ${REMOTE_ROOTS.join(' ')}; do
  [ -d "$d" ] || continue
  find "$d" -type f -name '*.jsonl' -exec wc -c {} + 2>/dev/null | sed -n 's/^ *\\([0-9][0-9]*\\) \\(\\..*\\)$/L \\1 \\2/p'
  find "$d" -type f \\( -name '*.json' -o -name '*.jsonl.zst' \\) -exec cksum {} + 2>/dev/null | sed -n 's/^\\([0-9][0-9]*\\) \\([0-9][0-9]*\\) \\(\\..*\\)$/C \\1 \\2 \\3/p'
done
exit 0`;

/**
 * Reads lines `<offset> <length> <path>` on stdin and prints, for each,
 * `F <length> <path>` and exactly that many bytes, or `X <path>` when the file
 * is now shorter than asked (rewritten since the listing; the next sync reads it
 * whole). Paths are relative to the home and never climb out of it.
 */
export const FETCH_SCRIPT = `LC_ALL=C; export LC_ALL
cd || exit 90
while IFS=' ' read -r off len path; do
  case "$path" in ''|/*|*..*) printf 'X %s\\n' "$path"; continue;; esac
  if [ ! -f "$path" ]; then printf 'X %s\\n' "$path"; continue; fi
  size=$(wc -c < "$path" 2>/dev/null) || size=0
  size=$((size + 0))
  if [ "$size" -lt $((off + len)) ]; then printf 'X %s\\n' "$path"; continue; fi
  printf 'F %s %s\\n' "$len" "$path"
  if [ "$off" -eq 0 ]; then head -c "$len" "$path"; else tail -c +$((off + 1)) "$path" | head -c "$len"; fi
done
exit 0`;

export interface RemoteFile {
  path: string;
  size: number;
  /** Set for whole documents: changed when the CRC or the size changed. */
  crc?: string;
}

export function parseListing(out: string): RemoteFile[] {
  const files: RemoteFile[] = [];
  for (const line of out.split('\n')) {
    let m = /^L (\d+) (\..+)$/.exec(line);
    if (m) {
      files.push({ path: clean(m[2]!), size: Number(m[1]) });
      continue;
    }
    m = /^C (\d+) (\d+) (\..+)$/.exec(line);
    if (m) files.push({ path: clean(m[3]!), size: Number(m[2]), crc: m[1]! });
  }
  return files.filter((f) => f.path !== '' && !f.path.split('/').includes('..'));
}

/** `./.claude/x` and `.claude/x` are one path. */
function clean(p: string): string {
  return p.replace(/^(\.\/)+/, '');
}

export interface Range {
  path: string;
  offset: number;
  length: number;
}

export function fetchInput(ranges: Range[]): string {
  return ranges.map((r) => `${r.offset} ${r.length} ${r.path}\n`).join('');
}

export type FrameEvent =
  | { kind: 'start'; path: string; length: number }
  | { kind: 'data'; chunk: Buffer }
  | { kind: 'end' }
  | { kind: 'changed'; path: string };

/**
 * Parses the fetch script's framed output as it arrives, so a gigabyte is
 * never held in memory: header lines, then exactly the announced bytes.
 */
export class FrameParser {
  private pending = Buffer.alloc(0);
  private left = 0;

  constructor(private readonly on: (e: FrameEvent) => void) {}

  push(chunk: Buffer): void {
    let buf = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    while (buf.length > 0) {
      if (this.left > 0) {
        const take = Math.min(this.left, buf.length);
        this.on({ kind: 'data', chunk: buf.subarray(0, take) });
        this.left -= take;
        buf = buf.subarray(take);
        if (this.left === 0) this.on({ kind: 'end' });
        continue;
      }
      const nl = buf.indexOf(10);
      if (nl < 0) {
        this.pending = Buffer.from(buf);
        return;
      }
      const line = buf.subarray(0, nl).toString('utf8');
      buf = buf.subarray(nl + 1);
      const f = /^F (\d+) (.+)$/.exec(line);
      if (f) {
        this.left = Number(f[1]);
        this.on({ kind: 'start', path: f[2]!, length: this.left });
        if (this.left === 0) this.on({ kind: 'end' });
        continue;
      }
      const x = /^X (.*)$/.exec(line);
      if (x) this.on({ kind: 'changed', path: x[1]! });
      else throw new Error(`unexpected line from the remote: ${line.slice(0, 80)}`);
    }
  }

  /** True when the stream stopped inside a file (a dropped connection). */
  get incomplete(): boolean {
    return this.left > 0 || this.pending.length > 0;
  }
}
