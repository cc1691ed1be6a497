/**
 * The recall benchmark's hand-written conversations ("needles") and the
 * questions asked about them. Written apart from the demo generator's
 * templates (src/demo/corpus.json): none of these sentences comes from it, so
 * a corpus-trained embedder (LSA) cannot learn the answers from the filler.
 *
 * A query is `[text, stratum, message]`: `message` is the index of the needle
 * message the question is really about (0 the user's, 1 the assistant's).
 * Strata:
 * - exact: words that appear in the conversation (the regression guard);
 * - paraphrase: how a person remembers it, mostly in other words;
 * - identifier: a file, function, flag, command or path, verbatim;
 * - error: an error message or code, verbatim;
 * - cjk: Chinese, Japanese or Korean questions about a conversation in that language;
 * - crosslingual: a question in one language about a conversation in another;
 * - none (in NO_ANSWER): nothing in the corpus answers it.
 */
export type Stratum = 'exact' | 'paraphrase' | 'identifier' | 'error' | 'cjk' | 'crosslingual';
export type Query = [text: string, stratum: Stratum, message: 0 | 1];

export interface Needle {
  key: string;
  lang: 'en' | 'zh' | 'ja' | 'ko';
  user: string;
  assistant: string;
  queries: Query[];
}

export const NEEDLES: Needle[] = [
  {
    key: 'job-queue',
    lang: 'en',
    user: "Should we keep Redis for background jobs or move them into the main database? I'd rather not run another service.",
    assistant:
      'Let us use Postgres itself: a `jobs` table polled with `SELECT ... FOR UPDATE SKIP LOCKED`. The worker lives in `worker/queue_runner.py`. We agreed to drop Redis for the job queue once the backlog drains.',
    queries: [
      ['SKIP LOCKED jobs table', 'exact', 1],
      ['where did we decide to put the job queue in postgres', 'paraphrase', 1],
      ['getting rid of redis for background work', 'paraphrase', 0],
      ['worker/queue_runner.py', 'identifier', 1],
      ['用数据库代替 Redis 做后台任务', 'crosslingual', 0],
    ],
  },
  {
    key: 'tz-test',
    lang: 'en',
    user: 'The invoice date test passes on my laptop and fails in CI every night after 5pm.',
    assistant:
      'CI runs in UTC and your machine in America/Los_Angeles. `test_invoice_due_date` builds `date.today()` locally. Freeze the clock with `freezegun` and pass `tz=UTC` explicitly.',
    queries: [
      ['freezegun invoice due date', 'exact', 1],
      ['test that only breaks in the evening because of time zones', 'paraphrase', 0],
      ['why did the nightly CI fail on dates', 'paraphrase', 0],
      ['test_invoice_due_date', 'identifier', 1],
    ],
  },
  {
    key: 'oom-export',
    lang: 'en',
    user: 'The exporter pod keeps restarting, kubectl says OOMKilled, memory limit is 512Mi.',
    assistant:
      'It reads the whole CSV into memory in `export_all()`. Stream the rows with a generator, and raise the limit to 1Gi until the fix ships.',
    queries: [
      ['exporter pod restarting', 'exact', 0],
      ['container ran out of memory while exporting a spreadsheet', 'paraphrase', 1],
      ['pod restarting because of RAM', 'paraphrase', 0],
      ['OOMKilled', 'error', 0],
      ['export_all', 'identifier', 1],
    ],
  },
  {
    key: 'tls-expired',
    lang: 'en',
    user: 'Browsers say NET::ERR_CERT_DATE_INVALID on staging.acme.dev since this morning.',
    assistant:
      "The Let's Encrypt certificate expired: certbot's renewal timer was disabled when we moved to the new VM. Re-enable `certbot-renew.timer` and add an alert 14 days before expiry.",
    queries: [
      ["Let's Encrypt certificate expired", 'exact', 1],
      ['https certificate on staging lapsed', 'paraphrase', 1],
      ['automatic renewal of the ssl cert stopped working', 'paraphrase', 1],
      ['NET::ERR_CERT_DATE_INVALID', 'error', 0],
      ['certbot-renew.timer', 'identifier', 1],
      ['ステージングのSSL証明書の期限切れ', 'crosslingual', 1],
    ],
  },
  {
    key: 'reflog',
    lang: 'en',
    user: 'I did an interactive rebase and now three commits from yesterday are gone.',
    assistant:
      'They are still in the reflog. Run `git reflog`, find the entry before the rebase (HEAD@{5}), and `git branch rescue HEAD@{5}`.',
    queries: [
      ['interactive rebase commits gone', 'exact', 0],
      ['recover work that vanished after rewriting history', 'paraphrase', 1],
      ['how to get back lost commits', 'paraphrase', 1],
      ['git reflog', 'identifier', 1],
    ],
  },
  {
    key: 'gh-rate',
    lang: 'en',
    user: 'Our release script dies halfway with 403 API rate limit exceeded from GitHub.',
    assistant:
      'The script calls the REST API once per PR without a token, so it gets 60 requests an hour. Use `GITHUB_TOKEN` (5,000 an hour) and batch with the GraphQL `search` query.',
    queries: [
      ['release script GitHub 403', 'exact', 0],
      ['release tooling throttled by github', 'paraphrase', 0],
      ['too many requests to github during the release', 'paraphrase', 1],
      ['API rate limit exceeded', 'error', 0],
      ['GITHUB_TOKEN', 'identifier', 1],
      ['发布脚本被 GitHub 限流', 'crosslingual', 0],
    ],
  },
  {
    key: 'dark-mode',
    lang: 'en',
    user: "Users want the dashboard to follow the operating system's light or dark setting.",
    assistant:
      'Use the `prefers-color-scheme` media query and CSS variables in `theme.css`; keep a manual override in localStorage under `ui.theme`.',
    queries: [
      ['dashboard light or dark setting', 'exact', 0],
      ['make the dashboard switch to a night theme automatically', 'paraphrase', 0],
      ['dark theme following the system preference', 'paraphrase', 1],
      ['prefers-color-scheme', 'identifier', 1],
      ['다크 모드 대시보드', 'crosslingual', 0],
    ],
  },
  {
    key: 'slow-orders',
    lang: 'en',
    user: 'The orders page takes 9 seconds to load for big customers.',
    assistant:
      'EXPLAIN shows a sequential scan on `order_items` filtered by `customer_id`. Add a composite index `idx_order_items_customer_created` on (customer_id, created_at) and the page drops to 80 ms.',
    queries: [
      ['sequential scan order_items', 'exact', 1],
      ['speed up the orders listing that was really slow', 'paraphrase', 0],
      ['which index fixed the slow page for large accounts', 'paraphrase', 1],
      ['idx_order_items_customer_created', 'identifier', 1],
    ],
  },
  {
    key: 's3-bill',
    lang: 'en',
    user: 'The AWS bill jumped by $4,000 this month, mostly S3.',
    assistant:
      'Old build artifacts are never deleted. Add a lifecycle rule on the `ci-artifacts` bucket to expire objects after 30 days, and move logs to Glacier after 90.',
    queries: [
      ['AWS bill S3', 'exact', 0],
      ['cloud storage costs went up, clean up old files', 'paraphrase', 1],
      ['expire old artifacts automatically to save money', 'paraphrase', 1],
      ['ci-artifacts', 'identifier', 1],
      ['AWS 账单突然变高', 'crosslingual', 0],
    ],
  },
  {
    key: 'nfc',
    lang: 'en',
    user: "Searching for 'café' doesn't find notes saved from the Mac.",
    assistant:
      "macOS file names come in NFD (e plus a combining accent) and we store NFC. Normalize both sides with `str.normalize('NFC')` before indexing.",
    queries: [
      ['café notes saved from the Mac', 'exact', 0],
      ['accented words not matching in search', 'paraphrase', 0],
      ['letters with accents stored differently on apple computers', 'paraphrase', 1],
      ['NFD', 'identifier', 1],
    ],
  },
  {
    key: 'docker-cache',
    lang: 'en',
    user: 'Every docker build reinstalls all npm packages even when I only change one source file.',
    assistant:
      'COPY package.json and package-lock.json first, run `npm ci`, then COPY the rest. Ordered like that, the dependency layer of the Dockerfile stays cached.',
    queries: [
      ['docker build reinstalls npm packages', 'exact', 0],
      ['image builds are slow because dependencies install every time', 'paraphrase', 0],
      ['container layer caching for node modules', 'paraphrase', 1],
      ['package-lock.json', 'identifier', 1],
    ],
  },
  {
    key: 'flags',
    lang: 'en',
    user: 'We have 140 feature flags and nobody knows which ones are still used.',
    assistant:
      'Write a script that lists the flags in LaunchDarkly with no evaluations in 30 days and greps the code for each key; flags both unused and unreferenced get archived. Start with `new_checkout_flow`.',
    queries: [
      ['feature flags nobody knows', 'exact', 0],
      ['remove old toggles nobody uses anymore', 'paraphrase', 0],
      ['stale flag cleanup plan', 'paraphrase', 1],
      ['new_checkout_flow', 'identifier', 1],
      ['使われていないフィーチャーフラグ', 'crosslingual', 0],
    ],
  },
  {
    key: 'segfault',
    lang: 'en',
    user: 'The worker crashes with Segmentation fault (core dumped) when parsing large PDFs.',
    assistant:
      "It is the C extension in an old pdfminer release overflowing the stack on deeply nested objects. Upgrade to pdfminer.six 20231228 and parse in a subprocess, so that a crash doesn't take the worker down.",
    queries: [
      ['worker crashes parsing large PDFs', 'exact', 0],
      ['the worker dies when reading big pdf documents', 'paraphrase', 0],
      ['crash in native code while parsing files', 'paraphrase', 1],
      ['Segmentation fault (core dumped)', 'error', 0],
      ['pdfminer.six', 'identifier', 1],
    ],
  },
  {
    key: 'dst-cron',
    lang: 'en',
    user: 'The weekly report email went out an hour late on Monday.',
    assistant:
      'The schedule is written in local time and the clocks changed on Sunday (daylight saving). Define the cron in UTC, `0 14 * * 1`, and show the local time in the email.',
    queries: [
      ['weekly report email an hour late', 'exact', 0],
      ['scheduled email sent at the wrong hour after the clocks changed', 'paraphrase', 1],
      ['summer time broke the weekly report', 'paraphrase', 1],
      ['毎週のレポートメールが一時間遅れた', 'crosslingual', 0],
    ],
  },
  {
    key: 'refresh-token',
    lang: 'en',
    user: 'Mobile users get logged out every 15 minutes.',
    assistant:
      'The access token lives 15 minutes and the app never uses the refresh token. Call `/auth/refresh` on a 401 and retry once; keep refresh tokens for 30 days, with rotation.',
    queries: [
      ['mobile users logged out', 'exact', 0],
      ['the phone app signs people out too often', 'paraphrase', 0],
      ['keep users signed in with token renewal', 'paraphrase', 1],
      ['/auth/refresh', 'identifier', 1],
      ['모바일 로그아웃 문제', 'crosslingual', 0],
    ],
  },
  {
    key: 'listener-leak',
    lang: 'en',
    user: "The Node API's memory grows by 200 MB a day until it restarts. MaxListenersExceededWarning shows up in the logs.",
    assistant:
      'Each request adds a listener on the shared `eventBus` and never removes it. Use `once`, or remove it in the `finally`; the heap snapshot shows 1.2M closures held by `onConfigChange`.',
    queries: [
      ['heap snapshot closures listener', 'exact', 1],
      ['server leaking memory slowly over days', 'paraphrase', 0],
      ['heap keeps growing in the backend', 'paraphrase', 1],
      ['MaxListenersExceededWarning', 'error', 0],
      ['onConfigChange', 'identifier', 1],
    ],
  },
  {
    key: 'encoding',
    lang: 'en',
    user: "Customers' names show up as Ã© garbage after the import from Excel.",
    assistant:
      'The file is Windows-1252, not UTF-8. Detect the encoding with `chardet` and decode before parsing; strip the BOM too.',
    queries: [
      ['Windows-1252 not UTF-8', 'exact', 1],
      ['spreadsheet upload mangles special characters', 'paraphrase', 0],
      ['names garbled after importing a file', 'paraphrase', 0],
      ['chardet', 'identifier', 1],
      ['导入 Excel 后名字乱码', 'crosslingual', 0],
    ],
  },
  {
    key: 'tf-lock',
    lang: 'en',
    user: 'terraform apply says Error acquiring the state lock, and nobody is running it.',
    assistant:
      'A CI job was cancelled mid-apply and left the DynamoDB lock behind. Check the lock ID and run `terraform force-unlock <id>` after confirming that no apply is running.',
    queries: [
      ['DynamoDB lock cancelled CI job', 'exact', 1],
      ['infrastructure deploy stuck on a lock', 'paraphrase', 0],
      ['stale lock left by a cancelled pipeline', 'paraphrase', 1],
      ['Error acquiring the state lock', 'error', 0],
      ['force-unlock', 'identifier', 1],
    ],
  },
  {
    key: 'bootstrap',
    lang: 'en',
    user: 'New hires take a week to get the dev environment running.',
    assistant:
      "Let's script it: a `make bootstrap` target that installs the toolchain with mise, seeds the database and runs the smoke tests; the README gets a 10-minute quickstart.",
    queries: [
      ['new hires dev environment', 'exact', 0],
      ['new engineers struggle to set up their laptops', 'paraphrase', 0],
      ['make the setup faster for newcomers', 'paraphrase', 1],
      ['make bootstrap', 'identifier', 1],
      ['新人の開発環境セットアップ', 'crosslingual', 0],
    ],
  },
  {
    key: 'vite',
    lang: 'en',
    user: 'Hot reload in the admin app takes 20 seconds.',
    assistant:
      'Move from webpack to Vite: the dev server starts in 1.5 s and HMR drops under 200 ms. Replace `process.env` with `import.meta.env`, and keep webpack only for the legacy widget.',
    queries: [
      ['hot reload admin app', 'exact', 0],
      ['frontend refresh during development is painfully slow', 'paraphrase', 0],
      ['switching bundlers for faster reloads', 'paraphrase', 1],
      ['import.meta.env', 'identifier', 1],
    ],
  },
  {
    key: 'restore-drill',
    lang: 'en',
    user: 'Do we actually know that our database backups can be restored?',
    assistant:
      'Nobody has tried since March. Schedule a monthly restore drill: restore the latest pg_dump into a scratch instance, run row-count checks, and page if it takes longer than 2 hours.',
    queries: [
      ['monthly restore drill', 'exact', 1],
      ['verify that we can recover from a backup', 'paraphrase', 0],
      ['practice restoring the database regularly', 'paraphrase', 1],
      ['pg_dump', 'identifier', 1],
      ['数据库备份恢复演练', 'crosslingual', 1],
    ],
  },
  {
    key: 'a11y',
    lang: 'en',
    user: "The screen reader announces the icon buttons as 'button button button'.",
    assistant:
      'Give every icon-only button an `aria-label`, and hide the decorative SVGs with aria-hidden. Add axe checks to the Playwright suite.',
    queries: [
      ['screen reader icon buttons', 'exact', 0],
      ["blind users can't tell what the toolbar icons do", 'paraphrase', 0],
      ['accessibility of buttons that only have an icon', 'paraphrase', 1],
      ['aria-label', 'identifier', 1],
      ['스크린 리더 버튼 접근성', 'crosslingual', 1],
    ],
  },
  {
    key: 'kafka-lag',
    lang: 'en',
    user: 'The analytics consumer is 3 hours behind and the lag keeps growing.',
    assistant:
      'There are 12 partitions and only 3 consumers, and each does a synchronous HTTP call per message. Batch the writes, raise `max.poll.records`, and scale the group to 12 consumers.',
    queries: [
      ['analytics consumer lag', 'exact', 0],
      ['event processing falling behind by hours', 'paraphrase', 0],
      ['stream consumers too slow to keep up', 'paraphrase', 1],
      ['max.poll.records', 'identifier', 1],
    ],
  },
  {
    key: 'pip-conflict',
    lang: 'en',
    user: 'pip install fails with ResolutionImpossible between requests and urllib3.',
    assistant:
      'botocore pins urllib3<2 while the new requests wants urllib3>=2. Pin requests to 2.31 for now, and move the lockfile to uv.',
    queries: [
      ['botocore pins urllib3', 'exact', 1],
      ['package versions clash when installing', 'paraphrase', 0],
      ['python libraries incompatible with each other', 'paraphrase', 0],
      ['ResolutionImpossible', 'error', 0],
      ['urllib3', 'identifier', 0],
    ],
  },
  {
    key: 'zh-report',
    lang: 'zh',
    user: '每天凌晨的报表任务总是超时，数据库 CPU 打满。',
    assistant:
      '原因是报表查询没有用到索引，而且和备份同时运行。把任务挪到早上六点，并给 orders 表加上 (shop_id, created_at) 复合索引。',
    queries: [
      ['报表任务总是超时', 'cjk', 0],
      ['夜里统计作业太慢把数据库拖垮', 'cjk', 0],
      ['定时报表和备份冲突', 'cjk', 1],
      ['nightly report job times out and maxes the database CPU', 'crosslingual', 0],
    ],
  },
  {
    key: 'zh-avatar',
    lang: 'zh',
    user: '用户上传头像以后显示不出来，返回 403。',
    assistant:
      '对象存储的桶策略是私有的，前端直接用了原始地址。改成后端生成带签名的临时链接，有效期十分钟。',
    queries: [
      ['头像显示不出来', 'cjk', 0],
      ['图片上传后看不到', 'cjk', 0],
      ['签名链接的有效期', 'cjk', 1],
    ],
  },
  {
    key: 'zh-monolith',
    lang: 'zh',
    user: '我们要不要把单体应用拆成微服务？团队只有五个人。',
    assistant: '五个人维护十几个服务成本太高。建议先在单体内部按模块划清边界，等团队扩大再拆分。',
    queries: [
      ['单体应用拆成微服务', 'cjk', 0],
      ['小团队是否应该拆分服务', 'cjk', 1],
      ['模块化单体还是微服务架构', 'cjk', 1],
      ['should a small team split the monolith into microservices', 'crosslingual', 1],
    ],
  },
  {
    key: 'zh-payment',
    lang: 'zh',
    user: '手机端支付成功了，但订单状态还是待支付。',
    assistant:
      '支付回调被网关拦截了，签名校验失败。修复验签逻辑以后，再加一个定时任务主动查询支付结果。',
    queries: [
      ['订单状态还是待支付', 'cjk', 0],
      ['付款完成但是订单没有更新', 'cjk', 0],
      ['支付回调验签失败', 'cjk', 1],
    ],
  },
  {
    key: 'zh-logs',
    lang: 'zh',
    user: '日志太多了，磁盘一周就满。',
    assistant: '把调试级别的日志关掉，按天切割并压缩，保留十四天；重要日志发到集中式日志平台。',
    queries: [
      ['磁盘一周就满', 'cjk', 0],
      ['日志占满硬盘怎么办', 'cjk', 0],
      ['日志应该保留多少天', 'cjk', 1],
    ],
  },
  {
    key: 'zh-segment',
    lang: 'zh',
    user: '搜索功能的中文分词不准，搜「机器学习」会出来「学习机器」。',
    assistant: '默认分词器按单字切分。换成 jieba 分词，并对短语查询使用位置匹配。',
    queries: [
      ['中文分词不准', 'cjk', 0],
      ['中文搜索结果不准确', 'cjk', 0],
      ['换一个分词工具', 'cjk', 1],
      ['jieba', 'identifier', 1],
    ],
  },
  {
    key: 'ja-deploy',
    lang: 'ja',
    user: '本番環境のデプロイが毎回30分かかっています。',
    assistant:
      'Docker イメージのビルドでキャッシュが効いていません。依存関係のレイヤーを分けて、ビルド時間を5分に短縮しましょう。',
    queries: [
      ['本番環境のデプロイ', 'cjk', 0],
      ['リリースに時間がかかりすぎる', 'cjk', 0],
      ['イメージのビルドを速くしたい', 'cjk', 1],
    ],
  },
  {
    key: 'ja-2fa',
    lang: 'ja',
    user: 'ログイン画面で二段階認証のコードが届かないという問い合わせが増えています。',
    assistant:
      'SMS の送信業者がレート制限に達していました。認証アプリによるワンタイムパスワードも選べるようにします。',
    queries: [
      ['二段階認証のコードが届かない', 'cjk', 0],
      ['ワンタイムパスワードのSMSが来ない', 'cjk', 1],
      ['認証メッセージが送信されない問題', 'cjk', 0],
      ['two-factor codes not arriving by SMS', 'crosslingual', 0],
    ],
  },
  {
    key: 'ja-tests',
    lang: 'ja',
    user: 'テストが遅くて、CIで40分もかかります。',
    assistant:
      'データベースを使うテストが直列で実行されています。テストを4つに分割して並列実行し、フィクスチャを共有しましょう。',
    queries: [
      ['テストが遅くて', 'cjk', 0],
      ['自動テストの時間を短くしたい', 'cjk', 0],
      ['テストを並列で動かす', 'cjk', 1],
    ],
  },
  {
    key: 'ja-exif',
    lang: 'ja',
    user: '画像のアップロードでスマホの写真が横向きになってしまいます。',
    assistant:
      'EXIF の向き情報を無視しているのが原因です。サーバー側で向きを補正してから保存します。',
    queries: [
      ['写真が横向き', 'cjk', 0],
      ['スマートフォンの画像が回転してしまう', 'cjk', 0],
      ['EXIF', 'identifier', 1],
    ],
  },
  {
    key: 'ja-batch',
    lang: 'ja',
    user: '月末のバッチ処理でメモリ不足になります。',
    assistant: '全件をメモリに読み込んでいます。カーソルで千件ずつ処理するように変更しました。',
    queries: [
      ['月末のバッチ処理', 'cjk', 0],
      ['締め処理でメモリが足りない', 'cjk', 0],
      ['大量データを少しずつ処理する', 'cjk', 1],
    ],
  },
  {
    key: 'ko-spam',
    lang: 'ko',
    user: '회원가입 이메일 인증 메일이 스팸함으로 들어갑니다.',
    assistant:
      '도메인에 SPF와 DKIM 레코드가 없습니다. DNS에 두 레코드를 추가하고 발신 주소를 noreply에서 실제 주소로 바꾸세요.',
    queries: [
      ['인증 메일이 스팸함으로', 'cjk', 0],
      ['가입 확인 이메일이 스팸으로 분류됨', 'cjk', 0],
      ['메일 도메인 DNS 설정', 'cjk', 1],
      ['DKIM', 'identifier', 1],
    ],
  },
  {
    key: 'ko-checkout',
    lang: 'ko',
    user: '결제 페이지가 모바일에서 너무 느립니다.',
    assistant:
      '번들 크기가 3MB입니다. 결제 모듈을 지연 로딩하고 이미지를 WebP로 변환하면 로딩 시간이 절반으로 줄어듭니다.',
    queries: [
      ['결제 페이지가 모바일에서', 'cjk', 0],
      ['휴대폰에서 결제 화면 로딩이 느림', 'cjk', 0],
      ['번들 크기 줄이기', 'cjk', 1],
    ],
  },
  {
    key: 'ko-cdn',
    lang: 'ko',
    user: '배포 후에 일부 사용자가 예전 화면을 봅니다.',
    assistant:
      'CDN 캐시가 남아 있습니다. 파일 이름에 해시를 붙이고 index.html은 캐시하지 않도록 설정하세요.',
    queries: [
      ['예전 화면을 봅니다', 'cjk', 0],
      ['업데이트 후에도 옛날 페이지가 보임', 'cjk', 0],
      ['CDN 캐시 무효화', 'cjk', 1],
    ],
  },
  {
    key: 'ko-secret',
    lang: 'ko',
    user: '데이터베이스 비밀번호가 깃 저장소에 올라갔어요.',
    assistant:
      '즉시 비밀번호를 교체하고, 기록에서 파일을 지운 뒤 비밀 값은 환경 변수와 비밀 관리자로 옮기세요.',
    queries: [
      ['비밀번호가 깃 저장소에', 'cjk', 0],
      ['실수로 암호를 커밋했다', 'cjk', 0],
      ['비밀 정보 유출 대응', 'cjk', 1],
      ['database password was committed to git', 'crosslingual', 0],
    ],
  },
  {
    key: 'ko-ranking',
    lang: 'ko',
    user: '검색 결과에 오래된 문서가 먼저 나옵니다.',
    assistant:
      '정렬이 생성일 기준입니다. 관련도 점수에 최신성 가중치를 더해 정렬하도록 바꿨습니다.',
    queries: [
      ['오래된 문서가 먼저', 'cjk', 0],
      ['최근 문서가 검색에서 뒤로 밀림', 'cjk', 0],
      ['검색 정렬 관련도와 최신성', 'cjk', 1],
    ],
  },
];

/** Questions nothing in the corpus answers: a search should say so, or mark what it shows as relaxed. */
export const NO_ANSWER: string[] = [
  'kubernetes autoscaler tuning for gpu nodes',
  'migrating the mobile app to flutter',
  'negotiating the office lease renewal',
  'bluetooth pairing fails on the kiosk',
  'printer driver for the warehouse labels',
  'terraform module for azure front door',
  'graphql subscription over websockets',
  'translating the website into portuguese',
  'quarterly okr planning spreadsheet',
  'elasticsearch shard rebalancing',
  'salesforce integration duplicate contacts',
  'rust borrow checker lifetime error',
  'ios push notification certificate',
  'video transcoding with ffmpeg',
  'hardware wallet integration',
  '机器人仓库路径规划',
  '微信小程序支付',
  '倉庫のバーコード読み取り',
  '動画の字幕生成',
  '블루투스 프린터 연결',
  '동영상 자막 생성',
];
