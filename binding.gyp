# lookback's FTS5 ranking and snippet functions (native/rank.c, native/snippet.c) and the
# indexing pass's stat test (native/filestat.c), a SQLite
# loadable extension that search loads with better-sqlite3's db.loadExtension(). Built at
# install; when it cannot be built or loaded, search ranks with FTS5's own bm25() (same
# order, slower) and takes snippets from snippet() (the same text, slower).
{
  'targets': [
    {
      'target_name': 'lookback_rank',
      'type': 'loadable_module',
      'product_extension': 'node',
      'sources': ['native/rank.c', 'native/snippet.c', 'native/filestat.c'],
      'include_dirs': ['<!(node -p "require(\'path\').dirname(require.resolve(\'better-sqlite3/package.json\'))")/deps/sqlite3'],
      'cflags': ['-O2'],
      'xcode_settings': { 'GCC_OPTIMIZATION_LEVEL': '2' },
    },
  ],
}
