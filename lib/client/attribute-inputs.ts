import type { AttributeDefinition } from './types';

/**
 * Attribute values as the form's inputs hold them (text) and back. A text that is not a value of the
 * type stays text, so the API's own check (checkAttributeValues) names the key and the form it wants.
 */

const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

export function attributeToInput(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function inputToAttribute(type: AttributeDefinition['type'], input: string): unknown {
  const text = input.trim();
  if (text === '') return null;
  if (type === 'number') return NUMBER.test(text) ? Number(text) : input;
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : input;
  return type === 'string' ? input : text;
}

/**
 * The attributes to send: on create every filled-in key; on update only keys whose input changed
 * (an emptied input sends null, which clears the value). Values stored in a shape the inputs cannot
 * hold (nested JSON) are left alone unless edited.
 */
export function changedAttributes(
  definitions: AttributeDefinition[],
  inputs: Record<string, string>,
  initial: Record<string, string> | null,
): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const definition of definitions) {
    const input = inputs[definition.key] ?? '';
    if (initial ? input === (initial[definition.key] ?? '') : input.trim() === '') continue;
    changed[definition.key] = inputToAttribute(definition.type, input);
  }
  return changed;
}
