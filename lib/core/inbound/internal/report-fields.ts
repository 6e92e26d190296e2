/**
 * Header-style field blocks (RFC 5322 syntax), as the machine-readable parts of reports carry them:
 * message/delivery-status (RFC 3464: one per-message block, then one block per recipient, separated
 * by blank lines), message/feedback-report (RFC 5965: one block) and the returned original's header
 * section. Everything here is data from a stranger: values are unfolded, stripped of control
 * characters and cut to a length, and the number of blocks and fields is bounded.
 */

/** Field names lower-cased; the first occurrence of a name wins. */
export type FieldBlock = ReadonlyMap<string, string>;

export const FIELD_LIMITS = { blocks: 100, fieldsPerBlock: 60, valueLength: 1000, textLength: 256 * 1024 } as const;

const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]+$/;
// Unfolding leaves no CR or LF; other control characters (NUL, ESC, ...) become spaces too.
const CONTROL = /[\x00-\x1f\x7f]+/g;

/** The blocks of a report part; malformed lines are skipped, empty blocks are not returned. */
export function parseFieldBlocks(text: string): FieldBlock[] {
  const blocks: FieldBlock[] = [];
  let current = new Map<string, string>();
  let last: string | null = null;
  let fields = 0;
  const close = () => {
    if (current.size > 0) blocks.push(current);
    current = new Map();
    last = null;
    fields = 0;
  };
  for (const line of text.slice(0, FIELD_LIMITS.textLength).split(/\r?\n/)) {
    if (blocks.length >= FIELD_LIMITS.blocks) break;
    if (line.trim() === '') {
      close();
      continue;
    }
    if (/^[ \t]/.test(line)) {
      // A continuation of the previous field (RFC 5322 folding).
      if (last !== null) current.set(last, clean(`${current.get(last)} ${line}`));
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim().toLowerCase() : '';
    if (!FIELD_NAME.test(name) || fields >= FIELD_LIMITS.fieldsPerBlock) {
      last = null;
      continue;
    }
    fields++;
    if (current.has(name)) {
      last = null;
      continue;
    }
    current.set(name, clean(line.slice(colon + 1)));
    last = name;
  }
  close();
  return blocks;
}

/** The header section of a message (up to its first blank line), as one block. */
export function parseHeaderSection(raw: string): FieldBlock {
  const end = raw.search(/\r?\n\r?\n/);
  return parseFieldBlocks(end === -1 ? raw : raw.slice(0, end))[0] ?? new Map();
}

function clean(value: string): string {
  return value.replace(CONTROL, ' ').replace(/ {2,}/g, ' ').trim().slice(0, FIELD_LIMITS.valueLength);
}

/** `rfc822; a@b.example` -> `a@b.example` (lower-cased, angle brackets dropped); null without an address. */
export function typedAddress(value: string | undefined): string | null {
  if (!value) return null;
  const semicolon = value.indexOf(';');
  const address = (semicolon === -1 ? value : value.slice(semicolon + 1))
    .trim()
    .replace(/^<|>$/g, '')
    .trim()
    .toLowerCase();
  return /^[^\s@<>]+@[^\s@<>]+$/.test(address) ? address : null;
}

/** `smtp; 550 5.1.1 no such user` -> `550 5.1.1 no such user` (the text after the type). */
export function typedText(value: string | undefined): string | null {
  if (!value) return null;
  const semicolon = value.indexOf(';');
  return (semicolon === -1 ? value : value.slice(semicolon + 1)).trim() || null;
}

/** The address inside `<...>` of a Return-Path or Original-Mail-From, lower-cased; null if none. */
export function angleAddress(value: string | undefined): string | null {
  if (!value) return null;
  const inside = /<([^<>]*)>/.exec(value)?.[1] ?? value;
  return typedAddress(inside.trim());
}
