/**
 * The remote Hermes stores (`~/.hermes/state.db` and every
 * `~/.hermes/profiles/NAME/state.db`), read by a small python3 script run over
 * ssh: read-only URI (`mode=ro`), `query_only`, short read transactions (one for
 * the sessions, then pages of messages by id), nothing written. It prints JSON
 * lines: the schema the first time, the small tables and every session row (so
 * renamed titles, ended sessions and new counts are noticed), and the messages
 * past the watermark (the largest message id the mirror holds).
 */
import { REMOTE_PAGE_ROWS } from '../budgets.js';

/** Small tables copied whole at every sync (the layout detection and index status read them). */
export const SMALL_TABLES = ['schema_version', 'state_meta', 'system_prompts'];

export const HERMES_SCRIPT = String.raw`
import sys, os, json, glob, sqlite3, base64, hashlib
from urllib.parse import quote
req = json.loads(sys.stdin.read() or '{}')
os.chdir(os.path.expanduser('~'))
out = sys.stdout
def enc(v):
    if isinstance(v, bytes):
        return {'$b64': base64.b64encode(v).decode('ascii')}
    return v
def emit(o):
    out.write(json.dumps(o, ensure_ascii=False, default=str) + '\n')
stores = ['.hermes/state.db'] + sorted(glob.glob('.hermes/profiles/*/state.db'))
for rel in stores:
    if not os.path.isfile(rel):
        continue
    known = req.get(rel) or {}
    try:
        # No -wal beside a WAL store: no writer has it open. Read it immutable, which creates no
        # -shm/-wal (a read-only connection would, and leave them behind); otherwise read-only.
        wal = os.path.exists(rel + '-wal')
        mode = 'mode=ro' if wal else 'mode=ro&immutable=1'
        con = sqlite3.connect('file:' + quote(os.path.abspath(rel)) + '?' + mode, uri=True, timeout=5, isolation_level=None)
        con.execute('PRAGMA query_only=1')
        con.execute('BEGIN')
        names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if 'sessions' not in names or 'messages' not in names:
            con.execute('COMMIT'); con.close()
            emit({'k': 'skip', 'store': rel, 'why': 'not a Hermes store (no sessions/messages tables)'})
            continue
        top = con.execute('SELECT max(id) FROM messages').fetchone()[0] or 0
        last = int(known.get('watermark') or 0)
        reset = last > top or not known.get('schema')
        if reset:
            last = 0
        emit({'k': 'store', 'store': rel, 'max_id': top, 'reset': reset})
        if reset:
            emit({'k': 'schema', 'rows': [list(r) for r in con.execute("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")]})
        # The small tables and every session row, unless they are exactly as last time (a digest).
        lines = []
        for t in ${JSON.stringify(SMALL_TABLES)}:
            if t in names:
                c = con.execute('SELECT * FROM "%s"' % t)
                lines.append({'k': 'table', 'name': t, 'cols': [d[0] for d in c.description], 'rows': [[enc(v) for v in r] for r in c]})
        c = con.execute('SELECT * FROM sessions')
        lines.append({'k': 'sessions', 'cols': [d[0] for d in c.description]})
        for r in c:
            lines.append({'k': 's', 'r': [enc(v) for v in r]})
        h = hashlib.sha256()
        for o in lines:
            h.update(json.dumps(o, ensure_ascii=False, default=str).encode('utf-8'))
        digest = h.hexdigest()
        if not reset and known.get('digest') == digest:
            emit({'k': 'same', 'digest': digest})
        else:
            for o in lines:
                emit(o)
            emit({'k': 'digest', 'digest': digest})
        lines = None
        con.execute('COMMIT')
        cols = None
        while True:
            con.execute('BEGIN')
            c = con.execute('SELECT * FROM messages WHERE id > ? ORDER BY id LIMIT ${REMOTE_PAGE_ROWS}', (last,))
            rows = c.fetchall()
            con.execute('COMMIT')
            if cols is None:
                cols = [d[0] for d in c.description]
                emit({'k': 'messages', 'cols': cols})
            if not rows:
                break
            for r in rows:
                emit({'k': 'm', 'r': [enc(v) for v in r]})
            last = rows[-1][0]
        con.close()
        emit({'k': 'done', 'store': rel, 'watermark': last})
    except sqlite3.Error as e:
        emit({'k': 'skip', 'store': rel, 'why': str(e).split('\n')[0]})
out.flush()
`;

/** Runs the script with python3, else says in one line that the remote has none. */
export const HERMES_SHELL = `command -v python3 >/dev/null 2>&1 || { echo "no python3 on the remote: its Hermes stores cannot be read" >&2; exit 91; }
[ -d "$HOME/.hermes" ] || exit 0
exec python3 -c "$1"`;

export type HermesLine =
  | { k: 'store'; store: string; max_id: number; reset: boolean }
  | { k: 'schema'; rows: [string, string, string, string][] }
  | { k: 'table'; name: string; cols: string[]; rows: unknown[][] }
  | { k: 'sessions'; cols: string[] }
  | { k: 's'; r: unknown[] }
  | { k: 'messages'; cols: string[] }
  | { k: 'm'; r: unknown[] }
  | { k: 'same'; digest: string }
  | { k: 'digest'; digest: string }
  | { k: 'done'; store: string; watermark: number }
  | { k: 'skip'; store: string; why: string };
