import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Agent, fetch } from 'undici';
import type { ApiClient } from '../support/client';
import { newApi, ownServer } from '../support/own-server';

// This project runs after every other one, alone: pacing at the limit needs a machine that is not
// busy with other suites (a server slower than the limit never lets the client reach it).

/**
 * The published figures (100/s, burst 200), as the official SDK paces itself: a client-side token
 * bucket. One that keeps to them never sees a 429; one 20% faster does.
 */
test.describe('the published limits', () => {
  const server = ownServer({}, 'rate-limit-secret-rate-limit-secret-0002');
  const CONCURRENCY = 32;

  /** `paced`: requests that waited for their token, i.e. were sent at the limit rather than as fast as the server answered. */
  type Run = { statuses: number[]; sentAt: number[]; paced: number };

  /** `count` GET /v2/ping paced by a token bucket (full at the start) at `rate`/s with `burst`. */
  async function pacedPings(api: ApiClient, agent: Agent, count: number, rate: number, burst: number): Promise<Run> {
    const run: Run = { statuses: [], sentAt: [], paced: 0 };
    let tokens = burst;
    let refilledAt = performance.now();
    const takeToken = async () => {
      for (let attempt = 0; ; attempt++) {
        const now = performance.now();
        tokens = Math.min(burst, tokens + ((now - refilledAt) * rate) / 1000);
        refilledAt = now;
        if (tokens >= 1) {
          tokens -= 1;
          if (attempt > 0) run.paced++;
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, Math.ceil(((1 - tokens) * 1000) / rate)));
      }
    };
    // A lane takes its token just before it sends (in turn with the others), so a request leaves when its token is taken.
    let turns = Promise.resolve();
    let started = 0;
    const lane = async () => {
      while (started < count) {
        started++;
        const turn = turns.then(takeToken);
        turns = turn;
        await turn;
        run.sentAt.push(performance.now());
        const response = await fetch(`${api.baseUrl}/v2/ping`, {
          headers: { authorization: `Bearer ${api.apiKey}` },
          dispatcher: agent,
        });
        await response.arrayBuffer();
        run.statuses.push(response.status);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    return run;
  }

  /** How many requests sent at these times a bucket of the published figures would refuse if they arrived as sent. */
  function refusalsAtArrivalAsSent(sentAt: number[]): number {
    let tokens = 200;
    let last = sentAt[0];
    let refused = 0;
    for (const time of sentAt) {
      tokens = Math.min(200, tokens + ((time - last) * 100) / 1000);
      last = time;
      if (tokens >= 1) tokens -= 1;
      else refused++;
    }
    return refused;
  }

  test('a client pacing at 100/s with a burst of 200 never sees a 429; one at 120/s does', async () => {
    test.setTimeout(120_000);
    const agent = new Agent({
      connections: CONCURRENCY,
      keepAliveTimeout: 60_000,
      connect: { ca: readFileSync(path.join(server().dataDir, 'tls', 'cert.pem'), 'utf8') },
    });
    // Connections opened and the account's path through the server warmed up beforehand, then the
    // bucket left to refill: a slow first request would shift the server's bucket against the client's.
    const warmUp = async (api: ApiClient) => {
      const ping = async () =>
        (
          await fetch(`${api.baseUrl}/v2/ping`, {
            headers: { authorization: `Bearer ${api.apiKey}` },
            dispatcher: agent,
          })
        ).arrayBuffer();
      for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: CONCURRENCY }, ping));
      await new Promise((resolve) => setTimeout(resolve, 3000));
    };
    const count429 = (run: Run) => run.statuses.filter((status) => status === 429).length;
    const summary = (run: Run) =>
      `${count429(run)} of 600 in ${Math.round(run.sentAt[599] - run.sentAt[0])} ms, ${run.paced} paced`;
    const servedPerSecond = (run: Run) => Math.round(600 / ((run.sentAt[599] - run.sentAt[0]) / 1000));

    const paced = await newApi(server());
    await warmUp(paced);
    const atTheLimit = await pacedPings(paced, agent, 600, 100, 200);
    const faster = await newApi(server());
    await warmUp(faster);
    const tooFast = await pacedPings(faster, agent, 600, 120, 200);
    await agent.close();

    const expectedTooFast = refusalsAtArrivalAsSent(tooFast.sentAt);
    test.info().annotations.push({
      type: '429s',
      description: `100/s: ${summary(atTheLimit)}; 120/s: ${summary(tooFast)}, ${expectedTooFast} expected without tolerance`,
    });
    expect(atTheLimit.statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(count429(atTheLimit)).toBe(0);
    // A machine too busy to serve more than the limit slows the client below it: then nothing was shown.
    test.skip(
      atTheLimit.paced < 20,
      `the client waited for its token only ${atTheLimit.paced} times: this machine answered too slowly for it to reach the limit`,
    );
    // At 120/s, 600 - 200 - 100 * (400 / 120) = 67 over the limit, less the 10 of the jitter tolerance
    // (fewer when the server's queue grows during the run).
    test.skip(
      expectedTooFast < 20,
      `this machine served only ${servedPerSecond(tooFast)} requests/s: too few to go over the limit`,
    );
    expect(count429(tooFast)).toBeGreaterThan(0);
  });
});
