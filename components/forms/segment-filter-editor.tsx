'use client';

import { Button } from '@/components/ui/button';
import { Select, TextInput } from '@/components/ui/field';
import type { AttributeType } from '@/lib/core/contacts/attribute-values';
import { ENGAGEMENTS, type Engagement, type SegmentOp } from '@/lib/core/segments/schemas';
import {
  ENGAGEMENT_LABELS,
  MAX_DEPTH,
  newCondition,
  newGroup,
  nextKey,
  OPS_FOR_TYPE,
  opLabel,
  type DraftCondition,
  type DraftGroup,
  type DraftNode,
} from '@/lib/client/segment-draft';

export type FieldChoice = { field: string; label: string; type: AttributeType };
export type EditorContext = {
  fields: FieldChoice[];
  lists: { id: string; name: string }[];
  canAddCondition: boolean;
};

const LIST_CHOICE = '__list';
const ENGAGEMENT_CHOICE = '__engagement';
const STATUS_LABELS: Record<string, string> = {
  confirmed: 'is a confirmed member of',
  unconfirmed: 'is an unconfirmed member of',
  unsubscribed: 'unsubscribed from',
  complained: 'complained about mail to',
};

/** One condition: what it reads, how it compares, and the value, typed by the field's type. */
function ConditionRow({
  condition,
  context,
  onChange,
  onRemove,
}: {
  condition: DraftCondition;
  context: EditorContext;
  onChange: (next: DraftCondition) => void;
  onRemove: () => void;
}) {
  const choice =
    condition.kind === 'list' ? LIST_CHOICE : condition.kind === 'engagement' ? ENGAGEMENT_CHOICE : condition.field;
  const choose = (next: string) => {
    if (next === LIST_CHOICE)
      onChange({ key: condition.key, kind: 'list', list: context.lists[0]?.id ?? '', status: 'confirmed' });
    else if (next === ENGAGEMENT_CHOICE)
      onChange({ key: condition.key, kind: 'engagement', engagement: 'opened', days: '30' });
    else {
      const type = context.fields.find((field) => field.field === next)?.type ?? 'string';
      onChange({ ...newCondition(next), key: condition.key, op: OPS_FOR_TYPE[type][0] });
    }
  };
  const type =
    condition.kind === 'field' ? (context.fields.find((f) => f.field === condition.field)?.type ?? 'string') : null;
  return (
    <div className="flex flex-wrap items-center gap-2" data-segment-condition>
      <Select
        aria-label="Condition on"
        value={choice}
        onChange={(event) => choose(event.target.value)}
        className="w-auto!"
      >
        <optgroup label="Contact">
          {context.fields
            .filter((field) => !field.field.startsWith('attributes.'))
            .map((field) => (
              <option key={field.field} value={field.field}>
                {field.label}
              </option>
            ))}
        </optgroup>
        {context.fields.some((field) => field.field.startsWith('attributes.')) ? (
          <optgroup label="Attributes">
            {context.fields
              .filter((field) => field.field.startsWith('attributes.'))
              .map((field) => (
                <option key={field.field} value={field.field}>
                  {field.label}
                </option>
              ))}
          </optgroup>
        ) : null}
        <optgroup label="Activity">
          <option value={LIST_CHOICE}>List membership</option>
          <option value={ENGAGEMENT_CHOICE}>Campaign engagement</option>
        </optgroup>
      </Select>
      {condition.kind === 'field' && type ? (
        <>
          <Select
            aria-label="Comparison"
            className="w-auto!"
            value={condition.op}
            onChange={(event) => onChange({ ...condition, op: event.target.value as SegmentOp })}
          >
            {OPS_FOR_TYPE[type].map((op) => (
              <option key={op} value={op}>
                {opLabel(op, type)}
              </option>
            ))}
          </Select>
          {condition.op === 'exists' || condition.op === 'not_exists' ? null : type === 'boolean' ? (
            <Select
              aria-label="Value"
              className="w-auto!"
              value={condition.value}
              onChange={(event) => onChange({ ...condition, value: event.target.value })}
            >
              <option value="true">yes</option>
              <option value="false">no</option>
            </Select>
          ) : (
            <TextInput
              aria-label="Value"
              className="w-auto! min-w-40 flex-1"
              type={
                condition.op === 'in' || condition.op === 'not_in'
                  ? 'text'
                  : type === 'number'
                    ? 'number'
                    : type === 'date'
                      ? 'date'
                      : type === 'datetime'
                        ? 'datetime-local'
                        : 'text'
              }
              placeholder={condition.op === 'in' || condition.op === 'not_in' ? 'values, separated by commas' : ''}
              value={condition.value}
              onChange={(event) => onChange({ ...condition, value: event.target.value })}
            />
          )}
        </>
      ) : null}
      {condition.kind === 'list' ? (
        <>
          <Select
            aria-label="Membership status"
            className="w-auto!"
            value={condition.status}
            onChange={(event) => onChange({ ...condition, status: event.target.value })}
          >
            {Object.entries(STATUS_LABELS).map(([status, label]) => (
              <option key={status} value={status}>
                {label}
              </option>
            ))}
          </Select>
          <Select
            aria-label="List"
            className="w-auto!"
            value={condition.list}
            onChange={(event) => onChange({ ...condition, list: event.target.value })}
          >
            {context.lists.length === 0 ? <option value="">No lists yet</option> : null}
            {context.lists.map((list) => (
              <option key={list.id} value={list.id}>
                {list.name}
              </option>
            ))}
          </Select>
        </>
      ) : null}
      {condition.kind === 'engagement' ? (
        <>
          <Select
            aria-label="Engagement"
            className="w-auto!"
            value={condition.engagement}
            onChange={(event) => onChange({ ...condition, engagement: event.target.value as Engagement })}
          >
            {ENGAGEMENTS.map((engagement) => (
              <option key={engagement} value={engagement}>
                {ENGAGEMENT_LABELS[engagement]}
              </option>
            ))}
          </Select>
          <span className="text-sm text-slate-700">in the last</span>
          <TextInput
            aria-label="Days"
            type="number"
            min={1}
            max={365}
            className="w-20!"
            value={condition.days}
            onChange={(event) => onChange({ ...condition, days: event.target.value })}
          />
          <span className="text-sm text-slate-700">days</span>
        </>
      ) : null}
      <Button variant="secondary" size="sm" aria-label="Remove condition" onClick={onRemove}>
        Remove
      </Button>
    </div>
  );
}

/** A group of conditions and groups, matched all or any; nested groups are indented. */
export function SegmentGroupEditor({
  group,
  depth,
  context,
  onChange,
  onRemove,
}: {
  group: DraftGroup;
  depth: number;
  context: EditorContext;
  onChange: (next: DraftGroup) => void;
  onRemove?: () => void;
}) {
  const replace = (index: number, next: DraftNode | null) =>
    onChange({
      ...group,
      children: next
        ? group.children.map((child, at) => (at === index ? next : child))
        : group.children.filter((_, at) => at !== index),
    });
  const add = (node: DraftNode) => onChange({ ...group, children: [...group.children, node] });
  return (
    <div
      className={depth === 1 ? 'space-y-3' : 'space-y-3 rounded-lg border-l-4 border-brand-200 bg-slate-50 p-3'}
      data-segment-group={depth}
    >
      <div className="flex flex-wrap items-center gap-2 text-sm text-slate-800">
        <span>{depth === 1 ? 'Contacts that match' : 'Match'}</span>
        <Select
          aria-label={depth === 1 ? 'Match' : 'Group match'}
          className="w-auto!"
          value={group.match}
          onChange={(event) => onChange({ ...group, match: event.target.value as 'all' | 'any' })}
        >
          <option value="all">all</option>
          <option value="any">any</option>
        </Select>
        <span>of these conditions</span>
        {onRemove ? (
          <Button variant="secondary" size="sm" className="ml-auto" onClick={onRemove}>
            Remove group
          </Button>
        ) : null}
      </div>
      {group.children.length === 0 ? (
        <p className="text-sm text-slate-600">
          {depth === 1 ? 'No conditions yet: every contact matches.' : 'An empty group: add a condition to it.'}
        </p>
      ) : null}
      {group.children.map((child, index) =>
        child.kind === 'group' ? (
          <SegmentGroupEditor
            key={child.key}
            group={child}
            depth={depth + 1}
            context={context}
            onChange={(next) => replace(index, next)}
            onRemove={() => replace(index, null)}
          />
        ) : (
          <ConditionRow
            key={child.key}
            condition={child}
            context={context}
            onChange={(next) => replace(index, next)}
            onRemove={() => replace(index, null)}
          />
        ),
      )}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={!context.canAddCondition}
          onClick={() => add({ ...newCondition(), key: nextKey() })}
        >
          Add condition
        </Button>
        {depth < MAX_DEPTH ? (
          <Button
            variant="secondary"
            size="sm"
            disabled={!context.canAddCondition}
            onClick={() => add(newGroup(group.match === 'all' ? 'any' : 'all', [newCondition()]))}
          >
            Add group
          </Button>
        ) : null}
      </div>
    </div>
  );
}
