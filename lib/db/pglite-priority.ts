/** Foreground statements taken in a row while background ones wait, before one background goes. */
const MAX_FOREGROUND_IN_A_ROW = 8;

/**
 * PGlite runs one statement at a time, in turn of arrival. Under delivery load its queue holds the
 * outcome writer's and the claims' statements (a claim of 200 messages runs ~25 ms), and an API
 * request, which makes four or five statements one after another, waited behind them at each one:
 * acceptance p99 was 230-490 ms while delivery ran. This gate lets the foreground (API requests,
 * SMTP sessions) go first; the background still gets one turn every MAX_FOREGROUND_IN_A_ROW.
 * A transaction is one `run`: it holds the gate until it ends.
 */
export class PriorityGate {
  private isBusy = false;
  private foregroundInARow = 0;
  private readonly waiting = { foreground: [] as (() => void)[], background: [] as (() => void)[] };

  /** `beforeEachTurn` lets statements that have arrived meanwhile queue up before the next is chosen. */
  constructor(private readonly beforeEachTurn: () => void = () => {}) {}

  async run<T>(isForeground: boolean, statement: () => Promise<T>): Promise<T> {
    if (this.isBusy)
      await new Promise<void>((resolve) => this.waiting[isForeground ? 'foreground' : 'background'].push(resolve));
    this.isBusy = true;
    try {
      return await statement();
    } finally {
      this.next();
    }
  }

  private next() {
    this.beforeEachTurn();
    const { foreground, background } = this.waiting;
    const isBackgroundsTurn =
      background.length > 0 && (foreground.length === 0 || this.foregroundInARow >= MAX_FOREGROUND_IN_A_ROW);
    const wake = isBackgroundsTurn ? background.shift() : foreground.shift();
    this.foregroundInARow = isBackgroundsTurn || !wake ? 0 : this.foregroundInARow + 1;
    // Handed over without releasing: a newcomer cannot slip in between.
    if (wake) wake();
    else this.isBusy = false;
  }
}
