// Builds lookback's FTS5 ranking extension (binding.gyp → build/Release/lookback_rank.node)
// at install. A failed build never fails the install: search then ranks with FTS5's
// own bm25(), the same order, slower (README, Other agents). npm runs this with its
// own node-gyp (npm_config_node_gyp) and header settings.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const gyp = process.env.npm_config_node_gyp;
const r = gyp
  ? spawnSync(process.execPath, [gyp, 'rebuild'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    })
  : spawnSync('node-gyp', ['rebuild'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
      shell: process.platform === 'win32',
    });
if (r.status !== 0)
  process.stderr.write(
    'lookback: the ranking extension was not built (no compiler?); search uses bm25(), slower.\n',
  );
