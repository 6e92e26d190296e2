// Entry of the embedded database's thread. Threads start without the main thread's TypeScript
// loader (bin/mailstead.js, vitest): register tsx here, then load the thread itself.
import { register } from 'tsx/esm/api';

register();
await import('./pglite-thread.ts');
