/**
 * Mirrors the remote agents' files into `<host dir>/home`, same layout, moving
 * only what changed: bytes past the last offset of an append-only file (with a
 * 64-byte overlap checked against the local tail, so a file rewritten with the
 * same or a larger size is noticed and read whole), whole documents when their
 * CRC or size changed. The state records only what reached the disk: a whole
 * file is written beside and renamed; an append longer than the recorded size
 * (a sync cut off mid-file) is cut back to it before anything else happens.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import {
  FETCH_SCRIPT,
  FrameParser,
  LIST_SCRIPT,
  fetchInput,
  parseListing,
  type Range,
  type RemoteFile,
} from './remoteFiles.js';
import { HostError, runRemote } from './ssh.js';

/** Bytes of an append re-read from before the recorded end, to check it is the same file. */
const OVERLAP = 64;

export interface MirroredFile {
  size: number;
  crc?: string;
}

export interface FilesReport {
  files: number;
  fetched: number;
  unchanged: number;
  removed: number;
  /** Files that changed between the listing and the read; read on the next sync. */
  deferred: number;
  listingBytes: number;
  dataBytes: number;
}

interface Want extends Range {
  /** Bytes of the range that are already on disk (the overlap). */
  overlap: number;
  remote: RemoteFile;
}

function remoteError(host: string, what: string, code: number, stderr: string): HostError {
  const why = stderr || `ssh exited with ${code}`;
  return new HostError(
    host,
    code === 90 ? `${host}: no home directory` : `${host}: ${what}: ${why}`,
  );
}

/** Cuts files longer than their recorded size back to it (an append cut off mid-way). */
function settle(home: string, files: Record<string, MirroredFile>): void {
  for (const [path, f] of Object.entries(files)) {
    const local = join(home, path);
    let size: number;
    try {
      size = statSync(local).size;
    } catch {
      delete files[path];
      continue;
    }
    if (size === f.size) continue;
    if (size > f.size && f.crc === undefined) {
      const fd = openSync(local, 'r+');
      try {
        ftruncateSync(fd, f.size);
      } finally {
        closeSync(fd);
      }
    } else delete files[path]; // shorter or a document: read it whole again
  }
}

function tailMatches(local: string, at: number, bytes: Buffer): boolean {
  const fd = openSync(local, 'r');
  try {
    const mine = Buffer.alloc(bytes.length);
    const n = readSync(fd, mine, 0, bytes.length, at);
    return n === bytes.length && mine.equals(bytes);
  } finally {
    closeSync(fd);
  }
}

export async function syncFiles(
  host: string,
  home: string,
  files: Record<string, MirroredFile>,
  env: NodeJS.ProcessEnv,
  save: () => void,
): Promise<FilesReport> {
  settle(home, files);
  const listed = await runRemote(host, LIST_SCRIPT, '', env);
  if (listed.code !== 0) throw remoteError(host, 'listing failed', listed.code, listed.stderr);
  const remote = parseListing(listed.stdout.toString('utf8'));
  const report: FilesReport = {
    files: remote.length,
    fetched: 0,
    unchanged: 0,
    removed: 0,
    deferred: 0,
    listingBytes: listed.bytes,
    dataBytes: 0,
  };

  const seen = new Set(remote.map((r) => r.path));
  for (const path of Object.keys(files))
    if (!seen.has(path)) {
      // Gone on the remote: gone here, so the index marks its sessions gone as it would locally.
      rmSync(join(home, path), { force: true });
      delete files[path];
      report.removed++;
    }

  const wants: Want[] = [];
  for (const r of remote) {
    const had = files[r.path];
    if (had && r.crc === undefined && had.crc === undefined && r.size === had.size)
      report.unchanged++;
    else if (had && r.crc !== undefined && had.crc === r.crc && had.size === r.size)
      report.unchanged++;
    else if (had && r.crc === undefined && had.crc === undefined && r.size > had.size) {
      const offset = Math.max(0, had.size - OVERLAP);
      wants.push({
        path: r.path,
        offset,
        length: r.size - offset,
        overlap: had.size - offset,
        remote: r,
      });
    } else wants.push({ path: r.path, offset: 0, length: r.size, overlap: 0, remote: r });
  }

  let again = await fetchRanges(host, home, files, wants, env, report, save);
  // Appends whose overlap did not match: the file was rewritten; read it whole.
  if (again.length > 0)
    again = await fetchRanges(
      host,
      home,
      files,
      again.map((w) => ({ ...w, offset: 0, length: w.remote.size, overlap: 0 })),
      env,
      report,
      save,
    );
  report.deferred += again.length;
  return report;
}

/** Reads the ranges in one ssh session; returns the appends that turned out to be rewrites. */
async function fetchRanges(
  host: string,
  home: string,
  files: Record<string, MirroredFile>,
  wants: Want[],
  env: NodeJS.ProcessEnv,
  report: FilesReport,
  save: () => void,
): Promise<Want[]> {
  if (wants.length === 0) return [];
  const byPath = new Map(wants.map((w) => [w.path, w]));
  const rewritten: Want[] = [];
  let cur: { want: Want; fd: number; tmp: string | null; got: number; head: Buffer[] } | null =
    null;
  let sinceSave = 0;

  const finish = () => {
    const c = cur!;
    cur = null;
    const local = join(home, c.want.path);
    if (c.fd >= 0) {
      fsyncSync(c.fd);
      closeSync(c.fd);
    }
    if (c.tmp) renameSync(c.tmp, local);
    if (c.fd < 0) return; // an overlap that did not match: nothing written
    files[c.want.path] = {
      size: c.want.offset + c.want.length,
      ...(c.want.remote.crc !== undefined ? { crc: c.want.remote.crc } : {}),
    };
    report.fetched++;
    // The state follows the disk every few files, so a cut connection keeps what came.
    if (++sinceSave >= 50) {
      save();
      sinceSave = 0;
    }
  };

  const open = (want: Want) => {
    const local = join(home, want.path);
    mkdirSync(dirname(local), { recursive: true });
    if (want.offset === 0) {
      const tmp = `${local}.lookback-part`;
      cur = { want, fd: openSync(tmp, 'w'), tmp, got: 0, head: [] };
    } else cur = { want, fd: -2, tmp: null, got: 0, head: [] };
  };

  const onData = (chunk: Buffer) => {
    const c = cur!;
    let data = chunk;
    if (c.fd === -2) {
      // Still inside the overlap: gather it, then compare before appending.
      const need = c.want.overlap - c.got;
      const part = data.subarray(0, need);
      c.head.push(Buffer.from(part));
      c.got += part.length;
      data = data.subarray(part.length);
      if (c.got < c.want.overlap) return;
      const local = join(home, c.want.path);
      if (!existsSync(local) || !tailMatches(local, c.want.offset, Buffer.concat(c.head))) {
        rewritten.push(c.want);
        c.fd = -1; // swallow the rest of this range
      } else c.fd = openSync(local, 'a');
    }
    if (c.fd >= 0 && data.length > 0) writeSync(c.fd, data);
  };

  const parser = new FrameParser((e) => {
    switch (e.kind) {
      case 'start': {
        const want = byPath.get(e.path);
        if (!want || want.length !== e.length)
          throw new Error(`the remote sent a range not asked for: ${e.path.slice(0, 80)}`);
        open(want);
        if (want.offset > 0 && want.overlap === 0) cur!.fd = openSync(join(home, want.path), 'a');
        break;
      }
      case 'data':
        onData(e.chunk);
        break;
      case 'end':
        if (cur!.fd === -2) {
          // The range was shorter than its overlap: cannot tell, so read it whole.
          rewritten.push(cur!.want);
          cur!.fd = -1;
        }
        finish();
        break;
      case 'changed':
        report.deferred++;
        break;
    }
  });

  const res = await runRemote(host, FETCH_SCRIPT, fetchInput(wants), env, (chunk) =>
    parser.push(chunk),
  );
  report.dataBytes += res.bytes;
  const cut = cur as { fd: number; tmp: string | null } | null;
  if (cut) {
    // Cut off inside a file: drop the partial whole file; an append is cut back by settle().
    if (cut.fd >= 0) closeSync(cut.fd);
    if (cut.tmp) rmSync(cut.tmp, { force: true });
  }
  if (res.code !== 0 || parser.incomplete) {
    save();
    throw remoteError(host, 'reading files failed', res.code, res.stderr || 'connection cut');
  }
  return rewritten;
}
