/**
 * The names of the fields an update's input sets (present and not null), leaving out the path's
 * identifiers: the audit log's `changes`. Names only, so a secret's value can never reach the log.
 */
export function givenFields(input: object, identifiers: readonly string[]): string[] {
  return Object.entries(input)
    .filter(([name, value]) => value !== undefined && value !== null && !identifiers.includes(name))
    .map(([name]) => name);
}
