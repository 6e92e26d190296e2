import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const CLI = path.join(ROOT, 'bin', 'mailstead.js');
