/*
** FTS5's snippet() for the rows a search shows, without a second walk of the index.
**
** A search ranks the newest matches of its query with one FTS5 statement; snippet()
** over the ten rows it then shows needed a second one, which re-walked the query's
** matches between the oldest and newest shown row (43 % of a search over a million
** messages). Here the ranking statement also calls lookback_note(table, gen), an
** auxiliary function that records, for each row it visits, what snippet() reads of
** the index: the row's phrase instances (xInst: phrase, column, token offset; FTS5
** has them loaded for the ranking function already) and its column sizes in tokens,
** plus the query's phrase sizes. lookback_snippet(gen, rowid, tokenizer, open,
** close, ellipsis, tokens, col0, col1, ...) then runs over the plain `messages` rows
** and builds the same text snippet(table, -1, open, close, ellipsis, tokens) would:
** the same tokenizer (found through fts5_api) and fts5SnippetFunction's algorithm,
** ported from SQLite 3.53.2's ext/fts5/fts5_aux.c (public domain) with xInst,
** xPhraseSize and xColumnSize answered from the record.
**
** The record is per connection and holds one query (`gen`, a number the caller
** never reuses): a new gen drops the old record, so a row is never given another
** query's instances. It is bounded (MAX_ROWS rows, MAX_INST instances); a row not
** recorded (too many, another gen, no note) gives NULL, and the caller falls back
** to snippet(). lookback_note_reset() frees it; lookback_snippet_counts() says how
** many snippets were made and declined, for tests that count rather than time.
*/
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT3
#include <string.h>

#define MAX_ROWS  65536
#define MAX_INST  262144
#define MAX_TOKENIZERS 4

typedef struct NoteRow NoteRow;
struct NoteRow {
  sqlite3_int64 rowid;
  int iInst;          /* first instance in SnipConn.aInst (3 ints each) */
  int nInst;
  int iSize;          /* first column size in SnipConn.aSize */
};

typedef struct NamedTok NamedTok;
struct NamedTok {
  char zName[32];
  fts5_tokenizer tok;
  Fts5Tokenizer *p;
};

typedef struct SnipConn SnipConn;
struct SnipConn {
  fts5_api *fts;
  sqlite3_int64 gen;
  int bFull;          /* this gen stopped recording (bounds reached) */
  int nPhrase;
  int *aPhraseSize;
  int nCol;
  NoteRow *aRow; int nRow; int nRowAlloc;
  int *aInst; int nInst; int nInstAlloc;     /* 3 ints per instance */
  int *aSize; int nSize; int nSizeAlloc;
  NamedTok aTok[MAX_TOKENIZERS]; int nTok;
  sqlite3_int64 nMade;      /* snippets built from the record */
  sqlite3_int64 nDeclined;  /* NULLs returned: the caller asked snippet() */
};

static void snipClear(SnipConn *p){
  sqlite3_free(p->aPhraseSize); p->aPhraseSize = 0;
  sqlite3_free(p->aRow); p->aRow = 0; p->nRow = p->nRowAlloc = 0;
  sqlite3_free(p->aInst); p->aInst = 0; p->nInst = p->nInstAlloc = 0;
  sqlite3_free(p->aSize); p->aSize = 0; p->nSize = p->nSizeAlloc = 0;
  p->gen = 0; p->bFull = 0; p->nPhrase = 0; p->nCol = 0;
}

static void snipDestroy(void *pv){
  SnipConn *p = (SnipConn*)pv;
  int i;
  snipClear(p);
  for(i=0; i<p->nTok; i++) p->aTok[i].tok.xDelete(p->aTok[i].p);
  sqlite3_free(p);
}

/* Room for n more ints in *pa (of *pnAlloc), never past nMax: 0 when none. */
static int growInts(int **pa, int nUsed, int *pnAlloc, int n, int nMax){
  if( nUsed+n>nMax ) return 0;
  if( nUsed+n>*pnAlloc ){
    int nNew = *pnAlloc ? *pnAlloc*2 : 1024;
    int *aNew;
    while( nNew<nUsed+n ) nNew *= 2;
    if( nNew>nMax ) nNew = nMax;
    aNew = (int*)sqlite3_realloc64(*pa, (sqlite3_uint64)nNew*sizeof(int));
    if( aNew==0 ) return 0;
    *pa = aNew; *pnAlloc = nNew;
  }
  return 1;
}

/* lookback_note(table, gen): records this row for lookback_snippet(); returns NULL. */
static void noteFunction(
  const Fts5ExtensionApi *pApi, Fts5Context *pFts, sqlite3_context *pCtx,
  int nVal, sqlite3_value **apVal
){
  SnipConn *p = (SnipConn*)pApi->xUserData(pFts);
  sqlite3_int64 gen = nVal>0 ? sqlite3_value_int64(apVal[0]) : 0;
  sqlite3_int64 rowid = pApi->xRowid(pFts);
  int nInst = 0, nCol, i, rc;
  NoteRow *pRow;
  sqlite3_result_null(pCtx);
  if( gen==0 ) return;
  if( gen!=p->gen ){
    snipClear(p);
    p->gen = gen;
    p->nPhrase = pApi->xPhraseCount(pFts);
    p->nCol = pApi->xColumnCount(pFts);
    p->aPhraseSize = (int*)sqlite3_malloc64(sizeof(int)*(p->nPhrase+1));
    if( p->aPhraseSize==0 ){ p->bFull = 1; return; }
    for(i=0; i<p->nPhrase; i++) p->aPhraseSize[i] = pApi->xPhraseSize(pFts, i);
  }else if( p->nRow>0 && rowid>=p->aRow[p->nRow-1].rowid ){
    /* The same query run again (a wider window): record it afresh. Rows are kept in
    ** descending rowid order (the ranking statement's ORDER BY rowid DESC). */
    p->nRow = 0; p->nInst = 0; p->nSize = 0; p->bFull = 0;
  }
  if( p->bFull ) return;
  nCol = p->nCol;
  if( pApi->xInstCount(pFts, &nInst)!=SQLITE_OK ){ p->bFull = 1; return; }
  if( p->nRow>=MAX_ROWS
   || !growInts(&p->aInst, p->nInst, &p->nInstAlloc, nInst*3, MAX_INST*3)
   || !growInts(&p->aSize, p->nSize, &p->nSizeAlloc, nCol, MAX_ROWS*nCol)
  ){
    p->bFull = 1;   /* older rows stay unrecorded: their snippets come from snippet() */
    return;
  }
  if( p->nRow>=p->nRowAlloc ){
    int nNew = p->nRowAlloc ? p->nRowAlloc*2 : 512;
    NoteRow *aNew = (NoteRow*)sqlite3_realloc64(p->aRow, (sqlite3_uint64)nNew*sizeof(NoteRow));
    if( aNew==0 ){ p->bFull = 1; return; }
    p->aRow = aNew; p->nRowAlloc = nNew;
  }
  for(i=0; i<nInst; i++){
    int *a = &p->aInst[p->nInst + i*3];
    rc = pApi->xInst(pFts, i, &a[0], &a[1], &a[2]);
    if( rc!=SQLITE_OK ){ p->bFull = 1; return; }
  }
  for(i=0; i<nCol; i++){
    rc = pApi->xColumnSize(pFts, i, &p->aSize[p->nSize + i]);
    if( rc!=SQLITE_OK ){ p->bFull = 1; return; }
  }
  pRow = &p->aRow[p->nRow++];
  pRow->rowid = rowid;
  pRow->iInst = p->nInst; pRow->nInst = nInst;
  pRow->iSize = p->nSize;
  p->nInst += nInst*3;
  p->nSize += nCol;
}

static NoteRow *findRow(SnipConn *p, sqlite3_int64 rowid){
  int lo = 0, hi = p->nRow-1;
  while( lo<=hi ){
    int mid = (lo+hi)/2;
    sqlite3_int64 r = p->aRow[mid].rowid;
    if( r==rowid ) return &p->aRow[mid];
    if( r>rowid ) lo = mid+1; else hi = mid-1;   /* descending */
  }
  return 0;
}

/* The recorded row, standing in for FTS5's cursor in the ported code below. */
typedef struct Row Row;
struct Row {
  const int *aInst;   /* 3 ints per instance */
  int nInst;
  const int *aSize;
  const int *aPhraseSize;
};
#define ROW_INST(r,i,pip,pic,pio) \
  (*(pip)=(r)->aInst[(i)*3], *(pic)=(r)->aInst[(i)*3+1], *(pio)=(r)->aInst[(i)*3+2])

/* ---- From fts5_aux.c (SQLite 3.53.2): CInstIter, highlight, snippet. ---- */

typedef struct CInstIter CInstIter;
struct CInstIter {
  const Row *pRow;
  int iCol;
  int iInst;
  int nInst;
  int iStart;
  int iEnd;
};

static int fts5CInstIterNext(CInstIter *pIter){
  pIter->iStart = -1;
  pIter->iEnd = -1;
  while( pIter->iInst<pIter->nInst ){
    int ip; int ic; int io;
    ROW_INST(pIter->pRow, pIter->iInst, &ip, &ic, &io);
    if( ic==pIter->iCol ){
      int iEnd = io - 1 + pIter->pRow->aPhraseSize[ip];
      if( pIter->iStart<0 ){
        pIter->iStart = io;
        pIter->iEnd = iEnd;
      }else if( io<=pIter->iEnd ){
        if( iEnd>pIter->iEnd ) pIter->iEnd = iEnd;
      }else{
        break;
      }
    }
    pIter->iInst++;
  }
  return SQLITE_OK;
}

static int fts5CInstIterInit(const Row *pRow, int iCol, CInstIter *pIter){
  memset(pIter, 0, sizeof(CInstIter));
  pIter->pRow = pRow;
  pIter->iCol = iCol;
  pIter->nInst = pRow->nInst;
  return fts5CInstIterNext(pIter);
}

typedef struct HighlightContext HighlightContext;
struct HighlightContext {
  int iRangeStart;
  int iRangeEnd;
  const char *zOpen;
  const char *zClose;
  const char *zIn;
  int nIn;
  CInstIter iter;
  int iPos;
  int iOff;
  int bOpen;
  char *zOut;
};

static void fts5HighlightAppend(int *pRc, HighlightContext *p, const char *z, int n){
  if( *pRc==SQLITE_OK && z ){
    if( n<0 ) n = (int)strlen(z);
    p->zOut = sqlite3_mprintf("%z%.*s", p->zOut, n, z);
    if( p->zOut==0 ) *pRc = SQLITE_NOMEM;
  }
}

static int fts5HighlightCb(
  void *pContext, int tflags, const char *pToken, int nToken, int iStartOff, int iEndOff
){
  HighlightContext *p = (HighlightContext*)pContext;
  int rc = SQLITE_OK;
  int iPos;
  (void)pToken; (void)nToken;

  if( tflags & FTS5_TOKEN_COLOCATED ) return SQLITE_OK;
  iPos = p->iPos++;

  if( p->iRangeEnd>=0 ){
    if( iPos<p->iRangeStart || iPos>p->iRangeEnd ) return SQLITE_OK;
    if( p->iRangeStart && iPos==p->iRangeStart ) p->iOff = iStartOff;
  }

  if( p->bOpen
   && (iPos<=p->iter.iStart || p->iter.iStart<0)
   && iStartOff>p->iOff
  ){
    fts5HighlightAppend(&rc, p, p->zClose, -1);
    p->bOpen = 0;
  }

  if( iPos==p->iter.iStart && p->bOpen==0 ){
    fts5HighlightAppend(&rc, p, &p->zIn[p->iOff], iStartOff - p->iOff);
    fts5HighlightAppend(&rc, p, p->zOpen, -1);
    p->iOff = iStartOff;
    p->bOpen = 1;
  }

  if( iPos==p->iter.iEnd ){
    if( p->bOpen==0 ){
      fts5HighlightAppend(&rc, p, p->zOpen, -1);
      p->bOpen = 1;
    }
    fts5HighlightAppend(&rc, p, &p->zIn[p->iOff], iEndOff - p->iOff);
    p->iOff = iEndOff;
    if( rc==SQLITE_OK ){
      rc = fts5CInstIterNext(&p->iter);
    }
  }

  if( iPos==p->iRangeEnd ){
    if( p->bOpen ){
      if( p->iter.iStart>=0 && iPos>=p->iter.iStart ){
        fts5HighlightAppend(&rc, p, &p->zIn[p->iOff], iEndOff - p->iOff);
        p->iOff = iEndOff;
      }
      fts5HighlightAppend(&rc, p, p->zClose, -1);
      p->bOpen = 0;
    }
    fts5HighlightAppend(&rc, p, &p->zIn[p->iOff], iEndOff - p->iOff);
    p->iOff = iEndOff;
  }
  return rc;
}

typedef struct Fts5SFinder Fts5SFinder;
struct Fts5SFinder {
  int iPos;
  int nFirstAlloc;
  int nFirst;
  int *aFirst;
  const char *zDoc;
};

static int fts5SentenceFinderAdd(Fts5SFinder *p, int iAdd){
  if( p->nFirstAlloc==p->nFirst ){
    int nNew = p->nFirstAlloc ? p->nFirstAlloc*2 : 64;
    int *aNew;
    aNew = (int*)sqlite3_realloc64(p->aFirst, nNew*sizeof(int));
    if( aNew==0 ) return SQLITE_NOMEM;
    p->aFirst = aNew;
    p->nFirstAlloc = nNew;
  }
  p->aFirst[p->nFirst++] = iAdd;
  return SQLITE_OK;
}

static int fts5SentenceFinderCb(
  void *pContext, int tflags, const char *pToken, int nToken, int iStartOff, int iEndOff
){
  int rc = SQLITE_OK;
  (void)pToken; (void)nToken; (void)iEndOff;
  if( (tflags & FTS5_TOKEN_COLOCATED)==0 ){
    Fts5SFinder *p = (Fts5SFinder*)pContext;
    if( p->iPos>0 ){
      int i;
      char c = 0;
      for(i=iStartOff-1; i>=0; i--){
        c = p->zDoc[i];
        if( c!=' ' && c!='\t' && c!='\n' && c!='\r' ) break;
      }
      if( i!=iStartOff-1 && (c=='.' || c==':') ){
        rc = fts5SentenceFinderAdd(p, p->iPos);
      }
    }else{
      rc = fts5SentenceFinderAdd(p, 0);
    }
    p->iPos++;
  }
  return rc;
}

static int fts5SnippetScore(
  const Row *pRow, int nDocsize, unsigned char *aSeen, int iCol, int iPos, int nToken,
  int *pnScore, int *piPos
){
  int i;
  int ip = 0;
  int ic = 0;
  int iOff = 0;
  int iFirst = -1;
  int nScore = 0;
  int iLast = 0;
  sqlite3_int64 iEnd = (sqlite3_int64)iPos + nToken;

  for(i=0; i<pRow->nInst; i++){
    ROW_INST(pRow, i, &ip, &ic, &iOff);
    if( ic==iCol && iOff>=iPos && iOff<iEnd ){
      nScore += (aSeen[ip] ? 1 : 1000);
      aSeen[ip] = 1;
      if( iFirst<0 ) iFirst = iOff;
      iLast = iOff + pRow->aPhraseSize[ip];
    }
  }

  *pnScore = nScore;
  if( piPos ){
    sqlite3_int64 iAdj = iFirst - (nToken - (iLast-iFirst)) / 2;
    if( (iAdj+nToken)>nDocsize ) iAdj = nDocsize - nToken;
    if( iAdj<0 ) iAdj = 0;
    *piPos = (int)iAdj;
  }
  return SQLITE_OK;
}

static const char *fts5ValueToText(sqlite3_value *pVal){
  const char *zRet = (const char*)sqlite3_value_text(pVal);
  return zRet ? zRet : "";
}

/* The named tokenizer (no arguments, as the index's tables declare them), made once. */
static NamedTok *tokenizer(SnipConn *p, const char *zName){
  int i;
  void *pUser = 0;
  NamedTok *t;
  if( zName==0 || strlen(zName)>=sizeof(p->aTok[0].zName) ) return 0;
  for(i=0; i<p->nTok; i++){
    if( strcmp(p->aTok[i].zName, zName)==0 ) return &p->aTok[i];
  }
  if( p->nTok>=MAX_TOKENIZERS ) return 0;
  t = &p->aTok[p->nTok];
  if( p->fts->xFindTokenizer(p->fts, zName, &pUser, &t->tok)!=SQLITE_OK ) return 0;
  if( t->tok.xCreate(pUser, 0, 0, &t->p)!=SQLITE_OK ) return 0;
  strcpy(t->zName, zName);
  p->nTok++;
  return t;
}

static int tokenize(NamedTok *t, void *pCtx, const char *z, int n,
  int (*xToken)(void*, int, const char*, int, int, int)
){
  if( z==0 ) return SQLITE_OK;   /* FTS5's xTokenize: nothing to do for no text */
  return t->tok.xTokenize(t->p, pCtx, FTS5_TOKENIZE_AUX, z, n, xToken);
}

/*
** lookback_snippet(gen, rowid, tokenizer, open, close, ellipsis, nToken, col0, ...):
** fts5SnippetFunction with iCol -1, over the recorded row. NULL when the row was not
** recorded for gen.
*/
static void snippetFunction(sqlite3_context *pCtx, int nVal, sqlite3_value **apVal){
  SnipConn *p = (SnipConn*)sqlite3_user_data(pCtx);
  HighlightContext ctx;
  int rc = SQLITE_OK;
  const char *zEllips;
  int nToken;
  int nInst;
  int i;
  int nPhrase;
  unsigned char *aSeen;
  int iBestCol;
  int iBestStart = 0;
  int nBestScore = 0;
  int nColSize = 0;
  Fts5SFinder sFinder;
  int nCol;
  NoteRow *pNote;
  NamedTok *pTok;
  Row row;

  if( nVal<7 ){
    sqlite3_result_error(pCtx, "wrong number of arguments to function lookback_snippet()", -1);
    return;
  }
  p->nDeclined++;   /* until the snippet is made, below */
  if( p->gen==0 || sqlite3_value_int64(apVal[0])!=p->gen ) return;   /* NULL */
  pNote = findRow(p, sqlite3_value_int64(apVal[1]));
  if( pNote==0 ) return;
  nCol = nVal - 7;
  if( nCol!=p->nCol ) return;
  pTok = tokenizer(p, (const char*)sqlite3_value_text(apVal[2]));
  if( pTok==0 ) return;
  row.aInst = &p->aInst[pNote->iInst];
  row.nInst = pNote->nInst;
  row.aSize = &p->aSize[pNote->iSize];
  row.aPhraseSize = p->aPhraseSize;

  memset(&ctx, 0, sizeof(HighlightContext));
  ctx.zOpen = fts5ValueToText(apVal[3]);
  ctx.zClose = fts5ValueToText(apVal[4]);
  ctx.iRangeEnd = -1;
  zEllips = fts5ValueToText(apVal[5]);
  nToken = sqlite3_value_int(apVal[6]);

  iBestCol = 0;
  nPhrase = p->nPhrase;
  aSeen = sqlite3_malloc64(nPhrase ? nPhrase : 1);
  if( aSeen==0 ) rc = SQLITE_NOMEM;
  nInst = row.nInst;

  memset(&sFinder, 0, sizeof(Fts5SFinder));
  for(i=0; rc==SQLITE_OK && i<nCol; i++){
    int nDoc;
    int nDocsize;
    int ii;
    sFinder.iPos = 0;
    sFinder.nFirst = 0;
    sFinder.zDoc = (const char*)sqlite3_value_text(apVal[7+i]);
    nDoc = sqlite3_value_bytes(apVal[7+i]);
    rc = tokenize(pTok, (void*)&sFinder, sFinder.zDoc, nDoc, fts5SentenceFinderCb);
    if( rc!=SQLITE_OK ) break;
    nDocsize = row.aSize[i];

    for(ii=0; rc==SQLITE_OK && ii<nInst; ii++){
      int ip, ic, io;
      int iAdj;
      int nScore;
      int jj;

      ROW_INST(&row, ii, &ip, &ic, &io);
      if( ic!=i ) continue;
      if( io>nDocsize ) rc = SQLITE_CORRUPT_VTAB;
      if( rc!=SQLITE_OK ) continue;
      memset(aSeen, 0, nPhrase);
      rc = fts5SnippetScore(&row, nDocsize, aSeen, i, io, nToken, &nScore, &iAdj);
      if( rc==SQLITE_OK && nScore>nBestScore ){
        nBestScore = nScore;
        iBestCol = i;
        iBestStart = iAdj;
        nColSize = nDocsize;
      }

      if( rc==SQLITE_OK && sFinder.nFirst && nDocsize>nToken ){
        for(jj=0; jj<(sFinder.nFirst-1); jj++){
          if( sFinder.aFirst[jj+1]>io ) break;
        }
        if( sFinder.aFirst[jj]<io ){
          memset(aSeen, 0, nPhrase);
          rc = fts5SnippetScore(&row, nDocsize, aSeen, i, sFinder.aFirst[jj], nToken, &nScore, 0);
          nScore += (sFinder.aFirst[jj]==0 ? 120 : 100);
          if( rc==SQLITE_OK && nScore>nBestScore ){
            nBestScore = nScore;
            iBestCol = i;
            iBestStart = sFinder.aFirst[jj];
            nColSize = nDocsize;
          }
        }
      }
    }
  }

  if( rc==SQLITE_OK ){
    ctx.zIn = (const char*)sqlite3_value_text(apVal[7+iBestCol]);
    ctx.nIn = sqlite3_value_bytes(apVal[7+iBestCol]);
  }
  if( rc==SQLITE_OK && nColSize==0 ){
    nColSize = row.aSize[iBestCol];
  }
  if( ctx.zIn ){
    if( rc==SQLITE_OK ){
      rc = fts5CInstIterInit(&row, iBestCol, &ctx.iter);
    }
    ctx.iRangeStart = iBestStart;
    ctx.iRangeEnd = iBestStart + nToken - 1;
    if( iBestStart>0 ){
      fts5HighlightAppend(&rc, &ctx, zEllips, -1);
    }
    while( ctx.iter.iStart>=0 && ctx.iter.iStart<iBestStart && rc==SQLITE_OK ){
      rc = fts5CInstIterNext(&ctx.iter);
    }
    if( rc==SQLITE_OK ){
      rc = tokenize(pTok, (void*)&ctx, ctx.zIn, ctx.nIn, fts5HighlightCb);
    }
    if( ctx.bOpen ){
      fts5HighlightAppend(&rc, &ctx, ctx.zClose, -1);
    }
    if( ctx.iRangeEnd>=(nColSize-1) ){
      fts5HighlightAppend(&rc, &ctx, &ctx.zIn[ctx.iOff], ctx.nIn - ctx.iOff);
    }else{
      fts5HighlightAppend(&rc, &ctx, zEllips, -1);
    }
  }
  /* On any error, NULL: the caller asks snippet() itself, which reports it. */
  if( rc==SQLITE_OK ){
    sqlite3_result_text(pCtx, (const char*)ctx.zOut, -1, SQLITE_TRANSIENT);
    p->nMade++; p->nDeclined--;
  }
  sqlite3_free(ctx.zOut);
  sqlite3_free(aSeen);
  sqlite3_free(sFinder.aFirst);
}

static void resetFunction(sqlite3_context *pCtx, int nVal, sqlite3_value **apVal){
  (void)nVal; (void)apVal;
  snipClear((SnipConn*)sqlite3_user_data(pCtx));
  sqlite3_result_null(pCtx);
}

/* lookback_snippet_counts(): {"made":N,"declined":N} on this connection, for tests. */
static void countsFunction(sqlite3_context *pCtx, int nVal, sqlite3_value **apVal){
  SnipConn *p = (SnipConn*)sqlite3_user_data(pCtx);
  char *z;
  (void)nVal; (void)apVal;
  z = sqlite3_mprintf("{\"made\":%lld,\"declined\":%lld}", p->nMade, p->nDeclined);
  if( z==0 ){ sqlite3_result_error_nomem(pCtx); return; }
  sqlite3_result_text(pCtx, z, -1, sqlite3_free);
}

/* Registers lookback_note (FTS5), lookback_snippet and lookback_note_reset on db. */
int lookbackSnippetInit(sqlite3 *db, fts5_api *fts){
  SnipConn *p = (SnipConn*)sqlite3_malloc(sizeof(SnipConn));
  int rc;
  if( p==0 ) return SQLITE_NOMEM;
  memset(p, 0, sizeof(SnipConn));
  p->fts = fts;
  /* The record and the tokenizers live until the connection closes: freed with this
  ** function (SQLite calls snipDestroy itself if registering it fails). */
  rc = sqlite3_create_function_v2(db, "lookback_snippet", -1, SQLITE_UTF8, (void*)p,
                                  snippetFunction, 0, 0, snipDestroy);
  if( rc==SQLITE_OK ){
    rc = sqlite3_create_function_v2(db, "lookback_note_reset", 0, SQLITE_UTF8, (void*)p,
                                    resetFunction, 0, 0, 0);
  }
  if( rc==SQLITE_OK ){
    rc = sqlite3_create_function_v2(db, "lookback_snippet_counts", 0, SQLITE_UTF8, (void*)p,
                                    countsFunction, 0, 0, 0);
  }
  if( rc==SQLITE_OK ){
    rc = fts->xCreateFunction(fts, "lookback_note", (void*)p, noteFunction, 0);
  }
  return rc;
}
