// Entry of a mail thread. Threads start without the main thread's TypeScript loader
// (bin/mailstead.js, vitest): register tsx here, then load the thread's task.
import { register } from 'tsx/esm/api';

register();
const { default: run } = await import('./mail-thread.ts');
export default run;
