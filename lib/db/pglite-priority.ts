/** Foreground statements taken in a row while background ones wait, before one background goes. */
const MAX_FOREGROUND_IN_A_ROW = 8;

/**
 * How long the gate stays with the foreground after one of its statements ends, when none is
 * waiting but background work is. A request makes four or five statements one after another, and
 * its next one arrives a round trip later (reply to the main thread, its code, the next statement
 * back): without this pause a background transaction took the gate in that gap, and the request
 * waited behind one at each of its statements (campaign fan-out on PGlite: API p99 1.4 s).
 */
export const FOREGROUND_LINGER_MS = 3;

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
  /** Set while the gate waits FOREGROUND_LINGER_MS for the foreground's next statement. */
  private linger: ReturnType<typeof setTimeout> | null = null;
  private readonly waiting = { foreground: [] as (() => void)[], background: [] as (() => void)[] };

  /** `beforeEachTurn` lets statements that have arrived meanwhile queue up before the next is chosen. */
  constructor(
    private readonly beforeEachTurn: () => void = () => {},
    private readonly lingerMs = FOREGROUND_LINGER_MS,
  ) {}

  async run<T>(isForeground: boolean, statement: () => Promise<T>): Promise<T> {
    if (isForeground && this.linger) {
      // The gate was kept for the foreground: this statement takes the turn at once.
      clearTimeout(this.linger);
      this.linger = null;
      this.foregroundInARow++;
    } else if (this.isBusy)
      await new Promise<void>((resolve) => this.waiting[isForeground ? 'foreground' : 'background'].push(resolve));
    this.isBusy = true;
    try {
      return await statement();
    } finally {
      this.next(isForeground);
    }
  }

  private next(wasForeground: boolean) {
    this.beforeEachTurn();
    const { foreground, background } = this.waiting;
    const shouldLinger =
      wasForeground &&
      this.lingerMs > 0 &&
      foreground.length === 0 &&
      background.length > 0 &&
      this.foregroundInARow < MAX_FOREGROUND_IN_A_ROW;
    if (shouldLinger) {
      // Still busy: a background statement cannot slip in; a foreground one takes the turn in `run`.
      this.linger = setTimeout(() => {
        this.linger = null;
        this.choose();
      }, this.lingerMs);
      return;
    }
    this.choose();
  }

  private choose() {
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
