/*
** lookback_bm25(): FTS5's bm25(), computed the same way (k1 1.2, b 0.75, the same
** per-column weights as trailing arguments), except for where each phrase's
** document count (the IDF's nHit) comes from. bm25() counts it by walking the
** phrase's whole doclist on the first row of every query (1.2 ms for a word in
** 39,000 of a million messages); here it is read from the table `term_df(term,
** docs)` that lookback keeps beside the index (filled from fts5vocab), and counted
** live, exactly as bm25() does, only where that table cannot answer:
**   - a token missing from term_df (new since the last fill, hence rare: a short walk);
**   - no term_df table (an index built before it);
**   - a phrase of several words in a query of several phrases: its rarest word's
**     count is only an upper bound of the phrase's, and would change how phrases
**     weigh against each other, so the order could differ from bm25()'s.
** (In a query of several phrases; a query of one phrase is never counted, below.)
** A query of one phrase is never walked: with one phrase the IDF is one positive
** factor of every score, so the order is bm25()'s whatever the count. It takes
** its rarest word's count when term_df has every word, else an IDF of 1 (a word
** term_df lacks, a prefix, a trigram table's tokens).
** The caller sends a query of several phrases here only when it has no prefix
** (`*`), initial-token (`^`) or column filter and is over the word index:
** xQueryToken does not say whether a token is a prefix, and term_df holds words.
** lookback_rank_counts() returns what this connection did, for tests that count
** rather than time: rows scored, phrase counts read from term_df, counted live.
*/
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT1
#include <math.h>
#include <string.h>

typedef struct RankConn RankConn;
struct RankConn {
  sqlite3_int64 nScored;   /* rows scored */
  sqlite3_int64 nTable;    /* phrase counts taken from term_df */
  sqlite3_int64 nLive;     /* phrase counts walked live */
  sqlite3_int64 nFixed;    /* a query's only phrase, not counted at all */
};

typedef struct RankData RankData;
struct RankData {
  int nPhrase;
  double avgdl;
  double *aIDF;
  double *aFreq;
};

static int countCb(const Fts5ExtensionApi *pApi, Fts5Context *pFts, void *pUser){
  (void)pApi; (void)pFts;
  (*(sqlite3_int64*)pUser)++;
  return SQLITE_OK;
}

/* term_df's count of one token: 1 and *pn when found, 0 when not (or no table). */
static int tableCount(sqlite3_stmt *pLookup, const char *z, int n, sqlite3_int64 *pn){
  int found = 0;
  if( pLookup==0 ) return 0;
  sqlite3_reset(pLookup);
  sqlite3_bind_text(pLookup, 1, z, n, SQLITE_TRANSIENT);
  if( sqlite3_step(pLookup)==SQLITE_ROW ){
    *pn = sqlite3_column_int64(pLookup, 0);
    found = 1;
  }
  sqlite3_reset(pLookup);
  return found;
}

static int rankGetData(
  const Fts5ExtensionApi *pApi, Fts5Context *pFts, sqlite3_context *pCtx,
  RankConn *pConn, RankData **ppData
){
  int rc = SQLITE_OK;
  RankData *p = (RankData*)pApi->xGetAuxdata(pFts, 0);
  if( p==0 ){
    int nPhrase = pApi->xPhraseCount(pFts);
    sqlite3_int64 nRow = 0, nToken = 0;
    sqlite3_int64 nByte = sizeof(RankData) + nPhrase*2*sizeof(double);
    sqlite3_stmt *pLookup = 0;
    int i;
    p = (RankData*)sqlite3_malloc64(nByte);
    if( p==0 ) return SQLITE_NOMEM;
    memset(p, 0, (size_t)nByte);
    p->nPhrase = nPhrase;
    p->aIDF = (double*)&p[1];
    p->aFreq = &p->aIDF[nPhrase];
    rc = pApi->xRowCount(pFts, &nRow);
    if( rc==SQLITE_OK ) rc = pApi->xColumnTotalSize(pFts, -1, &nToken);
    if( rc==SQLITE_OK ) p->avgdl = (double)nToken / (double)nRow;
    if( rc==SQLITE_OK ){
      /* No term_df (an older index): every count is walked, as bm25() does. */
      if( sqlite3_prepare_v2(sqlite3_context_db_handle(pCtx),
            "SELECT docs FROM term_df WHERE term = ?1", -1, &pLookup, 0)!=SQLITE_OK ){
        pLookup = 0;
      }
    }
    for(i=0; rc==SQLITE_OK && i<nPhrase; i++){
      sqlite3_int64 nHit = 0;
      int nTok = pApi->xPhraseSize(pFts, i);
      int known = pLookup!=0 && pApi->iVersion>=3 && nTok>0 && (nTok==1 || nPhrase==1);
      int j;
      for(j=0; known && j<nTok; j++){
        const char *z = 0; int n = 0; sqlite3_int64 c = 0;
        rc = pApi->xQueryToken(pFts, i, j, &z, &n);
        if( rc!=SQLITE_OK || !tableCount(pLookup, z, n, &c) ){ known = 0; break; }
        if( j==0 || c<nHit ) nHit = c;   /* the rarest word's count */
      }
      if( rc!=SQLITE_OK ) break;
      if( known ){
        pConn->nTable++;
      }else if( nPhrase==1 ){
        /* The query's only phrase, with a word term_df lacks (or a prefix, or a
        ** trigram table): any positive IDF gives bm25()'s order, so none is walked. */
        p->aIDF[i] = 1.0;
        pConn->nFixed++;
        continue;
      }else{
        nHit = 0;
        rc = pApi->xQueryPhrase(pFts, i, (void*)&nHit, countCb);
        pConn->nLive++;
      }
      if( rc==SQLITE_OK ){
        /* bm25()'s IDF, the same expression (fts5_aux.c fts5Bm25GetData). */
        double idf = log( (nRow - nHit + 0.5) / (nHit + 0.5) );
        if( idf<=0.0 ) idf = 1e-6;
        p->aIDF[i] = idf;
      }
    }
    sqlite3_finalize(pLookup);
    if( rc!=SQLITE_OK ){
      sqlite3_free(p);
    }else{
      rc = pApi->xSetAuxdata(pFts, p, sqlite3_free);
    }
    if( rc!=SQLITE_OK ) p = 0;
  }
  *ppData = p;
  return rc;
}

/* The row's score: fts5Bm25Function's loop, operation for operation. */
static void rankFunction(
  const Fts5ExtensionApi *pApi, Fts5Context *pFts, sqlite3_context *pCtx,
  int nVal, sqlite3_value **apVal
){
  const double k1 = 1.2;
  const double b = 0.75;
  RankConn *pConn = (RankConn*)pApi->xUserData(pFts);
  int rc;
  double score = 0.0;
  RankData *pData = 0;
  int i;
  int nInst = 0;
  double D = 0.0;
  double *aFreq = 0;

  rc = rankGetData(pApi, pFts, pCtx, pConn, &pData);
  if( rc==SQLITE_OK ){
    aFreq = pData->aFreq;
    memset(aFreq, 0, sizeof(double) * pData->nPhrase);
    rc = pApi->xInstCount(pFts, &nInst);
  }
  for(i=0; rc==SQLITE_OK && i<nInst; i++){
    int ip; int ic; int io;
    rc = pApi->xInst(pFts, i, &ip, &ic, &io);
    if( rc==SQLITE_OK ){
      double w = (nVal > ic) ? sqlite3_value_double(apVal[ic]) : 1.0;
      aFreq[ip] += w;
    }
  }
  if( rc==SQLITE_OK ){
    int nTok;
    rc = pApi->xColumnSize(pFts, -1, &nTok);
    D = (double)nTok;
  }
  if( rc==SQLITE_OK ){
    for(i=0; i<pData->nPhrase; i++){
      score += pData->aIDF[i] * (
          ( aFreq[i] * (k1 + 1.0) ) /
          ( aFreq[i] + k1 * (1 - b + b * D / pData->avgdl) )
      );
    }
    pConn->nScored++;
    sqlite3_result_double(pCtx, -1.0 * score);
  }else{
    sqlite3_result_error_code(pCtx, rc);
  }
}

static void countsFunction(sqlite3_context *pCtx, int nVal, sqlite3_value **apVal){
  RankConn *p = (RankConn*)sqlite3_user_data(pCtx);
  char *z;
  (void)nVal; (void)apVal;
  z = sqlite3_mprintf("{\"scored\":%lld,\"table\":%lld,\"live\":%lld,\"fixed\":%lld}",
                      p->nScored, p->nTable, p->nLive, p->nFixed);
  if( z==0 ){ sqlite3_result_error_nomem(pCtx); return; }
  sqlite3_result_text(pCtx, z, -1, sqlite3_free);
}

/* native/snippet.c: lookback_note(), lookback_snippet(), lookback_note_reset(). */
int lookbackSnippetInit(sqlite3 *db, fts5_api *fts);
int lookbackFileStatInit(sqlite3 *db);

static fts5_api *fts5Api(sqlite3 *db){
  fts5_api *pRet = 0;
  sqlite3_stmt *pStmt = 0;
  if( sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &pStmt, 0)==SQLITE_OK ){
    sqlite3_bind_pointer(pStmt, 1, (void*)&pRet, "fts5_api_ptr", 0);
    sqlite3_step(pStmt);
  }
  sqlite3_finalize(pStmt);
  return pRet;
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_lookbackrank_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi){
  fts5_api *fts;
  RankConn *pConn;
  int rc;
  SQLITE_EXTENSION_INIT2(pApi);
  fts = fts5Api(db);
  /* Before an extension API of version 3 (no xQueryToken) every count is walked live. */
  if( fts==0 || fts->iVersion<2 ){
    *pzErrMsg = sqlite3_mprintf("lookback_rank: no FTS5 API");
    return SQLITE_ERROR;
  }
  pConn = (RankConn*)sqlite3_malloc(sizeof(RankConn));
  if( pConn==0 ) return SQLITE_NOMEM;
  memset(pConn, 0, sizeof(RankConn));
  rc = fts->xCreateFunction(fts, "lookback_bm25", (void*)pConn, rankFunction, 0);
  if( rc==SQLITE_OK ){
    /* The connection's counters live until it closes: freed with this function. */
    rc = sqlite3_create_function_v2(db, "lookback_rank_counts", 0, SQLITE_UTF8, (void*)pConn,
                                    countsFunction, 0, 0, sqlite3_free);
  }else{
    sqlite3_free(pConn);
  }
  if( rc==SQLITE_OK ) rc = lookbackSnippetInit(db, fts);
  if( rc==SQLITE_OK ) rc = lookbackFileStatInit(db);
  return rc;
}
