import { invalidInput, tooLarge, unsupportedMediaType } from '@/lib/shared/errors';
import { MAX_MEDIA_BYTES, MAX_MEDIA_REQUEST_BYTES, MEDIA_UPLOAD_TYPES, type UploadMediaInput } from '../schemas';

const fileLimit = `the file is larger than the limit of ${MAX_MEDIA_BYTES / (1024 * 1024)} MB`;

/**
 * The uploaded file and the name it came with: a multipart form's `file` field, or the body itself
 * (any image/* or application/octet-stream Content-Type). Held whole: it is at most 5 MB, and it
 * is checked as a whole before anything is stored.
 */
export async function readUpload(input: UploadMediaInput): Promise<{ bytes: Buffer; name: string | null }> {
  if (input.declared_bytes != null && input.declared_bytes > MAX_MEDIA_REQUEST_BYTES) throw tooLarge(fileLimit);
  const mediaType = (input.content_type ?? '').split(';')[0].trim().toLowerCase();
  const isMultipart = mediaType === 'multipart/form-data';
  if (!isMultipart && !mediaType.startsWith('image/') && mediaType !== 'application/octet-stream')
    throw unsupportedMediaType(
      `Content-Type must be multipart/form-data (a "file" field) or the image's own type (got ${mediaType ? `"${mediaType.slice(0, 80)}"` : 'none'}); accepted: ${MEDIA_UPLOAD_TYPES.join(', ')}`,
    );
  const body = await readBody(input.body);
  const file = isMultipart ? await fileOfForm(body, input.content_type!) : { bytes: body, name: null };
  if (file.bytes.length > MAX_MEDIA_BYTES) throw tooLarge(fileLimit);
  if (file.bytes.length === 0) throw invalidInput('the file is empty', 'file');
  return { bytes: file.bytes, name: input.name ?? file.name };
}

async function readBody(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const pieces: Uint8Array[] = [];
  let size = 0;
  for await (const piece of stream) {
    size += piece.byteLength;
    if (size > MAX_MEDIA_REQUEST_BYTES) throw tooLarge(fileLimit);
    pieces.push(piece);
  }
  return Buffer.concat(pieces, size);
}

async function fileOfForm(body: Buffer, contentType: string): Promise<{ bytes: Buffer; name: string | null }> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw invalidInput('the multipart body cannot be read: send a form with the image in a "file" field', 'file');
  }
  const file = form.get('file');
  if (!(file instanceof Blob))
    throw invalidInput('the multipart body has no "file" field holding a file: send the image in it', 'file');
  const name = form.get('name');
  return {
    bytes: Buffer.from(await file.arrayBuffer()),
    name: typeof name === 'string' && name ? name : file instanceof File ? file.name : null,
  };
}
