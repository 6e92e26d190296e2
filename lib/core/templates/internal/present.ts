import type { templates, templateVersions } from '@/lib/db/schema';
import type { BlocksDocument } from '@/lib/core/content/blocks-document';
import type { ContentFormat } from '@/lib/core/content/schemas';
import type { TemplateKind } from '../schemas';

export type TemplateRow = typeof templates.$inferSelect;
export type TemplateVersionRow = typeof templateVersions.$inferSelect;

export function presentTemplate(row: TemplateRow) {
  return {
    object: 'template' as const,
    id: row.id,
    name: row.name,
    kind: row.kind as TemplateKind,
    subject: row.subject,
    html_content: row.htmlContent,
    text_content: row.textContent,
    ...presentFormat(row),
    text_generated: row.textGenerated,
    latest_version: row.latestVersion === 0 ? null : row.latestVersion,
    revision: row.revision,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export type TemplateObject = ReturnType<typeof presentTemplate>;

export function presentTemplateVersion(row: TemplateVersionRow) {
  return {
    object: 'template_version' as const,
    template_id: row.templateId,
    version: row.version,
    subject: row.subject,
    html_content: row.htmlContent,
    text_content: row.textContent,
    ...presentFormat(row),
    created_at: row.createdAt.toISOString(),
  };
}

export type TemplateVersionObject = ReturnType<typeof presentTemplateVersion>;

/** The format and its source, as every response with content carries them. */
export function presentFormat(row: {
  format: string;
  markdownContent: string | null;
  blocksContent: unknown;
  preheader: string | null;
}) {
  return {
    format: row.format as ContentFormat,
    markdown_content: row.markdownContent,
    blocks_content: (row.blocksContent ?? null) as BlocksDocument | null,
    preheader: row.preheader,
  };
}
