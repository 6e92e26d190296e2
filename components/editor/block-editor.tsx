'use client';

import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  BLOCK_LABELS,
  BLOCK_TYPES,
  countBlocks,
  MAX_BLOCKS,
  moveItem,
  newBlock,
  type Block,
  type BlockType,
  type BlocksDocument,
} from '@/lib/client/blocks-editing';
import { AddImageDialog, type PickMedia } from './add-image-dialog';
import { BlockFields } from './block-fields';
import type { InsertTarget } from './code-editor';
import { GlobalStylesFields } from './global-styles-fields';
import { OfferUndoContext, UndoToast, useUndoableRemoval } from './undo-removal';

type ItemProps = {
  block: Block;
  position: number;
  total: number;
  isReadOnly: boolean;
  onChange: (block: Block) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
  onFocusTarget: (target: InsertTarget) => void;
  pickMedia?: PickMedia;
};

function BlockItem({
  block,
  position,
  total,
  isReadOnly,
  onChange,
  onMove,
  onRemove,
  onFocusTarget,
  pickMedia,
}: ItemProps) {
  const sortable = useSortable({ id: block.id, disabled: isReadOnly });
  const label = `${BLOCK_LABELS[block.type]} block ${position + 1} of ${total}`;
  return (
    <li
      ref={sortable.setNodeRef}
      style={{ transform: CSS.Transform.toString(sortable.transform), transition: sortable.transition }}
      className={`min-w-0 rounded-md bg-white p-3 ring-1 ring-slate-200 ${sortable.isDragging ? 'relative z-10 shadow-lg' : ''}`}
      aria-label={label}
      data-block-type={block.type}
    >
      <div className="mb-2 flex flex-wrap items-center gap-1">
        {isReadOnly ? null : (
          <button
            type="button"
            className="cursor-grab touch-none rounded px-1.5 py-1 text-slate-500 hover:bg-slate-100"
            aria-label={`Drag ${label}`}
            {...sortable.attributes}
            {...sortable.listeners}
          >
            <span aria-hidden>⠿</span>
          </button>
        )}
        <span className="mr-auto text-sm font-medium text-slate-800">{BLOCK_LABELS[block.type]}</span>
        {isReadOnly ? null : (
          <>
            <Button
              size="sm"
              variant="ghost"
              disabled={position === 0}
              onClick={() => onMove(position - 1)}
              aria-label={`Move ${label} up`}
            >
              ↑ Up
            </Button>
            <Button
              size="sm"
              variant="ghost"
              disabled={position === total - 1}
              onClick={() => onMove(position + 1)}
              aria-label={`Move ${label} down`}
            >
              ↓ Down
            </Button>
            <Button
              size="sm"
              variant="ghost"
              className="text-red-700"
              onClick={onRemove}
              aria-label={`Remove ${label}`}
            >
              Remove
            </Button>
          </>
        )}
      </div>
      <BlockFields
        block={block}
        isReadOnly={isReadOnly}
        onChange={onChange}
        onFocusTarget={onFocusTarget}
        pickMedia={pickMedia}
      />
    </li>
  );
}

/**
 * The visual editor: global styles, then the blocks in order. Blocks move by dragging their handle
 * (pointer, or keyboard: Space then arrows), or by their Up and Down buttons; each move is announced.
 */
export function BlockEditor({
  document,
  isReadOnly,
  onChange,
  onFocusTarget,
  pickMedia,
}: {
  document: BlocksDocument;
  isReadOnly: boolean;
  onChange: (document: BlocksDocument) => void;
  onFocusTarget: (target: InsertTarget) => void;
  pickMedia?: PickMedia;
}) {
  const [announcement, setAnnouncement] = useState('');
  const [isAddingImage, setIsAddingImage] = useState(false);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const blocks = document.blocks;
  const undo = useUndoableRemoval();
  const remove = (position: number) => {
    const removed = blocks[position];
    setBlocks(blocks.filter((old) => old.id !== removed.id));
    undo.offer({
      label: `${BLOCK_LABELS[removed.type]} block removed.`,
      restore: (current) => ({
        ...current,
        blocks: [...current.blocks.slice(0, position), removed, ...current.blocks.slice(position)],
      }),
    });
  };
  const isFull = countBlocks(blocks) >= MAX_BLOCKS;
  const setBlocks = (next: Block[]) => onChange({ ...document, blocks: next });
  const move = (from: number, to: number) => {
    if (to < 0 || to >= blocks.length) return;
    setBlocks(moveItem(blocks, from, to));
    setAnnouncement(`${BLOCK_LABELS[blocks[from].type]} moved to position ${to + 1} of ${blocks.length}.`);
  };
  const add = (type: BlockType) => {
    if (type === 'image') setIsAddingImage(true);
    else setBlocks([...blocks, newBlock(type)]);
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    move(
      blocks.findIndex((block) => block.id === active.id),
      blocks.findIndex((block) => block.id === over.id),
    );
  };

  return (
    <OfferUndoContext value={undo.offer}>
      <div className="space-y-3">
        <GlobalStylesFields
          styles={document.styles}
          isReadOnly={isReadOnly}
          onChange={(styles) => onChange({ ...document, styles })}
        />
        {blocks.length === 0 ? (
          <p
            className="rounded-md border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600"
            data-testid="blocks-empty"
          >
            No blocks yet. Add a heading, some text or a button below; drag them into the order you want.
          </p>
        ) : (
          <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
            <SortableContext items={blocks.map((block) => block.id)} strategy={verticalListSortingStrategy}>
              <ol className="space-y-2" aria-label="Blocks">
                {blocks.map((block, position) => (
                  <BlockItem
                    key={block.id}
                    block={block}
                    position={position}
                    total={blocks.length}
                    isReadOnly={isReadOnly}
                    onChange={(next) => setBlocks(blocks.map((old) => (old.id === next.id ? next : old)))}
                    onMove={(to) => move(position, to)}
                    onRemove={() => remove(position)}
                    onFocusTarget={onFocusTarget}
                    pickMedia={pickMedia}
                  />
                ))}
              </ol>
            </SortableContext>
          </DndContext>
        )}
        <p className="sr-only" role="status" data-testid="block-announcement">
          {announcement}
        </p>
        {isReadOnly ? null : (
          <div role="group" aria-label="Add a block" className="flex flex-wrap items-center gap-1.5">
            <span className="text-xs font-medium text-slate-600">Add:</span>
            {BLOCK_TYPES.map((type) => (
              <Button key={type} size="sm" variant="secondary" disabled={isFull} onClick={() => add(type)}>
                {BLOCK_LABELS[type]}
              </Button>
            ))}
            {isFull ? <span className="text-xs text-slate-600">At most {MAX_BLOCKS} blocks.</span> : null}
          </div>
        )}
        <AddImageDialog
          isOpen={isAddingImage}
          pickMedia={pickMedia}
          onClose={() => setIsAddingImage(false)}
          onAdd={({ src, alt }) => setBlocks([...blocks, { ...newBlock('image'), src, alt } as Block])}
        />
        {undo.removal && !isReadOnly ? (
          <UndoToast
            key={undo.removal.at}
            label={undo.removal.label}
            onUndo={() => {
              onChange(undo.removal!.restore(document));
              undo.dismiss();
              setAnnouncement(`${undo.removal!.label.replace(/ removed\.$/, '')} restored.`);
            }}
          />
        ) : null}
      </div>
    </OfferUndoContext>
  );
}
