// Entry of a render worker thread. Threads start without the main thread's TypeScript loader
// (bin/mailstead.js, vitest): register tsx here, then load the worker itself.
import { register } from 'tsx/esm/api';

register();
await import('./render-worker.ts');
