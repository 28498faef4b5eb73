export interface HandbookFile {
  file: string;
  type: string;
  onByDefault: boolean;
  menuOrder: number;
}
export const SCHEMAS_DIR: string;
export const TYPES_FILE: string;
export const REGISTRY_FILE: string;
export function readHandbookFiles(dirs?: readonly string[]): HandbookFile[];
export function renderTypes(handbooks: readonly HandbookFile[]): string;
export function renderRegistry(handbooks: readonly HandbookFile[], into?: string): string;
export function writeHandbookRegistry(): boolean;
