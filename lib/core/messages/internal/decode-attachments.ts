import { invalidInput } from '@/lib/shared/errors';
import type { StructuredContent } from '@/lib/db/schema';

type AttachmentInput = {
  data: string;
  base64?: boolean | null;
  file_name: string;
  content_type: string;
  content_id?: string | null;
  content_disposition?: 'attachment' | 'inline' | null;
};

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/**
 * Attachments are stored as base64 whatever their input form. An inline image needs its content_id
 * in angle brackets in v2 (`<logo@example.com>`, referenced as `cid:logo@example.com`); v1 passes
 * `isBareContentIdInline` because there any content id makes the part inline.
 */
export function decodeAttachments(
  attachments: AttachmentInput[] | null | undefined,
  isBareContentIdInline = false,
): StructuredContent['attachments'] {
  return (attachments ?? []).map((attachment, index) => {
    if (attachment.base64 && !BASE64.test(attachment.data)) {
      throw invalidInput(`attachments.${index}.data: is not valid base64`, 'attachments');
    }
    const base64 = attachment.base64
      ? attachment.data.replace(/\s+/g, '')
      : Buffer.from(attachment.data, 'utf8').toString('base64');
    const rawId = attachment.content_id?.trim() || null;
    const isBracketed = rawId !== null && rawId.startsWith('<') && rawId.endsWith('>');
    const contentId = rawId === null ? null : isBracketed ? rawId.slice(1, -1) : rawId;
    const isInline =
      attachment.content_disposition === 'inline' || isBracketed || (isBareContentIdInline && contentId !== null);
    return { fileName: attachment.file_name, contentType: attachment.content_type, contentId, isInline, base64 };
  });
}
