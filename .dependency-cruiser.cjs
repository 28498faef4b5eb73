// The import rules (docs/architecture.md, «Layers and import rules»), checked by `npm run lint:imports` and
// `npm test`, without exceptions.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: usually a type declared in the wrong file. Move it to the file that owns it or to src/shared.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-imports-no-app',
      severity: 'error',
      comment: 'src/shared is what the server and the apps share: it imports none of them.',
      from: { path: '^src/shared/' },
      to: { path: '^src/(client|mobile|web|server)/' },
    },
    {
      name: 'server-imports-no-ui',
      severity: 'error',
      comment: 'The server imports no browser code: what both sides need goes to src/shared.',
      from: { path: '^src/server/' },
      to: { path: '^src/(client|mobile|web)/' },
    },
    {
      name: 'web-imports-no-app',
      severity: 'error',
      comment: 'src/web is the layer both apps use and neither owns: it imports neither app.',
      from: { path: '^src/web/' },
      to: { path: '^src/(client|mobile)/' },
    },
    {
      name: 'console-imports-no-field-app',
      severity: 'error',
      comment: 'The console does not import the field app: what both use goes to src/web.',
      from: { path: '^src/client/' },
      to: { path: '^src/mobile/' },
    },
    {
      name: 'field-app-imports-no-console',
      severity: 'error',
      comment: 'The field app does not import the console: what both use goes to src/web.',
      from: { path: '^src/mobile/' },
      to: { path: '^src/client/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: an import circle through a type is still a circle in the code's structure.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
    progress: { type: 'none' },
  },
};
