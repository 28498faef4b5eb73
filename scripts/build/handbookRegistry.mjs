// The handbook registry, written from the schema files in schemas/: a handbook is a file there, so adding one
// never edits a list. Two files come out, both checked in (tests/handbookRegistry.test.ts fails when they are
// stale): the handbook types in menu order, by their section's default (src/shared/handbooks/handbookTypes.ts,
// no imports, so that src/shared can read it), and the import of every schema file (schemas/registry.ts).
// The Vite build and the server's bundle write them first; `npm run handbooks:registry` writes them by hand.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SCHEMAS_DIR = join(ROOT, 'schemas');
export const TYPES_FILE = join(ROOT, 'src/shared/handbooks/handbookTypes.ts');
export const REGISTRY_FILE = join(ROOT, 'schemas/registry.ts');
/** Files of schemas/ that hold no handbook: shared field declarations and the registry itself. */
const NOT_HANDBOOKS = new Set(['common.ts', 'index.ts', 'registry.ts']);
const HEADER = '// Written by scripts/build/handbookRegistry.mjs from the files in schemas/: do not edit.\n';

/**
 * Each handbook's file, type and section declaration, read from the text of the schema files (the build reads
 * them before anything compiles TypeScript). The type is the file's name; `section: { onByDefault, menuOrder }`
 * says whether its switch is on in a production install and where it sits in the menu.
 */
export function readHandbookFiles(dirs = [SCHEMAS_DIR]) {
  const handbooks = [];
  for (const dir of dirs) {
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith('.ts') || NOT_HANDBOOKS.has(name)) continue;
      const file = join(dir, name);
      const text = readFileSync(file, 'utf8');
      const type = basename(name, '.ts');
      const declared = /^\s*type:\s*'([a-z0-9_]+)'/m.exec(text)?.[1];
      if (declared !== type) throw new Error(`${file}: the handbook's type must be its file's name (${type}), found ${declared}`);
      const section = /section:\s*\{\s*onByDefault:\s*(true|false),\s*menuOrder:\s*(\d+)\s*\}/.exec(text);
      if (!section) throw new Error(`${file}: no \`section: { onByDefault, menuOrder }\``);
      handbooks.push({ file, type, onByDefault: section[1] === 'true', menuOrder: Number(section[2]) });
    }
  }
  handbooks.sort((a, b) => a.menuOrder - b.menuOrder || a.type.localeCompare(b.type));
  return handbooks;
}

const list = (types) => (types.length ? `[\n${types.map((type) => `  '${type}',\n`).join('')}]` : '[]');

/** src/shared/handbooks/handbookTypes.ts for these handbooks. */
export function renderTypes(handbooks) {
  const on = handbooks.filter((handbook) => handbook.onByDefault).map((handbook) => handbook.type);
  const off = handbooks.filter((handbook) => !handbook.onByDefault).map((handbook) => handbook.type);
  return (
    HEADER +
    '\n/** Handbooks whose section is on by default, in menu order. */\n' +
    `export const HANDBOOK_SECTIONS_ON = ${list(on)} as const;\n` +
    '/** Handbooks whose section is off in a production install until switched on, in menu order. */\n' +
    `export const HANDBOOK_SECTIONS_OFF = ${list(off)} as const;\n`
  );
}

/** schemas/registry.ts for these handbooks, importing each file by its path from `into`'s folder. */
export function renderRegistry(handbooks, into = REGISTRY_FILE) {
  const from = dirname(into);
  const specifier = (file) => {
    const path = relative(from, file).replace(/\\/g, '/').replace(/\.ts$/, '');
    return path.startsWith('.') ? path : `./${path}`;
  };
  return (
    HEADER +
    handbooks.map((handbook) => `import ${handbook.type} from '${specifier(handbook.file)}';\n`).join('') +
    '\n/** Every schema file by its handbook type, in menu order. */\n' +
    `export const SCHEMA_FILES = {\n${handbooks.map((handbook) => `  ${handbook.type},\n`).join('')}};\n`
  );
}

function writeIfChanged(file, text) {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return false;
  writeFileSync(file, text);
  return true;
}

/** Writes both files when the schema files say something else; true when either changed. */
export function writeHandbookRegistry() {
  const handbooks = readHandbookFiles();
  const types = writeIfChanged(TYPES_FILE, renderTypes(handbooks));
  const registry = writeIfChanged(REGISTRY_FILE, renderRegistry(handbooks));
  return types || registry;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(writeHandbookRegistry() ? 'Реестр справочников обновлён.' : 'Реестр справочников не изменился.');
}
