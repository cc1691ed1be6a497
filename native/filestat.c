/*
** lookback_same_stat(path, dev, ino, size, mtime_ms): the unchanged test of an
** indexing pass, in SQL.
**
** A pass with nothing changed over 10,000 history files was mostly JavaScript
** building things it threw away: a fs.Stats object (four Date objects each, in
** Node 20) per file, and every stored `files` row's path and signature turned
** into JS strings and arrays to compare them with. Here the listed paths go to
** SQLite as one JSON array, each is joined to its `files` row and stat'ed in C,
** and only the files whose stat differs come back to JavaScript, which reads them
** exactly as before (src/agents/indexer/changed.ts).
**
** The result is 1 when stat() gives the row's signature, 0 when any field
** differs (or the row has none), NULL when the file cannot be stat'ed (gone
** between the listing and now: the caller decides). The signature is Node's:
** dev, ino and size as integers, mtime_ms as fs.Stats.mtimeMs computes it
** (seconds * 1000 + nanoseconds / 1e6 in doubles), so a file Node saw is the same
** file here. Paths of one folder are stat'ed relative to that folder (fstatat on
** a descriptor opened once: the path walk was a fifth of each stat), and the
** descriptor is closed when the statement ends: nothing is held between passes.
*/
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT3

#ifndef _WIN32
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The folder of the last path and a descriptor on it, for one run of the statement. */
typedef struct Folder Folder;
struct Folder {
  int fd;             /* -1: could not be opened; stat() by full path */
  int nDir;
  char zDir[1];       /* allocated longer */
};

#define FOLDER_AUX (-20261127)   /* aux data of the call itself, not of an argument */

static void folderFree(void *p){
  Folder *f = (Folder*)p;
  if( f->fd>=0 ) close(f->fd);
  sqlite3_free(f);
}

#ifdef O_PATH
# define DIR_FLAGS (O_PATH|O_DIRECTORY|O_CLOEXEC)
#else
# define DIR_FLAGS (O_RDONLY|O_DIRECTORY|O_CLOEXEC)
#endif

/* stat(zPath) through the folder descriptor kept on the statement (SQLite frees it,
** closing the descriptor, when the statement halts or is reset). */
static int statInFolder(sqlite3_context *pCtx, const char *zPath, struct stat *st){
  const char *zSlash = strrchr(zPath, '/');
  Folder *f;
  int nDir;
  if( zSlash==0 || zSlash==zPath ) return stat(zPath, st);
  nDir = (int)(zSlash - zPath);
  f = (Folder*)sqlite3_get_auxdata(pCtx, FOLDER_AUX);
  if( f==0 || f->nDir!=nDir || memcmp(f->zDir, zPath, nDir)!=0 ){
    f = (Folder*)sqlite3_malloc(sizeof(Folder) + nDir);
    if( f==0 ) return stat(zPath, st);
    memcpy(f->zDir, zPath, nDir);
    f->zDir[nDir] = 0;
    f->nDir = nDir;
    f->fd = open(f->zDir, DIR_FLAGS);
    /* Frees the previous folder (and closes its descriptor). */
    sqlite3_set_auxdata(pCtx, FOLDER_AUX, f, folderFree);
    f = (Folder*)sqlite3_get_auxdata(pCtx, FOLDER_AUX);
    if( f==0 ) return stat(zPath, st);
  }
  if( f->fd<0 ) return stat(zPath, st);
  return fstatat(f->fd, zSlash + 1, st, 0);
}

/* Node's msFromTimeSpec(sec, nsec): sec * 1e3 + nsec / 1e6, each step a double. */
static double mtimeMs(const struct stat *st){
#ifdef __APPLE__
  volatile double sec = (double)st->st_mtimespec.tv_sec, nsec = (double)st->st_mtimespec.tv_nsec;
#else
  volatile double sec = (double)st->st_mtim.tv_sec, nsec = (double)st->st_mtim.tv_nsec;
#endif
  /* volatile: no fused multiply-add, the same two roundings as V8's. */
  volatile double ms = sec * 1000.0;
  return ms + nsec / 1000000.0;
}

static void sameStatFunction(sqlite3_context *pCtx, int nVal, sqlite3_value **apVal){
  const char *zPath = (const char*)sqlite3_value_text(apVal[0]);
  struct stat st;
  int i;
  (void)nVal;
  (*(sqlite3_int64*)sqlite3_user_data(pCtx))++;
  if( zPath==0 || statInFolder(pCtx, zPath, &st)!=0 ){
    sqlite3_result_null(pCtx);
    return;
  }
  for(i=1; i<5; i++){
    if( sqlite3_value_type(apVal[i])==SQLITE_NULL ){
      sqlite3_result_int(pCtx, 0);
      return;
    }
  }
  sqlite3_result_int(pCtx,
    sqlite3_value_int64(apVal[1])==(sqlite3_int64)st.st_dev
    && sqlite3_value_int64(apVal[2])==(sqlite3_int64)st.st_ino
    && sqlite3_value_int64(apVal[3])==(sqlite3_int64)st.st_size
    && sqlite3_value_double(apVal[4])==mtimeMs(&st));
}

/* lookback_same_stat_calls(): how many files this connection stat'ed, for tests that count. */
static void callsFunction(sqlite3_context *pCtx, int nVal, sqlite3_value **apVal){
  (void)nVal; (void)apVal;
  sqlite3_result_int64(pCtx, *(sqlite3_int64*)sqlite3_user_data(pCtx));
}
#endif

/* Registers lookback_same_stat on db (not on Windows, whose stat lacks Node's dev and ino:
** the pass then compares in JavaScript, as it does without the extension). */
int lookbackFileStatInit(sqlite3 *db){
#ifdef _WIN32
  (void)db;
  return SQLITE_OK;
#else
  sqlite3_int64 *pCalls = (sqlite3_int64*)sqlite3_malloc(sizeof(sqlite3_int64));
  int rc;
  if( pCalls==0 ) return SQLITE_NOMEM;
  *pCalls = 0;
  /* The counter lives until the connection closes: freed with this function. */
  rc = sqlite3_create_function_v2(db, "lookback_same_stat", 5, SQLITE_UTF8, pCalls,
                                  sameStatFunction, 0, 0, sqlite3_free);
  if( rc==SQLITE_OK ){
    rc = sqlite3_create_function_v2(db, "lookback_same_stat_calls", 0, SQLITE_UTF8, pCalls,
                                    callsFunction, 0, 0, 0);
  }
  return rc;
#endif
}
