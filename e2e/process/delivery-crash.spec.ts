import { expect, test } from '@playwright/test';
import { runDeliveryCrash } from '../support/delivery-crash';
import { postgresAdminUrl } from '../support/postgres';

const CONNECTIONS = 8;
// Enough that 400-800 are still to go at the kill: the bench (`npm run bench:crash`) runs 2,000.
const MESSAGES = 1000;

test('SIGKILL during delivery of 1,000 messages, three times: nothing lost, at most one duplicate per open connection, drained within seconds of the restart', async () => {
  test.setTimeout(900_000);
  const { rounds, cleanup } = await runDeliveryCrash({
    rounds: 3,
    messages: MESSAGES,
    connections: CONNECTIONS,
    postgresAdminUrl: postgresAdminUrl(),
    log: (line) => console.log(line),
  });
  try {
    for (const round of rounds) {
      expect(round.lost, `round ${round.round}: lost`).toBe(0);
      expect(round.duplicates, `round ${round.round}: duplicates`).toBeLessThanOrEqual(CONNECTIONS);
      // A message stranded under the dead process's lease would wait 300 s: no pause, and the rest
      // drains at about the pace of before the kill (generous, since the machine may be busy).
      expect(
        round.longestPauseMs,
        `round ${round.round}: longest wait for the next delivery after the restart`,
      ).toBeLessThan(15_000);
      expect(round.drainMs - round.readyMs, `round ${round.round}: drain time once restarted`).toBeLessThan(
        3 * round.expectedDrainMs + 10_000,
      );
      expect(round.drainMs, `round ${round.round}: drain time from the restart`).toBeLessThan(150_000);
    }
  } finally {
    await cleanup();
  }
});
