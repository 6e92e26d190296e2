import type { PGlite } from '@electric-sql/pglite';

/** Foreground statements taken in a row while background ones wait, before one background goes. */
const MAX_FOREGROUND_IN_A_ROW = 8;

/**
 * PGlite runs one statement at a time, in turn of arrival. Under delivery load its queue holds the
 * outcome writer's and the claims' statements (a claim of 200 messages runs ~25 ms), and an API
 * request, which makes four or five statements one after another, waited behind them at each one:
 * acceptance p99 was 230-490 ms while delivery ran. This gate lets the foreground (API requests,
 * SMTP sessions) go first; the background still gets one turn every MAX_FOREGROUND_IN_A_ROW.
 */
class PriorityGate {
  private isBusy = false;
  private foregroundInARow = 0;
  private readonly waiting = { foreground: [] as (() => void)[], background: [] as (() => void)[] };

  async run<T>(isForeground: boolean, statement: () => Promise<T>): Promise<T> {
    if (this.isBusy) await new Promise<void>((resolve) => this.waiting[isForeground ? 'foreground' : 'background'].push(resolve));
    this.isBusy = true;
    try {
      return await statement();
    } finally {
      this.next();
    }
  }

  private next() {
    const { foreground, background } = this.waiting;
    const isBackgroundsTurn = background.length > 0 && (foreground.length === 0 || this.foregroundInARow >= MAX_FOREGROUND_IN_A_ROW);
    const wake = isBackgroundsTurn ? background.shift() : foreground.shift();
    this.foregroundInARow = isBackgroundsTurn || !wake ? 0 : this.foregroundInARow + 1;
    // Handed over without releasing: a newcomer cannot slip in between.
    if (wake) wake();
    else this.isBusy = false;
  }
}

// The client's ways in that run statements; a transaction holds the gate until it ends.
const STATEMENTS = new Set<PropertyKey>(['query', 'exec', 'transaction', 'sql']);

/** Two views of one PGlite client whose statements pass one gate, the foreground's first. */
export function prioritizedViews(client: PGlite): { foreground: PGlite; background: PGlite } {
  const gate = new PriorityGate();
  const view = (isForeground: boolean) => {
    // Made once per method, not at every call: drizzle reaches for `query` at every statement.
    const methods = new Map<PropertyKey, unknown>();
    return new Proxy(client, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== 'function') return value;
        if (!methods.has(property)) {
          // PGlite's private fields need the real client as `this`.
          const method = (value as (...args: unknown[]) => Promise<unknown>).bind(target);
          methods.set(property, STATEMENTS.has(property) ? (...args: unknown[]) => gate.run(isForeground, () => method(...args)) : method);
        }
        return methods.get(property);
      },
    });
  };
  return { foreground: view(true), background: view(false) };
}
