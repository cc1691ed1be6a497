// Vocabulary for the demo conversations. Each topic carries its own distinct
// terms, file names, identifiers, commands and decisions so that full-text
// queries ("pgbouncer", "chat-send", "P2.2", "we decided to") hit a believable
// subset of sessions instead of everything or nothing.

export interface Topic {
  key: string;
  /** Lower-case phrase used in prose ("the billing migration"). */
  name: string;
  title: string;
  project: string;
  branch: string;
  /** Code fence language of the snippets. */
  lang: string;
  terms: readonly string[];
  files: readonly string[];
  idents: readonly string[];
  commands: readonly string[];
  errors: readonly string[];
  /** Completions of "we decided to ...". */
  decisions: readonly string[];
  /** Versions, ticket labels and milestones. */
  labels: readonly string[];
  problems: readonly string[];
  snippets: readonly string[];
}

export const TOPICS: readonly Topic[] = [
  {
    key: 'billing',
    name: 'billing migration',
    title: 'Billing Migration',
    project: 'billing-service',
    branch: 'feat/billing-v2-migration',
    lang: 'python',
    terms: [
      'stripe',
      'proration',
      'ledger',
      'invoices',
      'idempotency key',
      'backfill',
      'webhook',
      'dunning',
    ],
    files: [
      'billing/migrate_invoices.py',
      'billing/ledger.py',
      'migrations/0042_ledger_entries.sql',
      'billing/webhooks.py',
    ],
    idents: [
      'InvoiceMigrator',
      'apply_proration()',
      'LedgerEntry',
      'backfill_ledger()',
      'STRIPE_API_VERSION',
    ],
    commands: [
      'pytest tests/billing -x -q',
      'python -m billing.migrate_invoices --dry-run --batch 5000',
      "psql billing -c 'select count(*) from ledger_entries'",
      'stripe listen --forward-to localhost:8000/webhooks/stripe',
    ],
    errors: [
      'IntegrityError: duplicate key value violates unique constraint "ledger_entries_invoice_id_key"',
      'stripe.error.InvalidRequestError: No such price: price_1Oxx',
      'AssertionError: proration total 1999 != 2000',
    ],
    decisions: [
      'backfill ledger entries in batches of 5,000 instead of one long transaction',
      'keep the old invoices table read-only for 30 days before dropping it',
      'round proration to the cent at the line-item level, not on the total',
      'use the Stripe idempotency key derived from invoice_id + attempt',
    ],
    labels: ['P2.2', 'stripe-python 12.4.0', 'BILL-1184', 'v2.3.1'],
    problems: [
      'the migration script has been running for two hours on production',
      'proration totals are off by one cent on annual plans',
      'some invoices got migrated twice after the retry',
    ],
    snippets: [
      'def backfill_ledger(conn, batch_size=5000):\n    last_id = 0\n    while True:\n        rows = conn.execute(\n            "SELECT id, amount_cents FROM invoices WHERE id > %s ORDER BY id LIMIT %s",\n            (last_id, batch_size),\n        ).fetchall()\n        if not rows:\n            break\n        conn.executemany(INSERT_LEDGER, [(r.id, r.amount_cents) for r in rows])\n        conn.commit()\n        last_id = rows[-1].id',
      'def apply_proration(item, days_used, days_total):\n    # round per line item so the invoice total matches Stripe\n    return round(item.amount_cents * days_used / days_total)',
    ],
  },
  {
    key: 'pgpool',
    name: 'postgres connection pool',
    title: 'Postgres Connection Pool',
    project: 'api-gateway',
    branch: 'fix/pool-exhaustion',
    lang: 'python',
    terms: [
      'pgbouncer',
      'max_connections',
      'idle in transaction',
      'asyncpg',
      'pool_size',
      'statement_timeout',
      'transaction pooling',
    ],
    files: ['app/db/pool.py', 'deploy/pgbouncer.ini', 'app/settings.py', 'tests/test_pool.py'],
    idents: [
      'create_pool()',
      'PoolTimeoutError',
      'DB_POOL_MAX',
      'acquire_with_timeout()',
      'get_session()',
    ],
    commands: [
      "psql -c 'select state, count(*) from pg_stat_activity group by 1'",
      'pytest tests/test_pool.py -k timeout',
      'kubectl logs deploy/api-gateway --since=10m | grep -i pool',
      'pgbench -c 50 -T 60 api',
    ],
    errors: [
      'asyncpg.exceptions.TooManyConnectionsError: sorry, too many clients already',
      'PoolTimeoutError: timed out after 30.0s waiting for a connection',
      'FATAL:  remaining connection slots are reserved for non-replication superuser connections',
    ],
    decisions: [
      'put pgbouncer in transaction pooling mode in front of the primary',
      'cap DB_POOL_MAX at 20 per pod and scale pods instead',
      'set idle_in_transaction_session_timeout to 60s',
      'drop prepared statements because transaction pooling breaks them',
    ],
    labels: ['postgres 16.4', 'pgbouncer 1.23', 'OPS-311', 'asyncpg 0.30'],
    problems: [
      'we are running out of database connections during the nightly batch',
      'requests hang for 30 seconds and then fail with a pool timeout',
      'pg_stat_activity shows hundreds of idle in transaction sessions',
    ],
    snippets: [
      'async def create_pool(dsn: str) -> asyncpg.Pool:\n    return await asyncpg.create_pool(\n        dsn,\n        min_size=2,\n        max_size=settings.DB_POOL_MAX,\n        max_inactive_connection_lifetime=300,\n        statement_cache_size=0,  # required behind pgbouncer\n    )',
      '[pgbouncer]\npool_mode = transaction\nmax_client_conn = 2000\ndefault_pool_size = 40\nserver_idle_timeout = 120',
    ],
  },
  {
    key: 'websocket',
    name: 'websocket reconnect',
    title: 'Websocket Reconnect',
    project: 'chat-web',
    branch: 'fix/ws-reconnect-backoff',
    lang: 'typescript',
    terms: [
      'exponential backoff',
      'jitter',
      'heartbeat',
      'chat-send',
      'presence',
      'close code 1006',
      'resume token',
    ],
    files: [
      'src/realtime/socket.ts',
      'src/realtime/backoff.ts',
      'src/hooks/useChannel.ts',
      'server/ws/gateway.go',
    ],
    idents: ['ReconnectingSocket', 'nextDelay()', 'HEARTBEAT_MS', 'onClose()', 'resumeSession()'],
    commands: [
      'npm run test -- socket',
      'npx playwright test chat-send.spec.ts',
      'wscat -c wss://staging.example.com/ws',
      'go test ./server/ws/...',
    ],
    errors: [
      'WebSocket connection closed with code 1006 (abnormal closure)',
      'Error: chat-send acknowledged twice for message id 7f3a',
      "TypeError: Cannot read properties of null (reading 'send')",
    ],
    decisions: [
      'cap the reconnect backoff at 30 seconds with full jitter',
      'send a heartbeat every 25 seconds because the load balancer idles out at 60',
      'dedupe chat-send on the server by client message id',
      'buffer outgoing messages while reconnecting instead of dropping them',
    ],
    labels: ['P1.4', 'ws 8.18', 'CHAT-902', 'v0.14.2'],
    problems: [
      'clients reconnect in a tight loop after a deploy and hammer the gateway',
      'messages sent during a reconnect are lost',
      'the chat-send event fires twice after the socket resumes',
    ],
    snippets: [
      'export function nextDelay(attempt: number, baseMs = 500, capMs = 30_000): number {\n  const exp = Math.min(capMs, baseMs * 2 ** attempt);\n  // full jitter keeps thousands of clients from reconnecting in lockstep\n  return Math.random() * exp;\n}',
      "socket.addEventListener('close', (ev) => {\n  if (ev.code === 1000) return;\n  const delay = nextDelay(this.attempt++);\n  this.timer = setTimeout(() => this.connect(), delay);\n});",
    ],
  },
  {
    key: 'ratelimit',
    name: 'rate limiter',
    title: 'Rate Limiter',
    project: 'edge-proxy',
    branch: 'feat/sliding-window-limiter',
    lang: 'go',
    terms: ['token bucket', 'sliding window', 'redis', '429', 'burst', 'Retry-After', 'lua script'],
    files: [
      'internal/ratelimit/bucket.go',
      'internal/ratelimit/redis.lua',
      'cmd/proxy/main.go',
      'internal/ratelimit/bucket_test.go',
    ],
    idents: ['TokenBucket', 'Allow()', 'SlidingWindowLimiter', 'RATE_LIMIT_BURST', 'refill()'],
    commands: [
      'go test ./internal/ratelimit/... -race',
      'hey -n 20000 -c 200 http://localhost:8080/api/search',
      'redis-cli --latency',
      'go test -bench=. ./internal/ratelimit',
    ],
    errors: [
      'HTTP 429 Too Many Requests returned to internal health checks',
      'redis: connection pool timeout',
      'DATA RACE on field TokenBucket.tokens',
    ],
    decisions: [
      'move the limiter state into redis with a single lua script per request',
      'exempt internal health checks from the limiter',
      'use a sliding window of 60s with a burst of 20',
      'return Retry-After in whole seconds',
    ],
    labels: ['go 1.23', 'go-redis v9.6', 'EDGE-77', 'v1.8.0'],
    problems: [
      'the limiter lets through twice the configured rate across replicas',
      'health checks are getting 429s',
      'p99 latency jumps when redis is slow',
    ],
    snippets: [
      'func (b *TokenBucket) Allow(now time.Time) bool {\n\tb.mu.Lock()\n\tdefer b.mu.Unlock()\n\tb.refill(now)\n\tif b.tokens < 1 {\n\t\treturn false\n\t}\n\tb.tokens--\n\treturn true\n}',
    ],
  },
  {
    key: 'docker',
    name: 'docker networking',
    title: 'Docker Networking',
    project: 'dev-env',
    branch: 'chore/compose-networks',
    lang: 'yaml',
    terms: [
      'bridge network',
      'docker compose',
      'DNS resolution',
      'host.docker.internal',
      'MTU',
      'port mapping',
      'healthcheck',
    ],
    files: ['docker-compose.yml', 'docker/api.Dockerfile', '.env.example', 'scripts/dev-up.sh'],
    idents: ['backend_net', 'depends_on', 'extra_hosts', 'network_mode'],
    commands: [
      'docker compose up -d --build',
      'docker network inspect dev-env_backend_net',
      'docker compose exec api getent hosts db',
      'docker logs -f dev-env-api-1',
    ],
    errors: [
      'getaddrinfo ENOTFOUND db',
      'Error response from daemon: driver failed programming external connectivity: Bind for 0.0.0.0:5432 failed: port is already allocated',
      'curl: (7) Failed to connect to host.docker.internal port 8000',
    ],
    decisions: [
      'put api and db on a dedicated bridge network and stop publishing 5432',
      'add extra_hosts host-gateway for Linux instead of relying on Docker Desktop',
      'lower the MTU to 1400 inside the VPN',
      'wait on the db healthcheck instead of sleep 10',
    ],
    labels: ['compose v2.29', 'docker 27.3', 'DEV-45'],
    problems: [
      'the api container cannot resolve the db service name',
      'host.docker.internal does not work on my Linux laptop',
      'pip install hangs inside the container on the VPN',
    ],
    snippets: [
      'services:\n  api:\n    build: { context: ., dockerfile: docker/api.Dockerfile }\n    networks: [backend_net]\n    extra_hosts:\n      - "host.docker.internal:host-gateway"\n    depends_on:\n      db:\n        condition: service_healthy\nnetworks:\n  backend_net:\n    driver: bridge\n    driver_opts:\n      com.docker.network.driver.mtu: "1400"',
    ],
  },
  {
    key: 'flakyci',
    name: 'flaky CI tests',
    title: 'Flaky CI',
    project: 'platform-monorepo',
    branch: 'ci/deflake-integration',
    lang: 'yaml',
    terms: [
      'GitHub Actions',
      'retry',
      'race condition',
      'test shard',
      'timeout',
      'quarantine',
      'fake timers',
    ],
    files: [
      '.github/workflows/ci.yml',
      'tests/integration/orders.test.ts',
      'vitest.config.ts',
      'scripts/flaky-report.ts',
    ],
    idents: ['waitForIdle()', 'QUARANTINE_LIST', 'shardIndex', 'useFakeTimers()'],
    commands: [
      'gh run list --workflow ci.yml --limit 20',
      'npx vitest run tests/integration --reporter=verbose',
      'gh run view 10923847 --log-failed',
      'for i in $(seq 50); do npx vitest run orders.test.ts || break; done',
    ],
    errors: [
      'Error: Test timed out in 5000ms.',
      'expected 3 orders, received 2',
      'ECONNREFUSED 127.0.0.1:6379 in shard 3/4',
    ],
    decisions: [
      'quarantine the three worst tests and track them in a weekly flaky report',
      'replace sleep-based waits with waitForIdle()',
      'give each shard its own redis database index',
      'fail the build on a retried pass instead of hiding it',
    ],
    labels: ['vitest 3.2', 'CI-530', 'actions/cache@v4'],
    problems: [
      'the integration suite fails about one run in five',
      'orders.test.ts passes locally but fails on CI',
      'shard 3 times out intermittently',
    ],
    snippets: [
      'jobs:\n  test:\n    strategy:\n      matrix:\n        shard: [1, 2, 3, 4]\n    steps:\n      - uses: actions/checkout@v4\n      - run: npx vitest run --shard=${{ matrix.shard }}/4\n        env:\n          REDIS_DB: ${{ matrix.shard }}',
    ],
  },
  {
    key: 'memleak',
    name: 'memory leak',
    title: 'Memory Leak',
    project: 'notification-worker',
    branch: 'fix/listener-leak',
    lang: 'typescript',
    terms: [
      'heap snapshot',
      'event listeners',
      'RSS',
      'retained size',
      'closure',
      'WeakMap',
      'OOMKilled',
    ],
    files: [
      'src/worker.ts',
      'src/queue/consumer.ts',
      'src/cache/lru.ts',
      'k8s/worker-deployment.yaml',
    ],
    idents: [
      'MessageConsumer',
      'subscribe()',
      'MaxListenersExceededWarning',
      'LruCache',
      'dispose()',
    ],
    commands: [
      'node --inspect --max-old-space-size=512 dist/worker.js',
      'kubectl top pod -l app=notification-worker',
      'node --heapsnapshot-signal=SIGUSR2 dist/worker.js',
      'npx clinic heapprofiler -- node dist/worker.js',
    ],
    errors: [
      'MaxListenersExceededWarning: Possible EventEmitter memory leak detected. 11 message listeners added',
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
      'Last State: Terminated  Reason: OOMKilled',
    ],
    decisions: [
      'remove the per-message listener and use one shared subscription',
      'bound the LRU cache to 10,000 entries',
      'restart the worker on a schedule only as a stopgap, not as the fix',
      'keep the heap snapshots in the incident doc',
    ],
    labels: ['node 20.19', 'INC-2231', 'v4.2.0'],
    problems: [
      'the worker RSS grows by about 200 MB per hour until it gets OOMKilled',
      'heap snapshots show thousands of retained closures',
      'we see MaxListenersExceededWarning in the logs',
    ],
    snippets: [
      "// one subscription for the worker's lifetime; the old code added one per message\nconst sub = consumer.subscribe('message', handle);\nprocess.once('SIGTERM', () => sub.dispose());",
    ],
  },
  {
    key: 'search',
    name: 'search ranking',
    title: 'Search Ranking',
    project: 'docs-search',
    branch: 'feat/hybrid-rerank',
    lang: 'python',
    terms: ['bm25', 'embeddings', 'reranker', 'recall@10', 'nDCG', 'query expansion', 'synonyms'],
    files: [
      'search/rank.py',
      'search/index_builder.py',
      'eval/queries.jsonl',
      'search/synonyms.txt',
    ],
    idents: ['HybridRanker', 'score_bm25()', 'RERANK_TOP_K', 'eval_ndcg()'],
    commands: [
      'python -m eval.run --set golden --metric ndcg@10',
      'python -m search.index_builder --rebuild',
      'pytest tests/test_rank.py',
    ],
    errors: [
      "KeyError: 'doc_len' in score_bm25",
      'nDCG@10 dropped from 0.71 to 0.64',
      'ValueError: shapes (768,) and (1024,) not aligned',
    ],
    decisions: [
      'blend bm25 and embedding scores 0.6/0.4 and rerank the top 50',
      'evaluate every ranking change on the golden query set first',
      'drop query expansion for code identifiers',
      'boost exact title matches',
    ],
    labels: ['RANK-58', 'model e5-large-v2', 'v0.9.0'],
    problems: [
      'exact matches on function names rank below vague prose pages',
      'the new embedding model made recall worse',
      'search for error messages returns nothing useful',
    ],
    snippets: [
      'def hybrid_score(bm25: float, dense: float, alpha: float = 0.6) -> float:\n    return alpha * bm25 + (1 - alpha) * dense',
    ],
  },
  {
    key: 'rust',
    name: 'rust borrow checker',
    title: 'Rust Borrow Checker',
    project: 'ingest-rs',
    branch: 'refactor/shared-state',
    lang: 'rust',
    terms: ['lifetime', 'Arc<Mutex>', 'borrow', 'async', 'Send bound', 'tokio', 'clone'],
    files: ['src/pipeline.rs', 'src/state.rs', 'src/main.rs', 'Cargo.toml'],
    idents: ['Pipeline', 'SharedState', 'spawn_workers()', "'static", 'RwLock'],
    commands: [
      'cargo build',
      'cargo clippy -- -D warnings',
      'cargo test pipeline',
      'cargo expand state',
    ],
    errors: [
      'error[E0502]: cannot borrow `self.buf` as mutable because it is also borrowed as immutable',
      'error[E0597]: `config` does not live long enough',
      'error: future cannot be sent between threads safely',
    ],
    decisions: [
      'wrap the shared state in Arc<RwLock> and keep critical sections short',
      'clone the small config struct instead of fighting the lifetime',
      'never hold a std Mutex guard across an .await',
      'split the buffer into its own struct',
    ],
    labels: ['rustc 1.82', 'tokio 1.41', 'ING-12'],
    problems: [
      'the compiler rejects my worker spawn because of a lifetime',
      'I cannot hold the lock across an await',
      'borrowing self mutably inside the loop fails',
    ],
    snippets: [
      'let state = Arc::new(RwLock::new(SharedState::default()));\nfor id in 0..workers {\n    let state = Arc::clone(&state);\n    tokio::spawn(async move {\n        let snapshot = state.read().await.clone();\n        process(id, snapshot).await\n    });\n}',
    ],
  },
  {
    key: 'k8s',
    name: 'kubernetes deploy',
    title: 'Kubernetes Deploy',
    project: 'infra-k8s',
    branch: 'fix/readiness-probe',
    lang: 'yaml',
    terms: [
      'helm',
      'readiness probe',
      'CrashLoopBackOff',
      'HPA',
      'rolling update',
      'configmap',
      'PodDisruptionBudget',
    ],
    files: [
      'charts/api/values.yaml',
      'charts/api/templates/deployment.yaml',
      'charts/api/templates/hpa.yaml',
      'environments/prod.yaml',
    ],
    idents: [
      'maxUnavailable',
      'initialDelaySeconds',
      'targetCPUUtilizationPercentage',
      'minReplicas',
    ],
    commands: [
      'helm upgrade --install api charts/api -f environments/prod.yaml --dry-run',
      'kubectl rollout status deploy/api -n prod',
      'kubectl describe pod api-7d9c8b7f5-x2klm -n prod',
      'kubectl get hpa -n prod',
    ],
    errors: [
      'Back-off restarting failed container api in pod api-7d9c8b7f5-x2klm',
      'Readiness probe failed: HTTP probe failed with statuscode: 503',
      'Error: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress',
    ],
    decisions: [
      'split liveness and readiness probes and give readiness a /ready endpoint',
      'set maxUnavailable to 0 and maxSurge to 25%',
      'raise minReplicas to 3 in prod',
      'add a PodDisruptionBudget before the node upgrade',
    ],
    labels: ['k8s 1.30', 'helm 3.16', 'OPS-402', 'chart 2.7.0'],
    problems: [
      'the new pods crashloop during the rollout',
      'deploys cause a burst of 503s',
      'the HPA never scales above two replicas',
    ],
    snippets: [
      'readinessProbe:\n  httpGet:\n    path: /ready\n    port: 8080\n  initialDelaySeconds: 5\n  periodSeconds: 5\nlivenessProbe:\n  httpGet:\n    path: /healthz\n    port: 8080\n  initialDelaySeconds: 30',
    ],
  },
  {
    key: 'oauth',
    name: 'OAuth token refresh',
    title: 'OAuth Token Refresh',
    project: 'auth-service',
    branch: 'fix/refresh-rotation',
    lang: 'typescript',
    terms: [
      'refresh token rotation',
      'JWT',
      'PKCE',
      'clock skew',
      'token expiry',
      'revocation',
      'session cookie',
    ],
    files: [
      'src/auth/refresh.ts',
      'src/auth/jwt.ts',
      'src/middleware/requireAuth.ts',
      'tests/auth/refresh.test.ts',
    ],
    idents: ['refreshAccessToken()', 'verifyJwt()', 'REFRESH_GRACE_SECONDS', 'TokenStore'],
    commands: [
      'npm test -- auth',
      'curl -i -X POST localhost:3000/oauth/token -d grant_type=refresh_token',
      'jq -R \'split(".") | .[1] | @base64d | fromjson\' <<< "$TOKEN"',
    ],
    errors: [
      'JsonWebTokenError: jwt expired',
      'invalid_grant: refresh token already used',
      '401 Unauthorized after exactly 15 minutes',
    ],
    decisions: [
      'allow a 30 second grace window for a rotated refresh token',
      'tolerate 60 seconds of clock skew when verifying exp',
      'revoke the whole token family on refresh token reuse',
      'store refresh tokens hashed',
    ],
    labels: ['AUTH-219', 'jose 5.9', 'v3.1.0'],
    problems: [
      'users get logged out when two tabs refresh at the same time',
      'mobile clients with wrong clocks get jwt expired',
      'refresh token reuse is not detected',
    ],
    snippets: [
      "export async function refreshAccessToken(rt: string): Promise<Tokens> {\n  const record = await store.find(hash(rt));\n  if (record?.rotatedAt && Date.now() - record.rotatedAt > REFRESH_GRACE_SECONDS * 1000) {\n    await store.revokeFamily(record.familyId);\n    throw new OAuthError('invalid_grant');\n  }\n  return issueTokens(record);\n}",
    ],
  },
  {
    key: 'cron',
    name: 'cron scheduler',
    title: 'Cron Scheduler',
    project: 'jobs-runner',
    branch: 'fix/dst-missed-runs',
    lang: 'python',
    terms: [
      'croniter',
      'DST',
      'missed runs',
      'misfire grace',
      'timezone',
      'lock',
      'idempotent job',
    ],
    files: [
      'jobs/scheduler.py',
      'jobs/registry.py',
      'jobs/tasks/nightly_report.py',
      'tests/test_scheduler.py',
    ],
    idents: ['Scheduler', 'next_fire_time()', 'MISFIRE_GRACE', 'acquire_job_lock()'],
    commands: [
      'pytest tests/test_scheduler.py -k dst',
      'python -m jobs.scheduler --list',
      'TZ=Europe/Berlin python -c \'import jobs.scheduler as s; print(s.next_fire_time("30 2 * * *"))\'',
    ],
    errors: [
      'nightly_report ran twice on 2026-10-25',
      'job skipped: misfire grace time exceeded',
      'LockError: job lock held by worker-2',
    ],
    decisions: [
      'schedule everything in UTC and convert only for display',
      'take a redis lock per job run so two schedulers cannot both fire',
      'set misfire grace to 10 minutes',
      'make the nightly report idempotent per date',
    ],
    labels: ['croniter 3.0', 'JOBS-33'],
    problems: [
      'the 02:30 job ran twice when the clocks changed',
      'jobs are skipped after a deploy',
      'two scheduler replicas fire the same job',
    ],
    snippets: [
      'def next_fire_time(expr: str, after: datetime) -> datetime:\n    # evaluate in UTC so DST transitions never duplicate or skip a run\n    return croniter(expr, after.astimezone(timezone.utc)).get_next(datetime)',
    ],
  },
  {
    key: 'export',
    name: 'data export',
    title: 'Data Export',
    project: 'reporting-api',
    branch: 'feat/streaming-csv-export',
    lang: 'python',
    terms: [
      'CSV',
      'streaming response',
      'S3 multipart',
      'presigned URL',
      'chunked',
      'background job',
      'gzip',
    ],
    files: [
      'reporting/export.py',
      'reporting/storage.py',
      'reporting/routes.py',
      'tests/test_export.py',
    ],
    idents: ['stream_csv()', 'ExportJob', 'upload_multipart()', 'EXPORT_ROW_LIMIT'],
    commands: [
      'pytest tests/test_export.py',
      'aws s3 ls s3://reports-exports/2026/ --human-readable',
      'curl -s localhost:8000/exports/123 | jq .status',
    ],
    errors: [
      'MemoryError while building export for tenant 4411',
      'botocore.exceptions.ClientError: EntityTooSmall',
      '504 Gateway Timeout on /exports',
    ],
    decisions: [
      'stream rows with a server-side cursor instead of loading the query',
      'move exports over 100k rows to a background job with a presigned URL',
      'use 8 MB multipart chunks',
      'gzip the CSV on the fly',
    ],
    labels: ['REP-140', 'boto3 1.35'],
    problems: [
      'exports of big tenants time out',
      'the export endpoint uses gigabytes of memory',
      'multipart uploads fail for small files',
    ],
    snippets: [
      'def stream_csv(cursor, header):\n    buf = io.StringIO()\n    writer = csv.writer(buf)\n    writer.writerow(header)\n    for row in cursor:\n        writer.writerow(row)\n        if buf.tell() > 64_000:\n            yield buf.getvalue()\n            buf.seek(0)\n            buf.truncate()\n    yield buf.getvalue()',
    ],
  },
  {
    key: 'terraform',
    name: 'terraform state drift',
    title: 'Terraform State',
    project: 'infra-terraform',
    branch: 'chore/import-legacy-buckets',
    lang: 'hcl',
    terms: [
      'state lock',
      'drift',
      'terraform import',
      'S3 backend',
      'DynamoDB lock table',
      'plan',
      'moved block',
    ],
    files: [
      'envs/prod/main.tf',
      'modules/bucket/main.tf',
      'envs/prod/backend.tf',
      'envs/prod/imports.tf',
    ],
    idents: ['aws_s3_bucket.legacy_assets', 'module.bucket', 'lifecycle { prevent_destroy }'],
    commands: [
      'terraform plan -out plan.bin',
      'terraform import aws_s3_bucket.legacy_assets legacy-assets-prod',
      'terraform force-unlock 3f2a9c1e',
      'terraform state list | grep bucket',
    ],
    errors: [
      'Error acquiring the state lock: ConditionalCheckFailedException',
      'Plan: 3 to add, 0 to change, 3 to destroy.',
      'Error: Provider produced inconsistent final plan',
    ],
    decisions: [
      'use import blocks instead of the import command so it is reviewed in the PR',
      'add prevent_destroy on every prod bucket',
      'rename with moved blocks rather than state mv',
      'run plan in CI on every PR',
    ],
    labels: ['terraform 1.9', 'aws provider 5.70', 'INFRA-88'],
    problems: [
      'plan wants to destroy and recreate the prod buckets',
      'the state lock is stuck after a cancelled run',
      'someone changed the bucket policy in the console',
    ],
    snippets: [
      'import {\n  to = aws_s3_bucket.legacy_assets\n  id = "legacy-assets-prod"\n}\n\nresource "aws_s3_bucket" "legacy_assets" {\n  bucket = "legacy-assets-prod"\n  lifecycle {\n    prevent_destroy = true\n  }\n}',
    ],
  },
  {
    key: 'react',
    name: 'react rendering performance',
    title: 'React Rendering',
    project: 'dashboard-ui',
    branch: 'perf/virtualize-table',
    lang: 'tsx',
    terms: [
      're-render',
      'useMemo',
      'React Profiler',
      'virtualization',
      'context',
      'memo',
      'selector',
    ],
    files: [
      'src/components/OrdersTable.tsx',
      'src/state/OrdersContext.tsx',
      'src/hooks/useOrders.ts',
      'src/components/Row.tsx',
    ],
    idents: ['OrdersTable', 'useOrders()', 'React.memo', 'useVirtualizer', 'selectVisibleOrders'],
    commands: ['npm run dev', 'npx vitest run src/components', 'npm run build -- --profile'],
    errors: [
      'Warning: Each child in a list should have a unique "key" prop.',
      'Maximum update depth exceeded',
      'long task 1,240 ms in OrdersTable render',
    ],
    decisions: [
      'virtualize the orders table and render only visible rows',
      'split the context so typing in the filter does not re-render every row',
      'memoize row components by order id and version',
      'move sorting into a selector',
    ],
    labels: ['react 19.1', 'UI-310', '@tanstack/react-virtual 3.10'],
    problems: [
      'typing in the filter box lags with 5,000 orders',
      'the whole table re-renders on every websocket update',
      'scrolling the dashboard stutters',
    ],
    snippets: [
      'const Row = React.memo(function Row({ order }: { order: Order }) {\n  return (\n    <tr>\n      <td>{order.id}</td>\n      <td>{formatMoney(order.total)}</td>\n    </tr>\n  );\n}, (a, b) => a.order.id === b.order.id && a.order.version === b.order.version);',
    ],
  },
  {
    key: 'logging',
    name: 'log pipeline',
    title: 'Log Pipeline',
    project: 'observability',
    branch: 'feat/structured-logs',
    lang: 'yaml',
    terms: [
      'vector',
      'loki',
      'structured logging',
      'sampling',
      'label cardinality',
      'retention',
      'trace id',
    ],
    files: [
      'vector/vector.yaml',
      'loki/config.yaml',
      'app/logging.py',
      'grafana/dashboards/errors.json',
    ],
    idents: ['JsonFormatter', 'sample_rate', 'trace_id', 'remap'],
    commands: [
      'vector validate vector/vector.yaml',
      'logcli query \'{app="api"} |= "ERROR"\' --since=1h',
      'kubectl -n observability logs ds/vector --tail=50',
    ],
    errors: [
      'err="per-stream rate limit exceeded"',
      'too many outstanding requests: label cardinality limit',
      'vector: failed to parse JSON',
    ],
    decisions: [
      'drop request_id from the loki labels and keep it in the log body',
      'sample debug logs at 10% in prod',
      'keep 14 days of retention for info and 90 for errors',
      'always log the trace id',
    ],
    labels: ['vector 0.41', 'loki 3.2', 'OBS-71'],
    problems: [
      'loki rejects our logs with rate limit errors',
      'we cannot correlate logs with traces',
      'the log bill doubled last month',
    ],
    snippets: [
      'transforms:\n  parse_app:\n    type: remap\n    inputs: [kube_logs]\n    source: |\n      . = merge(., parse_json!(.message))\n      del(.request_id_label)\nsinks:\n  loki:\n    type: loki\n    labels:\n      app: "{{ app }}"\n      level: "{{ level }}"',
    ],
  },
  {
    key: 'graphql',
    name: 'GraphQL N+1 queries',
    title: 'GraphQL N+1',
    project: 'storefront-api',
    branch: 'perf/dataloader',
    lang: 'typescript',
    terms: ['dataloader', 'resolver', 'N+1', 'batching', 'query complexity', 'persisted queries'],
    files: [
      'src/graphql/resolvers/product.ts',
      'src/graphql/loaders.ts',
      'src/graphql/schema.graphql',
      'src/server.ts',
    ],
    idents: ['createLoaders()', 'ProductResolver', 'variantsByProductId', 'maxComplexity'],
    commands: [
      'npm run test:graphql',
      'curl -s localhost:4000/graphql -d \'{"query":"{ products(first: 50) { variants { sku } } }"}\'',
      'DEBUG=knex:query npm start',
    ],
    errors: [
      'query took 4.2s and ran 1,051 SQL statements',
      'Error: DataLoader must be constructed with a function which accepts Array<key>',
      'Query is too complex: 1870. Maximum allowed complexity: 1000',
    ],
    decisions: [
      'create loaders per request in the context factory',
      'batch variants by product id with one IN query',
      'reject queries above complexity 1000',
      'turn on persisted queries for the mobile app',
    ],
    labels: ['graphql 16.9', 'API-512'],
    problems: [
      'the product listing query runs a thousand SQL statements',
      'loaders leak data between users',
      'a crawler sends huge nested queries',
    ],
    snippets: [
      "export function createLoaders(db: Knex) {\n  return {\n    variantsByProductId: new DataLoader(async (ids: readonly string[]) => {\n      const rows = await db('variants').whereIn('product_id', ids);\n      return ids.map((id) => rows.filter((r) => r.product_id === id));\n    }),\n  };\n}",
    ],
  },
  {
    key: 'push',
    name: 'push notifications',
    title: 'Push Notifications',
    project: 'mobile-backend',
    branch: 'fix/apns-token-cleanup',
    lang: 'typescript',
    terms: [
      'APNs',
      'FCM',
      'device token',
      'collapse key',
      'silent push',
      'BadDeviceToken',
      'quiet hours',
    ],
    files: [
      'src/push/apns.ts',
      'src/push/fcm.ts',
      'src/push/dispatcher.ts',
      'src/jobs/cleanupTokens.ts',
    ],
    idents: ['PushDispatcher', 'sendToDevice()', 'pruneInvalidTokens()', 'QUIET_HOURS'],
    commands: [
      'npm test -- push',
      'node scripts/send-test-push.js --user 4411',
      "psql -c 'select platform, count(*) from device_tokens group by 1'",
    ],
    errors: [
      'APNs responded 400 BadDeviceToken',
      'messaging/registration-token-not-registered',
      'rate limited by FCM: quota exceeded for topic',
    ],
    decisions: [
      'delete device tokens on BadDeviceToken and Unregistered responses',
      'collapse notifications per conversation',
      'respect quiet hours in the user timezone',
      'retry 5xx from APNs with backoff but never 4xx',
    ],
    labels: ['PUSH-66', 'firebase-admin 12.6'],
    problems: [
      'half of our APNs sends fail with BadDeviceToken',
      'users get ten notifications for one thread',
      'notifications arrive at 3am',
    ],
    snippets: [
      "if (res.status === 410 || res.reason === 'BadDeviceToken') {\n  await tokens.delete(device.token);\n  return { ok: false, pruned: true };\n}",
    ],
  },
  {
    key: 'flags',
    name: 'feature flag rollout',
    title: 'Feature Flags',
    project: 'web-app',
    branch: 'feat/flag-percentage-rollout',
    lang: 'typescript',
    terms: [
      'percentage rollout',
      'kill switch',
      'sticky bucketing',
      'flag debt',
      'targeting rule',
      'experiment',
    ],
    files: [
      'src/flags/evaluate.ts',
      'src/flags/flags.json',
      'src/flags/useFlag.ts',
      'docs/flags.md',
    ],
    idents: ['evaluateFlag()', 'bucketFor()', 'useFlag()', 'KILL_SWITCHES'],
    commands: [
      'npm run flags:lint',
      'npm test -- flags',
      'git grep -n "useFlag(\'new-checkout\')"',
    ],
    errors: [
      'user flipped between variants on refresh',
      'flag new-checkout referenced but not defined',
      'stale flag older than 90 days: legacy-search',
    ],
    decisions: [
      'hash user id with the flag key for sticky bucketing',
      'ramp new-checkout 1% → 10% → 50% → 100% over two weeks',
      'delete flags 30 days after reaching 100%',
      'keep a kill switch for every payment flag',
    ],
    labels: ['FLAG-21', 'new-checkout', 'v5.0.0'],
    problems: [
      'users see the old and new checkout alternately',
      'we have 140 flags and nobody knows which are dead',
      'rolling back a feature needs a deploy',
    ],
    snippets: [
      'export function bucketFor(userId: string, flagKey: string): number {\n  // stable per user and flag, so a refresh never flips the variant\n  return murmur3(`${flagKey}:${userId}`) % 10_000;\n}',
    ],
  },
  {
    key: 'cache',
    name: 'cache invalidation',
    title: 'Cache Invalidation',
    project: 'catalog-service',
    branch: 'fix/cache-stampede',
    lang: 'go',
    terms: [
      'cache stampede',
      'TTL',
      'stale-while-revalidate',
      'singleflight',
      'redis',
      'write-through',
      'cache key version',
    ],
    files: [
      'internal/cache/cache.go',
      'internal/catalog/service.go',
      'internal/cache/cache_test.go',
      'config/cache.yaml',
    ],
    idents: ['singleflight.Group', 'GetOrLoad()', 'CACHE_TTL', 'keyVersion'],
    commands: [
      'go test ./internal/cache/... -count=1',
      'redis-cli --scan --pattern "catalog:v3:*" | wc -l',
      'vegeta attack -duration=30s -rate=2000 < targets.txt | vegeta report',
    ],
    errors: [
      'database CPU at 100% right after the cache flush',
      'stale price shown for 10 minutes after update',
      'redis: OOM command not allowed when used memory > maxmemory',
    ],
    decisions: [
      'wrap loads in singleflight so one request refills a key',
      'bump the key version on schema changes instead of flushing redis',
      'serve stale for 30 seconds while revalidating',
      'invalidate prices on write, not by TTL',
    ],
    labels: ['CAT-204', 'redis 7.4', 'v2.11.0'],
    problems: [
      'every deploy that flushes the cache takes the database down',
      'customers see old prices',
      'redis runs out of memory',
    ],
    snippets: [
      'func (c *Cache) GetOrLoad(ctx context.Context, key string, load Loader) ([]byte, error) {\n\tif v, ok := c.get(ctx, key); ok {\n\t\treturn v, nil\n\t}\n\tv, err, _ := c.group.Do(key, func() (any, error) { return load(ctx) })\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn v.([]byte), nil\n}',
    ],
  },
  {
    key: 'tls',
    name: 'TLS certificate renewal',
    title: 'TLS Certificates',
    project: 'edge-nginx',
    branch: 'chore/acme-dns01',
    lang: 'nginx',
    terms: [
      'certbot',
      'ACME',
      'DNS-01 challenge',
      'certificate expiry',
      'OCSP stapling',
      'wildcard certificate',
      'SNI',
    ],
    files: [
      'nginx/conf.d/site.conf',
      'scripts/renew-certs.sh',
      'ansible/roles/certbot/tasks/main.yml',
    ],
    idents: ['ssl_certificate', 'ssl_stapling', 'renew_hook', 'certbot-dns-cloudflare'],
    commands: [
      'certbot renew --dry-run',
      'openssl s_client -connect example.com:443 -servername example.com </dev/null | openssl x509 -noout -dates',
      'nginx -t && systemctl reload nginx',
    ],
    errors: [
      'certificate has expired (notAfter=Nov  2 12:00:00 2026 GMT)',
      'Challenge failed for domain example.com',
      'nginx: [warn] "ssl_stapling" ignored, no OCSP responder URL',
    ],
    decisions: [
      'switch to DNS-01 so we can issue the wildcard certificate',
      'alert 21 days before any certificate expires',
      'reload nginx from the renew hook',
      'keep certbot on a systemd timer rather than cron',
    ],
    labels: ['certbot 2.11', 'SEC-19'],
    problems: [
      'the staging certificate expired over the weekend',
      'renewal fails behind the load balancer',
      'we need a wildcard certificate for preview environments',
    ],
    snippets: [
      'server {\n    listen 443 ssl;\n    server_name example.com *.preview.example.com;\n    ssl_certificate     /etc/letsencrypt/live/example.com/fullchain.pem;\n    ssl_certificate_key /etc/letsencrypt/live/example.com/privkey.pem;\n    ssl_stapling on;\n}',
    ],
  },
  {
    key: 'kafka',
    name: 'kafka consumer lag',
    title: 'Kafka Consumer Lag',
    project: 'events-pipeline',
    branch: 'fix/consumer-rebalance',
    lang: 'go',
    terms: [
      'consumer lag',
      'rebalance',
      'partition',
      'offset commit',
      'max.poll.interval.ms',
      'dead letter queue',
      'cooperative sticky',
    ],
    files: ['consumer/main.go', 'consumer/handler.go', 'deploy/consumer.yaml', 'consumer/dlq.go'],
    idents: ['ConsumerGroup', 'HandleBatch()', 'commitOffsets()', 'DLQ_TOPIC'],
    commands: [
      'kafka-consumer-groups --bootstrap-server kafka:9092 --describe --group orders-consumer',
      'go test ./consumer/...',
      'kubectl scale deploy/orders-consumer --replicas=6',
    ],
    errors: [
      'consumer group orders-consumer is rebalancing',
      'lag on orders.v1 partition 7 is 1,203,441',
      'poison message at offset 88123 crashed the handler',
    ],
    decisions: [
      'switch to the cooperative-sticky assignor to stop stop-the-world rebalances',
      'send poison messages to a dead letter queue after 3 attempts',
      'commit offsets after each batch, not each message',
      'match consumer replicas to the 12 partitions',
    ],
    labels: ['kafka 3.8', 'franz-go 1.17', 'EVT-93'],
    problems: [
      'lag keeps growing during peak hours',
      'the group rebalances every few minutes',
      'one bad message blocks a partition',
    ],
    snippets: [
      'for {\n\tfetches := client.PollFetches(ctx)\n\tif err := handleBatch(ctx, fetches); err != nil {\n\t\tsendToDLQ(ctx, fetches, err)\n\t}\n\tif err := client.CommitUncommittedOffsets(ctx); err != nil {\n\t\tlog.Warn("commit failed", "err", err)\n\t}\n}',
    ],
  },
  {
    key: 'config',
    name: 'config loader',
    title: 'Config Loader',
    project: 'my-app',
    branch: 'refactor/typed-config',
    lang: 'typescript',
    terms: ['zod schema', 'env override', 'config validation', 'secrets', 'defaults', 'dotenv'],
    files: ['my_app.config.ts', 'src/config/load.ts', 'src/config/schema.ts', '.env.example'],
    idents: ['loadConfig()', 'ConfigSchema', 'MY_APP_ENV', 'parseEnvOverrides()'],
    commands: [
      'npx tsx src/config/load.ts --print',
      'npm test -- config',
      'MY_APP_ENV=staging npm start',
    ],
    errors: [
      'ZodError: [ { "path": ["database", "url"], "message": "Required" } ]',
      'TypeError: config.features is undefined',
      'Invalid value for PORT: "80a"',
    ],
    decisions: [
      'validate my_app.config.ts with zod at startup and fail fast',
      'let env variables override file values with a MY_APP_ prefix',
      'never put secrets in my_app.config.ts',
      'freeze the config object after loading',
    ],
    labels: ['zod 3.23', 'CFG-7', 'v1.0.0-rc.2'],
    problems: [
      'a typo in my_app.config.ts only failed at runtime in prod',
      'env overrides silently do nothing',
      'staging is using production settings',
    ],
    snippets: [
      "export const ConfigSchema = z.object({\n  port: z.coerce.number().int().default(3000),\n  database: z.object({ url: z.string().url() }),\n  features: z.record(z.boolean()).default({}),\n});\n\nexport function loadConfig(): Config {\n  const file = require('../../my_app.config.ts').default;\n  return Object.freeze(ConfigSchema.parse(deepMerge(file, parseEnvOverrides(process.env))));\n}",
    ],
  },
  {
    key: 'packaging',
    name: 'python packaging',
    title: 'Python Packaging',
    project: 'ml-toolkit',
    branch: 'build/uv-lockfile',
    lang: 'toml',
    terms: [
      'uv',
      'wheel',
      'pyproject.toml',
      'dependency resolution',
      'lockfile',
      'manylinux',
      'extras',
    ],
    files: [
      'pyproject.toml',
      'uv.lock',
      '.github/workflows/release.yml',
      'src/ml_toolkit/__init__.py',
    ],
    idents: ['[project.optional-dependencies]', 'build-backend', 'requires-python'],
    commands: [
      'uv lock --upgrade-package numpy',
      'uv build',
      'uv pip install -e ".[dev]"',
      'twine check dist/*',
    ],
    errors: [
      '× No solution found when resolving dependencies: torch==2.5.0 requires numpy<2',
      'ERROR: ml_toolkit-0.7.0-cp312-cp312-linux_x86_64.whl is not a supported wheel on this platform',
      "ModuleNotFoundError: No module named 'ml_toolkit._native'",
    ],
    decisions: [
      'move from requirements.txt to uv with a committed lockfile',
      'build manylinux wheels with cibuildwheel in CI',
      'pin numpy below 2 until torch supports it',
      'put the GPU dependencies behind a [gpu] extra',
    ],
    labels: ['uv 0.5', 'python 3.12', 'PKG-14', 'v0.7.0'],
    problems: [
      'installs resolve differently on every machine',
      'the wheel does not install on the CI image',
      'numpy 2 broke half the notebooks',
    ],
    snippets: [
      '[project]\nname = "ml-toolkit"\nversion = "0.7.0"\nrequires-python = ">=3.10"\ndependencies = ["numpy<2", "pandas>=2.2"]\n\n[project.optional-dependencies]\ngpu = ["torch==2.5.0"]\ndev = ["pytest", "ruff"]',
    ],
  },
  {
    key: 'sqlite',
    name: 'sqlite WAL backups',
    title: 'SQLite Backups',
    project: 'notes-sync',
    branch: 'feat/litestream',
    lang: 'bash',
    terms: [
      'WAL',
      'checkpoint',
      'litestream',
      'busy_timeout',
      'VACUUM INTO',
      'database is locked',
      'restore drill',
    ],
    files: ['litestream.yml', 'scripts/backup.sh', 'src/db.ts', 'docs/restore.md'],
    idents: ['busy_timeout', 'wal_checkpoint(TRUNCATE)', 'openDb()', 'BACKUP_BUCKET'],
    commands: [
      'litestream replicate -config litestream.yml',
      "sqlite3 notes.db 'PRAGMA integrity_check'",
      'litestream restore -o /tmp/restore.db s3://notes-backups/notes.db',
    ],
    errors: [
      'SQLITE_BUSY: database is locked',
      'the -wal file grew to 3.1 GB',
      'restore.db: malformed database schema',
    ],
    decisions: [
      'replicate with litestream and run a weekly restore drill',
      'set busy_timeout to 5000 on every connection',
      'never copy the db file while it is open; use VACUUM INTO',
      'checkpoint after the nightly import',
    ],
    labels: ['litestream 0.3.13', 'sqlite 3.46', 'OPS-5'],
    problems: [
      'the WAL file keeps growing',
      'writes fail with database is locked under load',
      'our cp-based backups were corrupt',
    ],
    snippets: [
      '#!/usr/bin/env bash\nset -euo pipefail\nts=$(date -u +%Y%m%dT%H%M%SZ)\nsqlite3 /data/notes.db "VACUUM INTO \'/backups/notes-$ts.db\'"\naws s3 cp "/backups/notes-$ts.db" "s3://$BACKUP_BUCKET/daily/"',
    ],
  },
];

export const USER_OPENERS: readonly string[] = [
  'Can you help me with the {name}? {problem}.',
  "I'm seeing `{error}` when I run `{cmd}`. Any idea what's going on?",
  "Let's pick up the {name} work in {project}. Where did we leave {ident}?",
  'Quick question about {file}: {problem}. What would you change?',
  'We need to sort out the {name} before the {label} release. {problem}.',
  'Context: {problem}. I suspect {term} but not sure. Can you dig in?',
  'Can you review my change to {file}? It touches {ident} and the {term} handling.',
  'Getting this in prod:\n\n```\n{error}\n```\n\nIt started after the {label} deploy.',
  'Plan for today: finish the {name}. First, {problem}.',
  'Is {term} the right approach for the {name}, or should we look at {term2}?',
];

export const USER_FOLLOWUPS: readonly string[] = [
  'That worked, but now I get `{error}`.',
  'Can you also check {file}?',
  'What about {term}? Does that change anything?',
  'ok, go ahead',
  "Let's do option 2.",
  'Why {ident} instead of {ident2}?',
  'Ship it.',
  'Can you write a test for {ident}?',
  'Run `{cmd}` again please.',
  'Hmm, I think {term2} is the real culprit here.',
  'Makes sense. Update {file} and show me the diff.',
  "Before we change anything: what's the blast radius if we get {term} wrong?",
  'Can you summarize what we changed so far? I need it for the {label} ticket.',
  'The numbers look better. Next step?',
  'Wait, does this still work with {term2}?',
  'I pushed to {branch}, can you look at the CI output?',
  'Good. Now the same for {file2}.',
  'Is there a way to do this without touching {ident}?',
  'Try it with a smaller batch first.',
  'Keep going.',
  'No, revert that last change to {file}.',
  'How do we roll this out safely?',
];

export const ASSISTANT_TOOL_PREAMBLES: readonly string[] = [
  'Let me check {file} first.',
  "I'll look at how {ident} is used.",
  'Running `{cmd}` to reproduce.',
  'Let me search for {term} in the codebase.',
  'Checking the current state of {branch}.',
  "I'll read the relevant part of {file} and the tests.",
  'Let me confirm that with the logs.',
  'Reproducing locally before changing anything.',
];

export const ASSISTANT_OPENINGS: readonly string[] = [
  'Found it. The problem is in `{file}`: {ident} is called before the {term} is set up, so {problem_lc}.',
  'The `{error}` comes from {ident}. It only shows up under load because of the {term}.',
  "Here's what's happening: {problem_lc}. The root cause is the {term} configuration in `{file}`.",
  'Short answer: yes, {term} is the right tool here, but we need to change how {ident} uses it.',
  'I reproduced it with `{cmd}`. Two things are wrong:',
  'Good news: the fix is small. {ident} was ignoring the {term} setting.',
  'I checked {file} and {file2}. The {name} logic is split across both, which is why this was hard to see.',
  'Done. I updated `{file}` and the tests pass.',
  'This is a classic {term} issue.',
];

export const ASSISTANT_BODIES: readonly string[] = [
  'The fix is to change {ident} so it respects the {term}:',
  'Here is the updated version of {ident}:',
  'I changed `{file}` like this:',
  'A minimal version looks like this:',
  'The relevant part after the change:',
];

export const ASSISTANT_BULLETS: readonly string[] = [
  '`{file}`: {ident} now handles {term}',
  'added a regression test for `{error_short}`',
  'kept the old behaviour behind a flag until {label}',
  'documented the {term} setting in the README',
  '`{cmd}` passes locally ({n} tests)',
  'removed the workaround in {file2}',
  'logged the {term} value at startup so we can verify it in prod',
];

export const ASSISTANT_CLOSINGS: readonly string[] = [
  'We decided to {decision}.',
  'Decision: {decision}. I noted it in {file}.',
  'So the plan is: we decided to {decision}, and revisit after {label}.',
  'Want me to open a PR against {branch}?',
  'Next step would be to run `{cmd}` against staging.',
  'Let me know if you want me to also cover {term2}.',
  'This should also fix the {term2} warnings we saw earlier.',
  '✅ All green. I can push to {branch} when you are ready.',
];

export const REASONING_TEMPLATES: readonly string[] = [
  'The user is asking about {name}. The error `{error_short}` suggests {term} is misconfigured. I should read {file} before proposing a fix.',
  'Two options: change {ident} or adjust {term}. Changing {ident} is less risky because it is only called from {file2}.',
  'I need to verify the assumption about {term2}. Running `{cmd}` will show whether the issue reproduces.',
  'The tests cover the happy path only. I should add a case for {term} before refactoring {ident}.',
  'Given the earlier decision ({decision}), the remaining work is in {file}.',
];

export const SUMMARY_TEMPLATE =
  '[CONTEXT SUMMARY] Earlier in this conversation we worked on the {name} in `{project}` (branch {branch}).\n\nKey points so far:\n- Problem: {problem}\n- We decided to {decision}\n- Files touched: {file}, {file2}\n- Last command run: `{cmd}`\n\nOpen items: verify {term} in staging and finish {ident}. Continue from here.';

export const SUBAGENT_GOALS: readonly string[] = [
  'Find every call site of {ident} and report which ones ignore {term}.',
  'Run `{cmd}` and summarize the failures.',
  'Read {file} and {file2} and list the places where {term} is configured.',
  'Search the web for known issues with {label} and {term}.',
  'Write a regression test for `{error_short}` in the style of the existing tests.',
];

export const SUBAGENT_RESULTS: readonly string[] = [
  'Found {n} call sites of {ident}; {n2} of them ignore {term}. Details: {file}:{line}, {file2}:{line2}.',
  '`{cmd}` finished: {n} passed, {n2} failed. All failures are `{error_short}`.',
  '{term} is configured in {file} (line {line}) and overridden in {file2} (line {line2}).',
  'Added the regression test; it fails before the fix and passes after.',
];

export const CRON_JOBS: readonly { name: string; prompt: string; hour: number }[] = [
  {
    name: 'Nightly dependency audit',
    prompt:
      'Run the nightly dependency audit for all repos under ~/projects and report new advisories.',
    hour: 6,
  },
  {
    name: 'Daily standup digest',
    prompt:
      "Summarize yesterday's merged PRs and open incidents into a standup digest and post it to #eng-standup.",
    hour: 8,
  },
  {
    name: 'Weekly flaky test report',
    prompt:
      'Collect CI runs from the last 7 days, rank flaky tests by failure rate and update the flaky report.',
    hour: 7,
  },
  {
    name: 'Disk usage check',
    prompt:
      'Check disk usage on the build hosts and clean docker images older than 14 days if usage is above 80%.',
    hour: 3,
  },
];

export const TITLE_SUFFIXES: readonly string[] = [
  'notes',
  'debug',
  'plan',
  'review',
  'fix',
  'investigation',
  'follow-up',
  'refactor',
  'rollout',
  'postmortem',
];

export const MODELS: readonly (readonly [string, number])[] = [
  ['anthropic/claude-sonnet-4', 30],
  ['anthropic/claude-sonnet-4.5', 20],
  ['anthropic/claude-opus-4.1', 6],
  ['openai/gpt-5', 16],
  ['openai/gpt-5-mini', 6],
  ['google/gemini-2.5-pro', 8],
  ['nous/hermes-4-405b', 6],
  ['deepseek/deepseek-v3.1', 4],
  ['qwen/qwen3-coder', 4],
];

export const EMOJI: readonly string[] = [
  '🙏',
  '🚀',
  '👍',
  '🔥',
  '😅',
  '🎉',
  '🤔',
  '✅',
  '🐛',
  '💡',
  '😬',
  '🙌',
];

export const PEOPLE: readonly string[] = [
  'Alice',
  'Bob',
  'Chen Wei',
  'Dana',
  'Emil',
  'Farah',
  'Goro',
  'Hana',
];

// CJK conversations. Short two-character terms (数据, 迁移) only match through
// LIKE; longer runs (连接池, 接続プール) exercise the trigram index. Each entry
// is tied to a topic so file names and identifiers in the text fit.
export interface CjkTopic {
  topic: string;
  titles: readonly string[];
  user: readonly string[];
  assistant: readonly string[];
}

export interface CjkCorpus {
  topics: readonly CjkTopic[];
  followups: readonly string[];
  /** Short lines on tool-calling turns. */
  preambles: readonly string[];
}

export const CHINESE: CjkCorpus = {
  topics: [
    {
      topic: 'billing',
      titles: ['数据迁移脚本优化', '账单数据迁移'],
      user: [
        '数据迁移脚本在生产环境跑了两个小时还没结束，能帮我看看 {file} 吗？',
        '这次迁移的数据量大概是三千万行，{ident} 能分批处理吗？',
        '迁移之后有些发票的金额差了一分钱，是不是 {term} 的问题？',
      ],
      assistant: [
        '我看了 {file}，问题在于 {ident} 一次性读取了全部数据。建议分批处理，每批五千行：\n\n```{lang}\n{snippet}\n```\n\n我们决定先在预发布环境验证数据迁移脚本，再上生产。',
        '金额差一分钱是因为按总额取整。改成按每一行单独取整，和 Stripe 的算法保持一致。迁移完成后用对账脚本校验数据。',
      ],
    },
    {
      topic: 'pgpool',
      titles: ['数据库连接池排查'],
      user: [
        '我们的数据库连接池经常耗尽，日志里全是 `{error_short}`。',
        '高峰期接口会卡住三十秒然后报连接池超时，怎么排查？',
      ],
      assistant: [
        '连接池耗尽的原因是事务没有及时提交。把 {term} 调小，并且设置超时，就能避免这个问题。',
        '建议在主库前面加一层 pgbouncer，使用事务级连接池模式，同时把每个实例的连接池上限设为二十。',
      ],
    },
    {
      topic: 'ratelimit',
      titles: ['限流器设计讨论'],
      user: [
        '限流器在多个副本之间没有共享状态，实际速率是配置的两倍。',
        '健康检查也被限流器拦住了，返回 429。',
      ],
      assistant: [
        '可以把限流器的状态放到 redis 里，用一个 lua 脚本保证原子性。这样多个副本共享同一个计数。',
        '健康检查应该加白名单，不经过限流器。我们决定使用六十秒的滑动窗口，突发上限二十。',
      ],
    },
    {
      topic: 'memleak',
      titles: ['内存泄漏排查'],
      user: [
        '服务的内存一直在涨，大概每小时两百兆，最后被 OOMKilled。',
        '堆快照里有几千个闭包，{ident} 是不是有问题？',
      ],
      assistant: [
        '从堆快照来看，是每条消息都注册了一个监听器，导致内存泄漏。改成共享订阅即可：\n\n```{lang}\n{snippet}\n```',
        '{ident} 里的缓存没有上限，建议限制为一万条，并且在关闭时调用 dispose()。',
      ],
    },
    {
      topic: 'flakyci',
      titles: ['持续集成不稳定'],
      user: [
        '持续集成里的集成测试五次里失败一次，本地却总是通过。',
        '第三个分片经常超时，日志里是 `{error_short}`。',
      ],
      assistant: [
        '测试不稳定是因为各个分片共用了同一个 redis 数据库。给每个分片分配独立的数据库编号。',
        '把基于 sleep 的等待换成 waitForIdle()，超时问题就消失了。',
      ],
    },
    {
      topic: 'cache',
      titles: ['缓存失效问题'],
      user: [
        '部署之后缓存被清空，数据库直接被打满了。',
        '价格更新后用户还能看到旧价格，缓存过期时间怎么设置？',
      ],
      assistant: [
        '建议用 singleflight 合并并发请求，避免缓存击穿时数据库被打满。',
        '不要在部署时清空 redis，改为在键名里加版本号，价格在写入时主动失效。',
      ],
    },
  ],
  followups: [
    '好的，继续。',
    '迁移完成后怎么校验数据？',
    '这个方案在高峰期会不会有问题？',
    '谢谢！🙏 测试通过了。',
    '能把改动总结一下吗？我要写到 {label} 的工单里。',
    '数据量再大十倍还行吗？',
    '先在预发布环境跑一遍 `{cmd}`。',
  ],
  preambles: [
    '我先看一下 {file}。',
    '运行 `{cmd}` 复现一下。',
    '搜索一下 {ident} 的调用位置。',
    '先确认日志里的错误。',
  ],
};

export const JAPANESE: CjkCorpus = {
  topics: [
    {
      topic: 'billing',
      titles: ['データ移行スクリプトの改善'],
      user: [
        'データ移行のスクリプトが本番で二時間以上終わりません。{file} を見てもらえますか？',
        '移行後、一部の請求書で金額が一円ずれています。',
      ],
      assistant: [
        '{file} を確認しました。{ident} が全件を一度に読み込んでいるのが原因です。五千件ずつのバッチ処理に変更しましょう：\n\n```{lang}\n{snippet}\n```\n\nまずステージング環境でデータ移行を検証してから本番に適用することにしました。',
        '金額のずれは合計で丸めているためです。明細ごとに丸めるように変更しました。',
      ],
    },
    {
      topic: 'pgpool',
      titles: ['接続プールの調査'],
      user: [
        '接続プールが枯渇して `{error_short}` が大量に出ています。',
        'ピーク時にリクエストが三十秒止まってからタイムアウトします。',
      ],
      assistant: [
        '接続プールの枯渇は、トランザクションがコミットされずに残っていることが原因です。タイムアウトを設定しましょう。',
        'pgbouncer をトランザクションモードで前段に置き、Pod ごとの接続プール上限を二十にします。',
      ],
    },
    {
      topic: 'ratelimit',
      titles: ['レート制限の設計'],
      user: [
        'レート制限がレプリカ間で共有されていないようです。',
        'ヘルスチェックまで 429 になっています。',
      ],
      assistant: [
        'レート制限の状態を redis に移して、lua スクリプトで原子的に更新するのがよいと思います。',
        'ヘルスチェックはレート制限の対象外にしましょう。',
      ],
    },
    {
      topic: 'memleak',
      titles: ['メモリリークの調査'],
      user: ['ワーカーのメモリが増え続けて、最終的に OOMKilled になります。'],
      assistant: [
        'ヒープスナップショットを見ると、メッセージごとにリスナーが追加されていました。これがメモリリークの原因です。',
      ],
    },
    {
      topic: 'flakyci',
      titles: ['テストが不安定な件'],
      user: ['CI の結合テストが不安定で、五回に一回失敗します。'],
      assistant: [
        'シャードごとに redis のデータベース番号を分ければ、テストの干渉はなくなります。',
      ],
    },
  ],
  followups: [
    '了解です。続けてください。',
    '移行後のデータ検証はどうしますか？',
    'ありがとうございます！🎉',
    '変更点をまとめてもらえますか？',
    'ピーク時でも大丈夫でしょうか？',
    '`{cmd}` をもう一度実行してください。',
  ],
  preambles: [
    'まず {file} を確認します。',
    '`{cmd}` を実行して再現します。',
    '{ident} の呼び出し箇所を検索します。',
    'ログのエラーを確認します。',
  ],
};
