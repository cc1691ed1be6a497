// A stand-in for the agent: appends messages to a WAL store in small transactions,
// the way the agent's store code does, until told to stop or `count` is reached.
import Database from 'better-sqlite3';

const [path, sessionId, count = '400', delayMs = '2'] = process.argv.slice(2);
const db = new Database(path);
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');
const insert = db.prepare(
  `INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)`,
);
const bump = db.prepare(`UPDATE sessions SET message_count = message_count + 1 WHERE id = ?`);
const write = db.transaction((i) => {
  insert.run(
    sessionId,
    i % 2 ? 'assistant' : 'user',
    `heron sighting number ${i} near the lake`,
    1_790_000_000 + i,
  );
  bump.run(sessionId);
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
for (let i = 0; i < Number(count); i++) {
  write(i);
  if (i % 50 === 0) db.pragma('wal_checkpoint(PASSIVE)');
  await sleep(Number(delayMs));
}
db.close();
process.stdout.write('done\n');
