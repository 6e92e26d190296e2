import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Logger } from './logger';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '..', '..');

export function hasDashboardBuild(root = PROJECT_ROOT): boolean {
  return existsSync(path.join(root, '.next', 'BUILD_ID'));
}

/**
 * Next.js, prepared in the background: the API answers as soon as migrations have run, and dashboard
 * requests that arrive while Next is still starting wait for it.
 */
export function createDashboard(logger: Logger, root = PROJECT_ROOT) {
  let handler: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | null = null;
  let failure: string | null = hasDashboardBuild(root) ? null : 'the dashboard is not built: run `npm run build`';
  let close: (() => Promise<void>) | null = null;

  const ready = failure
    ? Promise.resolve()
    : (async () => {
        const mod = (await import('next')) as unknown as { default: unknown };
        const createNext = ((mod.default as { default?: unknown }).default ?? mod.default) as (options: object) => {
          prepare(): Promise<void>;
          getRequestHandler(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
          close(): Promise<void>;
        };
        const app = createNext({ dev: false, dir: root, quiet: true });
        await app.prepare();
        handler = app.getRequestHandler();
        close = () => app.close();
        logger.info('dashboard ready');
      })().catch((error: unknown) => {
        failure = 'the dashboard failed to start';
        logger.error({ err: error }, 'dashboard failed to start');
      });

  return {
    ready,
    handle(req: IncomingMessage, res: ServerResponse) {
      const serve = () => {
        if (handler)
          return void handler(req, res).catch((error) => logger.error({ err: error }, 'dashboard request failed'));
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '5' });
        res.end(`${failure ?? 'the dashboard is starting'}\n`);
      };
      if (handler || failure) serve();
      else void ready.then(serve);
    },
    async close() {
      await close?.().catch(() => {});
    },
  };
}
