import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

/**
 * Which built files the field app needs (its entry m/index.html, every chunk it imports or loads on demand,
 * their CSS and assets), learnt from the bundle; the service worker precaches only these, not the console's
 * code, which a phone never runs. No fonts: the field app shows the phone's own (mobileTheme.ts).
 */
export function fieldAppFiles(entryName = 'mobile'): { plugin: Plugin; keep: (url: string) => boolean } {
  const files = new Set<string>();
  const plugin: Plugin = {
    name: 'field-app-files',
    apply: 'build',
    generateBundle(_options, bundle: OutputBundle) {
      files.clear();
      const chunks = Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk');
      const entry = chunks.find((chunk) => chunk.isEntry && chunk.name === entryName);
      if (!entry) return;
      const queue = [entry.fileName];
      while (queue.length) {
        const name = queue.pop()!;
        if (files.has(name)) continue;
        files.add(name);
        const chunk = bundle[name];
        if (chunk?.type !== 'chunk') continue;
        queue.push(...chunk.imports, ...chunk.dynamicImports);
        const meta = (chunk as OutputChunk & { viteMetadata?: { importedCss: Set<string>; importedAssets: Set<string> } }).viteMetadata;
        for (const css of meta?.importedCss ?? []) files.add(css);
        for (const asset of meta?.importedAssets ?? []) files.add(asset);
      }
    },
  };
  const keep = (url: string) => {
    const file = url.replace(/^\//, '');
    if (file.startsWith('m/')) return true;
    return files.has(file);
  };
  return { plugin, keep };
}
