'use client';

import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { html } from '@codemirror/lang-html';
import { markdown } from '@codemirror/lang-markdown';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  keymap,
  lineNumbers,
  MatchDecorator,
  ViewPlugin,
  type DecorationSet,
  type ViewUpdate,
} from '@codemirror/view';
import { useEffect, useRef } from 'react';

export type SourceProblem = { line: number; message: string };
export type InsertTarget = (text: string) => void;

// Placeholders and tags stand out from the HTML or Markdown around them.
const jinjaMarks = new MatchDecorator({
  regexp: /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g,
  decoration: Decoration.mark({ class: 'cm-jinja' }),
});
const jinjaHighlight = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = jinjaMarks.createDeco(view);
    }
    update(update: ViewUpdate) {
      this.decorations = jinjaMarks.updateDeco(update, this.decorations);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);
const theme = EditorView.theme({
  '&': { fontSize: '13px', backgroundColor: '#fff' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' },
  '.cm-scroller': { minHeight: '16rem', maxHeight: '32rem' },
  '.cm-jinja': { color: '#7c3aed', backgroundColor: '#f5f3ff' },
  '&.cm-focused': { outline: '2px solid #2563eb' },
});

function diagnosticsOf(state: EditorState, problems: SourceProblem[]): Diagnostic[] {
  return problems.map(({ line, message }) => {
    const at = state.doc.line(Math.min(Math.max(1, line), state.doc.lines));
    return { from: at.from, to: Math.max(at.to, at.from), severity: 'error', message, source: 'Jinja' };
  });
}

/**
 * CodeMirror over one source (HTML or Markdown with Jinja): highlighted, with the server's errors
 * put on their line as lint diagnostics. It registers itself as where "insert field" writes when
 * it gains focus; the text goes at its cursor.
 */
export function CodeEditor({
  id,
  label,
  language,
  value,
  problems,
  isReadOnly,
  onChange,
  onFocusTarget,
}: {
  id: string;
  label: string;
  language: 'html' | 'markdown';
  value: string;
  problems: SourceProblem[];
  isReadOnly: boolean;
  onChange: (value: string) => void;
  onFocusTarget: (target: InsertTarget) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const handlers = useRef({ onChange, onFocusTarget });
  useEffect(() => {
    handlers.current = { onChange, onFocusTarget };
  });

  useEffect(() => {
    const insert: InsertTarget = (text) => {
      const current = view.current;
      if (!current) return;
      const { from, to } = current.state.selection.main;
      current.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length } });
      current.focus();
    };
    const created = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          language === 'html' ? html() : markdown(),
          syntaxHighlighting(defaultHighlightStyle),
          jinjaHighlight,
          lintGutter(),
          EditorView.lineWrapping,
          EditorState.readOnly.of(isReadOnly),
          EditorView.editable.of(!isReadOnly),
          EditorView.contentAttributes.of({
            'aria-label': label,
            id,
            'aria-multiline': 'true',
            ...(isReadOnly ? { 'aria-readonly': 'true' } : {}),
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) handlers.current.onChange(update.state.doc.toString());
            if (update.focusChanged && update.view.hasFocus) handlers.current.onFocusTarget(insert);
          }),
          theme,
        ],
      }),
    });
    view.current = created;
    handlers.current.onFocusTarget(insert);
    return () => {
      created.destroy();
      view.current = null;
    };
    // One editor per language and mode; value changes reach it through the effect below.
  }, [language, isReadOnly, label, id]);

  // A value from outside (a reset, the latest draft loaded) replaces the text; our own edits match it already.
  useEffect(() => {
    const current = view.current;
    if (current && current.state.doc.toString() !== value)
      current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const current = view.current;
    if (current) current.dispatch(setDiagnostics(current.state, diagnosticsOf(current.state, problems)));
  }, [problems]);

  return (
    <div className="space-y-2">
      <div
        ref={host}
        data-testid={`code-editor-${language}`}
        className="overflow-hidden rounded-md border border-slate-300"
      />
      {problems.length > 0 ? (
        <ul className="space-y-1 text-sm text-red-700" data-testid="source-problems">
          {problems.map((problem) => (
            <li key={`${problem.line}:${problem.message}`}>
              Line {problem.line}: {problem.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
