/**
 * The boundaries between the libraries, checked by `npm run lint` (`depcruise`). A library's public
 * surface is its `src/index.ts`; `core`, `database` and `http` sit below every context and know none.
 * Model: Sairyss/domain-driven-hexagon's `.dependency-cruiser.js`.
 */
/** Every library but the three foundations is a bounded context, so a new one is covered as it is added. */
const FOUNDATIONS = '(core|database|http)';
const A_CONTEXT = `(?!${FOUNDATIONS}/)[^/]+`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle makes each of its modules depend on all the others: break it.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'foundations-know-no-context',
      comment: 'core, database and http are used by every context and so can use none.',
      severity: 'error',
      from: { path: '^libs/(core|database|http)/' },
      to: { path: `^libs/${A_CONTEXT}/` },
    },
    {
      name: 'core-stands-alone',
      comment: 'core (settings, errors, logging, the clock, concurrency helpers) depends on no other library.',
      severity: 'error',
      from: { path: '^libs/core/' },
      to: { path: '^libs/', pathNot: '^libs/core/' },
    },
    {
      name: 'database-on-core-only',
      severity: 'error',
      from: { path: '^libs/database/' },
      to: { path: '^libs/', pathNot: '^libs/(core|database)/' },
    },
    {
      name: 'http-on-core-only',
      comment: 'The HTTP layer knows no database: an app passes its migrations to bootstrapHttpApp.',
      severity: 'error',
      from: { path: '^libs/http/' },
      to: { path: '^libs/', pathNot: '^libs/(core|http)/' },
    },
    {
      name: 'through-the-index',
      comment: 'A library imports another only through its index (`@app/<lib>`).',
      severity: 'error',
      from: { path: '^(libs|apps)/([^/]+)/' },
      to: { path: '^libs/([^/]+)/src/(?!index\\.ts$)', pathNot: '^libs/$2/' },
    },
    {
      name: 'index-exports-no-rows',
      comment:
        "A library's index exports no row module (`*-row.ts`): the shape of a table's rows stays with the library that owns it.",
      severity: 'error',
      from: { path: '^libs/[^/]+/src/index\\.ts$' },
      to: { path: '-row\\.ts$' },
    },
    {
      name: 'rate-limiting-on-redis-only',
      comment:
        'Rate limiting talks to Redis, not PostgreSQL: of the libraries it depends on core, accounts (whose keys it limits) and http (whose routes it guards) only.',
      severity: 'error',
      from: { path: '^libs/rate-limiting/' },
      to: { path: '^libs/', pathNot: '^libs/(rate-limiting|core|accounts|http)/' },
    },
    {
      name: 'no-orphans',
      comment: 'A module that nothing imports is dead code, or an entry point that belongs in the list below.',
      severity: 'error',
      from: {
        orphan: true,
        pathNot: [
          '(^|/)\\.[^/]+\\.(js|cjs|mjs|ts|json)$',
          '\\.d\\.ts$',
          '(^|/)tsconfig\\.json$',
          '^apps/[^/]+/src/main\\.ts$',
          '^scripts/[^/]+\\.ts$',
          '^libs/database/src/data-source\\.ts$',
          '^libs/widget/src/widget\\.js$',
        ],
      },
      to: {},
    },
    {
      name: 'apps-are-not-imported',
      comment: 'Apps compose libraries; nothing in a library depends on an app.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^dist/|\\.spec\\.ts$|/generated/)' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
